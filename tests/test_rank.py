"""The ranking at its seam: a plan and the postings in, scores out, nothing else read (search.rank)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pytest

from houserules.search import rank as ranking
from houserules.search.documents import FIELD_BOOSTS
from houserules.search.query import QueryPlan


@dataclass
class Tables:
    """Four documents: 0 and 1 of game 0 (1 a question), 2 and 3 of game 1 (2 a ruling); ``postings`` gives
    each (field, term) its documents and their unboosted scores."""

    postings: dict[tuple[str, str], dict[int, float]]
    game_of: list[int] = field(default_factory=lambda: [0, 0, 1, 1])
    read: list[tuple[str, str]] = field(default_factory=list)

    def scores(self, field: str, term: str) -> tuple[tuple[int, ...], tuple[float, ...]]:
        self.read.append((field, term))
        found = self.postings.get((field, term), {})
        return tuple(found), tuple(found.values())

    def common_in(self, field: str, term: str) -> bool:
        return False

    def games_of(self) -> list[int]:
        return self.game_of

    def only_game(self, term: str, docs: set[int]) -> int | None:
        games = {self.game_of[d] for d in docs}
        return games.pop() if len(games) == 1 else None

    def answers(self) -> tuple[set[int], set[int]]:
        return {2}, {1}

    def live_count(self) -> int:
        return len(self.game_of)


def plan(*terms: str, **fields) -> QueryPlan:
    values = dict(scoped={}, key="", name_terms=frozenset(), names=frozenset(), about=frozenset())
    values |= dict(named_game=None, question=False)
    return QueryPlan(terms=terms, **{**values, **fields})


def scores(found: ranking.Ranked) -> dict[int, float]:
    return {docnum: -score for score, docnum in found.found}


def test_a_term_scores_its_fields_boosted_times_the_share_of_the_query_a_document_holds():
    tables = Tables({("title", "vault"): {0: 2.0, 2: 1.0}, ("body", "door"): {2: 3.0}})
    found = ranking.rank(plan("vault", "door"), tables)
    w_vault, w_door = math.log(1 + 4 / 2), math.log(1 + 4 / 1)
    total = w_vault + w_door
    # document 0 holds one term of two, and that term is of one game only: game 0 gains nothing (a tie)
    assert scores(found)[0] == pytest.approx(2.0 * FIELD_BOOSTS["title"] * w_vault / total)
    assert scores(found)[2] == pytest.approx(
        1.0 * FIELD_BOOSTS["title"] + 3.0 * FIELD_BOOSTS["body"] + ranking.GAME_BOOST
    )
    assert found.coordinate(0) == pytest.approx(w_vault / total) and found.coordinate(2) == pytest.approx(1.0)


def test_the_same_plan_and_postings_give_the_same_scores():
    postings = {("title", "vault"): {0: 2.0, 2: 1.0}, ("summary", "door"): {1: 1.5, 3: 0.5}}
    first, second = Tables(postings), Tables(postings)
    asked = plan("vault", "door", question=True, names=frozenset({3}))
    assert scores(ranking.rank(asked, first)) == scores(ranking.rank(asked, second))
    assert set(first.read) == set(second.read) <= {(f, t) for f in FIELD_BOOSTS for t in ("vault", "door")}


def test_a_question_prefers_answers_and_questions_and_a_named_entry_comes_first():
    tables = Tables({("body", "turn"): {0: 1.0, 1: 1.0, 2: 1.0, 3: 1.0}})
    found = scores(ranking.rank(plan("turn", question=True, names=frozenset({3})), tables))
    base = FIELD_BOOSTS["body"]
    assert found == pytest.approx(
        {0: base, 1: base + ranking.QUESTION_DOC_BOOST, 2: base + ranking.QUESTION_BOOST, 3: base + ranking.NAME_BOOST}
    )


def test_a_named_game_keeps_its_documents_only_when_any_matched():
    tables = Tables({("body", "bag"): {0: 5.0, 1: 5.0}, ("body", "slot"): {2: 1.0}})
    named = scores(ranking.rank(plan("bag", "slot", named_game=1), tables))
    assert set(named) == {2}
    nothing = scores(ranking.rank(plan("bag", named_game=1), tables))
    assert set(nothing) == {0, 1}  # the named game matched nothing: every game's documents stay


def test_a_games_synonym_scores_that_games_documents_only_and_votes_for_no_game():
    tables = Tables({("body", "minion"): {0: 1.0, 2: 1.0}})
    found = scores(ranking.rank(plan("minion", scoped={"minion": frozenset({1})}), tables))
    assert found == pytest.approx(
        {2: FIELD_BOOSTS["body"]}
    )  # no game boost: the synonym says whose table, not whose question


def test_an_exact_key_adds_its_boost_and_an_empty_plan_finds_nothing():
    tables = Tables({("exact", "bh a13"): {3: 1.0}})
    assert scores(ranking.rank(plan(key="bh a13"), tables)) == pytest.approx({3: ranking.EXACT_BOOST})
    assert ranking.rank(plan(), tables).found == []
    assert scores(ranking.rank(plan(key="bh a13"), tables, allowed={0, 1})) == {}


def test_a_games_synonym_is_not_read_when_the_query_names_another_games_entry():
    """Both games' tables read a player's word, each as its own rules' word: the reading of the game whose entry the
    query names is scored; the other game's is not (it would bring that game's documents up for a word the player
    said of another game). Naming no entry, or entries of both games, both readings count."""
    tables = Tables({("body", "slot"): {0: 1.0}, ("body", "inventory"): {3: 5.0}, ("title", "trick"): {1: 1.0}})
    scoped = {"slot": frozenset({0}), "inventory": frozenset({1})}
    names_game_0 = scores(ranking.rank(plan("trick", "slot", "inventory", scoped=scoped, names=frozenset({1})), tables))
    assert 3 not in names_game_0 and {0, 1} <= set(names_game_0)
    for names in (frozenset(), frozenset({1, 2})):
        both = scores(ranking.rank(plan("trick", "slot", "inventory", scoped=scoped, names=names), tables))
        assert {0, 1, 3} <= set(both)
    said = scores(ranking.rank(plan("trick", "slot", "inventory", scoped=scoped, named_game=1), tables))
    assert 0 not in said and 3 in said
