"""The command-line search index: build, find and query it.

The index is a cache, never part of the data: it lives in
``$HOUSERULES_CACHE`` (default ``$XDG_CACHE_HOME/houserules`` or
``~/.cache/houserules``), one folder per data folder, with one sub-folder per
*fingerprint* of the data (a hash of every file under ``rules_data/``). A
search whose fingerprint has no folder yet rebuilds the index into a temporary
folder and renames it into place, so a reader never sees a half-written index
and two concurrent rebuilds cannot clash.

Queries are built here, not parsed: the text only ever becomes search terms,
so syntax characters (``AND``, ``(``, ``*``, ``"``, ``:``) are ordinary text.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from whoosh import index as whoosh_index
from whoosh.fields import ID, STORED, TEXT, Schema
from whoosh.query import And, AndMaybe, Or, Query, Term

from . import searchtext
from .errors import HouserulesError, Problem

#: Bump when the schema, the analysis or the stored record changes: caches rebuild.
INDEX_VERSION = 1

#: Weight of a query term found in each field: names above the answer above the details.
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
#: English words this long or longer may be corrected (shorter ones are too ambiguous).
MIN_CORRECTED = 4

META_FILE = "houserules-meta.json"
_ASCII_WORD = re.compile(r"[a-z]+")


def schema(analyzer: Any = None) -> Schema:
    """The index schema; ``analyzer`` replaces the project's for comparisons."""
    text = analyzer or searchtext.analyzer()
    return Schema(
        ref=ID(stored=True, unique=True),
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


def fingerprint(data_dir: Path) -> str:
    """A hash of every file under ``data_dir`` (names and contents) and of the index format.

    Contents rather than modification times: a checkout or a copy that keeps
    times must still rebuild, and hashing a few thousand small files is cheap.
    """
    digest = hashlib.blake2b(f"v{INDEX_VERSION}".encode(), digest_size=16)
    for path in sorted(p for p in data_dir.rglob("*") if p.is_file()):
        rel = path.relative_to(data_dir).as_posix()
        if any(part.startswith(".") for part in rel.split("/")):
            continue
        digest.update(rel.encode() + b"\0")
        digest.update(hashlib.blake2b(path.read_bytes(), digest_size=16).digest())
    return digest.hexdigest()


# -- building -------------------------------------------------------------------

def documents(kb: Any) -> Iterable[dict[str, Any]]:
    """The index documents of a :class:`~houserules.data.model.KnowledgeBase`."""
    from .render.urls import entry_url

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
            "ref": entry.ref, "game": entry.game, "kind": entry.kind, "record": record,
            "exact": "\n".join(searchtext.exact_key(t) for t in [entry.code, *titles]),
            "exact_alias": "\n".join(searchtext.exact_key(a) for a in entry.aliases),
            "words": "\n".join(sorted({w for t in texts.values() for w in searchtext.english_words(t)})),
            **texts,
        }


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
    from .data.load import load

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
        abandoned = time.time() - child.stat().st_mtime > 3600
        if not child.name.startswith(".tmp-") or abandoned:
            shutil.rmtree(child, ignore_errors=True)


def ensure_index(data_dir: Path) -> Path:
    """The up-to-date index folder of ``data_dir``, rebuilt first if the data changed."""
    if not data_dir.is_dir():
        raise HouserulesError(f"data folder not found: {data_dir} — pass --data DIR pointing at rules_data/",
                              [Problem(str(data_dir), 1, "-", "data folder not found",
                                       "pass --data DIR pointing at the rules_data folder")])
    home = index_home(data_dir)
    target = home / fingerprint(data_dir)
    if not (target / META_FILE).is_file():
        build_for(data_dir, target)
        _remove_stale(home, target)
    return target


# -- querying -------------------------------------------------------------------

@dataclass
class Hit:
    """One search result: the stored record of an entry and its score."""

    record: dict[str, Any]
    score: float

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
        return set(self._reader.field_terms("ref"))

    @property
    def problems(self) -> list[str]:
        return self.meta["problems"]

    def correct(self, text: str) -> str:
        """The query with unknown English words replaced by the closest indexed word."""
        def fix(match: re.Match[str]) -> str:
            word = match.group(0)
            if len(word) < MIN_CORRECTED or ("words", word) in self._reader:
                return word
            maxdist = 1 if len(word) < 7 else 2
            found = self._corrector.suggest(word, limit=1, maxdist=maxdist, prefix=1)
            return found[0] if found else word

        return _ASCII_WORD.sub(fix, searchtext.fold(text))

    def _common(self, field: str, term: str) -> bool:
        return self._reader.doc_frequency(field, term) > MAX_COMMON_SHARE * self._count

    def query(self, text: str) -> Query | None:
        """The Whoosh query for a text, or None when it holds nothing searchable."""
        terms = searchtext.query_terms(self.correct(text), self._analyzer)
        key = searchtext.exact_key(text)
        if not terms and not key:
            return None
        parts: list[Query] = [Term(f, t, boost=b) for t in terms for f, b in FIELD_BOOSTS.items()
                              if f not in COMMON_SKIPPED or not self._common(f, t)]
        if key:
            parts += [Term("exact", key, boost=EXACT_BOOST), Term("exact_alias", key, boost=EXACT_ALIAS_BOOST)]
        if searchtext.is_question(text):
            answers = Or([Term("kind", k, boost=QUESTION_BOOST) for k in QUESTION_KINDS])
            return AndMaybe(Or(parts), answers)
        return Or(parts)

    def search(self, text: str, game: str | None = None, kind: str | None = None,
               limit: int = 10) -> list[Hit]:
        """Ranked hits for ``text``, optionally limited to one game and/or kind."""
        query = self.query(text)
        if query is None:
            return []
        filters = [Term("game", game)] if game else []
        filters += [Term("kind", kind)] if kind else []
        flt = And(filters) if filters else None
        results = self._searcher.search(query, limit=limit, filter=flt)
        return [Hit(hit["record"], hit.score) for hit in results]


def open_index(data_dir: Path) -> SearchIndex:
    """The index of ``data_dir``, rebuilt on demand when the data changed."""
    return SearchIndex(ensure_index(data_dir))
