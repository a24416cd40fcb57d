"""The command-line search: open the cached index and query it. The query is read (corrected, analysed, its
names found) into a plan by :mod:`houserules.search.query`, the documents scored for the plan by
:mod:`houserules.search.rank`; this module folds the scores into hits and says what each shows first.

Results are folded by entry: one hit per entry, the best-scoring of its
documents (so a question hit stands for its entry). The index itself (what it
holds and where it is kept) is :mod:`houserules.search.documents` and
:mod:`houserules.search.indexcache`.

Queries are never parsed: the text only ever becomes search terms,
so syntax characters (``AND``, ``(``, ``*``, ``"``, ``:``) are ordinary text.
"""

from __future__ import annotations

import heapq
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from whoosh.query import And, Query, Term

from ..text import chinese
from . import analysis as searchtext
from .hits import across_hit, cover_first, entry_hit
from .indexcache import Built, ensure_index
from .postings import Scores
from .query import COMMON_SKIPPED as COMMON_SKIPPED  # part of this module's interface
from .query import COMPLETIONS as COMPLETIONS  # part of this module's interface
from .query import MIN_COMPLETED as MIN_COMPLETED  # part of this module's interface
from .query import MIN_CORRECTED as MIN_CORRECTED  # part of this module's interface
from .query import SCORES_KEPT, QueryPlan, QueryReader
from .rank import ABOUT_BOOST as ABOUT_BOOST  # part of this module's interface
from .rank import EXACT_ALIAS_BOOST as EXACT_ALIAS_BOOST  # part of this module's interface
from .rank import EXACT_BOOST as EXACT_BOOST  # part of this module's interface
from .rank import GAME_BOOST as GAME_BOOST  # part of this module's interface
from .rank import NAME_BOOST as NAME_BOOST  # part of this module's interface
from .rank import NAME_TERMS_SHARE as NAME_TERMS_SHARE  # part of this module's interface
from .rank import QUESTION_BOOST as QUESTION_BOOST  # part of this module's interface
from .rank import QUESTION_DOC_BOOST as QUESTION_DOC_BOOST  # part of this module's interface
from .rank import QUESTION_KINDS as QUESTION_KINDS  # part of this module's interface
from .rank import rank
from .ranking import ACROSS, answer_first, answered, fold
from .ranking import ALSO_SHARE as ALSO_SHARE  # part of this module's interface
from .ranking import ANSWER_FIRST as ANSWER_FIRST  # part of this module's interface
from .ranking import ANSWERED as ANSWERED  # part of this module's interface
from .ranking import LEAD_SHARE as LEAD_SHARE  # part of this module's interface
from .ranking import Found as Found  # part of this module's interface
from .ranking import Hit as Hit  # part of this module's interface


