"""A strict YAML reader that remembers where every value came from.

PyYAML's ``safe_load`` keeps the last of two duplicate keys without a word,
expands anchors and merge keys, and turns ``2026-11-30`` into a date. Data
files here are written by hand and read by people, so each of those is an
error (or, for dates, a plain string), and every value keeps its line number
for the messages of ``houserules check``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import ScalarNode

from .safefile import YamlError as YamlError  # this reader's error too: importable from here
from .safefile import carriable, read_text, uncarriable

MAX_DEPTH = 32

Path_ = tuple[str | int, ...]
_SCALAR_TAGS = {
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:str",
}


_COLLECTION_TAGS = {"tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"}


def text_fields(data: Any, path: Path_ = ()) -> Iterator[tuple[Path_, str]]:
    """Every string in ``data`` with its path, depth first.

    >>> list(text_fields({"a": ["x", {"b": "y"}]}))
    [(('a', 0), 'x'), (('a', 1, 'b'), 'y')]
    """
    if isinstance(data, str):
        yield path, data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield from text_fields(value, path + (key,))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from text_fields(value, path + (index,))


@dataclass
class Document:
    """Plain data (dicts, lists, str, int, float, bool, None) and the line of each value."""

    data: Any
    lines: dict[Path_, int] = field(default_factory=dict)
    #: For block literals (``|``): the line where the text itself starts.
    literal_starts: dict[Path_, int] = field(default_factory=dict)
    #: Every text with its path, depth first, as the reader met them (None: found on demand).
    found_texts: list[tuple[Path_, str]] | None = field(default=None, repr=False, compare=False)

    def line(self, path: Path_) -> int:
        """The line of ``path`` or of its nearest ancestor that has one."""
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return self.lines.get((), 1)

    def texts(self) -> tuple[tuple[Path_, str], ...]:
        """Every text of the document with its path, depth first."""
        if self.found_texts is not None:
            return tuple(self.found_texts)
        return tuple(text_fields(self.data))

    def text_line(self, path: Path_, offset: int) -> int:
        """The line of character ``offset`` inside the string at ``path``.

        Exact for block literals (``|``), where every line of text is a line of
        the file; folded and quoted scalars fall back to the line of their key.
        """
        if path in self.literal_starts:
            text = self.data
            for key in path:
                text = text[key]
            before: str = text[:offset]
            return self.literal_starts[path] + before.count("\n")
        return self.line(path)


#: The implicit resolvers of plain scalars by first character (PyYAML's safe ones, the wildcard ones
#: added), dates left out: ``2026-11-30`` stays text.
_IMPLICIT: dict[str | None, tuple[tuple[str, re.Pattern[str]], ...]] = {
    first: tuple(
        (tag, rx)
        for tag, rx in [*resolvers, *yaml.SafeLoader.yaml_implicit_resolvers.get(None, [])]
        if tag != "tag:yaml.org,2002:timestamp"
    )
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_NO_RESOLVERS = _IMPLICIT.get(None, ())
_STR = "tag:yaml.org,2002:str"
_MERGE = "tag:yaml.org,2002:merge"
#: Builds the few scalars that are not text (numbers, true/false, null) as PyYAML's safe loader does.
_CONSTRUCTOR = yaml.constructor.SafeConstructor()


class _PythonEvents(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser):
    """PyYAML's pure-Python reader, scanner and parser: the events of a text, and every error's words."""

    def __init__(self, stream: str):
        yaml.reader.Reader.__init__(self, stream)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)


try:
    from yaml._yaml import CParser as _CEvents  # libyaml's scanner and parser, several times faster

    _HAVE_LIBYAML = True
except ImportError:  # PyYAML built without libyaml: the pure-Python events alone
    _HAVE_LIBYAML = False


class _Builder:
    """The one composer: plain data, the line of every value and the texts in order, straight from a
    parser's events (libyaml's or PyYAML's), refusing what a data file may not hold (anchors, aliases,
    tags, merge keys, duplicate keys, nesting deeper than :data:`MAX_DEPTH`) at the event that holds it.

    ``screen``: check every text for characters no output can carry (not needed when the file holds
    none and no escape can write one).
    """

    def __init__(self, events: Any, screen: bool):
        self.next = events.get_event
        self.screen = screen
        self.doc = Document(None)
        self.texts: list[tuple[Path_, str]] = []

    def document(self) -> Document:
        self.next()  # the stream starts
        event = self.next()
        if isinstance(event, yaml.StreamEndEvent):
            raise YamlError(1, "the file is empty", "write the entry, or delete the file")
        self.doc.data = self.value(self.next(), (), 0)  # after the document's start
        self.next()  # the document ends
        event = self.next()
        if not isinstance(event, yaml.StreamEndEvent):
            raise YamlError(
                event.start_mark.line + 1,
                "the file holds more than one YAML document",
                "keep one entry per file and remove the '---' separator",
            )
        self.doc.found_texts = self.texts
        return self.doc

    def value(self, event: Any, path: Path_, depth: int) -> Any:
        """The value that starts with ``event`` (its events read to its end), noted at ``path``."""
        line = event.start_mark.line + 1
        _refuse(event, line)
        if depth > MAX_DEPTH:
            raise YamlError(
                line,
                f"nesting deeper than {MAX_DEPTH} levels",
                "flatten the structure; no field needs that depth",
            )
        lines = self.doc.lines
        lines.setdefault(path, line)
        cls = type(event)
        if cls is yaml.ScalarEvent:
            value: Any = event.value
            tag = _tag(event)
            if tag != _STR:
                value = _construct(tag, event, line)
            elif event.style == "|":
                self.doc.literal_starts[path] = line + 1
            if isinstance(value, str):
                if self.screen:
                    carriable(value, line)
                self.texts.append((path, value))
            return value
        if cls is yaml.MappingStartEvent:
            result: dict[str, Any] = {}
            while type(key_event := self.next()) is not yaml.MappingEndEvent:
                key_line = key_event.start_mark.line + 1
                _refuse(key_event, key_line)
                if type(key_event) is not yaml.ScalarEvent:
                    raise YamlError(key_line, "a mapping key must be a plain word", "use a field name as the key")
                if _tag(key_event) == _MERGE:
                    raise YamlError(key_line, "YAML merge key '<<' is not allowed", "write the fields out in full")
                key = key_event.value
                if self.screen:
                    carriable(key, key_line)
                if key in result:
                    raise YamlError(
                        key_line,
                        f"duplicate key '{key}' (first on line {lines[path + (key,)]})",
                        "keep one of the two; YAML would silently drop the first",
                    )
                here = path + (key,)
                lines[here] = key_line
                result[key] = self.value(self.next(), here, depth + 1)
            return result
        items: list[Any] = []  # a sequence: aliases were refused above
        while type(item := self.next()) is not yaml.SequenceEndEvent:
            here = path + (len(items),)
            lines[here] = item.start_mark.line + 1
            items.append(self.value(item, here, depth + 1))
        return items


def _refuse(event: Any, line: int) -> None:
    """Refuse an alias, an anchor or a written tag: data files are read by people, value by value."""
    if type(event) is yaml.AliasEvent:
        raise YamlError(
            line,
            f"YAML alias '*{event.anchor}' is not allowed",
            "write the value out in full; data files are read by people",
        )
    if event.anchor is not None:
        raise YamlError(
            line, f"YAML anchor '&{event.anchor}' is not allowed", "remove the anchor and write each value out in full"
        )
    # Only the event knows whether a tag was written ('!!str x' and 'x' are alike once resolved).
    if event.tag is not None:
        raise YamlError(
            line,
            f"unsupported YAML tag '{event.tag}'",
            "remove the tag; values are plain text, numbers, true/false, lists and mappings",
        )


def _tag(event: Any) -> str:
    """A scalar's resolved tag, as PyYAML's resolver gives it: a plain scalar matched against the implicit
    resolvers of its first character (most text has none), any other text."""
    if event.implicit[0]:
        value = event.value
        for tag, regexp in _IMPLICIT.get(value[:1] if value else "", _NO_RESOLVERS):
            if regexp.match(value):
                return tag
    return _STR


def _construct(tag: str, event: Any, line: int) -> Any:
    """A number, true/false or null, as PyYAML's safe loader builds it."""
    try:
        return _CONSTRUCTOR.construct_object(ScalarNode(tag, event.value, event.start_mark, event.end_mark))
    except (yaml.YAMLError, ValueError) as exc:
        raise YamlError(line, f"unreadable value: {exc}", "quote the value") from None


