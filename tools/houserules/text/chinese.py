"""Simplified and Traditional Chinese for the search: the folding table and the reader's script.

Both sides of the search fold a traditional character to its simplified form one character at a
time (:data:`T2S`, read from ``t2s.txt``): the table is OpenCC's own (its ``t2s`` conversion of every
single character of the CJK blocks, :func:`opencc_t2s`), committed so that a query starts without
loading OpenCC, and written into the site's search index for the browser (the same table on both
sides). ``python -m houserules.text.chinese`` writes it again from the installed OpenCC;
``tests/test_search.py`` fails when the two differ.

A query in Traditional characters reads Traditional text: :func:`to_traditional` converts what a
result shows with OpenCC's Taiwan standard (``s2tw``), then puts the reviewed regional forms of
``rules_data/traditional.yaml`` (:class:`~houserules.data.reading.model.TraditionalTerms`) where
their simplified text stands. :func:`reader_script` says which script (or English) a query is in.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path

T2S_FILE = Path(__file__).with_name("t2s.txt")
#: The blocks whose characters the folding table covers (compatibility ideographs are NFKC's).
T2S_BLOCKS = ((0x3400, 0x4DBF), (0x4E00, 0x9FFF))
#: OpenCC's configuration for what a Traditional reader sees: Taiwan's standard characters.
TRADITIONAL_CONFIG = "s2tw"
#: Folds beside OpenCC's t2s, so that what a Traditional reader is shown folds back to the index's text: the
#: Taiwan standard writes the particle 着 as 著, which t2s keeps as 著 (著名). Folding it to 着 on both sides of
#: the search changes no match between simplified texts (著名 and 着名 were never both written for one word).
EXTRA_FOLDS = {"著": "着"}

#: The languages a result can be shown in first: Chinese (Simplified), Chinese (Traditional), English.
ZH, ZH_HANT, EN = "zh", "zh-Hant", "en"
_HAN = re.compile("[\u3400-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f]")
_LATIN = re.compile("[A-Za-z\uff21-\uff3a\uff41-\uff5a]")


def _read_table() -> tuple[dict[int, str], frozenset[str]]:
    """The folding table's pairs (``TS`` lines) and the characters both scripts write (``=C`` lines)."""
    table: dict[int, str] = {}
    both: set[str] = set()
    for line in T2S_FILE.read_text(encoding="utf-8").splitlines():
        if line.startswith("="):
            both.add(line[1])
        elif line and not line.startswith("#"):
            table[ord(line[0])] = line[1]
    return table, frozenset(both)


#: Traditional → simplified, one character at a time (OpenCC's table, :data:`T2S_FILE`).
T2S, BOTH_SCRIPTS = _read_table()
#: The simplified characters that are no traditional character: the table's values that are neither its keys nor
#: written by Traditional Chinese too (吃, 出, 回 are folded into from a variant, 喫, 齣, 迴, but Taiwan writes them).
SIMPLIFIED_ONLY = frozenset(T2S.values()) - {chr(k) for k in T2S} - BOTH_SCRIPTS


def reader_script(text: str) -> str:
    """The language and script a query is written in: :data:`ZH_HANT` when it holds more characters only
    Traditional Chinese writes (電, 還) than only Simplified writes (电, 还), else :data:`ZH` when it holds
    a Chinese character, else :data:`EN` when it holds a Latin letter, else :data:`ZH` (the site's first language).

    >>> reader_script("電梯墜毀怎麼辦"), reader_script("电梯坠毁"), reader_script("elevator 魔梯"), reader_script("what if")
    ('zh-Hant', 'zh', 'zh', 'en')
    >>> reader_script("BH-A13"), reader_script("13")
    ('en', 'zh')
    """
    traditional = simplified = 0
    han = False
    for char in text:
        if ord(char) in T2S:
            traditional += 1
        elif char in SIMPLIFIED_ONLY:
            simplified += 1
        elif _HAN.match(char):
            han = True
    if traditional > simplified:
        return ZH_HANT
    if traditional or simplified or han:
        return ZH
    return EN if _LATIN.search(text) else ZH


def opencc_t2s() -> dict[int, str]:
    """OpenCC's ``t2s`` of every character of :data:`T2S_BLOCKS` that it changes into one other character, and
    :data:`EXTRA_FOLDS`."""
    import opencc

    convert = opencc.OpenCC("t2s").convert
    table: dict[int, str] = {}
    for low, high in T2S_BLOCKS:
        for code in range(low, high + 1):
            char = chr(code)
            simple = convert(char)
            if simple != char and len(simple) == 1:
                table[code] = simple
    table.update({ord(char): simple for char, simple in EXTRA_FOLDS.items()})
    return table


def opencc_both(table: dict[int, str]) -> frozenset[str]:
    """The characters the table folds into (and does not fold) that OpenCC's Taiwan standard writes as they are:
    written in both scripts, so they say nothing of which one a query is in."""
    convert = _converter()
    targets = set(table.values()) - {chr(code) for code in table}
    return frozenset(char for char in targets if convert(char) == char)


def table_text(table: dict[int, str], both: Iterable[str]) -> str:
    """The folding table as ``t2s.txt`` holds it: a comment, then one ``TS`` pair a line, then one ``=C`` line for
    each character both scripts write (:func:`opencc_both`)."""
    lines = [
        "# Traditional -> simplified, one character each: OpenCC's t2s and chinese.EXTRA_FOLDS; then, after '=', the"
        " characters both scripts write (python -m houserules.text.chinese)"
    ]
    lines += [f"{chr(code)}{simple}" for code, simple in sorted(table.items())]
    lines += [f"={char}" for char in sorted(both)]
    return "\n".join(lines) + "\n"


@lru_cache(maxsize=1)
def _converter() -> Callable[[str], str]:
    import opencc

    convert: Callable[[str], str] = opencc.OpenCC(TRADITIONAL_CONFIG).convert
    return convert


def to_traditional(text: str, terms: Iterable[tuple[str, str]] = ()) -> str:
    """``text`` in Traditional characters: OpenCC's Taiwan standard, and the reviewed regional form of each
    simplified term of ``terms`` (``(simplified, traditional)``, the longest first where two overlap).

    >>> to_traditional("从下台阶进入魔梯", [("台阶", "台階")])
    '從下台階進入魔梯'
    """
    pairs = sorted({zh: hant for zh, hant in terms if zh}.items(), key=lambda pair: -len(pair[0]))
    convert = _converter()
    if not pairs:
        return convert(text)
    pattern = re.compile("|".join(re.escape(zh) for zh, _ in pairs))
    regional = dict(pairs)
    out, done = [], 0
    for match in pattern.finditer(text):
        out += [convert(text[done : match.start()]), regional[match.group(0)]]
        done = match.end()
    out.append(convert(text[done:]))
    return "".join(out)


if __name__ == "__main__":  # pragma: no cover - the table's generator, run by hand after updating OpenCC
    found = opencc_t2s()
    T2S_FILE.write_text(table_text(found, opencc_both(found)), encoding="utf-8")
    print(f"wrote {T2S_FILE}")
