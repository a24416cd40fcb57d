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
from .linebreak import unbroken, width, wrap

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


def reference(title: str, code: str) -> str:
    """A reference as a terminal shows it, ``楼层封闭 (BH-T06)``: the title joined as one word
    (:func:`.linebreak.unbroken`: :func:`.linebreak.wrap` never breaks it), then the code."""
    return f"{unbroken(clean(title))} ({clean(code)})"


def named(text: str, names: dict[str, dict[str, Any]], lang: str) -> str:
    """``[[game:id]]`` as the target's title and code (:func:`reference`); an unknown target as ``game:id``.

    >>> named("见[[betrayal:sealed-floor]]。", {"betrayal:sealed-floor": {"title": {"zh": "楼层封闭"}, "code": "BH-T06"}}, "zh")
    '见楼\u2060层\u2060封\u2060闭 (BH-T06)。'
    """

    def name(match: re.Match[str]) -> str:
        target = names.get(match.group(1).strip())
        if not target:
            return match.group(1).strip()
        title = target["title"]
        return reference(title.get(lang) or title["zh"], target["code"])

    return INLINE_REF.sub(name, text)


def shown_refs(hits: Iterable[Any]) -> set[str]:
    """The ``game:id`` each ``[[...]]`` in the hits' shown text names."""
    refs: set[str] = set()
    for hit in hits:
        rec = hit.record
        # A question's hit shows its answer and the entry's one-line answer below it.
        question = rec.get("question")
        shown = [question["answer"], rec["summary"]] if question else [rec["summary"]]
        shown += [rec[key]["answer"] for key in ("also", "more") if rec.get(key)]
        for texts in shown:
            for text in texts.values():
                refs.update(m.group(1).strip() for m in INLINE_REF.finditer(text))
    return refs


#: The languages of a result in the order they are shown, by the language and script of the query.
ORDER = {"en": ("en", "zh"), "zh": ("zh", "en"), "zh-Hant": ("zh-Hant", "en")}
#: What the results say above the hits when no ruling answers a told question exactly, by language.
NOTHING_ANSWERS = {
    "zh": "不确定有条目正好回答这个问题 — 最接近的条目：",
    "en": "Not sure any ruling answers this exactly — closest entries:",
    "zh-Hant": "不確定有條目正好回答這個問題 — 最接近的條目：",
}
#: ... when the question names what no entry answers (a topic no source here covers, another game).
NOT_COVERED = {
    "zh": "这里的规则没有收录：{names}",
    "en": "Not covered by the rules here: {names}",
    "zh-Hant": "這裡的規則沒有收錄：{names}",
}
#: What a search says when nothing matched at all, by language.
NO_MATCH = {"zh": "没有匹配的条目：{query}", "en": "no entries match {query}", "zh-Hant": "沒有符合的條目：{query}"}


def no_match(lang: str, query: str) -> str:
    """The line of a search nothing matched, in both languages, the reader's first (as :func:`nothing_answers`).

    >>> no_match("en", "'zzyzx'"), no_match("zh-Hant", "'法術'")
    ("no entries match 'zzyzx' · 没有匹配的条目：'zzyzx'", "沒有符合的條目：'法術' · no entries match '法術'")
    """
    return " · ".join(NO_MATCH[lang_].format(query=query) for lang_ in ORDER.get(lang, ORDER["zh"]))


#: The mark before a question, in the reader's language.
ASKED = {"zh": "问", "zh-Hant": "問", "en": "Q"}


def nothing_answers(lang: str, outside: tuple[str, ...] = ()) -> list[str]:
    """The lines above the hits of a told question that no ruling answers exactly: both languages, the
    reader's first; first what it names that no entry answers (``outside``), when that is why.

    >>> nothing_answers("en")
    ['Not sure any ruling answers this exactly — closest entries:', '不确定有条目正好回答这个问题 — 最接近的条目：']
    >>> nothing_answers("zh", ("熔炉房 · Furnace Room",))[:2]
    ['这里的规则没有收录：熔炉房 · Furnace Room', 'Not covered by the rules here: 熔炉房 · Furnace Room']
    """
    order = ORDER.get(lang, ORDER["zh"])
    names = "、".join(outside)
    return [NOT_COVERED[lang_].format(names=names) for lang_ in order if outside] + [
        NOTHING_ANSWERS[lang_] for lang_ in order
    ]


