"""Printed text against corrected text: which parts an erratum removes and adds."""

from __future__ import annotations

import difflib
import re

from .templating import macros

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


#: A run of text of a diff and whether the erratum changes it (removed from the printed text, added in the corrected).
Span = tuple[str, bool]


def diff_spans(printed: str, corrected: str, lang: str) -> tuple[list[Span], list[Span]]:
    """The printed text in runs, marking those removed, and the corrected text, marking those added
    (the templates show them in ``<del>`` and ``<ins>``).

    >>> diff_spans("take 1 damage", "gain 1 trait", "en")
    ([('take', True), (' 1 ', False), ('damage', True)], [('gain', True), (' 1 ', False), ('trait', True)])
    """
    old, new = diff_tokens(printed, lang), diff_tokens(corrected, lang)
    before: list[Span] = []
    after: list[Span] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        removed, added = "".join(old[i1:i2]), "".join(new[j1:j2])
        if op == "equal":
            before.append((removed, False))
            after.append((added, False))
            continue
        if removed:
            before.append((removed, True))
        if added:
            after.append((added, True))
    return before, after


def diff_html(printed: str, corrected: str, lang: str) -> tuple[str, str]:
    """The printed text with removed parts in ``<del>`` and the corrected text with added parts in ``<ins>``,
    escaped, line breaks as ``<br>`` (what the errata tables show, by their template's ``diff`` macro).

    >>> diff_html("take 1 damage", "gain 1 trait", "en")
    ('<del>take</del> 1 <del>damage</del>', '<ins>gain</ins> 1 <ins>trait</ins>')
    """
    before, after = diff_spans(printed, corrected, lang)
    parts = macros("parts.html")
    return str(parts.diff(before, "del")), str(parts.diff(after, "ins"))
