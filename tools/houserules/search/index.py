"""The command-line search index: build, find and query it.

The index is a cache, never part of the data: it lives in
``$HOUSERULES_CACHE`` (default ``$XDG_CACHE_HOME/houserules`` or
``~/.cache/houserules``), one folder per data folder, with one sub-folder per
*fingerprint* of the data (the names, sizes, modification times and inodes of
the files the index is made of). A search whose fingerprint has no folder yet
rebuilds the index into a temporary folder and renames it into place, so a
reader never sees a half-written index and two concurrent rebuilds cannot
clash. A damaged index (a file missing, truncated or unreadable) is rebuilt.

Each entry is one document and each of its questions another: a question
document holds the question and its variants, the answer, and the entry's
title as weak context. Results are folded by entry: one hit per entry, the
best-scoring of its documents (so a question hit stands for its entry).

Queries are built here, not parsed: the text only ever becomes search terms,
so syntax characters (``AND``, ``(``, ``*``, ``"``, ``:``) are ordinary text.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import stat
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from whoosh import collectors, index as whoosh_index
from whoosh.fields import ID, STORED, TEXT, Schema
from whoosh.query import And, Or, Query, Term

from . import analysis as searchtext
from ..errors import HouserulesError, Problem

#: Bump when the schema, the analysis or the stored record changes: caches rebuild.
INDEX_VERSION = 4  # 4: the analyzer moved to houserules.search.analysis (pickled in the schema)

#: Weight of a query term found in each field: names above the answer above the details.
#: A question document fills the same fields: the question as its title, the variants as
#: aliases, the answer as summary, its entry's titles as body (weak context). Separate
#: fields ranked no better on the development questions and cost 60 % more per query.
FIELD_BOOSTS: dict[str, float] = {"code": 8.0, "title": 4.0, "aliases": 4.0, "summary": 3.0, "body": 1.0}
#: A query equal to a code or a title (ignoring case, spaces and punctuation) comes first.
EXACT_BOOST = 1000.0
#: A query equal to an alias ranks above partial matches, below exact titles.
EXACT_ALIAS_BOOST = 40.0
#: A term in more than this share of the entries' texts is not looked up there
#: (it still counts in names and codes): it barely changes the ranking, and
#: scoring its long posting list is most of the time of a long query.
MAX_COMMON_SHARE = 0.1
COMMON_SKIPPED = ("summary", "body")
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

META_FILE = "houserules-meta.json"
_ASCII_WORD = re.compile(r"[a-z]+")
#: The files the index is made of, relative to the data folder (what the loader reads).
INDEXED_GAME_FILES = ("game.yaml", "glossary.yaml")


def schema(analyzer: Any = None) -> Schema:
    """The index schema; ``analyzer`` replaces the project's for comparisons."""
    text = analyzer or searchtext.analyzer()
    return Schema(
        ref=ID(stored=True, unique=True),
        entry=ID,
        type=ID,
        game=ID,
        kind=ID,
        exact=TEXT(analyzer=_lines(), phrase=False),
        exact_alias=TEXT(analyzer=_lines(), phrase=False),
        words=TEXT(analyzer=_lines(), phrase=False),
        record=STORED,
        **{name: TEXT(analyzer=text, phrase=False) for name in FIELD_BOOSTS},
    )


def _lines() -> Any:
    from whoosh.analysis import RegexTokenizer

    # One token per line: the exact keys and the spelling word list are written that way.
    return RegexTokenizer(r"[^\n]+")


# -- where the index lives ----------------------------------------------------

