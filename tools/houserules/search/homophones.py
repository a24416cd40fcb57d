"""Chinese typos: a wrong homophone picked from a pinyin input method (魔题 for 魔梯, 兽兰 for 兽栏).

A Chinese bigram of the query that the index lacks is replaced by a bigram of an indexed name
(title, alias, glossary term) with the same toneless pinyin (each character's first, default
reading in pypinyin's dictionary, so a character reads the same wherever it stands: the browser
looks it up in the same table). Names only: everyday words the index lacks (打架, 一堆) would
otherwise become more frequent homophones of the rules' text (大家, 一对). The one changing fewer
of the typed characters wins, then a whole name, then the most frequent, then code-point order. A character in an
indexed bigram of the query stays: a correct query stays as it is, and so does a bigram spanning two words ("梯坠" in
魔梯坠毁), whose characters belong to the indexed words around them. A bigram with one such character may have its
other one corrected, the one slip of a word the rest of which was typed right (遭遇咖 → 遭遇卡: 遇 stays).

A demonstrative or a question word and the word after it (这章, 那层, 谁管, 几级) stay as typed (:data:`PRONOUNS`), and so does
a verb of play after a word typed right (属性掷 is not 属性值: :data:`PLAY_VERBS`). A real word is never
corrected: a bigram of the query that stands in a word of jieba's dictionary (of two to four characters, seen at
least :data:`MIN_WORD_FREQUENCY` times: 一刀, 到底, 步数, 吧台, and 刀两 of 一刀两断) stays as typed, though it
sounds like an indexed name (一道, 捕鼠). The key table lists those bigrams of its keys, marked ``!``. And a
correction must make a whole name: a bigram of a longer name is listed with the names it stands in (``束回/结束回合``),
and it replaces a typed bigram only where the corrected query then holds one of them (回合结束会怎样 keeps its 会:
回合结束回怎样 holds no name; 捕鼠架 becomes 捕鼠夹).

The site's worker (``hr-search-analysis.js`` ``correctHomophones``) runs the same steps on the
tables :func:`char_table` and :func:`key_table` write into the site index.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from functools import cache, lru_cache
from pathlib import Path

from ..text import searchtext

#: Demonstratives and question words: a word of their own before a noun, verb or measure word (这章 "this chapter",
#: 那层 "that floor", 谁管 "who handles", 几级 "which level"), which jieba's dictionary does not list as words. A
#: bigram with one stays as typed (这章 is not 着障, 谁管 is not 水管: 谁 reads shui first).
PRONOUNS = frozenset("这那哪谁啥咋怎几")
#: One-character verbs of play: after a word typed right, one is that word's verb, never its misheard last character
#: ("用什么属性掷" rolls with an attribute; 属性值 is a name it sounds like). The one slip of a word the rest of which was
#: typed right is corrected only when the other character is not one of these (捕鼠架 → 捕鼠夹).
PLAY_VERBS = frozenset("掷投抽摸扣打走跑跳拿用放翻加坐进")
#: How often jieba's dictionary must have seen a two-character word for a query to mean it as typed.
MIN_WORD_FREQUENCY = 5
#: A real word in a key's list of the key table (never a candidate: the query keeps it).
WORD_MARK = "!"
#: Between a bigram of a longer name and the names it stands in, in a key's list (``束回/结束回合``).
NAME_MARK = "/"
#: The lengths of the dictionary's words whose bigrams stay as typed (:func:`dictionary_words`).
WORD_LENGTHS = (2, 4)

#: Characters with a reading in the tables: the CJK Unified Ideographs block (the site ships them all).
FIRST, LAST = 0x4E00, 0x9FFF
_MARKS = re.compile("[\u0300-\u036f]")


@lru_cache(maxsize=4096)  # some 1,500 readings stand for 20,000 characters
def toneless(reading: str) -> str:
    """A pinyin syllable without its tone mark (ü as v, as pypinyin's normal style writes it).

    >>> toneless("lǜ"), toneless("huō"), toneless("ń")
    ('lv', 'huo', 'n')
    """
    return _MARKS.sub("", unicodedata.normalize("NFD", reading).replace("u\u0308", "v"))


@lru_cache(maxsize=1)
def readings() -> dict[str, str]:
    """Every character of the block pypinyin knows → its first reading, toneless."""
    return {chr(code): toneless(text.split(",")[0]) for code, text in _pinyin_dict().items() if FIRST <= code <= LAST}


def _pinyin_dict() -> dict[int, str]:
    """pypinyin's table of characters' readings, read on its own: importing the package also
    loads its phrase dictionary (about 0.3 s, more than the whole query), which is never used here."""
    import importlib.util

    package = importlib.util.find_spec("pypinyin")  # found, not imported
    assert package is not None and package.origin is not None, "pypinyin is a dependency (pyproject.toml)"
    spec = importlib.util.spec_from_file_location(
        "_houserules_pinyin_dict", Path(package.origin).parent / "pinyin_dict.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    table: dict[int, str] = module.pinyin_dict
    return table


def char_table() -> dict[str, str]:
    """:func:`readings` grouped by syllable, for the browser: ``{syllable: characters}``, sorted."""
    grouped: dict[str, list[str]] = defaultdict(list)
    for char, syllable in readings().items():
        grouped[syllable].append(char)
    return {syllable: "".join(sorted(chars)) for syllable, chars in sorted(grouped.items())}


def char_readings(table: Mapping[str, str]) -> dict[str, str]:
    """:func:`readings` again from their :func:`char_table` (each character has one syllable).

    >>> char_readings({"mo": "魔模", "ti": "梯"}) == {"魔": "mo", "模": "mo", "梯": "ti"}
    True
    """
    return {char: syllable for syllable, chars in table.items() for char in chars}


def key(bigram: str, reading: Mapping[str, str] | None = None) -> str | None:
    """The toneless pinyin of a bigram (``"mo ti"``), or None when a character has no reading
    (``reading``: each character's, as :func:`readings` has them, the default)."""
    table = readings() if reading is None else reading
    first, second = table.get(bigram[0]), table.get(bigram[1])
    return f"{first} {second}" if first and second else None


def key_table(
    bigrams: Iterable[tuple[str, tuple[bool, int, Iterable[str]]]], words: Iterable[str] = ()
) -> dict[str, list[str]]:
    """The bigrams of the names ``(bigram, (whole name, frequency, longer names it stands in))`` by key, best
    first: whole names (奸徒) before bigrams of longer names (间图 of 房间图块, written ``间图/房间图块``: it
    corrects only into one of them), then the most frequent, then code-point order; then the real ``words``
    (bigrams of the dictionary's words) of the same key, marked (``!一刀`` beside 一道).

    >>> key_table([("魔梯", (True, 3, ())), ("束回", (False, 2, ["结束回合"]))], ["模体", "魔梯", "大家"])
    {'mo ti': ['魔梯', '!模体'], 'shu hui': ['束回/结束回合']}
    """
    found: dict[str, list[tuple[bool, int, str, str]]] = defaultdict(list)
    for bigram, (whole, frequency, names) in bigrams:
        k = key(bigram)
        if k is not None:
            shown = bigram if whole else NAME_MARK.join([bigram, *sorted(set(names))])
            found[k].append((not whole, -frequency, bigram, shown))
    table = {k: [shown for *_, shown in sorted(items)] for k, items in sorted(found.items())}
    for word in sorted(set(words)):
        k = key(word)
        if k in table and not any(entry[:2] == word for entry in table[k]):
            table[k].append(WORD_MARK + word)
    return table


@cache
def dictionary_words() -> tuple[str, ...]:
    """The bigrams of the Chinese words of jieba's dictionary of :data:`WORD_LENGTHS` characters seen at
    least :data:`MIN_WORD_FREQUENCY` times (some 120,000): read from its file when an index is first written
    in a process (a preview's rebuilds read it once), never at query time."""
    import importlib.util

    spec = importlib.util.find_spec("jieba")
    if spec is None or spec.origin is None:
        return ()
    shortest, longest = WORD_LENGTHS
    # A line is "word frequency tag": the words of the lengths wanted, all CJK, and their frequencies.
    line = re.compile(rf"^([\u3400-\u9fff]{{{shortest},{longest}}}) (\d+)", re.MULTILINE)
    text = (Path(spec.origin).parent / "dict.txt").read_text(encoding="utf-8")
    found: set[str] = set()
    for word, frequency in line.findall(text):
        if int(frequency) >= MIN_WORD_FREQUENCY and all(is_cjk(c) for c in word):
            found.update(word[i : i + 2] for i in range(len(word) - 1))
    return tuple(sorted(found))


def is_cjk(char: str) -> bool:
    return char >= "\u3400" and searchtext.TOKEN.fullmatch(char) is not None


def unknown_pairs(folded: str, known: Callable[[str], bool]) -> bool:
    """Whether the folded query has a Chinese bigram (outside question phrases) the index lacks."""
    chars = _masked(folded)
    return any(
        is_cjk(chars[i]) and is_cjk(chars[i + 1]) and not known(chars[i] + chars[i + 1]) for i in range(len(chars) - 1)
    )


def _masked(folded: str) -> list[str]:
    # Question phrases carry no topic (the query drops them): no bigram is read across or in one.
    return list(searchtext.QUESTION.sub(lambda m: " " * len(m.group(0)), folded))


def correct(
    folded: str,
    known: Callable[[str], bool],
    candidates: Callable[[str], list[str]],
    reading: Mapping[str, str] | None = None,
) -> str:
    """``folded`` with each unknown bigram replaced by its best homophone (see the module's text).

    ``known(bigram)`` says whether the index holds a bigram; ``candidates(key)`` lists the indexed
    bigrams of a key, best first (:func:`key_table`); ``reading``: the characters' readings the keys
    were made with (:func:`key`).
    """
    masked = _masked(folded)
    chars = list(folded)
    pairs = [i for i in range(len(chars) - 1) if is_cjk(masked[i]) and is_cjk(masked[i + 1])]
    covered = [False] * len(chars)
    for i in pairs:
        if known(chars[i] + chars[i + 1]):
            covered[i] = covered[i + 1] = True
    for i in pairs:
        bigram = chars[i] + chars[i + 1]
        k = key(bigram, reading)
        if k is None or (covered[i] and covered[i + 1]) or known(bigram) or PRONOUNS.intersection(bigram):
            continue
        if searchtext.STANDALONE.issuperset(bigram):  # two common words as typed (又是), not a word mistyped
            continue
        options = candidates(k)
        if WORD_MARK + bigram in options:  # a real word, meant as typed (一刀, not 一道)
            continue
        if any(option.split(NAME_MARK)[0] == bigram for option in options):  # a name's own bigram
            continue
        # A character of an indexed bigram stays: only the other one was mistyped (行动股 → 行动骰), unless it is a verb.
        kept = 0 if covered[i] else 1 if covered[i + 1] else None
        if kept is not None and chars[i + 1 - kept] in PLAY_VERBS:
            continue
        # Both characters change only beside an indexed bigram ("模题坠毁"): alone, a bigram that shares no character with a
        # name is a slip of an everyday word the index lacks (建意, of 建议, is not 坚毅).
        beside = (i > 0 and covered[i - 1]) or (i + 2 < len(chars) and covered[i + 2])
        best, fewest = "", 3 if beside else 2
        for candidate in options:
            if candidate.startswith(WORD_MARK) or (kept is not None and candidate[kept] != chars[i + kept]):
                continue
            changed = (candidate[0] != chars[i]) + (candidate[1] != chars[i + 1])
            if changed < fewest and makes_name(chars, i, candidate):
                best, fewest = candidate, changed
        if best:
            chars[i], chars[i + 1] = best[0], best[1]
            covered[i] = covered[i + 1] = True
    return "".join(chars)


def makes_name(chars: list[str], at: int, candidate: str) -> bool:
    """Whether putting the bigram of ``candidate`` at ``chars[at:at + 2]`` makes a name: it is a whole name,
    or one of the longer names it is listed with (``束回/结束回合``) then stands there, over it.

    >>> makes_name(list("捕鼠架"), 1, "鼠夹/捕鼠夹"), makes_name(list("回合结束会"), 3, "束回/结束回合"), makes_name(list("魔题"), 0, "魔梯")
    (True, False, True)
    """
    bigram, *names = candidate.split(NAME_MARK)
    if not names:
        return True
    text = "".join(chars[:at]) + bigram + "".join(chars[at + 2 :])
    for name in names:
        for start in range(max(0, at + 2 - len(name)), at + 1):
            if text.startswith(name, start):
                return True
    return False
