"""Change some values of a data file in place, leaving every other byte as written.

``houserules l10n import`` puts translators' texts back into the YAML files, and ``stamp`` its
hashes: only the changed scalars are rewritten, so comments, key order, quoting and the layout
of every untouched line stay; a text not written yet gets its key at the end of its mapping.
A list of names is edited item by item (a name kept keeps its
line and its comment; a comment line between items stays where it is; a removed name's own
comment stays as a line of its own); a mapping of texts (a stamp) value by value, keys added at
its end. Each new scalar keeps the style it was written in where the new text allows (plain,
single-quoted, a ``|`` block), and is written plain only where a YAML 1.1 reader (PyYAML, the
checker's) and a YAML 1.2 reader (editors, ruamel.yaml) both read it as this very text:
``1e3``, ``0o17``, ``2026-01-01``, ``yes``, ``null``, ``.inf``, ``12:30``… are quoted. The
result is read back and must be exactly the old data with these values changed
(:class:`EditError` otherwise). Why an editor of spans rather than ruamel.yaml's round trip:
DESIGN.md, "Writing into the data files".
"""

from __future__ import annotations

import copy
import difflib
import json
import re
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..reading.safefile import YamlError
from ..reading.yamlload import Path_, parse

Span = tuple[int, int, str]


class EditError(Exception):
    """The file's layout does not allow a safe textual edit of this value."""


def _find(root: Node | None, path: Path_) -> tuple[Node | None, bool, int]:
    """The node at ``path``, whether it stands in a flow collection, and the column of its key (or item).

    ``root`` is None for a document with no data (only comments or nothing): it has no paths.
    """
    node, flow, column = root, False, 0
    for key in path:
        if isinstance(node, MappingNode):
            flow = flow or bool(node.flow_style)
            for key_node, value_node in node.value:
                if key_node.value == key:
                    node, column = value_node, key_node.start_mark.column
                    break
            else:
                raise EditError(f"no key {key!r}")
        elif isinstance(node, SequenceNode) and isinstance(key, int) and key < len(node.value):
            flow = flow or bool(node.flow_style)
            node = node.value[key]
            column = node.start_mark.column
        else:
            raise EditError(f"no item {key!r}")
    return node, flow, column


# -- one scalar ----------------------------------------------------------------------------------------

#: Plain scalars some YAML reader takes for something else than text: YAML 1.1's and 1.2's
#: null, booleans (1.1's y/n/yes/no/on/off too), integers (binary, octal, hex, sexagesimal,
#: with ``_``), floats (``1e3``, ``.5``, ``.inf``, ``.nan``), timestamps, merge and value keys.
_NOT_TEXT = re.compile(
    r"""(?x)
    (?: ~ | null | y | n | yes | no | on | off | true | false )
    | [-+]? [0-9_.:]+ (?: [eE] [-+]? [0-9_]+ )?
    | [-+]? [0-9_]* \.? [0-9_]* [eE] [-+]? [0-9_]+
    | [-+]? \. (?: inf ) | \. nan
    | [-+]? 0 (?: b [01_]+ | o [0-7_]+ | x [0-9a-f_]+ )
    | [0-9]{4} - [0-9]{1,2} - [0-9]{1,2} (?: [t\ ] .* )?
    | = | <<
    """,
    re.IGNORECASE,
)
#: Characters a double-quoted scalar writes as escapes: YAML reads the line and paragraph
#: separators, NEL and the byte-order mark inside quotes as something else than themselves.
_ESCAPED = re.compile("[\u0085\u2028\u2029\ufeff]")
#: What a plain scalar may not start with in YAML 1.2 (its indicators).
_INDICATORS = "-?:,[]{}#&*!|>'\"%@`"


