"""Entries and search hits as terminal text: aligned by display width, never raw data.

A terminal gives an East Asian wide character two columns, so padding and
wrapping count display columns (``unicodedata.east_asian_width``), not
characters. Data text is untrusted: control and format characters (escape
sequences, bidirectional overrides) are removed before anything is printed.
"""

from __future__ import annotations

import re
import shutil
import unicodedata
from collections.abc import Iterable
from typing import Any

from ..data import vocab
from ..data.model import INLINE_REF
from .blocks import EntryBlocks
from .linebreak import is_link, width, wrap
from .text import Linker, plain_text

#: Labels of the header fields of ``houserules show`` (the sections use vocab.SECTIONS).
FIELDS: dict[str, dict[str, str]] = {
    "game": {"zh": "游戏", "en": "Game"},
    "kind": {"zh": "类型", "en": "Kind"},
    "authority": {"zh": "依据", "en": "Authority"},
    "confidence": {"zh": "可信度", "en": "Confidence"},
    "page": {"zh": "网页", "en": "Page"},
    "aliases": {"zh": "别名", "en": "Aliases"},
    "summary": {"zh": "答案", "en": "Answer"},
}
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{2,}")
_EMPHASIS = re.compile(r"\*\*|__|`")


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


def bilingual(names: dict[str, str]) -> str:
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
        texts = rec.get("question", {}).get("answer") or rec["summary"]
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


# -- one entry ------------------------------------------------------------------


def _label(names: dict[str, str]) -> str:
    return f"{names['zh']} {names['en']}"


class TerminalLinker(Linker):
    """References in a terminal: the target's title and code, ``塔楼 (DM-R01)``."""

    def text(self, target: Any, lang: str) -> str:
        return f"{clean(target.title[lang])} ({clean(target.code)})"


def markdown_text(text: str, linker: Linker, lang: str = "zh") -> str:
    """Entry Markdown as plain terminal text: references named, tables aligned."""
    text = _EMPHASIS.sub("", plain_text(clean(text), linker, lang))
    out: list[str] = []
    rows: list[list[str]] = []
    for line in text.split("\n") + [""]:
        if line.lstrip().startswith("|"):
            if not _TABLE_RULE.match(line):
                rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
            continue
        if rows:
            out += align_table(rows)
            rows = []
        out.append(line)
    return "\n".join(out).strip("\n")


def align_table(rows: list[list[str]]) -> list[str]:
    """Rows of cells as columns padded by display width.

    >>> align_table([["骰", "去向"], ["4", "任意楼层"]])
    ['骰  去向', '──  ────────', '4   任意楼层']
    """
    count = max(len(r) for r in rows)
    rows = [r + [""] * (count - len(r)) for r in rows]
    widths = [max(width(r[i]) for r in rows) for i in range(count)]
    lines = ["  ".join(pad(cell, widths[i]) for i, cell in enumerate(row)).rstrip() for row in rows]
    rule = "  ".join("─" * w for w in widths)
    return [lines[0], rule, *lines[1:]]


#: The blocks ``houserules show`` prints, in order (the rest are on the entry's page).
TERMINAL_BLOCKS = ("answer", "uncertain", "stub", "questions", "body", "applies-to", "see-also", "sources")


def format_entry(entry: Any, kb: Any, url: str, columns: int) -> str:
    """An entry for ``houserules show``: header fields, then its blocks as text."""
    data = entry.data
    linker = TerminalLinker(kb)
    game = kb.games[entry.game]
    fields = [
        (FIELDS["game"], bilingual(game.name)),
        (FIELDS["kind"], bilingual(vocab.KINDS[entry.kind])),
        (FIELDS["authority"], bilingual(vocab.AUTHORITIES[data["authority"]])),
        (FIELDS["confidence"], bilingual(vocab.CONFIDENCES[data["confidence"]])),
        (FIELDS["aliases"], ", ".join(clean(a) for a in entry.aliases)),
        (FIELDS["page"], url),
    ]
    label_width = max(width(_label(names)) for names, value in fields) + 2
    lines = [f"{clean(entry.code)}  {bilingual(entry.title)}", "═" * min(columns, 60)]
    for names, value in fields:
        if value and is_link(value) and label_width + width(value) > columns:
            # A link is never broken: too long for the value column, it gets a line of its own.
            lines += [_label(names), ("  " if width(value) + 2 <= columns else "") + value]
        elif value:
            first, *rest = wrap(value, columns - label_width)
            lines.append(pad(_label(names), label_width) + first)
            lines += [" " * label_width + more for more in rest]

    def section(names: dict[str, str], texts: list[str]) -> None:
        texts = [t for t in texts if t.strip()]
        if texts:
            lines.extend(["", _label(names), "─" * width(_label(names))])
            for i, text in enumerate(texts):
                if i:
                    lines.append("")
                lines.extend(indented(text, columns, "  "))

    def shown(text: str, lang: str) -> str:
        return clean(plain_text(text, linker, lang))

    def refs(items: list[str]) -> list[str]:
        return ["\n".join(linker.text(kb.entries[r], "zh") for r in items)]

    for block in EntryBlocks(kb).blocks(entry):
        if block.kind not in TERMINAL_BLOCKS:
            continue
        if block.kind == "answer":
            section(FIELDS["summary"], [shown(t, lang) for lang, t in _distinct(block.data)])
        elif block.kind == "uncertain":
            section(block.label, [shown(t, lang) for lang, t in _distinct(block.data)])
        elif block.kind == "stub":
            section(block.label, [f"{block.data['zh']} {block.data['en']}"])
        elif block.kind == "questions":
            section(
                block.label,
                [
                    f"问 {shown(q['q']['zh'], 'zh')} / {shown(q['q']['en'], 'en')}\n"
                    + "\n".join(shown(t, lang) for lang, t in _distinct(q["a"]))
                    for q in block.data
                ],
            )
        elif block.kind == "body":
            section(block.label, [markdown_text(t, linker, lang) for lang, t in _distinct(block.data)])
        elif block.kind in {"applies-to", "see-also"}:
            section(block.label, refs(block.data))
        elif block.kind == "sources":
            section(
                block.label,
                [
                    "\n".join(
                        f"{clean(game.source_title(s['doc']))} {clean(str(s.get('ref', '')))}".strip()
                        for s in block.data
                    )
                ],
            )
    return "\n".join(line.rstrip() for line in lines)


def _distinct(texts: dict[str, str]) -> list[tuple[str, str]]:
    zh, en = texts.get("zh", ""), texts.get("en", "")
    return [("zh", zh)] if zh == en else [("zh", zh), ("en", en)]


def close_matches(wanted: str, kb: Any, limit: int = 5) -> list[str]:
    """Refs and codes that look like ``wanted``, for an unknown-entry message."""
    import difflib

    names = {**{ref: ref for ref in kb.entries}, **{e.code.lower(): e.ref for e in kb.entries.values()}}
    found = difflib.get_close_matches(wanted.lower(), list(names), n=limit, cutoff=0.5)
    found += [n for n in names if wanted.lower() in n and n not in found]
    refs = list(dict.fromkeys(names[n] for n in found))[:limit]
    return [f"{kb.entries[r].code} {r}" for r in refs]
