"""Terminal lines: display width and line breaking, the last layer of terminal output.

A terminal gives an East Asian wide character two columns (``unicodedata.east_asian_width``).
Chinese text breaks between characters and English at spaces; no line starts with a closing mark
(，。；：！？）」 …) or ends with an opening one (Chinese line-breaking rules), and a link (a page
address, a URL, a ``game:id`` reference) is never broken. :func:`fit` takes finished text and
wraps only the lines wider than the terminal, so whatever produced the text, it fits.
"""

from __future__ import annotations

import re
import unicodedata

#: Between two characters that no line break may part (U+2060 WORD JOINER): :func:`unbroken` puts it between the
#: characters of a reference's title, :func:`wrap` keeps them on one line and takes it out of the lines it returns.
#: Text from the data never holds it (``terminal.clean`` removes every format character first).
JOINER = "\u2060"


def unbroken(text: str) -> str:
    """``text`` as one word that :func:`wrap` never breaks inside (its spaces still break a long English title).

    >>> wrap(unbroken("楼层封闭") + " (BH-T06)", 14)
    ['楼层封闭', '(BH-T06)']
    """
    return " ".join(JOINER.join(word) for word in text.split(" "))


def char_width(char: str) -> int:
    if unicodedata.combining(char) or char == JOINER:
        return 0
    return 2 if unicodedata.east_asian_width(char) in {"W", "F"} else 1


def width(text: str) -> int:
    """Columns ``text`` takes in a terminal.

    >>> width("魔梯 BH-A13")
    11
    """
    return sum(char_width(c) for c in text)


#: Marks that never start a line (Chinese line breaking: they stay with the text before them).
CLOSING = frozenset("、。，．：；！？）］｝〕〉》」』】〗〙〛’”›»％‰‥…·・,.;:!?)]}%")
#: Marks that never end a line (they go down with the text after them).
OPENING = frozenset("（［｛〔〈《「『【〖〘〚‘“‹«([{")
_PIECES = re.compile(r"[!-~]+| |[^ -~]")
_LINK = re.compile(r"://|\.html\b|^\(?[a-z0-9][a-z0-9-]*:[a-z0-9][a-z0-9-]*\)?$")
#: An entry's code in brackets, as a reference is shown ("楼层封闭 (BH-T06)"): it stays with the word before it.
_CODE = re.compile(r"\([A-Z][A-Z0-9]*-[A-Z0-9]+\)")


def _units(paragraph: str) -> list[str]:
    """The pieces a line may break between: English words, spaces, single Chinese characters,
    with closing marks glued to what precedes them and opening marks to what follows."""
    units: list[str] = []
    glue_next = False
    for piece in _PIECES.findall(paragraph):
        joined = piece == JOINER or (units and units[-1].endswith(JOINER))
        if units and piece != " " and (glue_next or joined or (piece[0] in CLOSING and units[-1] != " ")):
            units[-1] += piece
        elif len(units) > 1 and not units[-1].strip() and (piece == " " or piece[0] in CLOSING):
            units[-1] += piece  # spaces stay together, and with the closing mark after them
        else:
            units.append(piece)
        glue_next = piece != " " and piece[-1] in OPENING
    glued: list[str] = []
    for unit in units:  # "楼层封闭 (BH-T06)": a reference's title and code stay on one line
        if len(glued) > 1 and glued[-1] == " " and _CODE.match(unit):
            space = glued.pop()
            glued[-1] += space + unit
        else:
            glued.append(unit)
    return glued


def _closes(unit: str) -> bool:
    """Whether a unit of :func:`_units` starts with a closing mark (after its spaces)."""
    return unit.lstrip(" ")[:1] in CLOSING


def is_link(text: str) -> bool:
    """A page address, URL or ``game:id`` reference: never broken across lines.

    >>> is_link("betrayal/mystic-elevator.html"), is_link("(betrayal:vault)"), is_link("every")
    (True, True, False)
    """
    return bool(_LINK.search(text))