def plain_is_text(value: str) -> bool:
    """Whether ``value`` written plain reads back as this text in YAML 1.1 and 1.2 alike (as far as its
    words go: :func:`_reads_as` still checks the syntax in place).

    >>> [plain_is_text(v) for v in ("Tower", "1e3", "0o17", "2026-01-01", "No", "12:30", "3f2a9c0d41b7", "-x")]
    [True, False, False, False, False, False, True, False]
    """
    return (
        bool(value)
        and value == value.strip()
        and value[0] not in _INDICATORS
        and not _NOT_TEXT.fullmatch(value)
        and not _ESCAPED.search(value)  # a line separator: a line break to YAML 1.1, a character to 1.2
    )


def _reads_as(snippet: str, value: str, flow: bool) -> bool:
    try:
        data = parse(("{k: %s}\n" if flow else "k: %s\n") % snippet).data
    except (YamlError, yaml.YAMLError):
        return False
    return isinstance(data, dict) and data.get("k") == value


def quoted(value: str) -> str:
    """``value`` as a YAML double-quoted scalar (JSON's escapes are YAML's); Chinese stays readable.

    >>> quoted('say "hi"\\u2028'), quoted("1e3")
    ('"say \\\\"hi\\\\"\\\\u2028"', '"1e3"')
    """
    return _ESCAPED.sub(lambda m: f"\\u{ord(m.group()):04x}", json.dumps(value, ensure_ascii=False))


def _single_line(value: str, style: str | None, flow: bool) -> str:
    if style == "'" and "\n" not in value and not _ESCAPED.search(value):
        snippet = "'" + value.replace("'", "''") + "'"
        if _reads_as(snippet, value, flow):
            return snippet
    if style in (None, "|", ">") and plain_is_text(value) and _reads_as(value, value, flow):
        return value
    return quoted(value)


def _literal(value: str, indent: int, newline: str) -> str | None:
    """``value`` as a ``|`` block indented ``indent`` spaces, or None when a block cannot carry it."""
    body = value[:-1] if value.endswith("\n") else value
    if body.endswith("\n") or not body or body[0] in " \t" or _ESCAPED.search(body) or any(c in body for c in "\r\t"):
        return None
    chomp = "" if value.endswith("\n") else "-"
    lines = [(" " * indent + line) if line.strip() else "" for line in body.split("\n")]
    if any(line != line.rstrip() for line in lines):
        return None
    return f"|{chomp}{newline}" + newline.join(lines)


def _scalar_text(text: str, node: ScalarNode, value: str, flow: bool, column: int, newline: str) -> str:
    old = text[node.start_mark.index : node.end_mark.index]
    trailing = newline * max(old[len(old.rstrip("\r\n")) :].count("\n"), 1)
    if not flow and ("\n" in value or node.style == "|"):
        literal = _literal(value, column + 2, newline)
        if literal is not None:
            # A block's span ends after its line breaks: keep the blank lines that followed it.
            return literal + (trailing if node.style in ("|", ">") else "")
        if node.style in ("|", ">"):
            return quoted(value) + trailing
    if node.style in ("|", ">"):
        return _single_line(value, None, flow) + trailing
    return _single_line(value, node.style, flow)


# -- a list of names -----------------------------------------------------------------------------------


def _line_start(text: str, index: int) -> int:
    return text.rfind("\n", 0, index) + 1


def _line_end(text: str, index: int) -> int:
    """The index after the line break of the line holding ``index`` (or the end of the text)."""
    end = text.find("\n", index)
    return len(text) if end < 0 else end + 1


