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
from yaml.events import AliasEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

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


class _Loader(yaml.SafeLoader):
    """SafeLoader that refuses anchors and aliases and leaves dates as strings."""

    yaml_implicit_resolvers = {
        first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }

    _depth = 0

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        event = self.peek_event()  # type: ignore[no-untyped-call]
        if self.check_event(AliasEvent):
            raise YamlError(
                event.start_mark.line + 1,
                f"YAML alias '*{event.anchor}' is not allowed",
                "write the value out in full; data files are read by people",
            )
        if getattr(event, "anchor", None):
            raise YamlError(
                event.start_mark.line + 1,
                f"YAML anchor '&{event.anchor}' is not allowed",
                "remove the anchor and write each value out in full",
            )
        # Only the event knows whether a tag was written: the node's tag is resolved
        # either way, so '!!str x' and 'x' would look alike once composed.
        if getattr(event, "tag", None) is not None:
            raise YamlError(
                event.start_mark.line + 1,
                f"unsupported YAML tag '{event.tag}'",
                "remove the tag; values are plain text, numbers, true/false, lists and mappings",
            )
        # Stop at the depth _convert refuses anyway, before the recursion gets deep enough
        # for a RecursionError (a few hundred '[' would do it).
        if self._depth > MAX_DEPTH:
            raise YamlError(
                event.start_mark.line + 1,
                f"nesting deeper than {MAX_DEPTH} levels",
                "flatten the structure; no field needs that depth",
            )
        self._depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


try:
    from yaml._yaml import CParser

    _HAVE_LIBYAML = True
except ImportError:  # PyYAML built without libyaml
    _HAVE_LIBYAML = False

#: The implicit resolvers of :class:`_Loader` by first character, the wildcard ones added.
_IMPLICIT: dict[str | None, tuple[tuple[str, re.Pattern[str]], ...]] = {
    first: tuple(resolvers) + tuple(_Loader.yaml_implicit_resolvers.get(None, []))
    for first, resolvers in _Loader.yaml_implicit_resolvers.items()
}
_STR = "tag:yaml.org,2002:str"
_NO_RESOLVERS: tuple[tuple[str, re.Pattern[str]], ...] = _IMPLICIT.get(None, ())
_SEQ = "tag:yaml.org,2002:seq"
_MAP = "tag:yaml.org,2002:map"


class _QuickResolver:
    """PyYAML's :class:`~yaml.resolver.Resolver`, for loaders without path resolvers, in fewer steps.

    libyaml's composer calls these for every node; the answers are the same: a plain scalar
    is matched against the implicit resolvers of its first character (most text has none),
    anything else takes the default tag of its kind.
    """

    # Only path resolvers use these two, and none is declared: a C function that takes any
    # arguments and does nothing (as the Python methods do) spares two calls a node.
    descend_resolver = staticmethod("".format)
    ascend_resolver = staticmethod("".format)

    def resolve(self, kind: type, value: Any, implicit: tuple[bool, bool]) -> str:
        if kind is ScalarNode:
            if implicit[0]:
                for tag, regexp in _IMPLICIT.get(value[:1] if value else "", _NO_RESOLVERS):
                    if regexp.match(value):
                        return tag
            return _STR
        return _SEQ if kind is SequenceNode else _MAP


if _HAVE_LIBYAML:

    class _FastLoader(_QuickResolver, CParser, _Loader):  # type: ignore[misc]  # the resolver's two no-ops are C functions here
        """:class:`_Loader` reading events from libyaml's scanner and parser, six times faster.

        Only the events come from C: composing (which refuses anchors and
        aliases) and resolving stay :class:`_Loader`'s, so values, tags and
        lines are the same.
        """

        get_single_node = yaml.composer.Composer.get_single_node
        get_node = yaml.composer.Composer.get_node
        check_node = yaml.composer.Composer.check_node

        def __init__(self, stream: str):
            CParser.__init__(self, stream)
            yaml.composer.Composer.__init__(self)
            yaml.constructor.SafeConstructor.__init__(self)
            yaml.resolver.Resolver.__init__(self)

    class _ComposedInC(_QuickResolver, CParser, yaml.constructor.SafeConstructor, yaml.resolver.Resolver):  # type: ignore[misc]  # as above
        """libyaml composes the whole node tree, for files where no anchor, alias or tag can
        stand and nesting cannot run deep (see :func:`_composable_in_c`), so there is
        nothing for the strict composer to refuse."""

        yaml_implicit_resolvers = _Loader.yaml_implicit_resolvers

        def __init__(self, stream: str):
            CParser.__init__(self, stream)
            yaml.constructor.SafeConstructor.__init__(self)
            yaml.resolver.Resolver.__init__(self)


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


