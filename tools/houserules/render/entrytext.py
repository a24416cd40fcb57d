"""One entry as terminal text (``houserules show``): its fields, blocks and Markdown, by display width.

The measures (:func:`.linebreak.width`, :func:`.linebreak.wrap`…) are :mod:`.linebreak`'s and the
cleaning of untrusted text is :mod:`.terminal`'s, shared with the search hits.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

import jinja2

from ..data.reading import vocab
from .blocks import EntryBlocks
from .linebreak import is_link, width, wrap
from .terminal import bilingual, clean, indented, pad, reference
from .text import Linker, plain_text

if TYPE_CHECKING:  # the search starts without loading the data model
    from ..data.reading.model import Entry, KnowledgeBase, Question, Text

#: Labels of the header fields of ``houserules show`` (the sections use vocab.SECTIONS).
FIELDS: dict[str, dict[str, str]] = {
    "game": {"zh": "游戏", "en": "Game"},
    "kind": {"zh": "类型", "en": "Kind"},
    "authority": {"zh": "依据", "en": "Authority"},
    "confidence": {"zh": "可信度", "en": "Confidence"},
    "page": {"zh": "网页", "en": "Page"},
    "aliases": {"zh": "别名", "en": "Aliases"},
    "summary": {"zh": "答案", "en": "Answer"},
    "asked": {"zh": "你问的问题", "en": "The question asked"},
}
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{2,}")
_EMPHASIS = re.compile(r"\*\*|__|`")


# -- one entry ------------------------------------------------------------------


def _label(names: dict[str, str]) -> str:
    return f"{names['zh']} {names['en']}"


class TerminalLinker(Linker):
    """References in a terminal: the target's title and code, ``塔楼 (DM-R01)``, the title never broken across lines."""

    def text(self, target: Entry, lang: str) -> str:
        return reference(target.title.get(lang), target.code)


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


@functools.cache
def _templates() -> jinja2.Environment:
    """The terminal's templates (``render/templates/terminal/``): plain text, every printed value cleaned."""
    return jinja2.Environment(
        loader=jinja2.PackageLoader("houserules.render", "templates/terminal"),
        autoescape=False,  # a terminal reads no markup: control and format characters are what is removed
        finalize=lambda value: clean(str(value)),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,
    )


def format_entry(entry: Entry, kb: KnowledgeBase, url: str, columns: int, asked: str = "") -> str:
    """An entry for ``houserules show``: header fields, then its blocks as text (``templates/terminal/entry.txt``).
    ``asked`` (a question's id, as in ``show BH-A13/crash``): that question and its answer come first, under the
    title, and it is marked (▶) where it stands in the entry's questions."""
    linker = TerminalLinker(kb)
    game = kb.games[entry.game]
    fields = [
        (FIELDS["game"], bilingual(game.name)),
        (FIELDS["kind"], bilingual(vocab.KINDS[entry.kind])),
        (FIELDS["authority"], bilingual(vocab.AUTHORITIES[entry.authority])),
        (FIELDS["confidence"], bilingual(vocab.CONFIDENCES[entry.confidence])),
        (FIELDS["aliases"], ", ".join(clean(a) for a in entry.aliases)),
        (FIELDS["page"], url),
    ]
    first = next((q for q in entry.questions if q.id == asked), None) if asked else None

    def shown(text: str, lang: str) -> str:
        return plain_text(clean(text), linker, lang)

    def questions(items: tuple[Question, ...] | list[Question], marked: bool = True) -> list[str]:
        return [
            f"{'▶ 问' if marked and q is first else '问'} {shown(q.q.zh, 'zh')} / {shown(q.q.en, 'en')}\n"
            + "\n".join(shown(t, lang) for lang, t in _distinct(q.a))
            for q in items
        ]

    def section(names: dict[str, str], texts: list[str]) -> str:
        texts = [t for t in texts if t.strip()]
        if not texts:
            return ""
        lines = ["", _label(names), "─" * width(_label(names))]
        for i, text in enumerate(texts):
            lines += [""] * bool(i) + indented(text, columns, "  ")
        return "\n".join(lines) + "\n"  # a blank line before the next

    text = (
        _templates()
        .get_template("entry.txt")
        .render(
            entry=entry,
            blocks=EntryBlocks(kb).blocks(entry),
            asked=first,
            fields=fields,
            labels=FIELDS,
            bilingual=bilingual,
            rule=lambda character: character * min(columns, 60),
            indent=lambda text: "\n".join(indented(text, columns, "  ")),
            header=lambda fields: "\n".join(_header(fields, columns)),
            section=section,
            shown=lambda texts: [shown(t, lang) for lang, t in _distinct(texts)],
            markdown=lambda texts: [markdown_text(t, linker, lang) for lang, t in _distinct(texts)],
            questions=questions,
            references=lambda refs: ["\n".join(linker.text(kb.entries[r], "zh") for r in refs)],
            sources=lambda sources: ["\n".join(f"{game.source_title(s.doc)} {s.ref}".strip() for s in sources)],
        )
    )
    return "\n".join(line.rstrip() for line in text.split("\n")).strip("\n")


def _header(fields: list[tuple[dict[str, str], str]], columns: int) -> list[str]:
    """The header's fields, their values aligned after the longest label; a link too long for the value column
    gets a line of its own (a link is never broken)."""
    label_width = max(width(_label(names)) for names, value in fields) + 2
    lines = []
    for names, value in fields:
        if value and is_link(value) and label_width + width(value) > columns:
            lines += [_label(names), ("  " if width(value) + 2 <= columns else "") + value]
        elif value:
            head, *rest = wrap(value, columns - label_width)
            lines.append(pad(_label(names), label_width) + head)
            lines += [" " * label_width + more for more in rest]
    return lines


def _distinct(texts: Text) -> list[tuple[str, str]]:
    zh, en = texts.get("zh", ""), texts.get("en", "")
    return [("zh", zh)] if zh == en else [("zh", zh), ("en", en)]


def close_matches(wanted: str, kb: KnowledgeBase, limit: int = 5) -> list[str]:
    """Refs and codes that look like ``wanted``, for an unknown-entry message."""
    import difflib

    names = {**{ref: ref for ref in kb.entries}, **{e.code.lower(): e.ref for e in kb.entries.values()}}
    found = difflib.get_close_matches(wanted.lower(), list(names), n=limit, cutoff=0.5)
    found += [n for n in names if wanted.lower() in n and n not in found]
    refs = list(dict.fromkeys(names[n] for n in found))[:limit]
    return [f"{kb.entries[r].code} {r}" for r in refs]
