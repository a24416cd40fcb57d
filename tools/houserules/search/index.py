"""The command-line search: open the cached index and query it.

Results are folded by entry: one hit per entry, the best-scoring of its
documents (so a question hit stands for its entry). The index itself (what it
holds and where it is kept) is :mod:`houserules.search.documents` and
:mod:`houserules.search.indexcache`.

Queries are built here, not parsed: the text only ever becomes search terms,
so syntax characters (``AND``, ``(``, ``*``, ``"``, ``:``) are ordinary text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from whoosh import collectors
from whoosh import index as whoosh_index
from whoosh.query import And, Or, Query, Term

from . import analysis as searchtext
from . import homophones
from .documents import FIELD_BOOSTS
from .indexcache import META_FILE, ensure_index
from .ranking import QUESTION_SHOWN as QUESTION_SHOWN  # part of this module's interface
from .ranking import Hit as Hit  # part of this module's interface
from .ranking import coordination, favoured_game, fold

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
QUESTION_BOOST = 15.0
#: ... and a question document (a question players asked) a little more.
QUESTION_DOC_BOOST = 10.0
#: An entry the query names (one of its titles or aliases is a run of the query's terms) comes first.
NAME_BOOST = 15.0
#: ... and an entry that refers to what the query names (a ruling about the room it names) this.
ABOUT_BOOST = 10.0
#: A name's terms weigh this share: the name boost says what it is about, the rest decides which answer.
NAME_TERMS_SHARE = 0.55
#: The documents of the game the query's words belong to (:func:`favoured_game`) gain this.
GAME_BOOST = 3.0
#: English words this long or longer may be corrected (shorter ones are too ambiguous).
MIN_CORRECTED = 4
#: An unknown last word this long or longer is completed (search as you type: "eleva" →
#: "elevator") by the most frequent indexed words it begins, at most COMPLETIONS of them.
MIN_COMPLETED = 3
COMPLETIONS = 3

_ASCII_WORD = re.compile(r"[a-z]+")


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
        self._game_of: list[int] | None = None
        self._homophones: dict[str, list[str]] | None = None
        #: English words of the synonym tables: known words, never corrected into others.
        self._game_names = set(self.meta.get("game_names", []))
        self._said = {say for say, _ in self.meta.get("synonyms", []) if say.isascii() and " " not in say}
        #: ... in any of their forms ("stabbing" is "stab" said, not a misspelt "starting").
        self._said_stems = {
            searchtext.word_form(say) for say, _ in self.meta.get("synonyms", []) if searchtext.said_word(say)
        }

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

    def names(self, refs: set[str]) -> dict[str, dict[str, Any]]:
        """The title and code of each indexed entry of ``refs`` (to name ``[[game:id]]`` in shown text)."""
        found = {}
        for ref in refs:
            fields = self._searcher.document(ref=ref)
            if fields is not None:
                record = fields["record"]
                found[ref] = {"title": record["title"], "code": record["code"]}
        return found

    @property
    def problems(self) -> list[str]:
        problems: list[str] = self.meta["problems"]
        return problems

    def correct(self, text: str) -> str:
        """The folded query with unknown English words replaced by the closest indexed word,
        and an unknown last word by the words it begins: against the seeds' index, "Elevatr crash"
        becomes "elevator crash" and "mystic eleva" becomes "mystic elevator elevators". A word of
        the synonym tables or an irregular past form is known ("lift", "fell" stay as they are).
        """
        folded = searchtext.fold(text)

        def fix(match: re.Match[str]) -> str:
            word = match.group(0)
            if self._known(word):
                return word
            if len(word) >= MIN_COMPLETED and searchtext.is_last_word(folded, match.start(), match.end()):
                completions = self.complete(word)
                if completions:
                    return " ".join(completions)
            if len(word) < MIN_CORRECTED:
                return word
            maxdist = 1 if len(word) < 7 else 2
            found = self._corrector.suggest(word, limit=1, maxdist=maxdist, prefix=1)
            # A real English word the index lacks stays as typed: "shaft" is not a misspelt "shift".
            return found[0] if found and not searchtext.is_common(word) else word

        return self.homophones(_ASCII_WORD.sub(fix, folded))

    def homophones(self, folded: str) -> str:
        """A folded query with its unknown Chinese bigrams replaced by indexed homophones
        (:mod:`houserules.search.homophones`: "魔题" becomes "魔梯")."""
        if not homophones.unknown_pairs(folded, self.knows):
            return folded
        table = self.homophone_table()
        return homophones.correct(folded, self.knows, lambda k: table.get(k, []))

    def exact_key(self, text: str) -> str:
        """The exact-match key of a query, its Chinese homophones corrected ("魔题" names 魔梯)."""
        return searchtext.exact_key(self.homophones(searchtext.fold(text)))

    def knows(self, term: str) -> bool:
        """Whether a query term scores in the index: it is in a searched field where it is looked up
        (a common term is not, in the long texts), as the site's term shards hold it."""
        return any(
            (field, term) in self._reader and not (field in COMMON_SKIPPED and self._common(field, term))
            for field in FIELD_BOOSTS
        )

    def cjk_bigrams(self) -> dict[str, tuple[bool, int]]:
        """The Chinese bigrams of the names (titles, aliases, glossary terms, synonyms): whether one is a whole
        name, and its document frequency in the searched fields (summed over them). What a homophone
        is corrected into."""
        names = [raw.decode("utf-8") if isinstance(raw, bytes) else raw for raw in self._reader.lexicon("names")]
        # The words of the synonym tables too: what players say (坏人) and the rules' word for it (奸徒).
        names += [searchtext.name_key(word) for pair in self.meta.get("synonyms", []) for word in pair]
        found: dict[str, tuple[bool, int]] = {}
        for name in names:
            for term in name.split(" "):
                if len(term) == 2 and homophones.is_cjk(term[0]) and homophones.is_cjk(term[1]):
                    frequency = sum(int(self._reader.doc_frequency(f, term)) for f in FIELD_BOOSTS)
                    if frequency:  # only what the searched fields hold (a corrected query finds it)
                        found[term] = (term == name or found.get(term, (False, 0))[0], frequency)
        return found

    def homophone_table(self) -> dict[str, list[str]]:
        """The indexed bigrams by toneless pinyin (:func:`homophones.key_table`), made once per open index."""
        if self._homophones is None:
            self._homophones = homophones.key_table(self.cjk_bigrams().items())
        return self._homophones

    def _known(self, word: str) -> bool:
        said = word in self._said or searchtext.word_form(word) in self._said_stems
        return ("words", word) in self._reader or said or word in searchtext.IRREGULAR

    def complete(self, prefix: str) -> list[str]:
        """The indexed words that begin with ``prefix``, most frequent first (ties: alphabetical)."""
        words = [w.decode() if isinstance(w, bytes) else w for w in self._reader.expand_prefix("words", prefix)]
        ranked = sorted(words, key=lambda w: (-self._reader.doc_frequency("words", w), w))
        return ranked[:COMPLETIONS]

    def _common(self, field: str, term: str) -> bool:
        return bool(self._reader.doc_frequency(field, term) > MAX_COMMON_SHARE * self._count)

    def analysed(self, text: str) -> tuple[list[str], list[str]]:
        """The query's distinct terms and their sequence (for names), after correction."""
        said = searchtext.synonyms_said(text, self.meta.get("synonyms", []))
        sequence = searchtext.query_sequence(" ".join([self.correct(text), *said]), self._analyzer)
        return list(dict.fromkeys(sequence)), sequence

    def query(self, text: str) -> Query | None:
        """The Whoosh query for a text, or None when it holds nothing searchable.

        A question's preference for answers (:func:`bonus`) is added to these scores
        afterwards, by :meth:`ranked`.
        """
        terms, sequence = self.analysed(text)
        return self._query(terms, self.exact_key(text), self.name_terms(sequence))

    def name_terms(self, sequence: list[str]) -> set[str]:
        """The terms of the query in an entry's or a game's name (:func:`~houserules.data.words.querynames.name_terms`)."""
        return searchtext.name_terms(sequence, lambda k: ("names", k) in self._reader or k in self._game_names)

    def _query(self, terms: list[str], key: str, named: set[str] | frozenset[str] = frozenset()) -> Query | None:
        if not terms and not key:
            return None
        parts: list[Query] = [
            Term(f, t, boost=b * NAME_TERMS_SHARE if t in named else b)
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

        Each document's score is Whoosh's times its coordination (:func:`coordination`),
        plus what :meth:`extras` adds: the entries the query names, the game its words
        belong to, and for a question the answers. (Whoosh's AndMaybe would add it inside
        the query, but its top-k pruning drops documents that belong in the top: "how to
        open the vault door" lost betrayal:vault.)
        """
        terms, sequence = self.analysed(text)
        query = self._query(terms, self.exact_key(text), self.name_terms(sequence))
        if query is None:
            return []
        term_docs = self.term_docs(query)
        extras = self.extras(sequence, term_docs, searchtext.is_question(text))
        self.coordinate = coordination(term_docs, self._count)
        collector: Any = _Collector(limit, extras, self.coordinate)
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

    def named(self, sequence: list[str], field: str = "names") -> set[int]:
        """The documents of the entries a query names: a run of its terms is one of their titles or
        aliases, and not inside a longer run that is (``field="about"``: the entries that refer to
        what the query names)."""
        docs: set[int] = set()
        spans = searchtext.named_spans(sequence, lambda k: (field, k) in self._reader)
        for _, _, key in searchtext.longest_spans(spans):
            docs.update(self._reader.postings(field, key).all_ids())
        return docs

    def games_of(self) -> list[int]:
        """The game of every document, as an index into :attr:`games`."""
        if self._game_of is None:
            self._game_of = [0] * self._reader.doc_count_all()
            for number, game in enumerate(self.games):
                if ("game", game) in self._reader:
                    for docnum in self._reader.postings("game", game).all_ids():
                        self._game_of[docnum] = number
        return self._game_of

    def extras(self, sequence: list[str], term_docs: list[frozenset[int]], asks: bool) -> Callable[[int], float]:
        """What is added to each document's score (see :func:`extra`)."""
        named = self.named(sequence)
        about = self.named(sequence, "about")
        game_of = self.games_of()
        game = favoured_game(term_docs, game_of)
        bonus = self.bonus if asks else None

        def add(docnum: int) -> float:
            return (
                (NAME_BOOST if docnum in named else ABOUT_BOOST if docnum in about else 0.0)
                + (GAME_BOOST if game is not None and game_of[docnum] == game else 0.0)
                + (bonus(docnum) if bonus else 0.0)
            )

        return add

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
        text = searchtext.bounded(text)  # a longer query is read up to the bound (the CLI says so)
        filters = [Term("game", game)] if game else []
        filters += [Term("kind", kind)] if kind else []
        flt = And(filters) if filters else None
        asks = searchtext.is_question(text)
        fetch = limit * 4
        while True:
            found = self.ranked(text, fetch, flt)
            records = (
                (self._reader.stored_fields(docnum)["record"], score, self.coordinate(docnum))
                for score, docnum in found
            )
            hits = fold(records, limit, asks)
            if len(hits) >= limit or len(found) < fetch:
                return hits
            fetch *= 4


class _Collector(collectors.TopCollector):
    """Whoosh's top-k collector, scoring every match (faster here than its pruning, which
    replaces the matchers of the many per-field terms every few documents), times the
    share of the query the document has (coordination: a document with more of what was
    asked beats one with a single frequent word of it), plus the extras."""

    def __init__(self, limit: int, extras: Callable[[int], float], coordinate: Callable[[int], float]):
        super().__init__(limit=limit, usequality=False, replace=0)
        self._extras = extras
        self._coordinate = coordinate

    def collect(self, sub_docnum: int) -> Any:
        docnum = self.offset + sub_docnum
        return self._collect(docnum, self.matcher.score() * self._coordinate(docnum) + self._extras(docnum))


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
