"""Search hits as terminal text, and its measures: aligned by display width, never raw data.

A terminal gives an East Asian wide character two columns, so padding and
wrapping count display columns (``unicodedata.east_asian_width``), not
characters. Data text is untrusted: control and format characters (escape
sequences, bidirectional overrides) are removed before anything is printed.
One entry (``houserules show``) is laid out by :mod:`.entrytext`; this module stays light,
as ``houserules search`` imports it.
"""

from __future__ import annotations

import re
import shutil
import unicodedata
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..data.reading.vocab import INLINE_REF
from .linebreak import width, wrap

if TYPE_CHECKING:  # a query starts without loading the data model
    from ..data.reading.records import Bilingual


def clean(text: str) -> str:
    """Text safe for a terminal: no control or format characters, tabs as spaces.

    >>> clean("a\\x1b[31mb\\u202ec\\td\\r\\n")
    'a[31mbc d\\n'
    """
    out = []
    for char in text.replace("\t", " "):
        if char == "\n" or unicodedata.category(char) not in {"Cc", "Cf", "Cs", "Co", "Zl", "Zp"}:
            out.append(char)
    return "".join(out)


def pad(text: str, columns: int) -> str:
    """``text`` followed by spaces up to ``columns`` display columns."""
    return text + " " * max(0, columns - width(text))


def terminal_columns() -> int:
    """The terminal's width: ``$COLUMNS``, else the terminal's own, else 80 (output to a pipe or file);
    at most 120 (longer lines are hard to read), at least 20."""
    return max(20, min(shutil.get_terminal_size((80, 24)).columns, 120))


_LIST_ITEM = re.compile(r"^(\s*(?:[-*+]|\d+[.)])\s+)")


def hanging(text: str, columns: int, indent: str = "    ") -> list[str]:
    """``text`` wrapped with its later lines under ``indent``, as a result's heading.

    >>> hanging(" 1. 问 进了魔梯一定要让它动吗", 16)
    [' 1. 问 进了', '    魔梯一定要让', '    它动吗']
    """
    lines = wrap(text, columns - width(indent))
    return lines[:1] + [indent + line for line in lines[1:]]


def indented(text: str, columns: int, indent: str = "    ") -> list[str]:
    """``text`` wrapped under ``indent``; list items keep a hanging indent.

    >>> indented("- 进入魔梯就必须运行", 12, "  ")
    ['  - 进入魔梯', '    就必须运', '    行']
    """
    lines = []
    for paragraph in text.split("\n"):
        marker = _LIST_ITEM.match(paragraph)
        lead = marker.group(1) if marker else ""
        hang = indent + " " * width(lead)
        body = wrap(paragraph[len(lead) :], columns - width(hang))
        lines += [(indent + lead if i == 0 else hang) + line for i, line in enumerate(body)]
    return lines


def bilingual(names: Bilingual) -> str:
    """``中文 · English`` (one of them when they are equal)."""
    zh, en = clean(names.get("zh", "")), clean(names.get("en", ""))
    return zh if zh == en or not en else f"{zh} · {en}" if zh else en


# -- search hits ----------------------------------------------------------------


def named(text: str, names: dict[str, dict[str, Any]], lang: str) -> str:
    """``[[game:id]]`` as the target's title and code, ``楼层封闭 (BH-T06)``; an unknown target as ``game:id``.

    >>> named("见[[betrayal:sealed-floor]]。", {"betrayal:sealed-floor": {"title": {"zh": "楼层封闭"}, "code": "BH-T06"}}, "zh")
    '见楼层封闭 (BH-T06)。'
    """

    def name(match: re.Match[str]) -> str:
        target = names.get(match.group(1).strip())
        return f"{target['title'][lang]} ({target['code']})" if target else match.group(1).strip()

    return INLINE_REF.sub(name, text)


def shown_refs(hits: Iterable[Any]) -> set[str]:
    """The ``game:id`` each ``[[...]]`` in the hits' shown text names."""
    refs: set[str] = set()
    for hit in hits:
        rec = hit.record
        # A question's hit shows its answer, and the entry's one-line answer too when the entry leads.
        question = rec.get("question")
        shown = [question["answer"]] if question else []
        if not question or rec.get("lead") == "entry":
            shown.append(rec["summary"])
        for texts in shown:
            for text in texts.values():
                refs.update(m.group(1).strip() for m in INLINE_REF.finditer(text))
    return refs


def format_hits(hits: Iterable[Any], columns: int, names: dict[str, dict[str, Any]] | None = None) -> str:
    """Readable search results: code, titles, the one-line answer and the page path.

    A hit on one of an entry's questions shows the question and its answer first,
    then the entry's code and titles and the page with the question's anchor; when the
    question holds too little of the query (``lead: "entry"``), the entry and its one-line
    answer come first and the question below it.
    A reference in an answer is named by the target's title and code (``names``: ``game:id`` -> title, code).
    """
    names = names or {}
    blocks = []
    for number, hit in enumerate(hits, 1):
        rec = hit.record
        question = rec.get("question")
        lines: list[str] = []
        if question and rec.get("lead") == "entry":
            lines += hanging(f"{number:>2}. {pad(clean(rec['code']), 8)} {bilingual(rec['title'])}", columns)
            lines += _texts(rec["summary"], columns, names)
            lines += hanging(f"    问 {bilingual(question['question'])}", columns)
            lines += _texts(question["answer"], columns, names)
        elif question:
            lines += hanging(f"{number:>2}. 问 {bilingual(question['question'])}", columns)
            lines += _texts(question["answer"], columns, names)
            lines += hanging(f"    {pad(clean(rec['code']), 8)} {bilingual(rec['title'])}", columns)
        else:
            lines += hanging(f"{number:>2}. {pad(clean(rec['code']), 8)} {bilingual(rec['title'])}", columns)
            lines += _texts(rec["summary"], columns, names)
        lines.append(f"    → {clean(rec['url'])}  ({clean(rec['id'])})")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def _texts(texts: dict[str, str], columns: int, names: dict[str, dict[str, Any]]) -> list[str]:
    lines = indented(clean(named(texts.get("zh", ""), names, "zh")), columns)
    if texts.get("en") and texts["en"] != texts.get("zh"):
        lines += indented(clean(named(texts["en"], names, "en")), columns)
    return lines
