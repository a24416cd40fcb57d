"""The parts of a score beyond Whoosh's: coordination by rarity, and the game a query is about.

The site's worker (``hr-search-worker.js``) computes the same from the exported term lists.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

#: A question hit leads with the question only when the question holds this share of the query
#: (its coordination); else the entry's one-line answer comes first, the question below it.
QUESTION_SHOWN = 0.9


def coordination(term_docs: list[frozenset[int]], count: int) -> Callable[[int], float]:
    """The share of the query a document has: the weights of the query's terms it holds over
    the weights of all the query's terms found anywhere (a term no document has changes nothing).
    A term weighs its inverse document frequency, so a long sentence's common words ("still",
    "turn") do not drown the one rare word that says what it is about."""
    weighted = [(docs, term_weight(len(docs), count)) for docs in term_docs if docs]
    total = sum(w for _, w in weighted)
    if not total:
        return lambda docnum: 1.0
    return lambda docnum: sum(w for docs, w in weighted if docnum in docs) / total


def term_weight(df: int, count: int) -> float:
    """A term's weight in :func:`coordination`: how rare it is among the documents."""
    return math.log(1 + count / df)


def favoured_game(term_docs: list[frozenset[int]], game_of: list[int]) -> int | None:
    """The game the query's words belong to: the game with the most query terms found in its
    documents alone (a term found in one game only is that game's), if one game has more than
    any other; else None."""
    counts: dict[int, int] = {}
    for docs in term_docs:
        games = {game_of[d] for d in docs}
        if len(games) == 1:
            game = games.pop()
            counts[game] = counts.get(game, 0) + 1
    return favourite(counts)


def favourite(counts: dict[int, int]) -> int | None:
    """The game with the most terms of its own in ``counts`` (game → terms), if one has more than
    any other; else None (:func:`favoured_game`)."""
    if not counts:
        return None
    ranking = sorted(counts.values(), reverse=True)
    if len(ranking) > 1 and ranking[0] == ranking[1]:
        return None
    return max(counts, key=counts.__getitem__)


@dataclass
class Hit:
    """One search result: the stored record of an entry (with ``question`` when a question
    of the entry matched best) and its score."""

    record: dict[str, Any]
    score: float

    @property
    def question(self) -> dict[str, Any] | None:
        return self.record.get("question")

    def to_json(self) -> dict[str, Any]:
        return {**self.record, "score": round(self.score, 4)}


def fold(scored: Iterable[tuple[dict[str, Any], float, float]], limit: int, asks: bool) -> list[Hit]:
    """One hit per entry, in rank order, at most ``limit``: the entry's best document and score.

    When that document is a question but the query does not ask anything (``电梯``,
    ``elevator crash``), the hit shows the entry itself, with the question's score. When
    the query asks but the question holds less than :data:`QUESTION_SHOWN` of it (by
    coordination), the question answers something else: the hit leads with the entry's
    one-line answer (``lead: "entry"``, the entry's page) and keeps the question below it.
    """
    seen: set[str] = set()
    hits = []
    for record, score, share in scored:
        if record["id"] not in seen:
            seen.add(record["id"])
            if not asks and "question" in record:
                record = {key: value for key, value in record.items() if key != "question"}
                record["url"] = record["url"].partition("#")[0]
            elif "question" in record:
                lead = "question" if share >= QUESTION_SHOWN else "entry"
                record = {**record, "lead": lead}
                if lead == "entry":
                    record["url"] = record["url"].partition("#")[0]
            hits.append(Hit(record, score))
            if len(hits) == limit:
                break
    return hits
