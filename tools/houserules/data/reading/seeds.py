"""Split the source documents into the rulings and sections that entries cite.

Two shapes occur: numbered rulings (``【13】Mystic Elevator（魔梯）：...``) and
documents whose sections start with a short heading line. The coverage check
compares what a game declares in ``game.yaml`` (``sources[].sections``) with
what these parsers find, and ``houserules check`` then requires every declared
section to be cited by at least one entry.
"""

from __future__ import annotations

import re
from pathlib import Path

RULING = re.compile(r"【(\d+)】")
_CJK = re.compile(r"[\u4e00-\u9fff]")
_SENTENCE = re.compile(r"[。，；：:,;.!?？（）()“”「」…·•、]")
MAX_HEADING = 16


def numbered_rulings(text: str) -> list[str]:
    """``【1】`` ... ``【14】`` in order of appearance, without repeats.

    >>> numbered_rulings("【1】a【2】b【2】c")
    ['【1】', '【2】']
    """
    return list(dict.fromkeys(f"【{n}】" for n in RULING.findall(text)))


def headings(text: str, skip: int = 0) -> list[str]:
    """Short Chinese lines without sentence punctuation: the section headings.

    ``skip`` drops that many leading lines (a forum post's header).

    >>> headings("标题\\n这是一句话，有标点。\\n二级标题\\n")
    ['标题', '二级标题']
    """
    found = []
    for line in text.splitlines()[skip:]:
        line = line.strip()
        if (
            line
            and len(line) <= MAX_HEADING
            and _CJK.search(line)
            and not _SENTENCE.search(line.rstrip("！!"))
            and not line[0].isdigit()
        ):
            found.append(line)
    return list(dict.fromkeys(found))


def sections(path: Path) -> list[str]:
    """The citable parts of a source document: numbered rulings if it has them, else headings."""
    text = path.read_text(encoding="utf-8")
    rulings = numbered_rulings(text)
    return rulings if rulings else headings(text)