def wrap(text: str, columns: int) -> list[str]:
    """Lines of at most ``columns`` display columns: Chinese breaks between characters, English at
    spaces; no line starts with a closing mark (，。；：！？）」 …) or ends with an opening one, and a
    link is never broken (one longer than the line gets a line of its own, and only it may be wider).

    >>> wrap("进入魔梯就必须运行 every turn", 10)
    ['进入魔梯就', '必须运行', 'every turn']
    >>> wrap("进入魔梯，就必须运行", 8)
    ['进入魔', '梯，就必', '须运行']
    >>> wrap("魔魔魔 ，", 8)
    ['魔魔', '魔 ，']
    >>> wrap("one two ，", 8)
    ['one', 'two ，']
    >>> wrap("Discovering ，", 11)
    ['Discoverin', 'g ，']
    >>> wrap("见楼层封闭 (BH-T06)。", 22)
    ['见楼层封闭 (BH-T06)。']
    >>> wrap("见" + unbroken("楼层封闭") + " (BH-T06)。", 14)
    ['见', '楼层封闭', '(BH-T06)。']
    >>> wrap("魔魔魔（ ", 8)
    ['魔魔魔', '（ ']
    >>> wrap("one two …… ……", 9)
    ['one', 'two …… ……']
    >>> wrap("BH-A13 …… ……", 9)
    ['BH-A1', '3 …… ……']
    """
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for unit in _units(paragraph):
            if width(line) + width(unit) > columns and line.strip():
                if _closes(unit):  # "词 ，": the mark takes its word down with it, and the marks between them
                    held = _units(line)
                    keep = len(held) - 1
                    while keep > 0 and _closes(held[keep]):
                        keep -= 1
                    head = "".join(held[:keep])
                    if head.strip():
                        lines.append(head.rstrip(" "))
                        line = "".join(held[keep:]) + unit
                    else:
                        line += unit  # the word is the whole line: it is cut below, the mark stays with its end
                else:  # an opening mark the line would end with goes down with what follows it
                    head = line.rstrip(" ")
                    cut = len(head)
                    while cut > 1 and head[cut - 1] in OPENING and head[: cut - 1].strip():
                        cut -= 1
                    lines.append(head[:cut].rstrip(" "))
                    rest = line[cut:]
                    line = rest + unit if rest.strip() else (unit if unit.strip() else "")
            else:
                line += unit
            while width(line) > columns and not is_link(line.strip()):  # a word longer than the line
                cut = _space_cut(line, columns) or _fit(line, columns)  # a title and its code: between them
                while 1 < cut < len(line) and (line[cut:].lstrip(" ")[:1] in CLOSING or line[cut - 1] in OPENING):
                    cut -= 1
                lines.append(line[:cut].rstrip(" "))
                line = line[cut:].lstrip(" ")
        lines.append(line)
    return [line.replace(JOINER, "") for line in lines]


def _space_cut(text: str, columns: int) -> int:
    """The last space of ``text`` that ends a first line of at most ``columns`` (not before a closing mark), or 0."""
    for cut in range(len(text) - 1, 0, -1):
        if text[cut] == " " and text[:cut].strip() and width(text[:cut]) <= columns:
            if text[cut:].strip() and not _closes(text[cut:]):
                return cut
    return 0


def _fit(text: str, columns: int) -> int:
    used = 0
    for i, char in enumerate(text):
        used += char_width(char)
        if used > columns:
            return max(i, 1)
    return len(text)


_HANG = re.compile(r"^(\s*)(\d+\.\s+|[-*+]\s+|问\s|→\s)?")


def fit(text: str, columns: int) -> str:
    """Finished terminal text with every line at most ``columns`` display columns wide.

    The last step of ``houserules search`` and ``show``: a line that is too wide is wrapped
    (:func:`wrap`) under its own indent, past its list marker or number; lines that fit are kept
    as they are. Only a link longer than the width stays wider.

    >>> print(fit(" 1. 进入魔梯就必须运行，每名探索者每回合最多一次", 20))
     1. 进入魔梯就必须运
        行，每名探索者每
        回合最多一次
    """
    out: list[str] = []
    for line in text.split("\n"):
        if width(line) <= columns:
            out.append(line.replace(JOINER, ""))
            continue
        hanging = _HANG.match(line)
        assert hanging is not None  # every part of the pattern may be empty: it matches any line
        lead = hanging.group(0)
        hang = " " * width(lead)
        if columns - width(hang) < 10:
            lead = hang = hanging.group(1)
            if columns - width(hang) < 10:
                lead = hang = ""
        body = wrap(line[len(lead) :], columns - width(hang))
        out += [(lead if i == 0 else hang) + part for i, part in enumerate(body)]
    return "\n".join(out)
