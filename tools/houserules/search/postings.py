"""The read side of the search index: the one module that reads Whoosh's reader and searcher, or makes the same
postings in memory (:class:`MemoryPostings`, for the site's index).

:class:`~houserules.search.index.SearchIndex` (the command line's ranking) and
:mod:`~houserules.search.shards` (the site's index files) ask this for what a term holds: its
documents, its BM25F score in each, the stored records. Both get the same numbers from the same
code, so the site ranks as the command line does; neither reaches into Whoosh's objects.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from math import log
from pathlib import Path
from typing import Any

from whoosh import index as whoosh_index
from whoosh.query import And, Query, Term
from whoosh.scoring import BM25F, BM25FScorer, bm25
from whoosh.support.levenshtein import levenshtein
from whoosh.util.numeric import byte_to_length, length_to_byte

#: A term's documents and its unboosted score in each: ``(docnums, scores)``, in document order.
Scores = tuple[tuple[int, ...], tuple[float, ...]]


def _text(raw: bytes | str) -> str:
    return raw.decode("utf-8") if isinstance(raw, bytes) else raw


class Postings:
    """An open Whoosh index, read: terms, their documents and scores, and the stored records."""

    def __init__(self, folder: Path):
        self._ix = whoosh_index.open_dir(str(folder))
        self._searcher = self._ix.searcher()
        self._reader = self._searcher.reader()
        #: The index's own analyzer (every searchable field has the same), so an index built for
        #: comparison is queried its way.
        self.analyzer = self._ix.schema["body"].analyzer
        self._lengths: dict[str, dict[int, int]] = {}

    def close(self) -> None:
        self._searcher.close()
        self._ix.close()

    def doc_count(self) -> int:
        """The documents the index holds (stored records are numbered ``0 .. doc_count() - 1``)."""
        count: int = self._reader.doc_count_all()
        return count

    def live_count(self) -> int:
        """The documents not deleted (what term rarity is measured against)."""
        count: int = self._reader.doc_count()
        return count

    def has(self, field: str, term: str) -> bool:
        return (field, term) in self._reader

    def fields(self) -> set[str]:
        return set(self._reader.indexed_field_names())

    def terms(self, field: str) -> Iterator[str]:
        """Every term of ``field``, in order."""
        return (_text(raw) for raw in self._reader.lexicon(field))

    def prefixed(self, field: str, prefix: str) -> list[str]:
        """The terms of ``field`` that begin with ``prefix``."""
        return [_text(raw) for raw in self._reader.expand_prefix(field, prefix)]

    def within(self, field: str, word: str, maxdist: int, prefix: int = 1) -> Iterable[str]:
        """The terms of ``field`` within ``maxdist`` edits of ``word`` (Whoosh counts a swap as two), the
        first ``prefix`` letters the same."""
        return (_text(raw) for raw in self._reader.terms_within(field, word, maxdist, prefix=prefix))

    def doc_frequency(self, field: str, term: str) -> int:
        return int(self._reader.doc_frequency(field, term))

    def frequency(self, field: str, term: str) -> int:
        return int(self._reader.frequency(field, term) or 0)

    def docs(self, field: str, term: str) -> list[int]:
        """The documents holding ``term`` in ``field``, in order (none when the term is not indexed)."""
        if (field, term) not in self._reader:
            return []
        return list(self._reader.postings(field, term).all_ids())

    def stored(self, docnum: int) -> dict[str, Any]:
        """What a document stores (its ``record``, and ``hant``: its Chinese texts in Traditional)."""
        fields: dict[str, Any] = self._reader.stored_fields(docnum)
        return fields

    def document(self, **terms: str) -> dict[str, Any] | None:
        """The stored fields of the document with these terms (e.g. ``ref="betrayal:vault"``), or None."""
        found: dict[str, Any] | None = self._searcher.document(**terms)
        return found

    def matching(self, query: Query) -> set[int]:
        """The documents a (filter) query matches."""
        return set(query.docs(self._searcher))

    def scores(self, field: str, term: str) -> Scores:
        """The documents of ``term`` in ``field`` and Whoosh's BM25F score of the term in each, unboosted."""
        if (field, term) not in self._reader:
            return (), ()
        ids, values = [], []
        for docnum, value in self._scored(field, term, self._length(field)):
            ids.append(docnum)
            values.append(value)
        return tuple(ids), tuple(values)

    def field_scores(self, field: str, skip: Callable[[str], bool] | None = None) -> Iterator[tuple[str, Scores]]:
        """Every term of ``field`` (but those ``skip`` says) with :meth:`scores`: the site's index writes them all.
        A field's lengths are read at once for all its terms."""
        lengths = [self._searcher.doc_field_length(d, field, 1) for d in range(self.doc_count())]
        for term in self.terms(field):
            if skip is not None and skip(term):
                continue
            pairs = list(self._scored(field, term, lengths.__getitem__))
            yield term, (tuple(d for d, _ in pairs), tuple(v for _, v in pairs))

    def _scored(self, field: str, term: str, length: Callable[[int], int]) -> Iterator[tuple[int, float]]:
        scorer = self._searcher.weighting.scorer(self._searcher, field, term)
        if type(scorer) is BM25FScorer:  # the scorer's own formula and numbers, without a call per posting
            idf, avgfl, b, k1 = scorer.idf, scorer.avgfl, scorer.B, scorer.K1
            matcher = self._reader.postings(field, term)
            while matcher.is_active():
                docnum = matcher.id()
                yield docnum, bm25(idf, matcher.weight(), length(docnum), avgfl, b, k1)
                matcher.next()
            return
        matcher = self._reader.postings(field, term, scorer=scorer)
        while matcher.is_active():
            yield matcher.id(), matcher.score()
            matcher.next()

    def _length(self, field: str) -> Callable[[int], int]:
        """A document's length in ``field`` as the scorer reads it (default 1), remembered."""
        known = self._lengths.setdefault(field, {})
        searcher = self._searcher

        def length(docnum: int) -> int:
            found = known.get(docnum)
            if found is None:
                found = known[docnum] = searcher.doc_field_length(docnum, field, 1)
            return found

        return length


