"""The command-line search: open the cached index and query it.

Results are folded by entry: one hit per entry, the best-scoring of its
documents (so a question hit stands for its entry). The index itself (what it
holds and where it is kept) is :mod:`houserules.search.documents` and
:mod:`houserules.search.cache`.

Queries are built here, not parsed: the text only ever becomes search terms,
so syntax characters (``AND``, ``(``, ``*``, ``"``, ``:``) are ordinary text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from whoosh import collectors
from whoosh import index as whoosh_index
from whoosh.query import And, Or, Query, Term

from . import analysis as searchtext
from .cache import META_FILE, ensure_index
from .documents import FIELD_BOOSTS

#: A query equal to a code or a title (ignoring case, spaces and punctuation) comes first.
EXACT_BOOST = 1000.0
#: A query equal to an alias ranks above partial matches, below exact titles.
EXACT_ALIAS_BOOST = 40.0
#: A term in more than this share of the entries' texts is not looked up there
#: (it still counts in names and codes): it barely changes the ranking, and
#: scoring its long posting list is most of the time of a long query.
MAX_COMMON_SHARE = 0.1
COMMON_SKIPPED = ("summary", "body")
#: The fields of the exact keys (a whole code, title or alias): not terms of the query for coordination.
EXACT_FIELDS = ("exact", "exact_alias")
#: A question prefers the entries that answer (rulings and rules) over the things they are about.
QUESTION_KINDS = ("ruling", "rule")
QUESTION_BOOST = 10.0
#: ... and a question document (a question players asked) a little more.
QUESTION_DOC_BOOST = 10.0
#: English words this long or longer may be corrected (shorter ones are too ambiguous).
MIN_CORRECTED = 4
#: An unknown last word this long or longer is completed (search as you type: "eleva" →
#: "elevator") by the most frequent indexed words it begins, at most COMPLETIONS of them.
MIN_COMPLETED = 3
COMPLETIONS = 3

_ASCII_WORD = re.compile(r"[a-z]+")


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


class SearchIndex:
    """An open index: run many queries against one searcher."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.meta: dict[str, Any] = json.loads((folder / META_FILE).read_text(encoding="utf-8"))
        self._ix = whoosh_index.open_dir(str(folder))
        self._searcher = self._ix.searcher()
        self._reader = self._searcher.reader()
        self._corrector = self._searcher.corrector("words")
        self._count = max(1, self._reader.doc_count())
        # The index's own analyzer, so an index built for comparison is queried its way.
        self._analyzer = self._ix.schema["body"].analyzer
        self._answers: set[int] | None = None
        self._questions: set[int] = set()

    def __enter__(self) -> SearchIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._searcher.close()
        self._ix.close()

    @property
    def games(self) -> list[str]:
        games: list[str] = self.meta["games"]
        return games

    def refs(self) -> set[str]:
        """Every indexed entry as ``game:id``."""
        return set(self._reader.field_terms("entry"))

    @property
    def problems(self) -> list[str]:
        problems: list[str] = self.meta["problems"]
        return problems

    def correct(self, text: str) -> str:
        """The folded query with unknown English words replaced by the closest indexed word,
        and an unknown last word by the words it begins: against the seeds' index, "Elevatr crash"
        becomes "elevator crash" and "mystic eleva" becomes "mystic elevator elevators".
        """
        folded = searchtext.fold(text)

        def fix(match: re.Match[str]) -> str:
            word = match.group(0)
            if ("words", word) in self._reader:
                return word
            if len(word) >= MIN_COMPLETED and searchtext.is_last_word(folded, match.start(), match.end()):
                completions = self.complete(word)
                if completions:
                    return " ".join(completions)
            if len(word) < MIN_CORRECTED:
                return word
            maxdist = 1 if len(word) < 7 else 2
            found = self._corrector.suggest(word, limit=1, maxdist=maxdist, prefix=1)
            return found[0] if found else word

        return _ASCII_WORD.sub(fix, folded)

    def complete(self, prefix: str) -> list[str]:
        """The indexed words that begin with ``prefix``, most frequent first (ties: alphabetical)."""
        words = [w.decode() if isinstance(w, bytes) else w for w in self._reader.expand_prefix("words", prefix)]
        ranked = sorted(words, key=lambda w: (-self._reader.doc_frequency("words", w), w))
        return ranked[:COMPLETIONS]

    def _common(self, field: str, term: str) -> bool:
        return bool(self._reader.doc_frequency(field, term) > MAX_COMMON_SHARE * self._count)

    def query(self, text: str) -> Query | None:
        """The Whoosh query for a text, or None when it holds nothing searchable.

        A question's preference for answers (:func:`bonus`) is added to these scores
        afterwards, by :meth:`ranked`.
        """
        terms = searchtext.query_terms(self.correct(text), self._analyzer)
        key = searchtext.exact_key(text)
        if not terms and not key:
            return None
        parts: list[Query] = [
            Term(f, t, boost=b)
            for t in terms
            for f, b in FIELD_BOOSTS.items()
            if f not in COMMON_SKIPPED or not self._common(f, t)
        ]
        if key:
            parts += [Term("exact", key, boost=EXACT_BOOST), Term("exact_alias", key, boost=EXACT_ALIAS_BOOST)]
        query = Or(parts)
        # Whoosh adds the parts in an array past 5,000 documents too (its default there is a
        # tree of binary unions, three times slower for a long question at 5,000 entries).
        query.matcher_type = Or.ARRAY_MATCHER
        return query

    def ranked(self, text: str, limit: int, flt: Query | None = None) -> list[tuple[float, int]]:
        """The best ``limit`` documents as ``(score, docnum)``, best first (ties: lower docnum).

        For a question each document gains its :meth:`bonus` as it is scored. (Whoosh's
        AndMaybe would add it inside the query, but its top-k pruning drops documents that
        belong in the top: "how to open the vault door" lost betrayal:vault.)
        """
        query = self.query(text)
        if query is None:
            return []
        collector: Any = _Collector(limit, self.bonus if searchtext.is_question(text) else None, self.term_docs(query))
        if flt is not None:
            collector = collectors.FilterCollector(collector, allow=flt)
        self._searcher.search_with_collector(query, collector)
        return [(hit.score, hit.docnum) for hit in collector.results()]

    def term_docs(self, query: Query) -> list[frozenset[int]]:
        """For each distinct term of the query (not the exact keys), the documents it scores in."""
        found: dict[str, set[int]] = {}
        for part in query.subqueries:
            if part.fieldname in EXACT_FIELDS:
                continue
            docs = found.setdefault(part.text, set())
            if (part.fieldname, part.text) in self._reader:
                docs.update(self._reader.postings(part.fieldname, part.text).all_ids())
        return [frozenset(docs) for docs in found.values()]

    def bonus(self, docnum: int) -> float:
        """What a question adds to a document: answers (rulings, rules) and questions come first."""
        if self._answers is None:

            def ids(field: str, text: str) -> set[int]:
                return set(self._reader.postings(field, text).all_ids()) if (field, text) in self._reader else set()

            self._answers = set().union(*(ids("kind", k) for k in QUESTION_KINDS))
            self._questions = ids("type", "question")
        return (QUESTION_BOOST if docnum in self._answers else 0.0) + (
            QUESTION_DOC_BOOST if docnum in self._questions else 0.0
        )

    def search(self, text: str, game: str | None = None, kind: str | None = None, limit: int = 10) -> list[Hit]:
        """Ranked hits for ``text``, optionally limited to one game and/or kind.

        One hit per entry: the entry's best document, so several matching questions
        of one entry never push other entries out.
        """
        filters = [Term("game", game)] if game else []
        filters += [Term("kind", kind)] if kind else []
        flt = And(filters) if filters else None
        asks = searchtext.is_question(text)
        fetch = limit * 4
        while True:
            found = self.ranked(text, fetch, flt)
            records = ((self._reader.stored_fields(docnum)["record"], score) for score, docnum in found)
            hits = fold(records, limit, asks)
            if len(hits) >= limit or len(found) < fetch:
                return hits
            fetch *= 4


