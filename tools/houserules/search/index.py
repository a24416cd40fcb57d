"""The command-line search: open the cached index and query it.

Results are folded by entry: one hit per entry, the best-scoring of its
documents (so a question hit stands for its entry). The index itself (what it
holds and where it is kept) is :mod:`houserules.search.documents` and
:mod:`houserules.search.indexcache`.

Queries are built here, not parsed: the text only ever becomes search terms,
so syntax characters (``AND``, ``(``, ``*``, ``"``, ``:``) are ordinary text.
"""

from __future__ import annotations

import heapq
import json
import math
import re
from collections import OrderedDict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from whoosh import index as whoosh_index
from whoosh.query import And, Or, Query, Term
from whoosh.scoring import BM25FScorer, bm25
from whoosh.support.levenshtein import damerau_levenshtein

from . import analysis as searchtext
from . import homophones
from .documents import FIELD_BOOSTS
from .indexcache import HOMOPHONES_FILE, META_FILE, READINGS_FILE, ensure_index
from .ranking import QUESTION_SHOWN as QUESTION_SHOWN  # part of this module's interface
from .ranking import Hit as Hit  # part of this module's interface
from .ranking import favourite, fold, term_weight

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
#: The terms whose scores an open index keeps (:meth:`SearchIndex._scores`), by field: a few
#: megabytes at 5,000 entries.
SCORES_KEPT = 20_000
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
        self._count = max(1, self._reader.doc_count())
        # The index's own analyzer, so an index built for comparison is queried its way.
        self._analyzer = self._ix.schema["body"].analyzer
        self._answers: set[int] | None = None
        self._questions: set[int] = set()
        self._game_of: list[int] | None = None
        self._homophones: dict[str, list[str]] | None = None
        self._readings: dict[str, str] | None = None
        #: What :meth:`_scores` computed, by (field, term), oldest first; documents' field lengths;
        #: the game a term's documents all belong to (None: several).
        self._scored: OrderedDict[tuple[str, str], tuple[tuple[int, ...], tuple[float, ...]]] = OrderedDict()
        self._lengths: dict[str, dict[int, int]] = {}
        self._term_game: dict[str, int | None] = {}
        self._names: dict[tuple[str, str], frozenset[int]] = {}
        #: What correct() made of a word (and whether it was the last), remembered.
        self._fixed: dict[tuple[str, bool], str] = {}
        self.coordinate: Callable[[int], float] = lambda docnum: 1.0
        #: English words of the synonym tables: known words, never corrected into others.
        self._game_names = set(self.meta.get("game_names", []))
        synonyms = self.meta.get("synonyms", [])
        self._said = {pair[0] for pair in synonyms if pair[0].isascii() and " " not in pair[0]}
        #: ... in any of their forms ("stabbing" is "stab" said, not a misspelt "starting").
        self._said_stems = {searchtext.word_form(pair[0]) for pair in synonyms if searchtext.said_word(pair[0])}

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
        the synonym tables or an irregular past form is known ("lift", "fell" stay as they are),
        and a common English word is never corrected into another ("shaft" is not "shift"). First a
        word split as it was heard is joined back when the joined word is indexed ("cat a combs":
        catacombs, :func:`~houserules.data.words.searchtext.joined`).
        """
        folded = searchtext.joined(searchtext.fold(text), lambda word: ("words", word) in self._reader)

        def fix(match: re.Match[str]) -> str:
            word = match.group(0)
            last = searchtext.is_last_word(folded, match.start(), match.end())
            found = self._fixed.get((word, last))
            if found is None:
                if len(self._fixed) > SCORES_KEPT:
                    self._fixed.clear()
                found = self._fixed[(word, last)] = fixed(word, last)
            return found

        def fixed(word: str, last: bool) -> str:
            if self._known(word):
                return word
            if len(word) >= MIN_COMPLETED and last:
                completions = self.complete(word)
                if completions:
                    return " ".join(completions)
            if len(word) < MIN_CORRECTED:
                return word
            found = self.suggest(word, 1 if len(word) < 7 else 2)
            # A real English word the index lacks stays as typed: "shaft" is not a misspelt "shift".
            return found if found is not None and not searchtext.is_common(word) else word

        return self.homophones(_ASCII_WORD.sub(fix, folded))

    def suggest(self, word: str, maxdist: int) -> str | None:
        """The indexed word closest to ``word`` (within ``maxdist`` edits after its first letter), or None.

        Two swapped letters are one edit ("swrod": "sword"; Whoosh's reader counts two, so its
        words within ``maxdist + 1`` are read). The fewest edits first (Whoosh's corrector ranks by
        frequency alone within ``maxdist``: "shareing" became the more frequent "starting", two
        edits away, not "sharing", one); then a word the typo left a letter out of ("midle":
        "middle", not "mile"), the commonest slip; then the most frequent, then the
        alphabetically last (as Whoosh's heap keeps them).
        """
        within = self._reader.terms_within("words", word, maxdist + 1, prefix=1)
        near = self._closest(word, (c for c in within if c != word), maxdist)
        return near if near is not None else self.sounds_like(word)

    def _closest(self, word: str, candidates: Iterable[str], maxdist: float = math.inf) -> str | None:
        """The best of ``candidates`` for a mistyped ``word`` as :meth:`suggest` orders them (none over
        ``maxdist`` edits)."""
        best: tuple[int, int, int, str] | None = None
        for candidate in candidates:
            edits = damerau_levenshtein(candidate, word)
            if edits > maxdist:
                continue
            frequency = int(self._reader.frequency("words", candidate) or 1)
            key = (-edits, int(len(candidate) > len(word)), frequency, candidate)
            if best is None or key > best:
                best = key
        return None if best is None else best[3]

    def sounds_like(self, word: str) -> str | None:
        """The indexed word of the same first letter that sounds like ``word``
        (:func:`~houserules.data.words.searchtext.sound_key`: "managery", menagerie), when no word is
        within a few edits; the fewest edits first, then as :meth:`suggest` orders them. None when
        the key has fewer than :data:`~houserules.data.words.searchtext.SOUND_MIN` consonants after
        the first letter (too many words share it)."""
        sound = searchtext.sound_key(word)
        if len(sound) <= searchtext.SOUND_MIN:
            return None
        words = (
            raw.decode() if isinstance(raw, bytes) else raw for raw in self._reader.expand_prefix("words", word[0])
        )
        return self._closest(word, (w for w in words if w != word and searchtext.sound_key(w) == sound))

    def searched_for(self, text: str) -> str | None:
        """What a query was searched as when :meth:`correct` changed a word of it (its spaces
        tidied), else None: the command line says so ("shaft" stays, "elevatr" became "elevator")."""
        text = searchtext.bounded(text)
        corrected = self.correct(text)
        if corrected == searchtext.fold(text):
            return None
        return " ".join(corrected.split())

    def homophones(self, folded: str) -> str:
        """A folded query with its unknown Chinese bigrams replaced by indexed homophones
        (:mod:`houserules.search.homophones`: "魔题" becomes "魔梯")."""
        if not homophones.unknown_pairs(folded, self.knows):
            return folded
        table = self.homophone_table()
        return homophones.correct(folded, self.knows, lambda k: table.get(k, []), self.readings())

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

    def homophone_table(self) -> dict[str, list[str]]:
        """The indexed bigrams by toneless pinyin (:func:`homophones.key_table`), as the index was written with
        them; read once per open index, and only by a query with an unknown Chinese bigram."""
        if self._homophones is None:
            self._homophones = json.loads((self.folder / HOMOPHONES_FILE).read_text(encoding="utf-8"))
        return self._homophones

    def readings(self) -> dict[str, str]:
        """Each character's toneless pinyin, as the index was written with it (the keys of
        :meth:`homophone_table`): read once per open index, and only by a query with an unknown
        Chinese bigram, instead of pypinyin's table (0.03 s a process)."""
        if self._readings is None:
            table = json.loads((self.folder / READINGS_FILE).read_text(encoding="utf-8"))
            self._readings = homophones.char_readings(table)
        return self._readings

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
        terms, sequence, _ = self.expanded(text)
        return terms, sequence

    def expanded(self, text: str) -> tuple[list[str], list[str], dict[str, frozenset[int]]]:
        """The query's distinct terms and their sequence, after correction and with what its synonyms
        mean, and the terms it gains only through games' synonym tables and glossaries, each with
        those games (indices into :attr:`games`): such a term is looked up in their documents only
        ("monster" means Mice and Mystics' "minion" there, not in Betrayal). The query's own
        terms and the general table's are looked up everywhere."""
        said = searchtext.said_scopes(text, self.meta.get("synonyms", []))
        corrected = self.correct(text)
        sequence = searchtext.query_sequence(" ".join([corrected, *said]), self._analyzer)
        everywhere = set(searchtext.query_sequence(corrected, self._analyzer))
        scoped: dict[str, set[int]] = {}
        games = self.games
        for means, scope in said.items():
            for term in searchtext.query_sequence(means, self._analyzer):
                if scope is None:
                    everywhere.add(term)
                else:
                    scoped.setdefault(term, set()).update(games.index(g) for g in scope if g in games)
        return (
            list(dict.fromkeys(sequence)),
            sequence,
            {term: frozenset(found) for term, found in scoped.items() if term not in everywhere},
        )

    def query(self, text: str) -> Query | None:
        """The Whoosh query for a text, or None when it holds nothing searchable.

        A question's preference for answers (:func:`bonus`) is added to these scores
        afterwards, by :meth:`ranked`.
        """
        terms, sequence = self.analysed(text)
        return self._query(terms, self.exact_key(text), self.name_terms(sequence))

    def name_terms(self, sequence: list[str], scoped: dict[str, frozenset[int]] | None = None) -> set[str]:
        """The terms of the query in an entry's or a game's name (:func:`~houserules.data.words.querynames.name_terms`);
        a name of games' synonyms (``scoped``, :meth:`expanded`) is one of theirs, and makes only its
        own terms name terms."""
        scoped = scoped or {}
        return searchtext.name_terms(
            sequence,
            lambda k: bool(self._scoped_names("names", k, scoped)) or k in self._game_names,
            self.is_common,
            scoped.__contains__,
        )

    def is_common(self, term: str) -> bool:
        """Whether a term is too common in the long texts to be looked up there (:data:`MAX_COMMON_SHARE`):
        the setting of many rulings ("mouse", "room"), not what a query asks."""
        return any(self._common(field, term) for field in COMMON_SKIPPED)

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
        :attr:`coordinate` is then the query's coordination.

        The parts' scores are Whoosh's numbers, added up here rather than by its matchers: a
        term's scores in a field are computed once per open index (:meth:`_scores`), so a long
        question costs a few dictionary additions per posting instead of a union of matchers.
        """
        terms, sequence, scoped = self.expanded(text)
        key = self.exact_key(text)
        self.coordinate = lambda docnum: 1.0
        if not terms and not key:
            return []
        named = self.name_terms(sequence, scoped)
        count = self._reader.doc_count_all()
        scores = [0.0] * count
        shares = [0.0] * count
        touched: set[int] = set()
        total = 0.0
        game_of = self.games_of()
        games: dict[int, int] = {}
        for term in terms:
            share = NAME_TERMS_SHARE if term in named else 1.0
            only = scoped.get(term)
            docs: set[int] = set()
            everywhere: set[int] = set()
            for field, boost in FIELD_BOOSTS.items():
                if field in COMMON_SKIPPED and self._common(field, term):
                    continue
                ids, values = self._scores(field, term)
                if ids and only is not None:
                    everywhere.update(ids)
                    kept = [(d, v) for d, v in zip(ids, values) if game_of[d] in only]
                    ids, values = tuple(d for d, _ in kept), tuple(v for _, v in kept)
                if ids:
                    _add(scores, ids, values, boost * share)
                    docs.update(ids)
            if docs:
                # Its rarity everywhere: a game's synonym's documents in every game, any other term's where it scores.
                weight = term_weight(len(everywhere if only is not None else docs), self._count)
                for docnum in docs:
                    shares[docnum] += weight
                touched |= docs
                total += weight
                if only is not None:  # a game's synonym says nothing about which game the query is about
                    continue
                game = self._only_game(term, docs, game_of)
                if game is not None:
                    games[game] = games.get(game, 0) + 1
        if key:
            for field, boost in (("exact", EXACT_BOOST), ("exact_alias", EXACT_ALIAS_BOOST)):
                ids, values = self._scores(field, key)
                if ids:
                    _add(scores, ids, values, boost)
                    touched.update(ids)
        if total:
            self.coordinate = lambda docnum: shares[docnum] / total
        if flt is not None:
            touched &= self._allowed(flt)
        # What is added to a score: the entries the query names (or that are about what it names), the
        # documents of the game its words belong to, and for a question the answers and the questions.
        names, about = self.named(sequence, scoped=scoped), self.named(sequence, "about", scoped)
        game = favourite(games)
        answers, questions = self.answers() if searchtext.is_question(text) else (set(), set())
        found = []
        for docnum in touched:
            score = scores[docnum] * (shares[docnum] / total if total else 1.0)
            if docnum in names:
                score += NAME_BOOST
            elif docnum in about:
                score += ABOUT_BOOST
            if game_of[docnum] == game:
                score += GAME_BOOST
            if docnum in answers:
                score += QUESTION_BOOST
            if docnum in questions:
                score += QUESTION_DOC_BOOST
            found.append((-score, docnum))
        return found

    def _scores(self, field: str, term: str) -> tuple[tuple[int, ...], tuple[float, ...]]:
        """The documents of ``term`` in ``field`` and its BM25F score in each, unboosted, as Whoosh
        scores them (kept for the open index, at most :data:`SCORES_KEPT` terms)."""
        found = self._scored.get((field, term))
        if found is not None:
            self._scored.move_to_end((field, term))
            return found
        reader, searcher = self._reader, self._searcher
        if (field, term) not in reader:
            found = ((), ())
        else:
            scorer = searcher.weighting.scorer(searcher, field, term)
            matcher = reader.postings(field, term)
            ids, weights = [], []
            while matcher.is_active():
                ids.append(matcher.id())
                weights.append(matcher.weight())
                matcher.next()
            if type(scorer) is BM25FScorer:  # the scorer's own formula and numbers, without a call per posting
                idf, avgfl, b, k1 = scorer.idf, scorer.avgfl, scorer.B, scorer.K1
                length = self._length(field)
                values = tuple(bm25(idf, w, length(d), avgfl, b, k1) for d, w in zip(ids, weights))
            else:
                scored, found_values = reader.postings(field, term, scorer=scorer), []
                while scored.is_active():
                    found_values.append(scored.score())
                    scored.next()
                values = tuple(found_values)
            found = (tuple(ids), values)
        self._scored[(field, term)] = found
        if len(self._scored) > SCORES_KEPT:
            self._scored.popitem(last=False)
        return found

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

    def _only_game(self, term: str, docs: set[int], game_of: list[int]) -> int | None:
        """The game of ``docs`` when they are all of one game (:func:`favoured_game`), else None."""
        if term not in self._term_game:
            games = set()
            for docnum in docs:
                games.add(game_of[docnum])
                if len(games) > 1:
                    break
            self._term_game[term] = games.pop() if len(games) == 1 else None
        return self._term_game[term]

    def _allowed(self, flt: Query) -> set[int]:
        return set(flt.docs(self._searcher))

    def named(
        self, sequence: list[str], field: str = "names", scoped: dict[str, frozenset[int]] | None = None
    ) -> set[int]:
        """The documents of the entries a query names: a run of its terms is one of their titles or
        aliases, and not inside a longer run that is (``field="about"``: the entries that refer to
        what the query names). A run with terms of games' synonyms (``scoped``, :meth:`expanded`)
        names those games' entries only."""
        scoped = scoped or {}
        docs: set[int] = set()
        spans = searchtext.named_spans(sequence, lambda k: bool(self._scoped_names(field, k, scoped)))
        for _, _, key in searchtext.longest_spans(spans):
            docs.update(self._scoped_names(field, key, scoped))
        return docs

    def _scoped_names(self, field: str, key: str, scoped: dict[str, frozenset[int]]) -> frozenset[int]:
        """The documents named ``key`` (:meth:`_name_docs`) of the games all its terms of games'
        synonyms belong to (every game's when it has none)."""
        found = self._name_docs(field, key)
        games: frozenset[int] | None = None
        for term in key.split(" "):
            if term in scoped:
                games = scoped[term] if games is None else games & scoped[term]
        if games is None or not found:
            return found
        game_of = self.games_of()
        return frozenset(docnum for docnum in found if game_of[docnum] in games)

    def _name_docs(self, field: str, key: str) -> frozenset[int]:
        """The documents with the name ``key`` in ``field`` (``names``, ``about``), remembered: a long
        query asks about every run of its terms, several times."""
        found = self._names.get((field, key))
        if found is None:
            reader = self._reader
            found = frozenset(reader.postings(field, key).all_ids()) if (field, key) in reader else frozenset()
            if len(self._names) > SCORES_KEPT:
                self._names.clear()
            self._names[(field, key)] = found
        return found

    def games_of(self) -> list[int]:
        """The game of every document, as an index into :attr:`games`."""
        if self._game_of is None:
            self._game_of = [0] * self._reader.doc_count_all()
            for number, game in enumerate(self.games):
                if ("game", game) in self._reader:
                    for docnum in self._reader.postings("game", game).all_ids():
                        self._game_of[docnum] = number
        return self._game_of

    def answers(self) -> tuple[set[int], set[int]]:
        """The documents a question prefers: the answers (rulings, rules), and the questions."""
        if self._answers is None:

            def ids(field: str, text: str) -> set[int]:
                return set(self._reader.postings(field, text).all_ids()) if (field, text) in self._reader else set()

            self._answers = set().union(*(ids("kind", k) for k in QUESTION_KINDS))
            self._questions = ids("type", "question")
        return self._answers, self._questions

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
        scored = self.scored(text, flt)
        coordinate = self.coordinate
        fetch = limit * 4
        while True:
            found = heapq.nsmallest(fetch, scored)
            records = (
                (self._reader.stored_fields(docnum)["record"], -score, coordinate(docnum)) for score, docnum in found
            )
            hits = fold(records, limit, asks)
            if len(hits) >= limit or len(found) < fetch:
                return hits
            fetch *= 4


def _add(scores: list[float], ids: tuple[int, ...], values: tuple[float, ...], boost: float) -> None:
    """Add ``boost`` times each document's value to its score."""
    for docnum, value in zip(ids, values):
        scores[docnum] += boost * value


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
