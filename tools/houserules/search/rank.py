"""One ranking: a query read once into a :class:`QueryPlan`, scored by :func:`rank` from postings and tables.

:mod:`houserules.search.query` reads a query (correction, synonyms, names, the game it names) into the plan;
:func:`rank` adds up every document's score for it from what the index holds, and nothing else: the same
plan and the same postings give the same scores. The site's worker (``hr-search-worker.js``, ``score()``)
computes the same, step for step, from the exported term lists; the parity tests compare the two at this seam.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from .documents import FIELD_BOOSTS
from .postings import Scores
from .query import COMMON_SKIPPED, QueryPlan
from .ranking import favourite, term_weight

#: A query equal to a code or a title (ignoring case, spaces and punctuation) comes first.
EXACT_BOOST = 1000.0
#: A query equal to an alias ranks above partial matches, below exact titles.
EXACT_ALIAS_BOOST = 40.0
#: The fields of the exact keys (a whole code, title or alias): not terms of the query for coordination.
EXACT_FIELDS = ("exact", "exact_alias")
#: A question prefers the entries that answer (rulings and rules) over the things they are about.
QUESTION_KINDS = ("ruling", "rule")
QUESTION_BOOST = 15.0
#: ... and a question document (a question players asked) a little more.
QUESTION_DOC_BOOST = 10.0
#: An entry the query names (one of its titles or aliases is a run of the query's terms) comes first.
NAME_BOOST = 15.0
#: ... and an entry that refers to what the query names (a ruling about the room it names) this.
ABOUT_BOOST = 10.0
#: A name's terms weigh this share: the name boost says what it is about, the rest decides which answer.
NAME_TERMS_SHARE = 0.55
#: The documents of the game the query's words belong to (:func:`~houserules.search.ranking.favoured_game`)
#: gain this.
GAME_BOOST = 3.0


class Tables(Protocol):
    """What :func:`rank` reads of an index besides the plan."""

    def scores(self, field: str, term: str) -> Scores:
        """The documents of ``term`` in ``field`` and its BM25F score in each, unboosted."""
        ...

    def common_in(self, field: str, term: str) -> bool:
        """Whether ``term`` is too common in ``field`` to be looked up there."""
        ...

    def games_of(self) -> list[int]:
        """The game of every document (an index into the index's games)."""
        ...

    def only_game(self, term: str, docs: set[int]) -> int | None:
        """The game of ``docs`` when they are all of one game, else None."""
        ...

    def answers(self) -> tuple[set[int], set[int]]:
        """The documents a question prefers: the answers (rulings, rules), and the questions."""
        ...

    def live_count(self) -> int:
        """How many documents the index holds (a term's rarity is counted against it)."""
        ...


@dataclass
class Ranked:
    """Every document a plan matches as ``(-score, docnum)``, unordered, the query's coordination: the
    share of the query's weighted terms a document holds (1 for every document when no term matched), and
    the query's game: the one it names, else the one its words belong to (None: neither)."""

    found: list[tuple[float, int]]
    coordinate: Callable[[int], float]
    game: int | None = None


def _one_game(games: set[int]) -> int | None:
    """The game when ``games`` holds one, else None."""
    return next(iter(games)) if len(games) == 1 else None


def rank(plan: QueryPlan, tables: Tables, allowed: set[int] | None = None) -> Ranked:
    """The score of every document the plan matches, among ``allowed`` (every document when None).

    A document's score is the sum over the query's terms of each field's BM25F score times the field's boost
    (a name's term at :data:`NAME_TERMS_SHARE`; a term of games' synonyms in their documents only), times its
    coordination (the rarity-weighted share of the query's terms it holds: a long sentence's common words do
    not drown the rare word that says what it is about), plus the exact keys' boosts; then what is added: the
    entries the query names (or that are about what it names), the documents of the query's game (the one it
    names, else the one its words belong to), and for a question the answers and the questions. A query
    naming one game keeps that game's documents only, when any of them matched.
    """
    if not plan.terms and not plan.key:
        return Ranked([], lambda docnum: 1.0)
    game_of = tables.games_of()
    count = len(game_of)
    scores = [0.0] * count
    shares = [0.0] * count
    touched: set[int] = set()
    total = 0.0
    games: dict[int, int] = {}
    live = max(1, tables.live_count())
    # A game's synonym counts only when the query is not about another game: one it names, or the one game of
    # every entry it names ("计谋卡要占背包格子吗" names Mice and Mystics' trick cards, whose table reads 背包格子
    # as a bag slot; Mausritter's table, as an inventory slot).
    said_game = plan.named_game if plan.named_game is not None else _one_game({game_of[d] for d in plan.names})
    for term in plan.terms:
        share = NAME_TERMS_SHARE if term in plan.name_terms else 1.0
        only = plan.scoped.get(term)
        if only is not None and said_game is not None and said_game not in only:
            continue
        docs: set[int] = set()
        everywhere: set[int] = set()
        for field, boost in FIELD_BOOSTS.items():
            if field in COMMON_SKIPPED and tables.common_in(field, term):
                continue
            ids, values = tables.scores(field, term)
            if ids and only is not None:
                everywhere.update(ids)
                kept = [(d, v) for d, v in zip(ids, values) if game_of[d] in only]
                ids, values = tuple(d for d, _ in kept), tuple(v for _, v in kept)
            if ids:
                _add(scores, ids, values, boost * share)
                docs.update(ids)
        if docs:
            # Its rarity everywhere: a game's synonym's documents in every game, any other term's where it scores.
            weight = term_weight(len(everywhere if only is not None else docs), live)
            for docnum in docs:
                shares[docnum] += weight
            touched |= docs
            total += weight
            if only is not None:  # a game's synonym says nothing about which game the query is about
                continue
            game = tables.only_game(term, docs)
            if game is not None:
                games[game] = games.get(game, 0) + 1
    if plan.key:
        for field, boost in (("exact", EXACT_BOOST), ("exact_alias", EXACT_ALIAS_BOOST)):
            ids, values = tables.scores(field, plan.key)
            if ids:
                _add(scores, ids, values, boost)
                touched.update(ids)
    if allowed is not None:
        touched &= allowed
    # A player who says the game asks about it ("鼠鼠骑士的背包", "combat in Betrayal"), whichever game's
    # words the rest of the question shares: only its documents, when any matched (as --game would).
    named_game = plan.named_game
    if named_game is not None and any(game_of[docnum] == named_game for docnum in touched):
        touched = {docnum for docnum in touched if game_of[docnum] == named_game}
    game = favourite(games) if named_game is None else named_game
    answers, questions = tables.answers() if plan.question else (set(), set())
    found = []
    for docnum in touched:
        score = scores[docnum] * (shares[docnum] / total if total else 1.0)
        if docnum in plan.names:
            score += NAME_BOOST
        elif docnum in plan.about:
            score += ABOUT_BOOST
        if game_of[docnum] == game:
            score += GAME_BOOST
        if docnum in answers:
            score += QUESTION_BOOST
        if docnum in questions:
            score += QUESTION_DOC_BOOST
        found.append((-score, docnum))
    if not total:
        return Ranked(found, lambda docnum: 1.0, game)
    return Ranked(found, lambda docnum: shares[docnum] / total, game)


def _add(scores: list[float], ids: tuple[int, ...], values: tuple[float, ...], boost: float) -> None:
    """Add ``boost`` times each document's value to its score."""
    for docnum, value in zip(ids, values):
        scores[docnum] += boost * value
