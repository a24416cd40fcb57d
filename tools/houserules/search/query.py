"""What a query says, read against one open index: its words corrected (typos, unfinished words, Chinese
homophones), its terms and what its synonyms mean, the names it holds, and what the index knows of them.

:class:`QueryReader` is the half of :class:`~houserules.search.index.SearchIndex` that reads the query into
a :class:`QueryPlan`; :func:`houserules.search.rank.rank` scores documents for the plan, and ``index.py``
folds the scores into hits. All read the index through :class:`~houserules.search.postings.Postings` only.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from whoosh.support.levenshtein import damerau_levenshtein

from . import analysis as searchtext
from . import homophones
from .documents import FIELD_BOOSTS
from .indexcache import HOMOPHONES_FILE, META_FILE, READINGS_FILE, Built
from .postings import MemoryPostings, Postings

#: A term in more than this share of the entries' texts is not looked up there
#: (it still counts in names and codes): it barely changes the ranking, and
#: scoring its long posting list is most of the time of a long query.
MAX_COMMON_SHARE = 0.1
#: ... and in more than this many documents: a small knowledge base (a group's first entries of a new game) has no
#: common terms, else a word of a one-line answer in one of its few documents would be in "more than a tenth".
MIN_COMMON_DOCUMENTS = 10
COMMON_SKIPPED = ("summary", "body")
#: The terms whose scores an open index keeps (:meth:`SearchIndex.scores`), by field: a few
#: megabytes at 5,000 entries.
SCORES_KEPT = 20_000
#: After this many questions to :meth:`QueryReader.knows`, an open index reads every term it knows at once (a
#: query asks a few; an evaluation or a test of every word, thousands).
KNOWS_ASKED = 2_000
#: After this many lookups of names in one field, an open index reads the field's names into a set
#: (:meth:`QueryReader._name_docs`): a query that many synonyms expand asks about 100,000 runs.
NAME_LOOKUPS = 2_000
#: English words this long or longer may be corrected (shorter ones are too ambiguous).
MIN_CORRECTED = 4
#: An unknown last word this long or longer is completed (search as you type: "eleva" →
#: "elevator") by the most frequent indexed words it begins, at most COMPLETIONS of them.
MIN_COMPLETED = 3
COMPLETIONS = 3

_ASCII_WORD = re.compile(r"[a-z]+")


@dataclass(frozen=True)
class QueryPlan:
    """What a query asks, read once against an index (:meth:`QueryReader.plan`, scored by :func:`houserules.search.rank.rank`).

    ``terms``: its distinct terms after correction and with what its synonyms mean; ``scoped``: the terms it
    gains only through games' synonym tables and glossaries, each with those games (looked up in their
    documents only); ``key``: the exact key (a whole code, title or alias), or ""; ``name_terms``: the terms
    of the runs that name an entry or a game (they weigh ``rank.NAME_TERMS_SHARE``); ``names`` and ``about``:
    the documents of the entries the query names, and of those about what it names; ``named_game``: the game
    it names (an index into the index's games), or None; ``question``: whether it asks (answers come first);
    ``outside``: the names it says of what no entry answers (a topic no source covers, another game), as keys
    of the index's ``outside`` table (:meth:`QueryReader.outside`); ``beside``: when it says one, the documents
    of the entries it names by a name that is no part of those (:meth:`QueryReader.named`: "the search action"
    names no search cards).
    """

    terms: tuple[str, ...]
    scoped: Mapping[str, frozenset[int]]
    key: str
    name_terms: frozenset[str]
    names: frozenset[int]
    about: frozenset[int]
    named_game: int | None
    question: bool
    outside: tuple[str, ...] = ()
    beside: frozenset[int] = frozenset()

    def naming(self, own_game: bool) -> frozenset[int]:
        """The documents that count as named beside a topic no entry answers: for a topic of the first hit's own
        game (``own_game``), those named outside its name (:attr:`beside`), else all it names."""
        return self.beside if own_game else self.names


class QueryReader:
    """An open index as a query's reader: correction, analysis and names (:class:`~houserules.search.index.SearchIndex`
    adds the scoring)."""

    def __init__(self, folder: Path | Built):
        """The index written in ``folder``, or one made in memory (:func:`~.indexcache.memory_index`)."""
        self.folder = folder if isinstance(folder, Path) else None
        self._homophones: dict[str, list[str]] | None = None
        self._readings: dict[str, str] | None = None
        #: The terms, their documents and scores, and the stored records (the only reader of Whoosh's objects).
        self.postings: Postings | MemoryPostings
        if isinstance(folder, Path):
            self.meta: dict[str, Any] = json.loads((folder / META_FILE).read_text(encoding="utf-8"))
            self.postings = Postings(folder)
        else:
            self.meta, self.postings = folder.meta, folder.postings
            self._homophones, self._readings = folder.homophones, homophones.char_readings(folder.readings)
        self._count = max(1, self.postings.live_count())
        self._analyzer = self.postings.analyzer
        self._game_of: list[int] | None = None
        self._names: dict[tuple[str, str], frozenset[int]] = {}
        #: The terms :meth:`knows`, read at once after it was asked :data:`KNOWS_ASKED` times.
        self._scored_terms: frozenset[str] | None = None
        self._knows_asked = 0
        self._name_lookups: dict[str, int] = {}
        self._name_sets: dict[str, set[str]] = {}
        #: What correct() made of a word (and whether it was the last), remembered.
        self._fixed: dict[tuple[str, bool], str] = {}
        #: English words of the synonym tables: known words, never corrected into others.
        self._game_names = set(self.meta.get("game_names", []))
        self._game_named: dict[str, str] = self.meta.get("game_named", {})
        #: What a query may name that no entry answers: each name's key, its label and its game ("" for a game
        #: the knowledge base does not hold) (``indexcache.outside_names``).
        self.outside_names: dict[str, list[str]] = self.meta.get("outside", {})
        self._game_texts = [
            (
                re.compile(rf"(?<![a-z0-9]){re.escape(name)}(?![a-z0-9])" if name.isascii() else re.escape(name), re.I),
                game,
            )
            for name, game in self.meta.get("game_name_texts", [])
        ]
        #: The English names a Chinese question may say, read as their Chinese ones (``synonyms.cross_named``).
        self._crossing = searchtext.Crossing(self.meta.get("crossed", []))
        self._game_texts_latin = [(name, game) for name, game in self.meta.get("game_name_texts", []) if name.isascii()]
        self._without: tuple[str | None, tuple[str, int | None]] = (None, ("", None))
        synonyms = self.meta.get("synonyms", [])
        self._said = {pair[0] for pair in synonyms if pair[0].isascii() and " " not in pair[0]}
        # ... and every English word of what players say ("sider" of "twenty-sider", "didn" of "didn't eat").
        self._said |= {word for pair in synonyms if pair[0].isascii() for word in searchtext.english_words(pair[0])}
        #: ... in any of their forms ("stabbing" is "stab" said, not a misspelt "starting").
        self._said_stems = {searchtext.word_form(pair[0]) for pair in synonyms if searchtext.said_word(pair[0])}

    @property
    def games(self) -> list[str]:
        games: list[str] = self.meta["games"]
        return games

    def correct(self, text: str) -> str:
        """The folded query with unknown English words replaced by the closest indexed word,
        and an unknown last word by the words it begins: against the seeds' index, "Elevatr crash"
        becomes "elevator crash" and "mystic eleva" becomes "mystic elevator elevators". A word of
        the synonym tables or an irregular past form is known ("lift", "fell" stay as they are),
        and a common English word is never corrected into another ("shaft" is not "shift"). First a
        word split as it was heard is joined back when the joined word is indexed ("cat a combs":
        catacombs, :func:`~houserules.text.searchtext.joined`; not a name as typed: "dumb waiter"). A query in quotes is searched as
        typed (:func:`~houserules.text.searchtext.as_typed`): the site's "search instead for" and
        ``houserules search --as-typed``.
        """
        typed = searchtext.as_typed(text)
        if typed is not None:  # "searched as typed": nothing is corrected
            return searchtext.fold(typed)
        folded = searchtext.joined(
            searchtext.fold(text),
            lambda word: self.postings.has("words", word),
            lambda run: bool(self._name_docs("names", searchtext.name_key(run, self._analyzer))),
        )

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
                # A real English word is not a word being typed: "cast" is not completed into "castle".
                if completions and not searchtext.is_common(word):
                    return " ".join(completions)
            # A real English word the index lacks stays as typed: "shaft" is not a misspelt "shift".
            if len(word) < MIN_CORRECTED or searchtext.is_common(word):
                return word
            found = self.suggest(word, 1 if len(word) < 7 else 2)
            return found if found is not None else word

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
        within = self.postings.within("words", word, maxdist + 1, prefix=1)
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
            frequency = self.postings.frequency("words", candidate) or 1
            key = (-edits, int(len(candidate) > len(word)), frequency, candidate)
            if best is None or key > best:
                best = key
        return None if best is None else best[3]

    def sounds_like(self, word: str) -> str | None:
        """The indexed word of the same first letter that sounds like ``word``
        (:func:`~houserules.text.searchtext.sound_key`: "managery", menagerie), when no word is
        within a few edits; the fewest edits first, then as :meth:`suggest` orders them. None when
        the key has fewer than :data:`~houserules.text.searchtext.SOUND_MIN` consonants after
        the first letter (too many words share it)."""
        sound = searchtext.sound_key(word)
        if len(sound) <= searchtext.SOUND_MIN:
            return None
        words = self.postings.prefixed("words", word[0])
        return self._closest(word, (w for w in words if w != word and searchtext.sound_key(w) == sound))

    def searched_for(self, text: str) -> str | None:
        """What a query was searched as when :meth:`correct` changed a word of it (its spaces
        tidied), else None: the command line says so ("shaft" stays, "elevatr" became "elevator")."""
        text = self.without_game_name(searchtext.bounded(text))[0]  # what was searched in the game it names
        if searchtext.as_typed(text) is not None:
            return None
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
        """The exact-match key of a query as :meth:`correct` makes it: its Chinese homophones ("魔题" names 魔梯)
        and its English words corrected or completed ("eleva", "elevatr" name the Elevator as "elevator" does)."""
        typed = searchtext.as_typed(text)
        if typed is not None:
            return searchtext.exact_key(typed)
        return searchtext.exact_key(self.correct(text))

    def knows(self, term: str) -> bool:
        """Whether a query term scores in the index: it is in a searched field where it is looked up
        (a common term is not, in the long texts), as the site's term shards hold it."""
        if self._scored_terms is not None:
            return term in self._scored_terms
        self._knows_asked += 1
        if self._knows_asked > KNOWS_ASKED:  # many asked in this process: read every scored term once
            self._scored_terms = self.scored_terms()
            return term in self._scored_terms
        return any(
            self.postings.has(field, term) and not (field in COMMON_SKIPPED and self.common_in(field, term))
            for field in FIELD_BOOSTS
        )

    def scored_terms(self) -> frozenset[str]:
        """Every term :meth:`knows`: the terms of the searched fields, but the long texts' common ones."""
        found: set[str] = set()
        for field in FIELD_BOOSTS:
            for term in self.postings.terms(field):
                if not (field in COMMON_SKIPPED and self.common_in(field, term)):
                    found.add(term)
        return frozenset(found)

    def homophone_table(self) -> dict[str, list[str]]:
        """The indexed bigrams by toneless pinyin (:func:`homophones.key_table`), as the index was written with
        them; read once per open index, and only by a query with an unknown Chinese bigram."""
        if self._homophones is None:
            assert self.folder is not None  # an index made in memory has its table from the start
            self._homophones = json.loads((self.folder / HOMOPHONES_FILE).read_text(encoding="utf-8"))
        return self._homophones

    def readings(self) -> dict[str, str]:
        """Each character's toneless pinyin, as the index was written with it (the keys of
        :meth:`homophone_table`): read once per open index, and only by a query with an unknown
        Chinese bigram, instead of pypinyin's table (0.03 s a process)."""
        if self._readings is None:
            assert self.folder is not None  # an index made in memory has its readings from the start
            table = json.loads((self.folder / READINGS_FILE).read_text(encoding="utf-8"))
            self._readings = homophones.char_readings(table)
        return self._readings

    def _known(self, word: str) -> bool:
        said = word in self._said or searchtext.word_form(word) in self._said_stems
        dropped = searchtext.is_question_word(word)  # never searched, so never corrected
        return self.postings.has("words", word) or said or dropped or word in searchtext.IRREGULAR

    def complete(self, prefix: str) -> list[str]:
        """The indexed words that begin with ``prefix``, most frequent first (ties: alphabetical), one form of
        each word: "eleva" is "elevator", not "elevator elevators" (two forms would no longer be a name)."""
        words = self.postings.prefixed("words", prefix)
        ranked = sorted(words, key=lambda w: (-self.postings.doc_frequency("words", w), w))
        forms: dict[str, str] = {}
        for word in ranked:
            forms.setdefault(searchtext.word_form(word), word)
        return list(forms.values())[:COMPLETIONS]

    def common_in(self, field: str, term: str) -> bool:
        """Whether ``term`` is too common in ``field`` (one of :data:`COMMON_SKIPPED`) to be looked up there."""
        found = self.postings.doc_frequency(field, term)
        return bool(found > MAX_COMMON_SHARE * self._count and found > MIN_COMMON_DOCUMENTS)

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
        return self._expanded(text)[:3]

    def _expanded(self, text: str) -> tuple[list[str], list[str], dict[str, frozenset[int]], list[str]]:
        """:meth:`expanded`, and the sequence of the query's own terms (what the player said, without what its
        synonyms mean)."""
        # A Chinese question saying a thing's English name ("Menagerie 要怎么触发") asks as if it said the Chinese one,
        # and says the synonyms of either; an English gloss inside a Chinese word goes to the end ("恢复(recover)行动").
        corrected = self._crossing(searchtext.aside_glosses(self.correct(text)))
        said = searchtext.said_scopes(f"{text}\n{corrected}", self.meta.get("synonyms", []))
        sequence = searchtext.query_sequence(" ".join([corrected, *said]), self._analyzer)
        own = searchtext.query_sequence(corrected, self._analyzer)
        everywhere = set(own)
        scoped: dict[str, set[int]] = {}
        number = {game: n for n, game in enumerate(self.games)}
        for means, scope in said.items():
            for term in searchtext.query_sequence(means, self._analyzer):
                if scope is None:
                    everywhere.add(term)
                else:
                    scoped.setdefault(term, set()).update(number[g] for g in scope if g in number)
        return (
            list(dict.fromkeys(sequence)),
            sequence,
            {term: frozenset(found) for term, found in scoped.items() if term not in everywhere},
            own,
        )

    def searchable(self, text: str) -> bool:
        """Whether a query holds anything to search for: a term or an exact key (a code, a title), once
        analysed as :meth:`search` analyses it (only punctuation or symbols hold neither)."""
        text = searchtext.bounded(text)
        return bool(self.expanded(text)[0] or self.exact_key(text))

    def name_terms(self, sequence: list[str], scoped: dict[str, frozenset[int]] | None = None) -> set[str]:
        """The terms of the query in an entry's or a game's name (:func:`~houserules.text.querynames.name_terms`);
        a name of games' synonyms (``scoped``, :meth:`expanded`) is one of theirs, and makes only its
        own terms name terms."""
        scoped = scoped or {}
        return searchtext.name_terms(
            sequence,
            lambda k: bool(self._scoped_names("names", k, scoped)) or k in self._game_names,
            self.is_common,
            scoped.__contains__,
        )

    def without_game_name(self, text: str) -> tuple[str, int | None]:
        """The query without the name of the one game it names, and that game (an index into :attr:`games`): a
        player who says the game asks about it, and the rest of the words say what ("鼠鼠骑士 怎么升级" is 怎么升级,
        in Mausritter). The query as it is, and None, when it names no game or two, or holds nothing but the name.
        The site's worker does the same (``withoutGameName``)."""
        if self._without[0] == text:  # a query asks it of plan, find and searched_for in turn
            return self._without[1]
        found = self._without_game_name(text)
        self._without = (text, found)
        return found

    def _without_game_name(self, text: str) -> tuple[str, int | None]:
        game: str | None = None
        rest = text
        for pattern, named in self._game_texts:  # longest first: 鼠鼠骑士 before 鼠骑士
            if pattern.search(rest):
                if game is not None and named != game:
                    return text, None
                game, rest = named, pattern.sub(" ", rest)
        if game is None:  # "Mouse Ritter", "Betrayl": a Latin name typed or heard a letter or two off
            rest, game = misspelt_game(text, self._game_texts_latin)
        if game is None or game not in self.games or not self.searchable(rest):
            return text, None
        return rest, self.games.index(game)

    def plan(self, text: str) -> QueryPlan:
        """What ``text`` asks, read once (:class:`QueryPlan`): a game it names keeps that game's documents, and
        the rest of its words are searched (:meth:`without_game_name`)."""
        text, named = self.without_game_name(text)
        terms, sequence, scoped, own = self._expanded(text)
        # What the player said names it, not what a synonym reads it as ("shooting my bow" is no named topic).
        outside = self.outside(own, scoped)
        return QueryPlan(
            terms=tuple(terms),
            scoped=scoped,
            key=self.exact_key(text),
            name_terms=frozenset(self.name_terms(sequence, scoped)),
            names=frozenset(self.named(sequence, scoped=scoped)),
            about=frozenset(self.named(sequence, "about", scoped)),
            named_game=named if named is not None else self.named_game(sequence),
            question=searchtext.is_question(text),
            outside=tuple(dict.fromkeys(key for _, _, key in outside)),
            beside=frozenset(self.named(own, scoped=scoped, outside=outside)) if outside else frozenset(),
        )

    def outside(self, sequence: list[str], scoped: dict[str, frozenset[int]]) -> list[tuple[int, int, str]]:
        """The runs ``(start, end, key)`` of the names of what no entry answers that the query says
        (:attr:`outside_names`; ``sequence``: its own terms, without what its synonyms mean), each not held by a
        name of an entry or a game at least as long (:func:`~houserules.text.querynames.outside_spans`). The
        site's worker does the same (``outsideNames``)."""
        said = searchtext.named_spans(sequence, self.outside_names.__contains__)
        if not said:
            return []
        covered = searchtext.named_spans(
            sequence, lambda k: bool(self._scoped_names("names", k, scoped)) or k in self._game_names
        )
        return searchtext.outside_spans(said, covered)

    def named_game(self, sequence: list[str]) -> int | None:
        """The game the query names (a run of its terms is one of the game's names or aliases: "鼠鼠骑士的背包",
        "combat in betrayal"), as an index into :attr:`games`; None when it names none or several."""
        spans = searchtext.named_spans(sequence, self._game_named.__contains__)
        named = {self._game_named[key] for _, _, key in spans}
        if len(named) != 1:
            return None
        game = named.pop()
        return self.games.index(game) if game in self.games else None

    def is_common(self, term: str) -> bool:
        """Whether a term is too common in the long texts to be looked up there (:data:`MAX_COMMON_SHARE`):
        the setting of many rulings ("mouse", "room"), not what a query asks."""
        return any(self.common_in(field, term) for field in COMMON_SKIPPED)

    def named(
        self,
        sequence: list[str],
        field: str = "names",
        scoped: dict[str, frozenset[int]] | None = None,
        outside: list[tuple[int, int, str]] | None = None,
    ) -> set[int]:
        """The documents of the entries a query names: a run of its terms is one of their titles or
        aliases, and not inside a longer run that is (``field="about"``: the entries that refer to
        what the query names). A run with terms of games' synonyms (``scoped``, :meth:`expanded`)
        names those games' entries only. With ``outside`` (the runs of topics no entry answers), no name that is
        part of one of them, there or said again elsewhere ("疾跑这个行动 (疾跑)", a gloss of the scurry action,
        names no entry by its 疾跑)."""
        scoped = scoped or {}
        docs: set[int] = set()
        spans = searchtext.named_spans(sequence, lambda k: bool(self._scoped_names(field, k, scoped)))
        topics = [f" {key} " for _, _, key in outside or ()]
        for _, _, key in searchtext.longest_spans(spans):
            if not any(f" {key} " in topic for topic in topics):
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
        query asks about every run of its terms, several times. After :data:`NAME_LOOKUPS` lookups
        in the index, the field's names are read into a set once, which answers for the runs that
        name nothing (most runs of a query many synonyms expand)."""
        found = self._names.get((field, key))
        if found is None:
            known = self._name_sets.get(field)
            if known is None:
                self._name_lookups[field] = looked = self._name_lookups.get(field, 0) + 1
                if looked > NAME_LOOKUPS:
                    known = self._name_sets[field] = set(self.postings.terms(field))
            if known is not None and key not in known:
                return frozenset()
            found = frozenset(self.postings.docs(field, key))
            if len(self._names) > SCORES_KEPT:
                self._names.clear()
            self._names[(field, key)] = found
        return found

    def games_of(self) -> list[int]:
        """The game of every document, as an index into :attr:`games`."""
        if self._game_of is None:
            self._game_of = [0] * self.postings.doc_count()
            for number, game in enumerate(self.games):
                for docnum in self.postings.docs("game", game):
                    self._game_of[docnum] = number
        return self._game_of

    def known_share(self, text: str) -> float:
        """The share of the query's terms (with what its synonyms mean) that the index knows at all (:meth:`knows`)."""
        terms = self.expanded(text)[0]
        return sum(1 for term in terms if self.knows(term)) / len(terms) if terms else 0.0