def _block_list(text: str, node: SequenceNode, values: list[str], newline: str) -> list[Span]:
    """The spans that turn the block list ``node`` into ``values``, item by item."""
    items = node.value
    if not items or not all(isinstance(item, ScalarNode) for item in items):
        raise EditError("a list that is empty or holds more than names")
    for item in items:
        before = text[_line_start(text, item.start_mark.index) : item.start_mark.index]
        if not re.fullmatch(r"[ \t]*-[ \t]+", before) or item.start_mark.line != item.end_mark.line:
            raise EditError("a list item not on a line of its own")
    first = items[0]
    indent = text[_line_start(text, first.start_mark.index) : first.start_mark.index].split("-")[0]

    style = _common_style(items)

    def line_of(value: str) -> str:
        return f"{indent}- {_single_line(value, style, False)}{newline}"

    def after(item: ScalarNode) -> int:
        return _line_end(text, item.end_mark.index)

    spans: list[Span] = []
    old = [str(item.value) for item in items]
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, values, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        paired = min(i2 - i1, j2 - j1) if op == "replace" else 0
        for k in range(paired):
            item = items[i1 + k]
            spans.append((item.start_mark.index, item.end_mark.index, _single_line(values[j1 + k], item.style, False)))
        for item in items[i1 + paired : i2]:  # removed: the line goes, a comment on it stays as a line
            start, end = _line_start(text, item.start_mark.index), after(item)
            rest = text[item.end_mark.index : end].strip()
            spans.append((start, end, f"{indent}{rest}{newline}" if rest.startswith("#") else ""))
        added = values[j1 + paired : j2]
        if added:
            at = (
                after(items[i1 + paired - 1])
                if paired
                else (_line_start(text, items[i1].start_mark.index) if i1 < len(items) else after(items[-1]))
            )
            spans.append((at, at, "".join(line_of(v) for v in added)))
    return spans


def _flow_list(text: str, node: SequenceNode, values: list[str]) -> list[Span]:
    items = node.value
    if not all(isinstance(item, ScalarNode) for item in items):
        raise EditError("a list that holds more than names")
    gaps = [text[a.end_mark.index : b.start_mark.index] for a, b in zip(items, items[1:], strict=False)]
    old = [str(item.value) for item in items]
    if any("#" in gap or "\n" in gap for gap in gaps):  # laid out over lines, with comments: names replaced only
        if len(values) != len(old):
            raise EditError("a list written over several lines in [...] whose length changes")
        return [
            (item.start_mark.index, item.end_mark.index, _single_line(value, item.style, True))
            for item, value in zip(items, values, strict=True)
            if value != item.value
        ]
    kept = {str(item.value): text[item.start_mark.index : item.end_mark.index] for item in items}
    style = _common_style(items)
    return [
        (
            node.start_mark.index,
            node.end_mark.index,
            "[" + ", ".join(kept.get(v) or _single_line(v, style, True) for v in values) + "]",
        )
    ]


def _common_style(items: list[Node]) -> str | None:
    """The quoting every name of a list is written with (a new name is written so too), or None."""
    styles = {getattr(item, "style", None) for item in items}
    return styles.pop() if len(styles) == 1 else None


# -- a mapping of texts (a stamp) ------------------------------------------------------------------


def _mapping(text: str, node: MappingNode, values: dict[str, str], flow: bool, newline: str) -> list[Span]:
    spans: list[Span] = []
    present = {key_node.value: value_node for key_node, value_node in node.value}
    for key, value in values.items():
        child = present.get(key)
        if child is not None and not isinstance(child, ScalarNode):
            raise EditError(f"{key!r} does not hold a text")
        if child is not None and child.value != value:
            spans.append(
                (
                    child.start_mark.index,
                    child.end_mark.index,
                    _single_line(value, child.style, flow or bool(node.flow_style)),
                )
            )
    added = [key for key in values if key not in present]
    if not added:
        return spans
    if node.flow_style:
        end = node.end_mark.index - 1  # the closing brace
        if text[end] != "}":
            raise EditError("a mapping in {...} whose end cannot be found")
        body = ", ".join(f"{key}: {_single_line(values[key], None, True)}" for key in added)
        spans.append((end, end, (", " if node.value else "") + body))
        return spans
    if not node.value:
        raise EditError("an empty block mapping")
    column = node.value[0][0].start_mark.column
    end = node.value[-1][1].end_mark.index
    # After the last value: a block scalar's span ends at a line's start, any other's within its line.
    at = end if end == 0 or text[end - 1] == "\n" else _line_end(text, end)
    lines = []
    for key in added:
        value = values[key]
        literal = _literal(value, column + 2, newline) if "\n" in value else None
        lines.append(f"{' ' * column}{key}: {literal or _single_line(value, None, False)}{newline}")
    spans.append((at, at, "".join(lines)))
    return spans