#: Text that libyaml and PyYAML read differently, left to PyYAML: characters the
#: Python reader refuses, tabs, other line breaks than \n and \r, a byte-order mark
#: past the start, and '?' as a key indicator or after a flow collection opens on its
#: line (libyaml accepts some that PyYAML refuses in flow collections; a question mark
#: in ordinary text, as in every question of an entry, reads the same in both).
_PYTHON_ONLY = re.compile(
    r"[^\x09\x0A\x0D\x20-\x7E\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010ffff]"
    r"|[\t\u2028\u2029\ufeff]|^[ \t-]*\?|[\[{][^\n]*\?",
    re.M,
)
#: :data:`_PYTHON_ONLY`'s characters (every one it names, as one class): one search, several times
#: faster than the pattern with alternatives.
_PYTHON_ONLY_CHARS = re.compile("[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]")


def _python_only(text: str) -> bool:
    r"""Whether :data:`_PYTHON_ONLY` finds something in ``text`` (tests/test_model.py compares the two).

    Its two places of a question mark are looked for from each '?' (a file holds a few, in its
    English questions): the part of its line before it is only spaces, tabs and hyphens (a key
    indicator), or holds a '[' or '{' (in a flow collection). Searching the whole text for
    either, as the pattern does, costs more than the rest of the screen.

    >>> _python_only("a: [x, y?]"), _python_only("q: 能不能？"), _python_only("q: why?\n- ? k")
    (True, False, True)
    """
    if _PYTHON_ONLY_CHARS.search(text):
        return True
    find, rfind = text.find, text.rfind
    at = find("?")
    while at != -1:
        before = text[rfind("\n", 0, at) + 1 : at]
        if not before.strip(" \t-") or "[" in before or "{" in before:
            return True
        at = find("?", at + 1)
    return False


