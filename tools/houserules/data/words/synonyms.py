"""The search's synonym tables as the query analysis uses them: what players say → the rules' word.

The tables are data (``rules_data/synonyms.yaml``, ``rules_data/<game>/synonyms.yaml``, and the
glossaries' variants); the command line keeps their pairs in its index's metadata and the site in
its search head, and both add what a query's synonyms mean to the query (:func:`synonyms_said`).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from .searchtext import fold, word_form

_WORD = re.compile(r"[a-z0-9]+")
#: The object a player puts inside a phrasal verb ("patch her up", "pick it up", "turn it over"):
#: a synonym of two or more words without one of these is said with one of them inside too.
OBJECTS = frozenset({"it", "him", "her", "them", "me", "us", "you"})

if TYPE_CHECKING:  # the search starts without loading the data model
    from ..reading.model import KnowledgeBase


def synonym_pairs(kb: KnowledgeBase) -> list[list[str]]:
    """The synonym tables of a knowledge base as ``[what players say, what it means]``, folded,
    sorted, without repeats (the general table and every game's: a query may be about any game),
    and the glossaries' own: a term's variants and deprecated forms mean the term (a Chinese
    one its Chinese name, an English one its English name; one Chinese character names too little)."""
    pairs = {
        (fold(say).strip(), fold(item.means).strip())
        for table in kb.synonym_tables()
        for item in table.items
        for say in item.say
    }
    for game in kb.games.values():
        for term in game.glossary.terms if game.glossary else []:
            for say in [*term.variants, *term.deprecated]:
                folded = fold(say).strip()
                if folded.isascii() or len(folded) > 1:
                    pairs.add((folded, fold(term.en if folded.isascii() else term.zh).strip()))
    return [list(pair) for pair in sorted(pairs) if pair[0] and pair[0] != pair[1]]


def synonyms_said(text: str, pairs: list[list[str]]) -> list[str]:
    """What the synonyms a query uses mean, in the pairs' order without repeats: a Chinese word
    anywhere in the query, English words as whole words, in any of their forms ("stabbing",
    "stabbed" say "stab"; "took a shot" says "take a shot": the words' :func:`word_form`), a
    phrasal verb also with its object inside ("patched him up" says "patch up": :data:`OBJECTS`).

    >>> synonyms_said("我扣血了", [["扣血", "伤害"]]), synonyms_said("fellow", [["fell", "fall"]])
    (['伤害'], [])
    >>> synonyms_said("I'm shooting at it", [["shoot", "ranged attack"]])
    ['ranged attack']
    >>> synonyms_said("nobody patches her up", [["patch up", "heal"]])
    ['heal']
    """
    folded = fold(text)
    forms = loose = ""
    found: dict[str, None] = {}
    for say, means in pairs:
        if say.isascii():
            if not forms:
                words = _WORD.findall(folded)
                forms = f" {' '.join(word_form(w) for w in words)} "
                loose = f" {' '.join(word_form(w) for w in words if w not in OBJECTS)} "
            form = say_form(say)
            split = " " in form and not OBJECTS.intersection(_WORD.findall(say))
            if (form and f" {form} " in forms) or (split and f" {form} " in loose) or _said(folded, say):
                found.setdefault(means, None)
        elif say in folded:
            found.setdefault(means, None)
    return list(found)


@lru_cache(maxsize=4096)
def say_form(say: str) -> str:
    """An English synonym as the forms of its words (what :func:`synonyms_said` compares).

    >>> say_form("swing at"), say_form("ko'd")
    ('swing at', 'ko d')
    """
    return " ".join(word_form(w) for w in _WORD.findall(say))


def said_word(say: str) -> bool:
    """Whether a synonym is one English word (none of its forms is corrected into another word)."""
    return say.isascii() and say.isalpha()


_ALNUM = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")


def _said(folded: str, say: str) -> bool:
    if not say.isascii():
        return say in folded
    start = folded.find(say)
    while start >= 0:
        end = start + len(say)
        if (start == 0 or folded[start - 1] not in _ALNUM) and (end == len(folded) or folded[end] not in _ALNUM):
            return True
        start = folded.find(say, start + 1)
    return False