#: A game's Latin name of at least this many letters is recognised a letter or two off (:func:`misspelt_game`).
MISSPELT_MIN = 6
_LATIN_WORD = re.compile("[A-Za-z]+")


def misspelt_game(text: str, names: list[tuple[str, str]]) -> tuple[str, str | None]:
    """The query without a game's Latin name typed or heard slightly wrong, and the game: a run of the query's
    words whose letters are at most one edit from the name's (two from a name of 8 letters or more), never
    shorter than the name by more than a letter ("betray" is a word, not Betrayal). The query as it is and None
    when no name or two games' names match. ``names``: (name as typed, game), longest first. The site's worker
    does the same (``misspeltGame``).

    >>> names = [("mice and mystics", "mm"), ("mausritter", "mr"), ("betrayal", "bh")]
    >>> misspelt_game("how long is an exploration turn in Mouse Ritter", names)
    ('how long is an exploration turn in  ', 'mr')
    >>> misspelt_game("Betrayl vault roll", names), misspelt_game("does the traitor betray", names)
    (('  vault roll', 'bh'), ('does the traitor betray', None))
    """
    words = [(m.start(), m.end(), m.group(0).lower()) for m in _LATIN_WORD.finditer(text)]
    found: tuple[int, int, str] | None = None
    for name, game in names:
        key = "".join(_LATIN_WORD.findall(name.lower()))
        if len(key) < MISSPELT_MIN:
            continue
        limit = 1 if len(key) < 8 else 2
        size = len(name.split())
        alphabet = set(key)
        for first in range(len(words)):
            for count in range(max(1, size - 1), size + 2):
                run = words[first : first + count]
                if len(run) < count:
                    break
                letters = "".join(word for _, _, word in run)
                if (
                    len(key) - 1 <= len(letters) <= len(key) + limit
                    and near_alphabets(set(letters), alphabet, limit)
                    and _edits(letters, key, limit) <= limit
                ):
                    if found is not None and found[2] != game:
                        return text, None
                    found = (run[0][0], run[-1][1], game)
    if found is None:
        return text, None
    start, end, game = found
    return text[:start] + " " + text[end:], game


def near_alphabets(a: set[str], b: set[str], limit: int) -> bool:
    """Whether two words whose letters are ``a`` and ``b`` may be within ``limit`` edits: each letter of one that the
    other lacks takes an edit of its own, so more than ``limit`` of them on either side rule it out (before the
    distance is computed: at 5,000 entries of 120 games the distances took 44 % of a query).

    >>> near_alphabets(set("mouseritter"), set("mausritter"), 1), near_alphabets(set("exploration"), set("mausritter"), 2)
    (True, False)
    """
    return len(a - b) <= limit and len(b - a) <= limit


def _edits(a: str, b: str, limit: int) -> int:
    """Levenshtein distance between ``a`` and ``b`` (``limit + 1`` once it is past ``limit``)."""
    previous = list(range(len(b) + 1))
    for i, char in enumerate(a, 1):
        current = [i]
        for j, other in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char != other)))
        if min(current) > limit:
            return limit + 1
        previous = current
    return previous[-1]