class SearchIndex(QueryReader):
    """An open index: run many queries against one searcher (the query read by :class:`QueryReader`)."""

    def __init__(self, folder: Path | Built):
        super().__init__(folder)
        self._answers: set[int] | None = None
        self._questions: set[int] = set()
        #: What :meth:`scores` computed, by (field, term), oldest first; the game a term's documents all
        #: belong to (None: several).
        self._scored: OrderedDict[tuple[str, str], Scores] = OrderedDict()
        self._term_game: dict[str, int | None] = {}
        self.coordinate: Callable[[int], float] = lambda docnum: 1.0
        #: The plan of the query :meth:`scored` last read.
        self.plan_read: QueryPlan | None = None
        self.game_read: int | None = None  # the game of the last query read (rank.Ranked.game)

    def __enter__(self) -> SearchIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.postings.close()

    def refs(self) -> set[str]:
        """Every indexed entry as ``game:id``."""
        return set(self.postings.terms("entry"))

    def names(self, refs: set[str]) -> dict[str, dict[str, Any]]:
        """The title (``zh``, ``en`` and ``zh-Hant``) and code of each indexed entry of ``refs`` (to name
        ``[[game:id]]`` in shown text)."""
        found = {}
        for ref in refs:
            fields = self.postings.document(ref=ref)
            if fields is not None:
                record = fields["record"]
                title = {**record["title"], "zh-Hant": fields.get("hant", {}).get("title", record["title"]["zh"])}
                found[ref] = {"title": title, "code": record["code"]}
        return found

    @property
    def problems(self) -> list[str]:
        problems: list[str] = self.meta["problems"]
        return problems

    def ranked(self, text: str, limit: int, flt: Query | None = None) -> list[tuple[float, int]]:
        """The best ``limit`` documents as ``(score, docnum)``, best first (ties: lower docnum).

        Each document's score is Whoosh's (BM25F, the sum over the query's parts: each term in
        each field, times the field's boost) times its coordination (:func:`coordination`), plus
        what is added: the entries the query names, the game its words belong to, and
        for a question the answers. (Whoosh's AndMaybe would add it inside the query, but its
        top-k pruning drops documents that belong in the top: "how to open the vault door" lost
        betrayal:vault.)
        """
        return [(-score, docnum) for score, docnum in heapq.nsmallest(limit, self.scored(text, flt))]

    def scored(self, text: str, flt: Query | None = None) -> list[tuple[float, int]]:
        """Every document the query matches as ``(-score, docnum)`` (see :meth:`ranked`), unordered;
        :attr:`coordinate` is then the query's coordination. The query is read into a plan
        (:meth:`~houserules.search.query.QueryReader.plan`) and scored by :func:`~houserules.search.rank.rank`.

        The parts' scores are Whoosh's numbers, added up there rather than by its matchers: a
        term's scores in a field are computed once per open index (:meth:`scores`), so a long
        question costs a few dictionary additions per posting instead of a union of matchers.
        """
        self.plan_read = plan = self.plan(text)
        ranked = rank(plan, self, self._allowed(flt) if flt is not None else None)
        self.coordinate = ranked.coordinate
        self.game_read = ranked.game
        return ranked.found

    def scores(self, field: str, term: str) -> Scores:
        """The documents of ``term`` in ``field`` and its BM25F score in each, unboosted, as Whoosh
        scores them (kept for the open index, at most :data:`SCORES_KEPT` terms)."""
        found = self._scored.get((field, term))
        if found is not None:
            self._scored.move_to_end((field, term))
            return found
        found = self.postings.scores(field, term)
        self._scored[(field, term)] = found
        if len(self._scored) > SCORES_KEPT:
            self._scored.popitem(last=False)
        return found

    def only_game(self, term: str, docs: set[int]) -> int | None:
        """The game of ``docs`` when they are all of one game (:func:`favoured_game`), else None."""
        if term not in self._term_game:
            game_of = self.games_of()
            games = set()
            for docnum in docs:
                games.add(game_of[docnum])
                if len(games) > 1:
                    break
            self._term_game[term] = games.pop() if len(games) == 1 else None
        return self._term_game[term]

    def live_count(self) -> int:
        return self._count

    def _allowed(self, flt: Query) -> set[int]:
        return self.postings.matching(flt)

    def answers(self) -> tuple[set[int], set[int]]:
        """The documents a question prefers: the answers (rulings, rules), and the questions."""
        if self._answers is None:
            self._answers = {d for k in QUESTION_KINDS for d in self.postings.docs("kind", k)}
            self._questions = set(self.postings.docs("type", "question"))
        return self._answers, self._questions

    def search(self, text: str, game: str | None = None, kind: str | None = None, limit: int = 10) -> list[Hit]:
        """Ranked hits for ``text``, optionally limited to one game and/or kind (:meth:`find`)."""
        return self.find(text, game, kind, limit).hits

    def find(self, text: str, game: str | None = None, kind: str | None = None, limit: int = 10) -> Found:
        """What a query finds: ranked hits, optionally limited to one game and/or kind, the language the
        query is written in and, for a question a player tells, whether a ruling answers it.

        One hit per entry, in the order of the entry's best document, so several matching questions of one
        entry never push other entries out. A hit shows the entry's question that answers the query
        (:func:`~houserules.search.ranking.leading`) with the question's page anchor, else the entry.
        """
        text = searchtext.bounded(text)  # a longer query is read up to the bound (the CLI says so)
        filters = ([Term("game", game)] if game else []) + ([Term("kind", kind)] if kind else [])
        flt = And(filters) if filters else None
        rest = self.without_game_name(text)[0]  # what the query asks, without the game it names
        asks = searchtext.is_asking(rest)
        # A message that asks several things: each part scored alone, without a game's name (its boost of every
        # document of the game would make any seem to answer a part that says little more), so a hit shows each
        # part's answer. The parts first: scoring sets the index's coordinate, the whole message's afterwards.
        asked = [self.without_game_name(part)[0] for part in searchtext.asked_parts(text)]
        parts = [{docnum: -score for score, docnum in self.scored(part, flt)} for part in asked]
        scored = self.scored(text, flt)
        plan = self.plan_read
        fetch = limit * 4
        while True:
            found = heapq.nsmallest(fetch, scored)
            # ACROSS at least, whatever the limit: what comes first (cover_first, answer_first), whether it answers (its
            # lead over the second) and the parts other entries answer (hits.across_hit) never depend on the limit.
            wanted = max(limit, ACROSS)
            best = fold(((docnum, self.postings.stored(docnum)["record"], -score) for score, docnum in found), wanted)
            if len(best) >= wanted or len(found) < fetch:
                break
            fetch *= 4
        lang = chinese.reader_script(rest)
        scores = {docnum: -score for score, docnum in scored} if best else {}
        hits = [entry_hit(self.postings, r, score, scores, asks, lang, parts) for _, r, score in best[:wanted]]
        shown = best
        if len(parts) > 1 and hits:  # the entry that answers the most parts first (hits.cover_first)
            hits, shown = cover_first(self.postings, hits, shown, parts)
        if asks and len(hits) > 1 and plan is not None:
            named = (shown[0][0] in plan.names, shown[1][0] in plan.names)
            if answer_first(hits[0], hits[1], named):  # an answer before an overview (the order shown, not the scores)
                hits[0], hits[1] = hits[1], hits[0]
                shown = [shown[1], shown[0], *shown[2:]]
        if len(parts) > 1 and hits and hits[0].record.get("lead") == "question":  # each part's answer (hits.py)
            across_hit(
                self.postings, hits[0], [r for _, r, _ in shown], parts, lang, list(map(searchtext.vague, asked))
            )
        hits = hits[:limit]
        if not asks or not best:
            return Found(hits, lang, False if asks else None)
        second = best[1][2] if len(best) > 1 else 0.0
        outside = self.said_outside(plan, best[0][0], lang, self.game_read) if plan is not None else ()
        if outside or (hits[0].question or {}).get("unanswered"):  # or what leads says the sources here lack it
            return Found(hits, lang, False, outside)
        return Found(hits, lang, answered(best[0][2], second, self.known_share(rest)))

    def said_outside(self, plan: QueryPlan, first: int, lang: str, asked: int | None = None) -> tuple[str, ...]:
        """What a told question names that no entry answers, as a reader sees it named (``lang``), when it asks that:
        another game, or a topic no source covers of the game its words are about (``asked``) or of any game, unless
        it names the first hit (``first``) too, outside a topic of its game (:meth:`QueryPlan.naming`: "the furnace
        room, then the mystic elevator"; not the "search" of "the search action"). DESIGN.md has the cases."""
        game = self.games[self.games_of()[first]]
        other = self.games[asked] if asked is not None and self.games[asked] != game else None
        said = [self.outside_names[key] for key in plan.outside]
        kept = [(label, hant) for label, of, hant in said if of in ("", other) or first not in plan.naming(of == game)]
        return tuple(dict.fromkeys(hant if lang == chinese.ZH_HANT else label for label, hant in kept))


def open_index(data_dir: Path) -> SearchIndex:
    """The index of ``data_dir``, rebuilt on demand when the data changed or the index is damaged."""
    folder = ensure_index(data_dir)
    try:
        return _checked(SearchIndex(folder))
    except Exception:  # noqa: BLE001 - a cache is disposable: whatever broke it, build it again
        return _checked(SearchIndex(ensure_index(data_dir, rebuild=True)))


def _checked(index: SearchIndex) -> SearchIndex:
    try:
        index.refs()
    except BaseException:
        index.close()
        raise
    return index
