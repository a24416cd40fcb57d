"""Search hits as terminal text, and its measures: aligned by display width, never raw data.

A terminal gives an East Asian wide character two columns, so padding and
wrapping count display columns (``unicodedata.east_asian_width``), not
characters. Data text is untrusted: control and format characters (escape
sequences, bidirectional overrides) are removed before anything is printed.
One entry (``houserules show``) is laid out by :mod:`.entrytext`; this module stays light,
as ``houserules search`` imports it.
"""

from __future__ import annotations

import functools
import re
import shutil
import unicodedata
from collections.abc import Iterable
from typing import Any


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


@functools.lru_cache(maxsize=4096)
def char_width(char: str) -> int:
    if unicodedata.combining(char):
        return 0
    return 2 if unicodedata.east_asian_width(char) in {"W", "F"} else 1


def width(text: str) -> int:
    """Columns ``text`` takes in a terminal.

    >>> width("魔梯 BH-A13")
    11
    """
    return sum(char_width(c) for c in text)


def pad(text: str, columns: int) -> str:
    """``text`` followed by spaces up to ``columns`` display columns."""
    return text + " " * max(0, columns - width(text))


#: What a line may break between: a run of printable ASCII (a word), a space, or any other character.
_PIECE = re.compile(r"[!-~]+| |[^ -~]")


def wrap(text: str, columns: int) -> list[str]:
    """Lines of at most ``columns`` display columns: Chinese breaks anywhere, English at spaces.

    >>> wrap("进入魔梯就必须运行 every turn", 10)
    ['进入魔梯就', '必须运行', 'every turn']
    """
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line, used = "", 0  # the line so far and its width, kept as it grows
        for piece in _PIECE.findall(paragraph):
            piece_width = width(piece)
            if used + piece_width > columns and line.strip():
                lines.append(line.rstrip(" "))
                line, used = ("", 0) if piece == " " else (piece, piece_width)
            else:
                line, used = line + piece, used + piece_width
            while used > columns:  # a word longer than the line
                cut = _fit(line, columns)
                lines.append(line[:cut])
                line = line[cut:]
                used = width(line)
        lines.append(line)
    return lines


def _fit(text: str, columns: int) -> int:
    used = 0
    for i, char in enumerate(text):
        used += char_width(char)
        if used > columns:
            return max(i, 1)
    return len(text)


def terminal_columns() -> int:
    """The terminal's width (``$COLUMNS`` wins), kept within readable bounds."""
    return max(40, min(shutil.get_terminal_size((100, 24)).columns, 120))


_LIST_ITEM = re.compile(r"^(\s*(?:[-*+]|\d+[.)])\s+)")


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


def format_hits(hits: Iterable[Any], columns: int) -> str:
    """Readable search results: code, titles, the one-line answer and the page path.

    A hit on one of an entry's questions shows the question and its answer first,
    then the entry's code and titles and the page with the question's anchor.
    """
    blocks = []
    for number, hit in enumerate(hits, 1):
        rec = hit.record
        question = rec.get("question")
        lines: list[str] = []
        if question:
            lines += wrap(f"{number:>2}. 问 {bilingual(question['question'])}", columns)
            lines += _texts(question["answer"], columns)
            lines += wrap(f"    {pad(clean(rec['code']), 8)} {bilingual(rec['title'])}", columns)
        else:
            lines += wrap(f"{number:>2}. {pad(clean(rec['code']), 8)} {bilingual(rec['title'])}", columns)
            lines += _texts(rec["summary"], columns)
        lines.append(f"    → {clean(rec['url'])}  ({clean(rec['id'])})")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def _texts(texts: dict[str, str], columns: int) -> list[str]:
    lines = indented(clean(texts.get("zh", "")), columns)
    if texts.get("en") and texts["en"] != texts.get("zh"):
        lines += indented(clean(texts["en"]), columns)
    return lines
