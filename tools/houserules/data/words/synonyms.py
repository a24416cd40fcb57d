"""The search's synonym tables as the query analysis uses them: what players say → the rules' word.

The tables are data (``rules_data/synonyms.yaml``, ``rules_data/<game>/synonyms.yaml``, and the
glossaries' variants); the command line keeps their pairs in its index's metadata and the site in
its search head, and both add what a query's synonyms mean to the query (:func:`said_scopes`): what the general
table says is looked up in every game, what a game's table or glossary says in that game only.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

from ...text.searchtext import fold, uncontracted, word_form

_WORD = re.compile(r"[a-z0-9]+")
#: The object a player puts inside a phrasal verb ("patch her up", "pick it up", "turn it over"):
#: a synonym of two or more words without one of these is said with one of them inside too.
OBJECTS = frozenset({"it", "him", "her", "them", "me", "us", "you"})
#: The aspect particles a Chinese verb takes before its object: "砍了一刀" says 砍一刀, "开过鬼" 开鬼.
ASPECT = "了过着"

if TYPE_CHECKING:  # the search starts without loading the data model
    from ..reading.model import KnowledgeBase


def synonym_pairs(kb: KnowledgeBase) -> list[list[str]]:
    """The synonym tables of a knowledge base as ``[what players say, what it means, game]``, folded,
    without repeats: the general table's (game ``""``: every game's queries), then each game's table
    and glossary (a term's variants and deprecated forms mean the term, a Chinese one its Chinese
    name, an English one its English name; one Chinese character names too little), by game, each
    sorted by meaning (what compresses best in the site's head). What a game's pair means is looked up in that game's documents only
    (:func:`said_scopes`); a pair the general table has is not repeated for a game.
    """
    pairs = {
        (fold(say).strip(), fold(item.means).strip(), table.game)
        for table in kb.synonym_tables()
        for item in table.items
        for say in item.say
    }
    for game in kb.games.values():
        for term in game.glossary.terms if game.glossary else []:
            for say in [*term.variants, *term.deprecated]:
                folded = fold(say).strip()
                if folded.isascii() or len(folded) > 1:
                    pairs.add((folded, fold(term.en if folded.isascii() else term.zh).strip(), game.id))
    general = {(say, means) for say, means, game in pairs if not game}
    kept = {p for p in pairs if p[0] and p[0] != p[1] and (not p[2] or p[:2] not in general)}
    return [list(p) for p in sorted(kept, key=lambda p: (p[2], p[1], p[0]))]


#: The kinds of entry that name a thing (a physical piece, a word) rather than answer a question: their titles are names.
THING_KINDS = ("component", "term")


def crossed_names(kb: KnowledgeBase) -> list[list[str]]:
    """The glossaries' English names, the English titles of things (:data:`THING_KINDS`) and the English names of
    what no source covers, which a Chinese question may say, each with its Chinese name, as ``[en, zh]``
    (folded, longest first): "Menagerie 要怎么触发" asks what "兽栏要怎么触发" asks (:func:`cross_named`). Left
    out: a name the game's Chinese texts write in English at least as often as in Chinese (HP, XP: a Chinese
    question saying it matches them as it is), and one whose games' glossaries give it different Chinese names (round: 回合 in
    one game, 轮次 in another)."""
    # Each game's Chinese texts and the titles of its things, read in one pass over the entries.
    chinese: dict[str, list[str]] = {}
    things: dict[str, list[tuple[str, str]]] = {}
    for entry in kb.entries.values():
        chinese.setdefault(entry.game, []).extend(
            text for path, text in entry.texts if path and path[-1] in ("zh", "zh-Hant")
        )
        if entry.kind in THING_KINDS:
            things.setdefault(entry.game, []).append((entry.title.get("en", ""), entry.title.get("zh", "")))
    names: dict[str, set[str]] = {}
    written: set[str] = set()
    for game in kb.games.values():
        texts = fold("\n".join(chinese.get(game.id, [])))
        # The glossary's terms, and the titles of the game's things (components, terms: "Revolver" is 手枪).
        named = [(term.en, term.zh) for term in (game.glossary.terms if game.glossary else [])]
        named += things.get(game.id, [])
        # ... and what no source covers ("Crypt 停在里面" names the Crypt, 地穴, though "crypt" alone is an English word).
        named += [(topic.name.en, topic.name.zh) for topic in game.not_covered]
        for en_name, zh_name in named:
            en, zh = fold(en_name).strip(), fold(zh_name).strip()
            if not (en.isascii() and _WORD.search(en) and zh) or en == zh:
                continue
            names.setdefault(en, set()).add(zh)
            english = len(re.findall(rf"(?<![a-z0-9]){re.escape(en)}(?![a-z0-9])", texts))
            if english and english >= texts.count(zh):
                written.add(en)
    kept = [[en, next(iter(zh))] for en, zh in names.items() if len(zh) == 1 and en not in written]
    return sorted(kept, key=lambda pair: (-len(pair[0]), pair[0]))


#: Chinese characters: a query holding one is read as Chinese by :func:`cross_named`.
_CHINESE = re.compile("[\u3400-\u9fff\uf900-\ufaff]")


def cross_pattern(pairs: list[list[str]]) -> str:
    """The pattern :func:`cross_named` finds the English names of ``pairs`` with (the site's worker compiles the
    same): a name as whole words, spaces between its words, a plural ending allowed, longest first."""
    names = "|".join(r"\s+".join(map(re.escape, en.split())) for en, _ in pairs)
    return f"(^|[^a-z0-9])({names})(?:e?s)?(?=[^a-z0-9]|$)" if names else ""


class Crossing:
    """The names of :func:`crossed_names` as one index reads every query with them (:func:`cross_named`): the pattern
    is compiled once, for the first query holding Chinese characters."""

    def __init__(self, pairs: list[list[str]]):
        self.pairs = pairs
        self.means = {en: zh for en, zh in pairs}
        self._pattern: re.Pattern[str] | None = None

    def __call__(self, folded: str) -> str:
        if not self.pairs or not _CHINESE.search(folded):
            return folded
        if self._pattern is None:
            self._pattern = re.compile(cross_pattern(self.pairs))
        marked = self._pattern.sub(lambda m: f"{m.group(1)}\0{self.means[' '.join(m.group(2).split())]}\0", folded)
        # Written in Chinese, without the spaces around it: its neighbours' characters read on into it, as typed in
        # Chinese.
        return _SPACED_MARK.sub("", marked)


def cross_named(folded: str, pairs: list[list[str]]) -> str:
    """A folded Chinese query with the English names of ``pairs`` (:func:`crossed_names`) written in Chinese, as a
    player who knows the Chinese name would have asked; a query without Chinese characters as it is (an index
    reads every query with one :class:`Crossing`).

    >>> cross_named("traitor 走 chasms 要掷骰吗", [["traitor", "奸徒"], ["chasm", "缝隙"]])
    '奸徒走缝隙要掷骰吗'
    >>> cross_named("the menagerie", [["menagerie", "兽栏"]])
    'the menagerie'
    """
    return Crossing(pairs)(folded)


#: A name :func:`cross_named` wrote in Chinese, with the spaces around it.
_SPACED_MARK = re.compile(r"\s*\0\s*")


def synonyms_said(text: str, pairs: list[list[str]]) -> list[str]:
    """What the synonyms a query uses mean, in the pairs' order without repeats (:func:`said_scopes`).

    >>> synonyms_said("我扣血了", [["扣血", "伤害"]]), synonyms_said("fellow", [["fell", "fall"]])
    (['伤害'], [])
    >>> synonyms_said("I'm shooting at it", [["shoot", "ranged attack"]])
    ['ranged attack']
    >>> synonyms_said("nobody patches her up", [["patch up", "heal"]])
    ['heal']
    """
    return list(said_scopes(text, pairs))


def said_scopes(text: str, pairs: list[list[str]]) -> dict[str, frozenset[str] | None]:
    """What the synonyms a query uses mean, in the pairs' order without repeats, each with the games
    whose tables say it (None: the general table's, every game's; a pair ``[say, means]`` without a
    game is the general table's). A Chinese word counts anywhere in the query, English words as
    whole words, in any of their forms ("stabbing", "stabbed" say "stab"; "took a shot" says "take a
    shot": the words' :func:`word_form`), a phrasal verb also with its object inside ("patched him
    up" says "patch up": :data:`OBJECTS`), a Chinese one also with an aspect particle after its
    first character ("砍了一刀" says 砍一刀: :data:`ASPECT`). A synonym said only as part of a longer one
    the query also says does not count on its own: "walk up to" says "walk up to", not "walk" too
    (:func:`_longest`).

    >>> {means: sorted(games) for means, games in said_scopes("the monster moved", [["monster", "minion", "mm"], ["monster", "minion", "x"]]).items()}
    {'minion': ['mm', 'x']}
    >>> said_scopes("怪物的回合", [["怪物", "魔物"], ["怪物", "魔物", "mm"]])
    {'魔物': None}
    """
    folded = fold(text)
    forms = loose = ""
    aspect = any(particle in folded for particle in ASPECT)  # else no pair is said with one
    hits: list[list[str]] = []
    for pair in pairs:
        say = pair[0]
        english, padded, split, aspected = _prepared(say)
        if english:
            if not forms:
                words = uncontracted(_WORD.findall(folded))
                forms = f" {' '.join(word_form(w) for w in words)} "
                loose = f" {' '.join(word_form(w) for w in words if w not in OBJECTS)} "
            hit = (
                bool(padded and padded in forms)
                or (split and padded in loose)
                or (say in folded and _said(folded, say))
            )
        else:
            hit = say in folded or (aspect and any(form in folded for form in aspected))
        if hit:
            hits.append(pair)
    return _scopes(_longest(hits))


def _scopes(said: list[list[str]]) -> dict[str, frozenset[str] | None]:
    """What the pairs said mean, in their order without repeats, each with the games whose tables say
    it (None: the general table's); a set per meaning, so thousands of pairs of one meaning cost
    thousands of steps."""
    found: dict[str, set[str] | None] = {}
    for _say, means, *game in said:
        if game and game[0]:
            games = found.setdefault(means, set())
            if games is not None:
                games.add(game[0])
        else:  # the general table's: every game's
            found[means] = None
    return {means: None if games is None else frozenset(games) for means, games in found.items()}


def _longest(hits: list[list[str]]) -> list[list[str]]:
    """The synonyms a query says (in their order) but those said only inside a longer one it also says:
    an English one whose words' forms stand inside another's ("walk" in "walk up to"), a Chinese one
    inside another's characters (塌了 in 地板塌了). The time grows with the hits and their distinct
    keys' length (:func:`inside_others`), not with the square of the hits: a crafted table can make
    thousands of pairs say one word.

    >>> [say for say, *_ in _longest([["walk", "move"], ["walk up to", "approach"], ["owl", "creature"]])]
    ['walk up to', 'owl']
    >>> [say for say, *_ in _longest([["塌了", "崩塌"], ["地板塌了", "崩塌的房间"], ["walk", "move"]])]
    ['地板塌了', 'walk']
    """
    keys = [_key(pair[0]) for pair in hits]
    # Only one script's keys are compared with each other: only an English one starts with a space.
    inside = inside_others(k for k in keys if k.startswith(" ")) | inside_others(
        k for k in keys if k and not k.startswith(" ")
    )
    return [pair for pair, key in zip(hits, keys) if not key or key not in inside]


def inside_others(keys: Iterable[str]) -> set[str]:
    """The keys that stand inside another of the keys (a proper substring of it).

    Each distinct key is written once into a trie with Aho–Corasick's failure links (a node's link is
    its longest proper suffix that is also a node): a key inside another is a proper prefix of a key
    (its node has children) or a proper suffix of a prefix of one (some node links to it). The time
    grows with the total length of the distinct keys; comparing every key with every other grew with
    the square of their number.

    >>> sorted(inside_others(["地板塌了", "塌了", "板塌", "了", "墙"]))
    ['了', '塌了', '板塌']
    """
    children: list[dict[str, int]] = [{}]
    node_of: dict[str, int] = {}
    for key in set(keys):
        node = 0
        for char in key:
            following = children[node].get(char)
            if following is None:
                following = children[node][char] = len(children)
                children.append({})
            node = following
        node_of[key] = node
    link = [0] * len(children)
    linked: set[int] = set()
    queue = deque(children[0].values())  # breadth first: a node's link is known before its children's
    while queue:
        node = queue.popleft()
        for char, child in children[node].items():
            back = link[node]
            while back and char not in children[back]:
                back = link[back]
            target = children[back].get(char, 0)
            link[child] = target if node and target != child else 0
            if link[child]:
                linked.add(link[child])
            queue.append(child)
    return {key for key, node in node_of.items() if children[node] or node in linked}


def _key(say: str) -> str:
    """What :func:`_longest` compares: an English synonym's words' forms between spaces, a Chinese one
    itself (only an English one starts with a space: one script's synonyms are compared with each other)."""
    english, padded, _, _ = _prepared(say)
    return padded if english else say


@lru_cache(maxsize=16384)
def _prepared(say: str) -> tuple[bool, str, bool, tuple[str, ...]]:
    """What :func:`said_scopes` compares for one synonym, worked out once: whether it is English, its
    words' forms between spaces, whether it may be said with an object inside (a phrasal verb), and
    a Chinese one's forms with an aspect particle (:func:`aspect_forms`)."""
    if not say.isascii():
        return False, "", False, aspect_forms(say)
    form = say_form(say)
    return True, f" {form} " if form else "", " " in form and not OBJECTS.intersection(_WORD.findall(say)), ()


@lru_cache(maxsize=4096)
def say_form(say: str) -> str:
    """An English synonym as the forms of its words (what :func:`synonyms_said` compares).

    >>> say_form("swing at"), say_form("ko'd")
    ('swing at', 'ko d')
    """
    return " ".join(word_form(w) for w in _WORD.findall(say))


def aspect_forms(say: str) -> tuple[str, ...]:
    """A Chinese synonym with each aspect particle after its first character (:data:`ASPECT`: "被砍了一刀"
    says 砍一刀); none for an English one.

    >>> said = lambda folded, say: any(form in folded for form in aspect_forms(say))
    >>> said("被砍了一刀", "砍一刀"), said("开鬼", "开鬼"), said("san了值", "san值")
    (True, False, False)
    """
    return () if say[:1].isascii() else tuple(say[0] + particle + say[1:] for particle in ASPECT)


def said_word(say: str) -> bool:
    """Whether a synonym is one English word (none of its forms is corrected into another word)."""
    return say.isascii() and say.isalpha()


_ALNUM = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")


def _said(folded: str, say: str) -> bool:
    """Whether English ``say`` stands in ``folded`` as whole words."""
    start = folded.find(say)
    while start >= 0:
        end = start + len(say)
        if (start == 0 or folded[start - 1] not in _ALNUM) and (end == len(folded) or folded[end] not in _ALNUM):
            return True
        start = folded.find(say, start + 1)
    return False