def parse(text: str) -> Document:
    """Parse one YAML document strictly: one composer (:class:`_Builder`) over libyaml's events, or over
    PyYAML's pure-Python ones where libyaml is missing, where the text holds what the two read differently
    (:func:`_python_only`), and to word an error (every message comes from the Python reader).

    >>> parse("a: 1\\nb: [x, y]\\n").lines[("b", 1)]
    2
    """
    fast = _parse_fast(text)
    if fast is not None:
        return fast
    return _parse_strict(text)


def _parse_fast(text: str) -> Document | None:
    """The document built from libyaml's events, or None to let the Python reader read it (and word its error)."""
    if not _HAVE_LIBYAML or _python_only(text):
        return None
    events = _CEvents(text)
    try:
        # No character the strict reader refuses is in the text, and no escape can write one.
        return _Builder(events, screen="\\" in text).document()
    except Exception:  # the pure-Python reader reports it, with its own words
        return None
    finally:
        events.dispose()


def _parse_strict(text: str) -> Document:
    """:func:`parse` from PyYAML's pure-Python events alone (what every message comes from)."""
    try:
        events = _PythonEvents(text)  # the reader refuses control characters here, before any parsing
    except yaml.reader.ReaderError as exc:
        code = exc.character if isinstance(exc.character, int) else ord(exc.character)
        what = uncarriable(code)[0] if 0xD800 <= code <= 0xDFFF or code < 0x100 else "the non-character"
        raise YamlError(
            text[: exc.position].count("\n") + 1,
            f"the file holds {what} U+{code:04X}, which no page, feed or export can carry",
            f"remove {what} U+{code:04X} from the file",
        ) from None
    try:
        return _Builder(events, screen=True).document()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise YamlError(
            mark.line + 1 if mark else 1,
            f"malformed YAML: {exc.problem or exc.context}",
            "fix the YAML syntax (indentation, quotes, colons)",
        ) from None
    except yaml.YAMLError as exc:  # reader errors (control characters) carry no mark
        raise YamlError(1, f"malformed YAML: {exc}", "remove control characters from the file") from None
    finally:
        events.dispose()


def load(path: Path) -> Document:
    """Read and parse ``path``; raises :class:`YamlError` with a line number."""
    return parse(read_text(path))