#: Where an anchor (&name) or alias (*name) could start: after a space, a line start or a
#: flow indicator, and followed by a name (so Markdown's ``**bold**`` and "A & B" are not).
#: Text without one cannot hold either, so libyaml may compose it whole.
_MAYBE_ANCHOR = re.compile(
    # The character first, then what stands before and after it: a search for '&' or '*' is
    # several times faster than one that tries each place for a line start or a separator.
    r"[&*](?:(?<=[\s\[\]{},:-][&*])|(?<=^[&*]))(?:(?<=&)(?![\s\[\]{},]|$)|(?<=\*)(?![\s*\[\]{},]|$))",
    re.M,
)
#: Where a tag (!!str, !foo, !) could start. libyaml's composer resolves tags without
#: telling whether one was written, so text that may hold one is composed in Python.
_MAYBE_TAG = re.compile(r"(?:^|[\s\[\]{},:-])!", re.M)
#: libyaml's composer recurses in C once per level of nesting and exhausts the C stack
#: (a crash, not an exception) some ten thousand levels down. Every level of nesting
#: needs one of these characters, so their count bounds the depth; text with more of
#: them than any data file holds is composed in Python, which stops at MAX_DEPTH.
_NESTING_CHARS = "[{-:?"
_C_COMPOSE_MAX = 1000


def _composable_in_c(text: str) -> bool:
    """Whether libyaml may compose ``text`` whole: no anchor, alias or tag, no deep nesting."""
    if ("&" in text or "*" in text) and _MAYBE_ANCHOR.search(text):
        return False
    if "!" in text and _MAYBE_TAG.search(text):
        return False
    return sum(text.count(c) for c in _NESTING_CHARS) <= _C_COMPOSE_MAX


def _parse_fast(text: str) -> Document | None:
    """The document parsed with libyaml's help, or None to let :func:`parse` decide.

    Anything unusual (no libyaml, odd characters, any error) returns None, so
    every message comes from the pure-Python reader, exactly as before.
    """
    if not _HAVE_LIBYAML or _python_only(text):
        return None
    loader = _ComposedInC(text) if _composable_in_c(text) else _FastLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        # No character the strict reader refuses is in the text, and no escape can write one.
        return _document(loader, node, screen="\\" in text)
    except Exception:  # the pure-Python parse reports it, with its own words
        return None
    finally:
        loader.dispose()


def parse(text: str) -> Document:
    """Parse one YAML document strictly.

    >>> parse("a: 1\\nb: [x, y]\\n").lines[("b", 1)]
    2
    """
    fast = _parse_fast(text)
    if fast is not None:
        return fast
    return _parse_strict(text)


def _parse_strict(text: str) -> Document:
    """:func:`parse` by PyYAML's pure-Python reader alone (what every message comes from)."""
    try:
        loader = _Loader(text)  # the reader refuses control characters here, before any parsing
    except yaml.reader.ReaderError as exc:
        code = exc.character if isinstance(exc.character, int) else ord(exc.character)
        what = uncarriable(code)[0] if 0xD800 <= code <= 0xDFFF or code < 0x100 else "the non-character"
        raise YamlError(
            text[: exc.position].count("\n") + 1,
            f"the file holds {what} U+{code:04X}, which no page, feed or export can carry",
            f"remove {what} U+{code:04X} from the file",
        ) from None
    try:
        try:
            node = loader.get_single_node()
        except yaml.composer.ComposerError as exc:
            # PyYAML puts "expected a single document" in the context, "found another" in the problem.
            if "single document" in f"{exc.context} {exc.problem}":
                raise YamlError(
                    exc.problem_mark.line + 1 if exc.problem_mark else 1,
                    "the file holds more than one YAML document",
                    "keep one entry per file and remove the '---' separator",
                ) from None
            raise
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            raise YamlError(
                mark.line + 1 if mark else 1,
                f"malformed YAML: {exc.problem or exc.context}",
                "fix the YAML syntax (indentation, quotes, colons)",
            ) from None
        except yaml.YAMLError as exc:  # reader errors (control characters) carry no mark
            raise YamlError(1, f"malformed YAML: {exc}", "remove control characters from the file") from None
        if node is None:
            raise YamlError(1, "the file is empty", "write the entry, or delete the file")
        return _document(loader, node, screen=True)
    finally:
        loader.dispose()


