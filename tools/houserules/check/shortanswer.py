"""The one-line answer reads at a glance: two lines of the answer box on a phone, in each language.

An entry's ``summary`` is what a player reads first: at the top of its page, in a search result
and under its code in the terminal. Measured on a 375×667 phone (DESIGN.md, "The one-line
answer"), two lines of the answer box hold 38 Chinese characters and 77 to 101 English ones,
depending on the letters; the limits of :data:`~houserules.data.reading.vocab.SUMMARY_COLUMNS`
are counted in display columns (a Chinese character is two) of the text as shown: a reference
``[[game:id]]`` as the title it shows, Markdown marks left out. What else the summary held
belongs in the body.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from ..data.reading.model import INLINE_REF, Entry, KnowledgeBase
from ..data.reading.vocab import SUMMARY_COLUMNS
from ..errors import Problem
from .rules import entry_problem

#: A Markdown link ``[text](address)``: shown as its text.
_LINK = re.compile(r"(?<!\[)\[([^\[\]\n]*)\]\([^()\n]*\)")
#: Emphasis and code marks, and a backslash escaping a mark: not shown.
_MARKS = re.compile(r"\\(?=[^\w\s])|[*`]|(?<!\w)_+|_+(?!\w)")


def columns(text: str) -> int:
    """Display columns of ``text``: a wide (Chinese) character takes two, a combining mark none,
    as ``render.linebreak.width`` counts a terminal's.

    >>> columns("魔梯 BH-A13"), columns("Mystic Elevator")
    (11, 15)
    """
    if text.isascii():  # English: a column a character, counted at C speed
        return len(text)
    return sum(
        0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in {"W", "F"} else 1 for c in text
    )


def shown(text: str, kb: KnowledgeBase, lang: str) -> str:
    """``text`` as the answer box shows it: each ``[[game:id]]`` as the title of that entry in ``lang``,
    a Markdown link as its text, without emphasis and code marks.

    >>> shown("**Yes**, see [the SRD](https://mausritter.com) and `d6`.", KnowledgeBase(), "en")
    'Yes, see the SRD and d6.'
    """

    def title(match: re.Match[str]) -> str:
        target = kb.entries.get(match.group(1).strip())
        return target.title.get(lang) or target.title.get("zh") if target else match.group(1)

    return _MARKS.sub("", _LINK.sub(r"\1", INLINE_REF.sub(title, text))).strip()


def _fix(lang: str) -> str:
    about = SUMMARY_COLUMNS[lang] // 2 if lang == "zh" else SUMMARY_COLUMNS[lang]
    unit = "Chinese characters" if lang == "zh" else "characters"
    return f"keep the direct answer a player needs first (about {about} {unit}) and move the rest into body.{lang}"


def _problem(entry: Entry, lang: str, width: int) -> Problem:
    limit = SUMMARY_COLUMNS[lang]
    return entry_problem(
        entry,
        ("summary", lang),
        f"summary.{lang} is {width} columns wide as shown, over the {limit} that two lines of the "
        f"answer box hold on a 375 px phone",
        _fix(lang),
    )


def check_summary_length(kb: KnowledgeBase) -> Iterator[Problem]:
    """Every one-line answer fits two lines of the answer box on a phone, in each of its languages."""
    for entry in kb.entries.values():
        for lang, limit in SUMMARY_COLUMNS.items():
            text = entry.summary.get(lang)
            # A text of no more characters than half the limit, and no reference, fits whatever it holds.
            if len(text) * 2 <= limit and "[[" not in text:
                continue
            width = columns(shown(text, kb, lang))
            if width > limit:
                yield _problem(entry, lang, width)
