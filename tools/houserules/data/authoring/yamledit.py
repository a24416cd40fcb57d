"""Change some text values of a data file in place, leaving every other byte as written.

``houserules l10n import`` puts translators' texts back into the YAML files: only the
changed scalars (or lists of scalars) are rewritten, in the style they were written in
where the new text allows it (plain, quoted, a ``|`` block), so comments, key order,
quoting and the layout of every untouched line stay. The caller verifies the result by
reading it back (:func:`edit_values` does so itself).
"""

from __future__ import annotations

import copy
import json
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..reading.safefile import YamlError
from ..reading.yamlload import Path_, parse


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


def _reads_as(snippet: str, value: str, flow: bool) -> bool:
    try:
        data = parse(("{k: %s}\n" if flow else "k: %s\n") % snippet).data
    except (YamlError, yaml.YAMLError):
        return False
    return isinstance(data, dict) and data.get("k") == value


def _quoted(value: str) -> str:
    # A JSON string is a YAML double-quoted scalar; Chinese stays readable.
    return json.dumps(value, ensure_ascii=False)


def _single_line(value: str, style: str | None, flow: bool) -> str:
    if style == "'" and "\n" not in value:
        snippet = "'" + value.replace("'", "''") + "'"
        if _reads_as(snippet, value, flow):
            return snippet
    if style in (None, "|", ">") and value == value.strip() and _reads_as(value, value, flow):
        return value
    return _quoted(value)


def _literal(value: str, indent: int, newline: str) -> str | None:
    """``value`` as a ``|`` block indented ``indent`` spaces, or None when a block cannot carry it."""
    body = value[:-1] if value.endswith("\n") else value
    if body.endswith("\n") or not body or body[0] in " \t" or any(c in body for c in "\r\t\u2028\u2029\ufeff"):
        return None
    chomp = "" if value.endswith("\n") else "-"
    lines = [(" " * indent + line) if line.strip() else "" for line in body.split("\n")]
    if any(line != line.rstrip() for line in lines):
        return None
    return f"|{chomp}{newline}" + newline.join(lines)


def _scalar_text(text: str, node: ScalarNode, value: str, flow: bool, column: int, newline: str) -> str:
    old = text[node.start_mark.index : node.end_mark.index]
    if not flow and ("\n" in value or node.style == "|"):
        literal = _literal(value, column + 2, newline)
        if literal is not None:
            if node.style in ("|", ">"):
                # The block's span ends after its line breaks: keep the blank lines that followed it.
                trailing = old[len(old.rstrip("\r\n")) :]
                literal += newline * max(trailing.count("\n"), 1)
            return literal
        if node.style in ("|", ">"):
            trailing = old[len(old.rstrip("\r\n")) :]
            return _quoted(value) + newline * max(trailing.count("\n"), 1)
    if node.style in ("|", ">"):
        trailing = old[len(old.rstrip("\r\n")) :]
        return _single_line(value, None, flow) + newline * max(trailing.count("\n"), 1)
    return _single_line(value, node.style, flow)


def _list_text(text: str, node: SequenceNode, values: list[str], flow: bool, newline: str) -> str:
    old_items = {
        item.value: text[item.start_mark.index : item.end_mark.index]
        for item in node.value
        if isinstance(item, ScalarNode)
    }
    if node.flow_style or flow:
        parts = [old_items.get(v) or _single_line(v, None, True) for v in values]
        return "[" + ", ".join(parts) + "]"
    if not node.value:
        raise EditError("an empty block list")
    column = node.value[0].start_mark.column - 2
    parts = [old_items.get(v) or _single_line(v, None, False) for v in values]
    end = node.value[-1].end_mark.index
    tail = text[end : node.end_mark.index]
    joined: str = "- " + (newline + " " * column + "- ").join(parts)
    return joined + tail


def _set(data: Any, path: Path_, value: Any) -> None:
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


def edit_values(text: str, changes: dict[Path_, str | list[str]]) -> tuple[str, Any]:
    """``text`` with the value at each path replaced, and the data it now reads as.

    Each path must exist and hold a text (or a list of texts, for a list value).
    Raises :class:`EditError` when the new text would not read back as exactly the
    old data with these values changed.

    >>> edit_values("a: {zh: 甲, en: A}  # note\\nb: [x, 乙]\\n", {("a", "en"): "B: b", ("b",): ["x", "y"]})[0]
    'a: {zh: 甲, en: "B: b"}  # note\\nb: [x, y]\\n'
    """
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    body = text[len(bom) :]
    newline = "\r\n" if "\r\n" in body else "\n"
    expected = copy.deepcopy(parse(body.replace("\r\n", "\n")).data)
    root = yaml.compose(body, Loader=yaml.SafeLoader)
    spans = []
    for path, value in changes.items():
        node, flow, column = _find(root, path)
        if isinstance(value, list):
            if not isinstance(node, SequenceNode):
                raise EditError(f"{'/'.join(map(str, path))} is not a list")
            new = _list_text(body, node, value, flow, newline)
        else:
            if not isinstance(node, ScalarNode):
                raise EditError(f"{'/'.join(map(str, path))} is not a text")
            new = _scalar_text(body, node, value, flow, column, newline)
        spans.append((node.start_mark.index, node.end_mark.index, new))
        _set(expected, path, value)
    spans.sort(reverse=True)
    for (start, end, new), later in zip(spans, [None, *spans]):
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