def format_hits(
    hits: Iterable[Any],
    columns: int,
    names: dict[str, dict[str, Any]] | None = None,
    lang: str = "zh",
    answers: bool = False,
) -> str:
    """Readable search results: code, titles, the one-line answer and the page path, in the language and
    script of the query first (``lang``: ``zh``, ``zh-Hant``, ``en``; the other language below).

    A hit on one of an entry's questions (the question answers the query) shows the question and its
    answer first, then the entry's code and titles, its one-line answer in the reader's language, and the
    page with the question's anchor. For a told question a ruling answers (``answers``), an entry's hit
    likewise shows its one-line answer first, then its code and titles. A reference in an answer is named by
    the target's title and code (``names``: ``game:id`` -> title, code).
    """
    names = names or {}
    order = ORDER.get(lang, ORDER["zh"])
    blocks = []
    for number, hit in enumerate(hits, 1):
        rec = hit.record
        question = rec.get("question")
        hant = getattr(hit, "traditional", None) or {}

        def texts(pair: dict[str, str], key: str, hant: dict[str, str] = hant) -> dict[str, str]:
            return {**pair, "zh-Hant": hant.get(key, pair.get("zh", ""))}

        title = texts(rec["title"], "title")
        lines: list[str] = []
        if question:
            asked = _names(texts(question["question"], "question"), order)
            lines += hanging(f"{number:>2}. {ASKED[order[0]]} {asked}", columns)
            lines += _texts(texts(question["answer"], "answer"), columns, names, order)
            # The entry's next question, when it scores close (a player often tells two things at once), and the
            # answer of a message's further part; another entry's question (a part this entry leaves) names its code.
            for key in ("also", "more"):
                other = rec.get(key)
                if not other:
                    continue
                asked = _names(texts(other["question"], f"{key}_question"), order)
                where = f" ({clean(other['entry']['code'])})" if other.get("entry") else ""
                lines += hanging(f"    {ASKED[order[0]]} {asked}{where}", columns)
                lines += _texts(texts(other["answer"], f"{key}_answer"), columns, names, order[:1])
            lines += hanging(f"    {pad(clean(rec['code']), 8)} {_names(title, order)}", columns)
            lines += _texts(texts(rec["summary"], "summary"), columns, names, order[:1])
        elif answers:  # the one-line answer leads, where a question's answer would, then what it is from
            answer = _texts(texts(rec["summary"], "summary"), columns, names, order)
            lines += [f"{number:>2}. {answer[0][4:]}", *answer[1:]] if answer else []
            lines += hanging(f"    {pad(clean(rec['code']), 8)} {_names(title, order)}", columns)
        else:
            lines += hanging(f"{number:>2}. {pad(clean(rec['code']), 8)} {_names(title, order)}", columns)
            lines += _texts(texts(rec["summary"], "summary"), columns, names, order)
        lines.append(f"    → {clean(rec['url'])}  ({clean(rec['id'])})")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def _names(names: dict[str, str], order: tuple[str, ...]) -> str:
    """``first · second`` in the reader's order (one of them when they are equal)."""
    first, second = (clean(names.get(lang, "")) for lang in order)
    return first if first == second or not second else f"{first} · {second}" if first else second


def _texts(
    texts: dict[str, str], columns: int, names: dict[str, dict[str, Any]], order: tuple[str, ...] = ("zh", "en")
) -> list[str]:
    lines: list[str] = []
    shown: list[str] = []
    for lang in order:
        text = texts.get(lang, "")
        if text and text not in shown:
            shown.append(text)
            lines += indented(named(clean(text), names, lang), columns)
    return lines
