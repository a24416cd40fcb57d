"""Printed text against corrected text: which parts an erratum removes and adds."""

from __future__ import annotations

import difflib
import re

from .text import inline_html

#: English (and any non-Chinese text) is compared word by word; spaces and
#: punctuation are tokens of their own so a changed word does not drag them along.
_WORD = re.compile(r"\s+|\w+|[^\w\s]")


def diff_tokens(text: str, lang: str) -> list[str]:
    """The units a diff compares: characters for Chinese, words for other languages.

    >>> diff_tokens("gain 1 trait.", "en")
    ['gain', ' ', '1', ' ', 'trait', '.']
    >>> diff_tokens("上升1级", "zh-CN")
    ['上', '升', '1', '级']
    """
    return list(text) if lang.startswith("zh") else _WORD.findall(text)


def _cell(text: str) -> str:
    return inline_html(text).replace("&#10;", "<br>")


def diff_html(printed: str, corrected: str, lang: str) -> tuple[str, str]:
    """The printed text with removed parts in ``<del>`` and the corrected text with added parts in ``<ins>``.

    >>> diff_html("take 1 damage", "gain 1 trait", "en")
    ('<del>take</del> 1 <del>damage</del>', '<ins>gain</ins> 1 <ins>trait</ins>')
    """
    old, new = diff_tokens(printed, lang), diff_tokens(corrected, lang)
    before, after = [], []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        removed, added = _cell("".join(old[i1:i2])), _cell("".join(new[j1:j2]))
        if op == "equal":
            before.append(removed)
            after.append(added)
            continue
        if removed:
            before.append(f"<del>{removed}</del>")
        if added:
            after.append(f"<ins>{added}</ins>")
    return "".join(before), "".join(after)
