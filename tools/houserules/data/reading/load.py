"""Read ``rules_data/`` into a :class:`KnowledgeBase`, collecting every problem.

Layout::

    rules_data/<game>/game.yaml          metadata, sources, contents
    rules_data/<game>/glossary.yaml      optional: terms and their translations
    rules_data/<game>/synonyms.yaml      optional: what players say for the game's words (search)
    rules_data/synonyms.yaml             optional: what players say, in every game (search)
    rules_data/traditional.yaml          optional: the reviewed Traditional forms a Traditional reader sees (search)
    rules_data/<game>/entries/<id>.yaml  one entry per file, named after its id

A file that cannot be read or does not match its schema is reported and left
out; the rest still loads, so one run shows every problem.
"""

from __future__ import annotations

import gc
import os
import re
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from ...errors import Problem, display_path
from . import schemaparts as patterns
from .model import Entry, Game, Glossary, KnowledgeBase, Synonyms, TraditionalTerms
from .readfile import ReadCache, read_document
from .records import build
from .safefile import folder_children, unreadable
from .yamlload import Document

_Optional = TypeVar("_Optional", Glossary, Synonyms)

_SLUG = re.compile(patterns.SLUG)
GAME_FILE = "game.yaml"
GLOSSARY_FILE = "glossary.yaml"
SYNONYMS_FILE = "synonyms.yaml"
TRADITIONAL_FILE = "traditional.yaml"
ENTRIES_DIR = "entries"


@dataclass
class LoadResult:
    kb: KnowledgeBase
    problems: list[Problem] = field(default_factory=list)
    #: Reuse what earlier loads read (None: read every file).
    cache: ReadCache | None = None

    def read(self, path: Path, schema_name: str, label: str) -> tuple[Document | None, list[Problem]]:
        return self.cache.read(path, schema_name, label) if self.cache else read_document(path, schema_name, label)


def _link(path: Path) -> Problem:
    # Named as written: display_path would follow the link.
    return Problem(
        str(Path(display_path(path.parent)) / path.name),
        1,
        "-",
        "symbolic link in the data folder",
        "replace the link by the file itself; the build reads only real files inside rules_data/",
    )


def _bad_name(path: Path, stem: str, siblings: list[Path]) -> Problem | None:
    """A problem when a file or folder name is not a slug (ids become file names in the site)."""
    if _SLUG.fullmatch(stem):
        return None
    twins = [p.name for p in siblings if p != path and p.stem.casefold() == stem.casefold()]
    clash = f"; it clashes with {', '.join(twins)} where case is ignored (Windows, macOS)" if twins else ""
    return Problem(
        display_path(path),
        1,
        "-",
        f"name '{path.name}' is not an id{clash}",
        "rename it with lowercase letters, digits and single hyphens, e.g. mystic-elevator",
    )


def _stray(path: Path, where: str) -> Problem:
    return Problem(
        display_path(path),
        1,
        "-",
        f"unexpected file in {where}",
        "move it to rules_data/<game>/entries/<id>.yaml, or remove it",
    )


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off for a while, as it was after.

    Loading makes hundreds of thousands of objects that all stay (the knowledge base, no
    cycles among them), and each of the collector's passes over the older ones scans them all
    again: a fifth of a large load's time, for nothing. Reference counting still frees the
    rest as usual.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            # What was made meanwhile is all in the youngest generation, and the collector's
            # next pass over it would scan every object of the knowledge base once more (a
            # tenth of a large check's time): moved to the oldest generation instead, unscanned,
            # with what is long-lived already. A later full collection still sees all of it.
            gc.freeze()
            gc.unfreeze()
            gc.enable()


def load(data_dir: Path, cache: ReadCache | None = None) -> LoadResult:
    """Load every game and entry under ``data_dir``; with ``cache``, read only the files that changed."""
    with collector_paused():
        return _load(data_dir, cache)


def _load(data_dir: Path, cache: ReadCache | None) -> LoadResult:
    result = LoadResult(KnowledgeBase(root=Path(data_dir)), cache=cache)
    try:
        is_dir = stat.S_ISDIR(os.stat(data_dir).st_mode)
    except (FileNotFoundError, NotADirectoryError):
        is_dir = False
    except OSError as exc:
        result.problems.append(unreadable(data_dir, "-", exc, folder=True))
        return result
    if not is_dir:
        result.problems.append(
            Problem(
                display_path(data_dir),
                1,
                "-",
                "data folder not found",
                "pass --data DIR pointing at the rules_data folder",
            )
        )
        return result
    children = folder_children(data_dir, "-", result.problems) or []
    for child, mode in children:
        if stat.S_ISLNK(mode):
            result.problems.append(_link(child))
        elif stat.S_ISDIR(mode) and (problem := _bad_name(child, child.name, [p for p, _ in children])):
            result.problems.append(problem)
        elif stat.S_ISDIR(mode):
            _load_game(child, result)
        elif child.name == SYNONYMS_FILE:
            sdoc, problems = result.read(child, "synonyms", "-")
            result.problems.extend(problems)
            if sdoc is not None:
                result.kb.synonyms = build(Synonyms, sdoc.data, path=child, doc=sdoc)
        elif child.name == TRADITIONAL_FILE:
            tdoc, problems = result.read(child, "traditional", "-")
            result.problems.extend(problems)
            if tdoc is not None:
                result.kb.traditional = build(TraditionalTerms, tdoc.data, path=child, doc=tdoc)
        elif child.suffix in {".yaml", ".yml"}:
            result.problems.append(_stray(child, "the data folder"))
    return result