def load(path: Path) -> Document:
    """Read and parse ``path``; raises :class:`YamlError` with a line number."""
    return parse(read_text(path))


def _document(loader: Any, node: Node, screen: bool) -> Document:
    """The document of ``node``: its data, the line of every value, its texts in order.

    ``screen``: check every text for characters no output can carry (not needed when the
    file holds none and no escape can write one).
    """
    doc = Document(None)
    texts: list[tuple[Path_, str]] = []
    doc.data = _convert(loader, node, (), doc, 0, texts, screen)
    doc.found_texts = texts
    return doc


def _convert(
    loader: Any, node: Node, path: Path_, doc: Document, depth: int, texts: list[tuple[Path_, str]], screen: bool
) -> Any:
    """``node`` as plain data, refusing what :func:`parse` promises to refuse; lines and texts noted in ``doc``."""
    lines = doc.lines
    lines.setdefault(path, node.start_mark.line + 1)
    if depth > MAX_DEPTH:
        raise YamlError(
            node.start_mark.line + 1,
            f"nesting deeper than {MAX_DEPTH} levels",
            "flatten the structure; no field needs that depth",
        )
    cls = type(node)
    if cls is ScalarNode:
        tag = node.tag
        if tag == _STR:
            value: Any = node.value  # what SafeConstructor.construct_yaml_str gives
        elif tag not in _SCALAR_TAGS:
            raise YamlError(
                node.start_mark.line + 1,
                f"unsupported YAML tag '{tag}'",
                "remove the tag; values are plain text, numbers or true/false",
            )
        else:
            try:
                value = loader.construct_object(node, deep=True)
            except (yaml.YAMLError, ValueError) as exc:
                raise YamlError(node.start_mark.line + 1, f"unreadable value: {exc}", "quote the value") from None
        if getattr(node, "style", None) == "|":
            doc.literal_starts[path] = node.start_mark.line + 2
        if isinstance(value, str):
            if screen:
                carriable(value, node.start_mark.line + 1)
            texts.append((path, value))
        return value
    if node.tag not in _COLLECTION_TAGS:
        raise YamlError(
            node.start_mark.line + 1,
            f"unsupported YAML tag '{node.tag}'",
            "remove the tag; values are plain mappings and lists",
        )
    if cls is MappingNode:
        inline = depth < MAX_DEPTH and not screen  # a text a level down is read in place
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            line = key_node.start_mark.line + 1
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise YamlError(line, "YAML merge key '<<' is not allowed", "write the fields out in full")
            if not isinstance(key_node, ScalarNode):
                raise YamlError(line, "a mapping key must be a plain word", "use a field name as the key")
            key = str(key_node.value)
            if screen:
                carriable(key, line)
            if key in result:
                first = lines[path + (key,)]
                raise YamlError(
                    line,
                    f"duplicate key '{key}' (first on line {first})",
                    "keep one of the two; YAML would silently drop the first",
                )
            here = path + (key,)
            lines[here] = line
            if inline and type(value_node) is ScalarNode and value_node.tag == _STR and value_node.style != "|":
                texts.append((here, value_node.value))
                result[key] = value_node.value
            else:
                result[key] = _convert(loader, value_node, here, doc, depth + 1, texts, screen)
        return result
    items = []
    inline = depth < MAX_DEPTH and not screen  # a text a level down is read in place
    for index, item in enumerate(node.value):
        here = path + (index,)
        lines[here] = item.start_mark.line + 1
        if inline and type(item) is ScalarNode and item.tag == _STR and item.style != "|":
            texts.append((here, item.value))
            items.append(item.value)
        else:
            items.append(_convert(loader, item, here, doc, depth + 1, texts, screen))
    return items