class MemoryPostings:
    """What :class:`Postings` reads of an index, made in memory from the documents: the site's index is exported
    from it, with nothing written and read again.

    Each value is indexed by its schema field, as Whoosh's writer indexes it (the same terms and weights), and a
    document's length in a field is kept as Whoosh keeps it, in one byte; a term's inverse document frequency and
    a field's average length are Whoosh's formulas. So every score is Whoosh's to the bit (a test compares the
    exported files with those of a written index).
    """

    def __init__(self, schema: Any, docs: Iterable[dict[str, Any]]):
        self.analyzer = schema["body"].analyzer
        self._stored: list[dict[str, Any]] = []
        self._postings: dict[str, dict[str, list[tuple[int, float]]]] = {}
        self._lengths: dict[str, dict[int, int]] = {}
        self._totals: dict[str, int] = {}
        #: Whoosh scores a term of a field that keeps no lengths (an ID) by its weight alone.
        self._scorable = {name for name in schema.names() if schema[name].scorable}
        for docnum, doc in enumerate(docs):
            stored: dict[str, Any] = {}
            for name in sorted(doc):
                value = doc[name]
                if value is None:
                    continue
                field = schema[name]
                if field.indexed:
                    terms = self._postings.setdefault(name, {})
                    length = 0
                    for raw, freq, weight, _ in field.index(value):
                        length += freq if field.scorable else 0
                        terms.setdefault(_text(raw), []).append((docnum, weight))
                    if field.scorable:
                        self._lengths.setdefault(name, {})[docnum] = byte_to_length(length_to_byte(length))
                        self._totals[name] = self._totals.get(name, 0) + length
                if field.stored:
                    stored[name] = value
            self._stored.append(stored)
        self._sorted: dict[str, list[str]] = {}
        weighting = BM25F()
        self._b, self._k1 = weighting.B, weighting.K1

    def close(self) -> None:
        """Nothing to close: the postings are the process's own."""

    def doc_count(self) -> int:
        return len(self._stored)

    def live_count(self) -> int:
        return len(self._stored)

    def has(self, field: str, term: str) -> bool:
        return term in self._postings.get(field, {})

    def fields(self) -> set[str]:
        return {field for field, terms in self._postings.items() if terms}

    def terms(self, field: str) -> Iterator[str]:
        """Every term of ``field``, in order (a code point's order is its UTF-8 bytes', Whoosh's lexicon order)."""
        if field not in self._sorted:
            self._sorted[field] = sorted(self._postings.get(field, {}))
        return iter(self._sorted[field])

    def prefixed(self, field: str, prefix: str) -> list[str]:
        return [term for term in self.terms(field) if term.startswith(prefix)]

    def within(self, field: str, word: str, maxdist: int, prefix: int = 1) -> Iterable[str]:
        return [term for term in self.prefixed(field, word[:prefix]) if levenshtein(term, word, maxdist) <= maxdist]

    def doc_frequency(self, field: str, term: str) -> int:
        return len(self._postings.get(field, {}).get(term, ()))

    def frequency(self, field: str, term: str) -> int:
        return int(sum(weight for _, weight in self._postings.get(field, {}).get(term, ())))

    def docs(self, field: str, term: str) -> list[int]:
        return [docnum for docnum, _ in self._postings.get(field, {}).get(term, ())]

    def stored(self, docnum: int) -> dict[str, Any]:
        return self._stored[docnum]

    def document(self, **terms: str) -> dict[str, Any] | None:
        found: set[int] | None = None
        for field, term in terms.items():
            docs = set(self.docs(field, term))
            found = docs if found is None else found & docs
        return self._stored[min(found)] if found else None

    def matching(self, query: Query) -> set[int]:
        """The documents a filter query matches: a term, or all of several (what the search's filters are)."""
        if isinstance(query, Term):
            return set(self.docs(query.fieldname, query.text))
        if isinstance(query, And):
            return set.intersection(*(self.matching(part) for part in query.subqueries))
        raise NotImplementedError(f"filter {query!r}")

    def scores(self, field: str, term: str) -> Scores:
        postings = self._postings.get(field, {}).get(term)
        if not postings:
            return (), ()
        if field not in self._scorable:
            return tuple(docnum for docnum, _ in postings), tuple(weight for _, weight in postings)
        idf = log(len(self._stored) / (len(postings) + 1)) + 1
        avgfl = self._totals.get(field, 0) / (len(self._stored) or 1) or 1
        lengths = self._lengths.get(field, {})
        return (
            tuple(docnum for docnum, _ in postings),
            tuple(bm25(idf, weight, lengths.get(docnum, 1), avgfl, self._b, self._k1) for docnum, weight in postings),
        )

    def field_scores(self, field: str, skip: Callable[[str], bool] | None = None) -> Iterator[tuple[str, Scores]]:
        for term in self.terms(field):
            if skip is None or not skip(term):
                yield term, self.scores(field, term)