def _load_game(folder: Path, result: LoadResult) -> None:
    game_id = folder.name
    game_file = folder / GAME_FILE
    children = folder_children(folder, game_id, result.problems)
    if children is None:
        return
    modes = {path.name: mode for path, mode in children}
    for special in (GAME_FILE, GLOSSARY_FILE, SYNONYMS_FILE, ENTRIES_DIR):
        if stat.S_ISLNK(modes.get(special, 0)):
            result.problems.append(_link(folder / special))
            return
    if GAME_FILE not in modes:
        for path in sorted(folder.rglob("*.y*ml")):
            result.problems.append(
                Problem(
                    display_path(path),
                    1,
                    f"{game_id}:{path.stem}",
                    f"unknown game '{game_id}': {display_path(game_file)} is missing",
                    "add the game's game.yaml, or move the entry into a declared game's folder",
                )
            )
        return
    doc, problems = result.read(game_file, "game", game_id)  # a game.yaml that is no file is reported here
    result.problems.extend(problems)
    if doc is None:
        return
    declared = doc.data["id"]
    if declared != game_id:
        result.problems.append(
            Problem(
                display_path(game_file),
                doc.line(("id",)),
                game_id,
                f"game id '{declared}' differs from its folder name '{game_id}'",
                f"set 'id: {game_id}' or rename the folder",
            )
        )
        return
    glossary = _game_file(result, folder / GLOSSARY_FILE, "glossary", Glossary, game_id, GLOSSARY_FILE in modes)
    synonyms = _game_file(result, folder / SYNONYMS_FILE, "synonyms", Synonyms, game_id, SYNONYMS_FILE in modes)
    result.kb.games[game_id] = build(Game, doc.data, path=game_file, doc=doc, glossary=glossary, synonyms=synonyms)
    for child, _ in children:
        if child.name not in {GAME_FILE, GLOSSARY_FILE, SYNONYMS_FILE, ENTRIES_DIR}:
            result.problems.append(_stray(child, f"the folder of game '{game_id}'"))
    load_entries(folder / ENTRIES_DIR, game_id, result)


def load_entries(folder: Path, game_id: str, result: LoadResult, origin: str = "shared") -> None:
    """Load ``folder/*.yaml`` as entries of ``game_id`` into ``result``."""
    for path in _entry_files(folder, result):
        label = f"{game_id}:{path.stem}"
        doc, problems = result.read(path, "entry", label)
        result.problems.extend(problems)
        if doc is None:
            continue
        entry = (
            result.cache.entry(path, doc, game_id, origin)
            if result.cache
            else build(Entry, doc.data, path=path, doc=doc, game=game_id, origin=origin)
        )
        if entry.id != path.stem:
            result.problems.append(
                Problem(
                    display_path(path),
                    entry.line("id"),
                    label,
                    f"id '{entry.id}' differs from the file name '{path.name}'",
                    f"set 'id: {path.stem}' or rename the file to {entry.id}.yaml",
                )
            )
            twin = folder / f"{entry.id}.yaml"
            if twin.is_file():
                result.problems.append(
                    Problem(
                        display_path(path),
                        entry.line("id"),
                        label,
                        f"duplicate id '{entry.id}' (also in {display_path(twin)})",
                        "give each entry an id of its own",
                    )
                )
            continue
        if entry.ref in result.kb.entries:
            other = result.kb.entries[entry.ref]
            result.problems.append(
                Problem(
                    display_path(path),
                    entry.line("id"),
                    entry.ref,
                    f"duplicate id '{entry.id}' (also in {display_path(other.path)})",
                    "give one of them another id",
                )
            )
            continue
        result.kb.entries[entry.ref] = entry


def _entry_files(folder: Path, result: LoadResult) -> Iterator[Path]:
    """The ``<id>.yaml`` files of ``folder``; anything else there is a problem.

    A ``.yaml`` that is no regular file (a named pipe...) is yielded: reading it reports it.
    """
    try:
        mode = os.stat(folder).st_mode  # a linked entries/ of the shared data is refused before
    except FileNotFoundError:
        return
    except OSError as exc:
        result.problems.append(unreadable(folder, "-", exc, folder=True))
        return
    if not stat.S_ISDIR(mode):
        result.problems.append(
            Problem(
                display_path(folder),
                1,
                "-",
                f"'{folder.name}' is not a folder",
                f"make {folder.name}/ a folder of <id>.yaml files",
            )
        )
        return
    children = folder_children(folder, "-", result.problems) or []
    paths = [path for path, _ in children]
    for path, mode in children:
        if stat.S_ISLNK(mode):
            result.problems.append(_link(path))
        elif stat.S_ISDIR(mode):
            result.problems.append(
                Problem(
                    display_path(path),
                    1,
                    "-",
                    f"folder '{path.name}' in entries/, where only <id>.yaml files belong",
                    "move it out; an entry is one <id>.yaml file",
                )
            )
        elif path.suffix == ".yaml" and (problem := _bad_name(path, path.stem, paths)):
            result.problems.append(problem)
        elif path.suffix == ".yaml":
            yield path
        else:
            result.problems.append(
                Problem(
                    display_path(path),
                    1,
                    "-",
                    "only <id>.yaml files belong in entries/",
                    "rename it to <id>.yaml or move it out",
                )
            )


def _game_file(
    result: LoadResult, path: Path, kind: str, cls: type[_Optional], game_id: str, present: bool
) -> _Optional | None:
    """A game's optional file (its glossary or its synonym table) read, validated and built, or None."""
    if not present:
        return None
    doc, problems = result.read(path, kind, game_id)
    result.problems.extend(problems)
    return None if doc is None else build(cls, doc.data, path=path, doc=doc, game=game_id)