def _flow_mapping(values: dict[str, str]) -> str:
    return "{" + ", ".join(f"{key}: {_single_line(value, None, True)}" for key, value in values.items()) + "}"


# -- the edit --------------------------------------------------------------------------------------------


def _set(data: Any, path: Path_, value: Any) -> None:
    for key in path[:-1]:
        data = data[key]
    if isinstance(value, dict) and isinstance(data[path[-1]], dict):
        data[path[-1]] = {**data[path[-1]], **value}
    else:
        data[path[-1]] = value


def edit_values(text: str, changes: dict[Path_, str | list[str] | dict[str, str]]) -> tuple[str, Any]:
    """``text`` with the value at each path replaced, and the data it now reads as.

    Each path must exist and hold a text, a list of texts (for a list value) or, for a mapping
    of texts, a text (replaced by the mapping in ``{...}``) or a mapping of texts (its values
    changed, its missing keys added). Raises :class:`EditError` when the new text would not
    read back as exactly the old data with these values changed.

    >>> edit_values("a: {zh: 甲, en: A}  # note\\nb: [x, 乙]\\n", {("a", "en"): "B: b", ("b",): ["x", "y"]})[0]
    'a: {zh: 甲, en: "B: b"}  # note\\nb: [x, "y"]\\n'
    >>> edit_values("l:\\n  - a  # first\\n  # between\\n  - b\\n", {("l",): ["b", "c"]})[0]
    'l:\\n  # first\\n  # between\\n  - b\\n  - c\\n'
    """
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    body = text[len(bom) :]
    newline = "\r\n" if "\r\n" in body else "\n"
    expected = copy.deepcopy(parse(body.replace("\r\n", "\n")).data)
    root = yaml.compose(body, Loader=yaml.SafeLoader)
    spans: list[Span] = []
    for path, value in changes.items():
        where = "/".join(map(str, path))
        try:
            node, flow, column = _find(root, path)
        except EditError:  # a text not written yet: its key added to its mapping (``en:`` beside ``zh:``)
            parent, flow, _ = _find(root, path[:-1])
            if not isinstance(parent, MappingNode) or not isinstance(value, str) or not isinstance(path[-1], str):
                raise
            spans += _mapping(body, parent, {path[-1]: value}, flow, newline)
            _set(expected, path, value)
            continue
        if isinstance(value, list):
            if not isinstance(node, SequenceNode):
                raise EditError(f"{where} is not a list")
            flow_list = flow or bool(node.flow_style)
            spans += _flow_list(body, node, value) if flow_list else _block_list(body, node, value, newline)
        elif isinstance(value, dict):
            if isinstance(node, MappingNode):
                spans += _mapping(body, node, value, flow, newline)
            elif isinstance(node, ScalarNode) and node.style in (None, "'", '"'):
                spans.append((node.start_mark.index, node.end_mark.index, _flow_mapping(value)))
            else:
                raise EditError(f"{where} is not a text or a mapping of texts")
        else:
            if not isinstance(node, ScalarNode):
                raise EditError(f"{where} is not a text")
            spans.append(
                (node.start_mark.index, node.end_mark.index, _scalar_text(body, node, value, flow, column, newline))
            )
        _set(expected, path, value)
    spans.sort(key=lambda span: (span[0], span[1]), reverse=True)
    for (start, end, new), later in zip(spans, [None, *spans], strict=False):
        if later is not None and end > later[0]:
            raise EditError("two changes overlap")
        body = body[:start] + new + body[end:]
    try:
        reread = parse(body.replace("\r\n", "\n")).data
    except YamlError as exc:
        raise EditError(f"the edit would break the file at line {exc.line} ({exc.problem})") from None
    if reread != expected:
        raise EditError("the edited file would not read back as the intended data")
    return bom + body, reread