class _Collector(collectors.TopCollector):
    """Whoosh's top-k collector, scoring every match (faster here than its pruning, which
    replaces the matchers of the many per-field terms every few documents), times the
    share of the query's terms the document has (coordination: a document with more of
    what was asked beats one with a single frequent word of it), plus a bonus."""

    def __init__(self, limit: int, bonus: Any = None, term_docs: list[frozenset[int]] | None = None):
        super().__init__(limit=limit, usequality=False, replace=0)
        self._bonus = bonus
        self._term_docs = term_docs or []

    def collect(self, sub_docnum: int) -> Any:
        docnum = self.offset + sub_docnum
        score = self.matcher.score()
        if self._term_docs:
            score *= sum(1 for docs in self._term_docs if docnum in docs) / len(self._term_docs)
        return self._collect(docnum, score + self._bonus(docnum) if self._bonus else score)


def fold(scored: Iterable[tuple[dict[str, Any], float]], limit: int, asks: bool) -> list[Hit]:
    """One hit per entry, in rank order, at most ``limit``: the entry's best document and score.

    When that document is a question but the query does not ask anything (``电梯``,
    ``elevator crash``), the hit shows the entry itself, with the question's score.
    """
    seen: set[str] = set()
    hits = []
    for record, score in scored:
        if record["id"] not in seen:
            seen.add(record["id"])
            if not asks and "question" in record:
                record = {key: value for key, value in record.items() if key != "question"}
                record["url"] = record["url"].partition("#")[0]
            hits.append(Hit(record, score))
            if len(hits) == limit:
                break
    return hits


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
