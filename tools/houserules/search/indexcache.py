"""Where the command-line search index is kept, and how it is built, checked and rebuilt.

The index is a cache, never part of the data: it lives in
``$HOUSERULES_CACHE`` (default ``$XDG_CACHE_HOME/houserules`` or
``~/.cache/houserules``), one folder per data folder, with one sub-folder per
*fingerprint* of the files the index is made of (their git ids, kept in a memo
and read again only when a file's size, time or inode changed). A search whose fingerprint has no folder yet
rebuilds the index into a temporary folder and renames it into place, so a
reader never sees a half-written index and two concurrent rebuilds cannot
clash. A damaged index (a file missing, truncated or unreadable) is rebuilt.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from whoosh import index as whoosh_index

from ..data.versions.fingerprint import fingerprint as data_fingerprint
from ..data.versions.fingerprint import relative
from ..errors import HouserulesError
from ..text import othergames
from . import analysis as searchtext
from . import homophones
from .documents import FIELD_BOOSTS, INDEX_VERSION, documents, schema
from .postings import MemoryPostings, Postings

if TYPE_CHECKING:  # the search starts without loading the data model
    from ..data.reading.model import Game, KnowledgeBase

META_FILE = "houserules-meta.json"
#: The indexed Chinese bigrams by toneless pinyin with the real words of each key (:func:`homophones.key_table`):
#: what homophone correction reads, made once when the index is written.
HOMOPHONES_FILE = "houserules-homophones.json"
#: The characters' toneless pinyin the homophone table was made with (:func:`homophones.char_table`): what a
#: query's bigrams are keyed by, without reading pypinyin's table at each search.
READINGS_FILE = "houserules-readings.json"
#: The files the index is made of, relative to the data folder (what the loader reads).
INDEXED_GAME_FILES = ("game.yaml", "glossary.yaml", "synonyms.yaml")
#: The data folder's own files the index holds: the synonyms of every game, and the reviewed Traditional forms (each
#: text is indexed as a Traditional reader sees it).
INDEXED_TOP_FILES = ("synonyms.yaml", "traditional.yaml")


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


def memo_file(data_dir: Path) -> Path:
    """The indexed files' ids, kept beside the data folder's indexes (:func:`fingerprint`)."""
    return cache_root() / f"fingerprint-{index_home(data_dir).name.removeprefix('index-')}.json"


def indexed_files(data_dir: Path) -> list[Path]:
    """The files the index is built from: :data:`INDEXED_TOP_FILES`, each game's :data:`INDEXED_GAME_FILES` and
    ``entries/*.yaml`` (hidden names skipped, as the loader does). Nothing is opened."""
    found: list[Path] = [Path(data_dir, name) for name in INDEXED_TOP_FILES if os.path.lexists(Path(data_dir, name))]
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
    """The key of the index of ``data_dir``: the data's fingerprint (:mod:`houserules.data.versions.fingerprint`)
    of the indexed files, with the index format as the salt.

    Only what the index is made of counts (other files in the data folder are never read:
    a FIFO or a huge stray file costs nothing). The files' ids are kept in a memo beside the
    indexes, so a search reads again only the files whose size, time or inode changed; a copy
    or a checkout of the same files has the same key.
    """
    files = indexed_files(data_dir)
    found = data_fingerprint(data_dir, only=files, memo=memo_file(data_dir))
    salt = f"index v{INDEX_VERSION} {othergames.digest()}"
    return found.digest(salt, [relative(path, data_dir) for path in files])


# -- building -------------------------------------------------------------------


@dataclass
class Built:
    """An index made in memory (:func:`memory_index`): what an index folder holds, kept in the process."""

    postings: MemoryPostings
    meta: dict[str, Any]
    homophones: dict[str, list[str]]
    readings: dict[str, Any]


def write_index(target: Path, docs: Iterable[dict[str, Any]], meta: dict[str, Any], analyzer: Any = None) -> Path:
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
        postings = Postings(tmp)
        try:
            table, readings = correction_tables(postings, meta)
        finally:
            postings.close()
        (tmp / HOMOPHONES_FILE).write_text(json.dumps(table, ensure_ascii=False), encoding="utf-8")
        (tmp / READINGS_FILE).write_text(json.dumps(readings, ensure_ascii=False), encoding="utf-8")
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


def memory_index(docs: Iterable[dict[str, Any]], meta: dict[str, Any]) -> Built:
    """The index of ``docs`` made in memory, as :func:`write_index` writes it (the same postings, scores and
    tables): the site's index is exported from it, with nothing written and read again."""
    postings = MemoryPostings(schema(), docs)
    table, readings = correction_tables(postings, meta)
    return Built(postings, {**meta, "version": INDEX_VERSION}, table, readings)


def correction_tables(postings: Postings | MemoryPostings, meta: dict[str, Any]) -> tuple[Any, Any]:
    """The homophone table of an index's bigrams (:func:`homophones.key_table`) and the characters' readings it
    was keyed by (:func:`homophones.char_table`): what homophone correction reads."""
    names = list(postings.terms("names"))
    bigrams = name_bigrams(postings, names, meta.get("synonyms", []))
    # The vocabulary's bigrams stay as typed: the dictionary's words', and every name's and synonym's (打它,
    # 被抱住: what players say that no entry writes).
    vocabulary = homophones.dictionary_words() + tuple(vocabulary_bigrams(names, meta.get("synonyms", [])))
    return homophones.key_table(bigrams.items(), vocabulary), homophones.char_table()


def name_bigrams(
    postings: Postings | MemoryPostings, names: list[str], synonyms: list[list[str]]
) -> dict[str, tuple[bool, int, list[str]]]:
    """The Chinese bigrams of the names (titles, aliases, glossary terms) and of the synonym tables' words
    (what players say, 坏人, and the rules' word for it, 奸徒): whether one is a whole name, its document
    frequency in the searched fields (summed over them), and the longer names (their Chinese runs) it stands in.
    What a homophone is corrected into (:func:`homophones.key_table`). ``names``: the index's names."""
    names = names + [searchtext.name_key(word) for pair in synonyms for word in pair[:2]]
    found: dict[str, tuple[bool, int, list[str]]] = {}
    for name in names:
        for run in _chinese_runs(name.split(" ")):
            for term in run:
                frequency = sum(postings.doc_frequency(f, term) for f in FIELD_BOOSTS)
                if not frequency:  # only what the searched fields hold (a corrected query finds it)
                    continue
                whole, _, longer = found.get(term, (False, 0, []))
                text = run[0] + "".join(t[1] for t in run[1:])
                found[term] = (whole or len(run) == 1 and term == name, frequency, longer + [text] * (len(run) > 1))
    # A title or alias of two characters is a whole name, even where its game's texts use it everywhere and it
    # names nothing there (documents.context_names: 塔楼 in a game about a tower).
    for field in ("exact", "exact_alias"):
        for term in postings.terms(field):
            if len(term) == 2 and homophones.is_cjk(term[0]) and homophones.is_cjk(term[1]):
                frequency = sum(postings.doc_frequency(f, term) for f in FIELD_BOOSTS)
                if frequency:
                    found[term] = (True, frequency, found.get(term, (False, 0, []))[2])
    return found


def vocabulary_bigrams(names: list[str], synonyms: list[list[str]]) -> set[str]:
    """The Chinese bigrams of the names (their keys, ``names``) and of the synonym tables' words, whether the
    searched fields hold them or not: words of the vocabulary, never corrected."""
    keys = names + [searchtext.name_key(word) for pair in synonyms for word in pair[:2]]
    return {term for key in keys for run in _chinese_runs(key.split(" ")) for term in run}


def _chinese_runs(terms: list[str]) -> list[list[str]]:
    """The runs of a name key's Chinese bigrams that follow one another in the name (魔梯 坠毁: two runs;
    结束 束回 回合: one, 结束回合)."""
    runs: list[list[str]] = []
    for term in terms:
        if not (len(term) == 2 and homophones.is_cjk(term[0]) and homophones.is_cjk(term[1])):
            runs.append([])
        elif runs and runs[-1] and runs[-1][-1][1] == term[0]:
            runs[-1].append(term)
        else:
            runs.append([term])
    return [run for run in runs if run]


def build_for(data_dir: Path, target: Path) -> Path:
    """Load ``data_dir`` and write its index; load problems are kept to be shown on each search."""
    from ..data.reading.load import load

    result = load(data_dir)
    kb = result.kb
    meta = index_meta(kb, [str(p) for p in result.problems if p.severity == "error"])
    return write_index(target, documents(kb), meta)


def index_meta(kb: KnowledgeBase, problems: list[str]) -> dict[str, Any]:
    """What an index keeps beside its documents: sizes, games, load problems, the synonym tables,
    and the games' names (their id, names and aliases) as query-term runs: a query saying one
    names the game it is about, not a topic (``index.SearchIndex.name_terms``)."""
    games = kb.games.values()
    names = [n for g in games for n in game_names(g)]
    return {
        "entries": len(kb.entries),
        "games": sorted(kb.games),
        "problems": problems,
        "synonyms": searchtext.synonym_pairs(kb),
        # ... and the glossaries' English names a Chinese question may say, with their Chinese names (cross_named).
        "crossed": searchtext.crossed_names(kb),
        "game_names": sorted({key for name in names if (key := searchtext.name_key(name))}),
        # ... and which game each names (a query naming one game is about that game: index.NAMED_GAME_BOOST).
        "game_named": game_named(games),
        # ... and as typed, longest first: a query naming one game is searched without the name (game_name_texts).
        "game_name_texts": game_name_texts(games),
        # What a query may name that no entry answers (a topic no source covers, another game): it is told so.
        "outside": outside_names(games, kb.traditional_terms()),
        # ... and what a result shows beside its code: the game's name, in Traditional characters too.
        "game_titles": game_titles(kb),
    }


def game_titles(kb: KnowledgeBase) -> dict[str, dict[str, str]]:
    """Each game's name as a result shows it beside the entry's code: ``{"zh", "en", "zh-Hant"}`` (the Chinese
    name in Traditional characters as a Traditional reader sees every text, :func:`~houserules.text.chinese.to_traditional`
    with the reviewed forms)."""
    from ..text.chinese import to_traditional

    regional = kb.traditional_terms()
    return {
        game.id: {"zh": game.name.zh, "en": game.name.en, "zh-Hant": to_traditional(game.name.zh, regional)}
        for game in sorted(kb.games.values(), key=lambda g: g.id)
    }


def outside_names(games: Iterable[Game], regional: Iterable[tuple[str, str]] = ()) -> dict[str, list[str]]:
    """What a query may name that no entry answers, by key (``searchtext.name_key``): the label a reader sees
    (Chinese · English), the game ("" for a game the knowledge base does not hold) and the label in Traditional
    characters. A Latin name of one common English word names nothing ("The Resistance" is "resist" to the search,
    which "which save resists a spell" says too). The games' ``not_covered``
    topics, then the other games of :mod:`houserules.text.othergames`; a key that is one of the knowledge base's
    games' names, or two topics share, names none. The Traditional label with the reviewed forms (``regional``)."""
    from ..text.chinese import to_traditional

    games = list(games)
    found: dict[str, list[str]] = {}
    shared = {key for game in games for name in game_names(game) if (key := searchtext.name_key(name))}
    named = [
        (topic.name["zh"], topic.name["en"], [*topic.name.values(), *topic.aliases], game.id)
        for game in games
        for topic in game.not_covered
    ]
    named += [
        (names[1] if len(names) > 1 else names[0], names[0], list(names), "") for names in othergames.other_games()
    ]
    for zh, en, names, game in named:
        label = zh if zh == en else f"{zh} · {en}"
        for name in names:
            key = searchtext.name_key(name)
            if not key or key in shared or _one_common_word(name, key):
                continue
            if key in found and found[key][:2] != [label, game]:
                shared.add(key)
                del found[key]
                continue
            found[key] = [label, game, to_traditional(label, regional)]
    return dict(sorted(found.items()))


def _one_common_word(name: str, key: str) -> bool:
    """Whether a name's key is one term of a common English word (:func:`houserules.text.english.is_common`).

    >>> _one_common_word("The Resistance", "resist"), _one_common_word("Gloomhaven", "gloomhaven")
    (True, False)
    """
    from ..text.english import is_common

    return " " not in key and key.isascii() and any(is_common(word) for word in name.casefold().split())


def game_names(game: Game) -> list[str]:
    """What a query may call a game: its id (spaced), its names and its aliases."""
    return [game.id.replace("-", " "), *game.name.values(), *game.aliases]


def game_name_texts(games: Iterable[Game]) -> list[list[str]]:
    """Each game's names and aliases as a query may type them, with the game, longest first: a Chinese name
    of two characters or more, a Latin one of three letters or more (not "MR", the start of a code); a name
    two games share names neither (``search.query.QueryReader.without_game_name``)."""
    found: dict[str, set[str]] = {}
    for game in games:
        for name in game_names(game)[1:]:  # as typed: the id is no name a player types
            text = " ".join(str(name).casefold().split())
            latin = text.isascii()
            if (latin and sum(c.isalpha() for c in text) >= 3) or (not latin and len(text) >= 2):
                found.setdefault(text, set()).add(game.id)
    return [
        [text, ids.pop()]
        for text, ids in sorted(found.items(), key=lambda item: (-len(item[0]), item[0]))
        if len(ids) == 1
    ]


def game_named(games: Iterable[Game]) -> dict[str, str]:
    """Each key of a game's names (its id, names and aliases) and the game it names; a key two games share
    names neither."""
    named: dict[str, str] = {}
    shared: set[str] = set()
    for game in games:
        for name in game_names(game):
            key = searchtext.name_key(name)
            if not key:
                continue
            if named.get(key, game.id) != game.id:
                shared.add(key)
            named[key] = game.id
    return {key: game for key, game in sorted(named.items()) if key not in shared}


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
        return (
            meta.get("version") == INDEX_VERSION
            and bool(files)
            and all((folder / name).stat().st_size == size for name, size in files.items())
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return False


def _cache_problem(home: Path, exc: OSError) -> HouserulesError:
    if os.environ.get("HOUSERULES_CACHE"):
        where, fix = "HOUSERULES_CACHE", "set HOUSERULES_CACHE to a folder you can write, or unset it"
    elif os.environ.get("XDG_CACHE_HOME"):
        where, fix = "XDG_CACHE_HOME", "set XDG_CACHE_HOME to a folder you can write, or set HOUSERULES_CACHE"
    else:
        where, fix = "default", "set HOUSERULES_CACHE to a folder you can write"
    reason = (
        "not a folder" if isinstance(exc, (FileExistsError, NotADirectoryError)) else (exc.strerror or str(exc)).lower()
    )
    return HouserulesError(f"cannot keep the search index in {cache_root()} ({where}): {reason} — {fix}")


def ensure_index(data_dir: Path, rebuild: bool = False) -> Path:
    """The up-to-date index folder of ``data_dir``, rebuilt first if the data changed or it is damaged."""
    if not data_dir.is_dir():
        raise HouserulesError(f"data folder not found: {data_dir} — pass --data DIR pointing at rules_data/")
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
    return isinstance(exc, (FileExistsError, NotADirectoryError, PermissionError)) or (
        exc.filename is not None and str(exc.filename).startswith(str(cache_root()))
    )
