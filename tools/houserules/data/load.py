"""Read ``rules_data/`` into a :class:`KnowledgeBase`, collecting every problem.

Layout::

    rules_data/<game>/game.yaml          metadata, sources, contents
    rules_data/<game>/glossary.yaml      optional: terms and their translations
    rules_data/<game>/entries/<id>.yaml  one entry per file, named after its id

A file that cannot be read or does not match its schema is reported and left
out; the rest still loads, so one run shows every problem.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterator

import jsonschema

from . import schema as schemas
from ..errors import Problem, display_path
from .model import Entry, Game, Glossary, KnowledgeBase, text_fields
from .yamlload import Document, YamlError, load as load_yaml

_SLUG = re.compile(schemas.SLUG)
#: What the patterns of the schema mean, for messages people can act on.
FORMS = {
    schemas.SLUG: ("an id", "use lowercase letters, digits and single hyphens, e.g. mystic-elevator"),
    schemas.REF: ("a reference game:id", "write game:id in lowercase letters, digits and hyphens, e.g. betrayal:vault"),
    schemas.CODE: ("a code", "write the game's prefix, a hyphen and capital letters or digits, e.g. BH-A13"),
    schemas.CODE_PREFIX: ("a code prefix", "write 2 to 4 capital letters, e.g. BH"),
    schemas.DATE: ("a date", "write the date as YYYY-MM-DD, e.g. 2026-11-30"),
    schemas.HASH: ("a source hash", "run 'houserules stamp game:id' to write it"),
    schemas.DOC_ID: ("a document id", "use letters, digits, '.', '_' and '-', e.g. rulebook-2e.pdf"),
}
GAME_FILE = "game.yaml"
GLOSSARY_FILE = "glossary.yaml"
ENTRIES_DIR = "entries"


class ReadCache:
    """What earlier loads read, kept by a caller that loads the same folder again (a live preview).

    A file is read and validated again only when its size, modification or change time or
    inode differ from when it was last read (a rename of another file over it changes the
    inode); otherwise its document, its problems and its entry object are reused, so
    what the entry computed once (its references) stays computed.
    """

    def __init__(self) -> None:
        self._files: dict[tuple[Path, str, str], tuple[tuple[int, ...], Document | None, list[Problem]]] = {}
        self._entries: dict[tuple[Path, str, str], Entry] = {}

    @staticmethod
    def signature(path: Path) -> tuple[int, ...] | None:
        try:
            st = os.stat(path)
        except OSError:
            return None
        return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev)

    def read(self, path: Path, schema_name: str, label: str) -> tuple[Document | None, list[Problem]]:
        key = (path, schema_name, label)
        signature = self.signature(path)  # before reading: a change while reading is seen next time
        known = self._files.get(key)
        if signature is not None and known is not None and known[0] == signature:
            return known[1], list(known[2])
        doc, problems = _read(path, schema_name, label)
        if signature is not None:
            self._files[key] = (signature, doc, list(problems))
        return doc, problems

    def entry(self, path: Path, doc: Document, game: str, origin: str) -> Entry:
        """The entry of ``doc``: the same object as last time when the document is the same."""
        key = (path, game, origin)
        known = self._entries.get(key)
        if known is None or known.doc is not doc:
            known = self._entries[key] = Entry(path, doc, game=game, origin=origin)
        return known


@dataclass
class LoadResult:
    kb: KnowledgeBase
    problems: list[Problem] = field(default_factory=list)
    #: Reuse what earlier loads read (None: read every file).
    cache: ReadCache | None = None

    def read(self, path: Path, schema_name: str, label: str) -> tuple[Document | None, list[Problem]]:
        return self.cache.read(path, schema_name, label) if self.cache else _read(path, schema_name, label)


@lru_cache(maxsize=None)
def _validator(name: str) -> jsonschema.protocols.Validator:
    schema = schemas.SCHEMAS[name]()
    cls = jsonschema.validators.validator_for(schema)
    # Each "$ref" costs a registry lookup on every use (half of a large check's
    # validation time): the definitions written in place validate the same, faster.
    return cls(inline_refs(schema, schema.get("$defs", {})))


def inline_refs(node: Any, defs: dict[str, Any], within: tuple[str, ...] = ()) -> Any:
    """``node`` with each ``{"$ref": "#/$defs/NAME"}`` replaced by that definition.

    Other keywords beside a ``$ref`` apply too (``allOf``); a definition that
    refers to itself keeps its ``$ref``, which still resolves (``$defs`` stays).

    >>> inline_refs({"items": {"$ref": "#/$defs/id"}}, {"id": {"type": "string"}})
    {'items': {'type': 'string'}}
    """
    if isinstance(node, list):
        return [inline_refs(item, defs, within) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref", "")
    name = ref.removeprefix("#/$defs/")
    if ref.startswith("#/$defs/") and name in defs and name not in within:
        target = inline_refs(defs[name], defs, within + (name,))
        rest = {key: value for key, value in node.items() if key != "$ref"}
        return {"allOf": [target, inline_refs(rest, defs, within)]} if rest else target
    return {key: value if key == "$defs" else inline_refs(value, defs, within) for key, value in node.items()}


def _field_name(path: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in path) or "(top level)"


def describe(error: jsonschema.ValidationError) -> tuple[tuple[Any, ...], str, str]:
    """A schema error as (data path, problem, fix) in words a contributor can act on."""
    path = tuple(error.absolute_path)
    where = _field_name(path)
    kind = error.validator
    if kind == "required":
        missing = error.message.split("'")[1]
        owner = f" in {where}" if path else ""
        return path, f"missing required field '{missing}'{owner}", f"add '{missing}:' (see CONTRIBUTING.md)"
    if kind == "additionalProperties":
        allowed = sorted(error.schema.get("properties", {}))
        extra = sorted(set(error.instance) - set(allowed))
        name = extra[0] if extra else "?"
        return path + (name,), f"unknown field '{_field_name(path + (name,))}'", \
            f"remove it or use one of: {', '.join(allowed)}"
    if kind == "type":
        expected = error.validator_value
        got = type(error.instance).__name__
        return path, f"field '{where}' must be {_article(expected)}, not {got}", \
            f"write '{where}' as {_article(expected)}"
    if kind == "enum":
        return path, f"field '{where}' has {error.instance!r}, which is not allowed", \
            f"use one of: {', '.join(map(str, error.validator_value))}"
    if kind == "pattern" and error.validator_value in FORMS:
        form, fix = FORMS[error.validator_value]
        return path, f"field '{where}' value {error.instance!r} is not {form}", fix
    if kind == "pattern":
        return path, f"field '{where}' value {error.instance!r} has the wrong form", \
            f"match the pattern {error.validator_value}"
    if kind in {"minLength", "minItems", "minProperties"}:
        return path, f"field '{where}' is empty", f"fill in '{where}' or remove it"
    if kind == "maxLength":
        return path, f"field '{where}' is longer than {error.validator_value} characters", "shorten it"
    if kind == "uniqueItems":
        return path, f"field '{where}' lists the same item twice", "remove the repeat"
    if kind == "propertyNames":
        return path, f"field '{where}' has a key that is not allowed", error.message
    return path, f"field '{where}': {error.message}", "fix the value (see the JSON Schema)"


def _article(expected: Any) -> str:
    names = {"string": "a text", "object": "a mapping", "array": "a list", "integer": "a whole number",
             "boolean": "true or false", "number": "a number", "null": "empty"}
    if isinstance(expected, list):
        return " or ".join(names.get(e, e) for e in expected)
    return names.get(expected, expected)


@lru_cache(maxsize=None)
def _fast_validator(name: str) -> Callable[[Any], Any]:
    """The schema compiled to Python code: ten times faster, but it stops at the first error.

    Used only to let valid documents through; any document it refuses is validated
    again by jsonschema, whose errors become the messages. The schemas use only
    keywords that draft 7 and 2020-12 read alike (tests/test_schema.py compares the two).
    """
    import fastjsonschema

    schema = dict(schemas.SCHEMAS[name]())
    schema["$schema"] = "http://json-schema.org/draft-07/schema#"
    return fastjsonschema.compile(schema)


def is_valid_fast(data: Any, schema_name: str) -> bool:
    import fastjsonschema

    try:
        _fast_validator(schema_name)(data)
    except fastjsonschema.JsonSchemaException:
        return False
    return True


def validate(doc: Document, schema_name: str, path: Path, label: str) -> list[Problem]:
    """Schema problems of one document, in file order."""
    if is_valid_fast(doc.data, schema_name):
        return []
    problems = []
    for error in _validator(schema_name).iter_errors(doc.data):
        data_path, problem, fix = describe(error)
        problems.append(Problem(display_path(path), doc.line(data_path), label, problem, fix))
    return sorted(set(problems))


#: Characters that show nothing on their own besides spaces, controls and format characters
#: (zero-width space and joiners, bidi marks): the other default-ignorable code points
#: (Hangul fillers, variation selectors, tag characters) and the blank Braille pattern.
_INVISIBLE = re.compile("[\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u2800\u3164\ufe00-\ufe0f\uffa0"
                        "\U0001bca0-\U0001bca3\U000e0000-\U000e0fff]")
_INVISIBLE_CATEGORIES = {"Zs", "Zl", "Zp", "Cc", "Cf", "Cs"}


def has_visible_text(text: str) -> bool:
    """Whether ``text`` shows anything: not only spaces or invisible characters.

    >>> has_visible_text("\u200b \u3000"), has_visible_text("\u200d塔楼")
    (False, True)
    """
    return any(not (c.isspace() or unicodedata.category(c) in _INVISIBLE_CATEGORIES or _INVISIBLE.match(c))
               for c in text)


def _blank_texts(doc: Document, path: Path, label: str) -> Iterator[Problem]:
    """A problem for each text of the file that shows nothing (``"   "``, a zero-width space)."""
    for data_path, text in text_fields(doc.data):
        if not has_visible_text(text):
            yield Problem(display_path(path), doc.line(data_path), label,
                          f"field '{_field_name(data_path)}' has no visible text", "write the text or remove the field")


def unreadable(path: Path, label: str, exc: OSError, folder: bool = False) -> Problem:
    """A file or folder that cannot be opened, as a problem with its remedy."""
    what = "folder" if folder else "file"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return Problem(display_path(path), 1, label, f"cannot read the {what}: permission denied",
                       f"make it readable (chmod {'u+rx' if folder else 'u+r'} {display_path(path)})")
    return Problem(display_path(path), 1, label, f"cannot read the {what}: {exc.strerror or exc}",
                   f"check the {what} and the disk")


def _read(path: Path, schema_name: str, label: str) -> tuple[Document | None, list[Problem]]:
    """The validated document of ``path`` (None when it cannot be used) and its problems.

    A document whose only problems are texts with nothing visible is kept: the rest of
    the checks still apply to it.
    """
    try:
        doc = load_yaml(path)
    except YamlError as exc:
        return None, [Problem(display_path(path), exc.line, label, exc.problem, exc.fix)]
    except OSError as exc:
        return None, [unreadable(path, label, exc)]
    if not isinstance(doc.data, dict):
        kind = type(doc.data).__name__
        return None, [Problem(display_path(path), 1, label, f"the file holds a {kind}, not a mapping of fields",
                              "write the fields as 'name: value' lines")]
    problems = validate(doc, schema_name, path, label)
    if problems:
        return None, problems
    return doc, list(_blank_texts(doc, path, label))


def _children(folder: Path, label: str, result: LoadResult) -> list[tuple[Path, int]] | None:
    """The sorted entries of ``folder`` with their ``lstat`` modes; None (and a problem) when unreadable.

    Hidden names (``.git``, editor files) are left out; an entry that vanished meanwhile too.
    """
    try:
        paths = sorted(folder.iterdir())
    except OSError as exc:
        result.problems.append(unreadable(folder, label, exc, folder=True))
        return None
    found = []
    for path in paths:
        if path.name.startswith("."):
            continue
        try:
            found.append((path, os.lstat(path).st_mode))
        except FileNotFoundError:
            continue
        except OSError as exc:  # listed but not searchable (chmod a-x): nothing inside can be read
            result.problems.append(unreadable(folder, label, exc, folder=True))
            return None
    return found


def _link(path: Path) -> Problem:
    # Named as written: display_path would follow the link.
    return Problem(str(Path(display_path(path.parent)) / path.name), 1, "-", "symbolic link in the data folder",
                   "replace the link by the file itself; the build reads only real files inside rules_data/")


def _bad_name(path: Path, stem: str, siblings: list[Path]) -> Problem | None:
    """A problem when a file or folder name is not a slug (ids become file names in the site)."""
    if _SLUG.fullmatch(stem):
        return None
    twins = [p.name for p in siblings if p != path and p.stem.casefold() == stem.casefold()]
    clash = f"; it clashes with {', '.join(twins)} where case is ignored (Windows, macOS)" if twins else ""
    return Problem(display_path(path), 1, "-", f"name '{path.name}' is not an id{clash}",
                   "rename it with lowercase letters, digits and single hyphens, e.g. mystic-elevator")


def _stray(path: Path, where: str) -> Problem:
    return Problem(display_path(path), 1, "-", f"unexpected file in {where}",
                   "move it to rules_data/<game>/entries/<id>.yaml, or remove it")


def load(data_dir: Path, cache: ReadCache | None = None) -> LoadResult:
    """Load every game and entry under ``data_dir``; with ``cache``, read only the files that changed."""
    result = LoadResult(KnowledgeBase(root=Path(data_dir)), cache=cache)
    try:
        is_dir = stat.S_ISDIR(os.stat(data_dir).st_mode)
    except (FileNotFoundError, NotADirectoryError):
        is_dir = False
    except OSError as exc:
        result.problems.append(unreadable(data_dir, "-", exc, folder=True))
        return result
    if not is_dir:
        result.problems.append(Problem(display_path(data_dir), 1, "-", "data folder not found",
                                       "pass --data DIR pointing at the rules_data folder"))
        return result
    children = _children(data_dir, "-", result) or []
    for child, mode in children:
        if stat.S_ISLNK(mode):
            result.problems.append(_link(child))
        elif stat.S_ISDIR(mode) and (problem := _bad_name(child, child.name, [p for p, _ in children])):
            result.problems.append(problem)
        elif stat.S_ISDIR(mode):
            _load_game(child, result)
        elif child.suffix in {".yaml", ".yml"}:
            result.problems.append(_stray(child, "the data folder"))
    return result


def _load_game(folder: Path, result: LoadResult) -> None:
    game_id = folder.name
    game_file = folder / GAME_FILE
    children = _children(folder, game_id, result)
    if children is None:
        return
    modes = {path.name: mode for path, mode in children}
    for special in (GAME_FILE, GLOSSARY_FILE, ENTRIES_DIR):
        if stat.S_ISLNK(modes.get(special, 0)):
            result.problems.append(_link(folder / special))
            return
    if GAME_FILE not in modes:
        for path in sorted(folder.rglob("*.y*ml")):
            result.problems.append(Problem(
                display_path(path), 1, f"{game_id}:{path.stem}", f"unknown game '{game_id}': {display_path(game_file)} is missing",
                "add the game's game.yaml, or move the entry into a declared game's folder"))
        return
    doc, problems = result.read(game_file, "game", game_id)  # a game.yaml that is no file is reported here
    result.problems.extend(problems)
    if doc is None:
        return
    game = Game(game_file, doc)
    if game.id != game_id:
        result.problems.append(Problem(display_path(game_file), game.line("id"), game_id,
                                       f"game id '{game.id}' differs from its folder name '{game_id}'",
                                       f"set 'id: {game_id}' or rename the folder"))
        return
    result.kb.games[game_id] = game
    glossary_file = folder / GLOSSARY_FILE
    if GLOSSARY_FILE in modes:
        gdoc, problems = result.read(glossary_file, "glossary", game_id)
        result.problems.extend(problems)
        if gdoc is not None:
            game.glossary = Glossary(glossary_file, gdoc, game=game_id)
    for child, _ in children:
        if child.name not in {GAME_FILE, GLOSSARY_FILE, ENTRIES_DIR}:
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
        entry = result.cache.entry(path, doc, game_id, origin) if result.cache else Entry(path, doc, game=game_id, origin=origin)
        if entry.id != path.stem:
            result.problems.append(Problem(display_path(path), entry.line("id"), label,
                                           f"id '{entry.id}' differs from the file name '{path.name}'",
                                           f"set 'id: {path.stem}' or rename the file to {entry.id}.yaml"))
            twin = folder / f"{entry.id}.yaml"
            if twin.is_file():
                result.problems.append(Problem(display_path(path), entry.line("id"), label,
                                               f"duplicate id '{entry.id}' (also in {display_path(twin)})",
                                               "give each entry an id of its own"))
            continue
        if entry.ref in result.kb.entries:
            other = result.kb.entries[entry.ref]
            result.problems.append(Problem(display_path(path), entry.line("id"), entry.ref,
                                           f"duplicate id '{entry.id}' (also in {display_path(other.path)})",
                                           "give one of them another id"))
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
        result.problems.append(Problem(display_path(folder), 1, "-", f"'{folder.name}' is not a folder",
                                       f"make {folder.name}/ a folder of <id>.yaml files"))
        return
    children = _children(folder, "-", result) or []
    paths = [path for path, _ in children]
    for path, mode in children:
        if stat.S_ISLNK(mode):
            result.problems.append(_link(path))
        elif stat.S_ISDIR(mode):
            result.problems.append(Problem(display_path(path), 1, "-", f"folder '{path.name}' in entries/, where only "
                                           "<id>.yaml files belong", "move it out; an entry is one <id>.yaml file"))
        elif path.suffix == ".yaml" and (problem := _bad_name(path, path.stem, paths)):
            result.problems.append(problem)
        elif path.suffix == ".yaml":
            yield path
        else:
            result.problems.append(Problem(display_path(path), 1, "-", "only <id>.yaml files belong in entries/",
                                           "rename it to <id>.yaml or move it out"))