def cache_root() -> Path:
    """The folder holding every index: ``$HOUSERULES_CACHE``, else the XDG cache."""
    if os.environ.get("HOUSERULES_CACHE"):
        return Path(os.environ["HOUSERULES_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "houserules"


def index_home(data_dir: Path) -> Path:
    """The folder of one data folder's indexes (named after its absolute path)."""
    digest = hashlib.blake2b(str(data_dir.resolve()).encode(), digest_size=8).hexdigest()
    return cache_root() / f"index-{digest}"


def indexed_files(data_dir: Path) -> list[Path]:
    """The files the index is built from: each game's ``game.yaml``, ``glossary.yaml`` and
    ``entries/*.yaml`` (hidden names skipped, as the loader does). Nothing is opened."""
    found: list[Path] = []
    for game in _scan(data_dir):
        if not game.is_dir(follow_symlinks=False):
            continue
        found += [Path(game.path, name) for name in INDEXED_GAME_FILES if os.path.lexists(Path(game.path, name))]
        found += [Path(e.path) for e in _scan(Path(game.path, "entries")) if e.name.endswith(".yaml")]
    return found


def _scan(folder: Path) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as items:
            return sorted((i for i in items if not i.name.startswith(".")), key=lambda i: i.name)
    except (NotADirectoryError, FileNotFoundError):
        return []


def fingerprint(data_dir: Path) -> str:
    """A hash of the indexed files' names, sizes, modification times and inodes, and of the index format.

    Only what the index is made of counts (other files in the data folder are never
    read), and only ``stat`` is asked, never the contents: a FIFO or a huge stray file
    costs nothing. A copy or a checkout that keeps modification times still gets new
    inodes, so it rebuilds too.
    """
    digest = hashlib.blake2b(f"v{INDEX_VERSION}".encode(), digest_size=16)
    for path in indexed_files(data_dir):
        info = os.lstat(path)
        digest.update(path.relative_to(data_dir).as_posix().encode() + b"\0")
        digest.update(f"{stat.S_IFMT(info.st_mode)}:{info.st_size}:{info.st_mtime_ns}:{info.st_ino}\n".encode())
    return digest.hexdigest()


# -- building -------------------------------------------------------------------

def documents(kb: Any) -> Iterable[dict[str, Any]]:
    """The index documents of a :class:`~houserules.data.model.KnowledgeBase`: each entry, then its questions."""
    from ..render.urls import entry_url

    for entry in kb.entries.values():
        titles = [entry.title["zh"], entry.title["en"]]
        texts = {
            "code": entry.code,
            "title": "\n".join(titles),
            "aliases": "\n".join(entry.aliases),
            "summary": "\n".join(entry.summary.values()),
            "body": "\n".join(entry.body.values()),
        }
        record = {"id": entry.ref, "code": entry.code, "game": entry.game, "kind": entry.kind,
                  "title": entry.title, "summary": entry.summary, "url": entry_url(entry)}
        yield {
            "ref": entry.ref, "entry": entry.ref, "type": "entry", "game": entry.game, "kind": entry.kind,
            "record": record,
            "exact": "\n".join(searchtext.exact_key(t) for t in [entry.code, *titles]),
            "exact_alias": "\n".join(searchtext.exact_key(a) for a in entry.aliases),
            "words": _words(texts.values()),
            **texts,
        }
        for question in entry.questions:
            asked = [question["q"]["zh"], question["q"]["en"], *question.get("variants", [])]
            qtexts = {"title": "\n".join(asked[:2]), "aliases": "\n".join(asked[2:]),
                      "summary": "\n".join(question["a"].values()), "body": "\n".join(titles)}
            url = f"{record['url']}#{question['id']}"
            yield {
                "ref": f"{entry.ref}#{question['id']}", "entry": entry.ref, "type": "question",
                "game": entry.game, "kind": entry.kind,
                "record": {**record, "url": url,
                           "question": {"id": question["id"], "question": question["q"],
                                        "answer": question["a"], "url": url}},
                "exact_alias": "\n".join(searchtext.exact_key(a) for a in asked),
                "words": _words(qtexts.values()),
                **qtexts,
            }


def _words(texts: Iterable[str]) -> str:
    return "\n".join(sorted({w for t in texts for w in searchtext.english_words(t)}))


def write_index(target: Path, docs: Iterable[dict[str, Any]], meta: dict[str, Any],
                analyzer: Any = None) -> Path:
    """Write a complete index into ``target`` atomically (temp folder, then rename).

    If another process already wrote ``target``, its index is kept and ours dropped.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".tmp-", dir=target.parent))
    try:
        ix = whoosh_index.create_in(str(tmp), schema(analyzer))
        writer = ix.writer()
        for doc in docs:
            writer.add_document(**doc)
        writer.commit()
        ix.close()
        # The size of every file, so a damaged index is noticed before Whoosh trips over it.
        files = {p.name: p.stat().st_size for p in tmp.iterdir() if p.is_file()}
        meta = {**meta, "version": INDEX_VERSION, "files": files}
        (tmp / META_FILE).write_text(json.dumps(meta, ensure_ascii=False), encoding="utf-8")
        try:
            os.rename(tmp, target)
        except OSError:
            if not (target / META_FILE).is_file():
                raise
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return target


def build_for(data_dir: Path, target: Path) -> Path:
    """Load ``data_dir`` and write its index; load problems are kept to be shown on each search."""
    from ..data.load import load

    result = load(data_dir)
    kb = result.kb
    meta = {"entries": len(kb.entries), "games": sorted(kb.games),
            "problems": [str(p) for p in result.problems if p.severity == "error"]}
    return write_index(target, documents(kb), meta)


def _remove_stale(home: Path, keep: Path) -> None:
    # Old fingerprints go at once; temp folders only when clearly abandoned.
    for child in home.iterdir():
        if child == keep:
            continue
        abandoned = time.time() - child.lstat().st_mtime > 3600
        if not child.name.startswith(".tmp-") or abandoned:
            _remove(child)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def intact(folder: Path) -> bool:
    """Whether ``folder`` holds a whole index of this version: every file there, at its size."""
    try:
        meta = json.loads((folder / META_FILE).read_text(encoding="utf-8"))
        files = meta["files"]
        return meta.get("version") == INDEX_VERSION and bool(files) and all(
            (folder / name).stat().st_size == size for name, size in files.items())
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return False


def _cache_problem(home: Path, exc: OSError) -> HouserulesError:
    if os.environ.get("HOUSERULES_CACHE"):
        where, fix = "HOUSERULES_CACHE", "set HOUSERULES_CACHE to a folder you can write, or unset it"
    elif os.environ.get("XDG_CACHE_HOME"):
        where, fix = "XDG_CACHE_HOME", "set XDG_CACHE_HOME to a folder you can write, or set HOUSERULES_CACHE"
    else:
        where, fix = "default", "set HOUSERULES_CACHE to a folder you can write"
    reason = "not a folder" if isinstance(exc, (FileExistsError, NotADirectoryError)) else \
        (exc.strerror or str(exc)).lower()
    return HouserulesError(f"cannot keep the search index in {cache_root()} ({where}): {reason} — {fix}")


def ensure_index(data_dir: Path, rebuild: bool = False) -> Path:
    """The up-to-date index folder of ``data_dir``, rebuilt first if the data changed or it is damaged."""
    if not data_dir.is_dir():
        raise HouserulesError(f"data folder not found: {data_dir} — pass --data DIR pointing at rules_data/",
                              [Problem(str(data_dir), 1, "-", "data folder not found",
                                       "pass --data DIR pointing at the rules_data folder")])
    home = index_home(data_dir)
    try:
        home.mkdir(parents=True, exist_ok=True)
        target = home / fingerprint(data_dir)
        if rebuild or not intact(target):
            if os.path.lexists(target):
                _remove(target)
            build_for(data_dir, target)
            _remove_stale(home, target)
    except OSError as exc:
        if _is_location_problem(home, exc):
            raise _cache_problem(home, exc) from None
        raise
    return target


def _is_location_problem(home: Path, exc: OSError) -> bool:
    # Anything that stops us writing into the cache folder itself (not a data file we could not read).
    return isinstance(exc, (FileExistsError, NotADirectoryError, PermissionError)) or \
        (exc.filename is not None and str(exc.filename).startswith(str(cache_root())))


# -- querying -------------------------------------------------------------------

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

    def __enter__(self) -> "SearchIndex":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._searcher.close()
        self._ix.close()

    @property
    def games(self) -> list[str]:
        return self.meta["games"]

    def refs(self) -> set[str]:
        """Every indexed entry as ``game:id``."""
        return set(self._reader.field_terms("entry"))

    @property
    def problems(self) -> list[str]:
        return self.meta["problems"]

    def correct(self, text: str) -> str:
        """The folded query with unknown English words replaced by the closest indexed word,
        and an unknown last word by the words it begins.

        >>> index.correct("Elevatr crash"), index.correct("mystic eleva")  # doctest: +SKIP
        ('elevator crash', 'mystic elevator elevators')
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
        return self._reader.doc_frequency(field, term) > MAX_COMMON_SHARE * self._count

    def query(self, text: str) -> Query | None:
        """The Whoosh query for a text, or None when it holds nothing searchable.

        A question's preference for answers (:func:`bonus`) is added to these scores
        afterwards, by :meth:`ranked`.
        """
        terms = searchtext.query_terms(self.correct(text), self._analyzer)
        key = searchtext.exact_key(text)
        if not terms and not key:
            return None
        parts: list[Query] = [Term(f, t, boost=b) for t in terms for f, b in FIELD_BOOSTS.items()
                              if f not in COMMON_SKIPPED or not self._common(f, t)]
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
        collector: Any = _Collector(limit, self.bonus if searchtext.is_question(text) else None)
        if flt is not None:
            collector = collectors.FilterCollector(collector, allow=flt)
        self._searcher.search_with_collector(query, collector)
        return [(hit.score, hit.docnum) for hit in collector.results()]

    def bonus(self, docnum: int) -> float:
        """What a question adds to a document: answers (rulings, rules) and questions come first."""
        if self._answers is None:
            ids = lambda field, text: set(self._reader.postings(field, text).all_ids()) \
                if (field, text) in self._reader else set()  # noqa: E731
            self._answers = set().union(*(ids("kind", k) for k in QUESTION_KINDS))
            self._questions = ids("type", "question")
        return (QUESTION_BOOST if docnum in self._answers else 0.0) + \
            (QUESTION_DOC_BOOST if docnum in self._questions else 0.0)

    def search(self, text: str, game: str | None = None, kind: str | None = None,
               limit: int = 10) -> list[Hit]:
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
    replaces the matchers of the many per-field terms every few documents), plus a bonus."""

    def __init__(self, limit: int, bonus: Any = None):
        super().__init__(limit=limit, usequality=False, replace=0)
        self._bonus = bonus

    def collect(self, sub_docnum: int) -> Any:
        docnum = self.offset + sub_docnum
        score = self.matcher.score()
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
