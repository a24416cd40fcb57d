"""How much of a data file each way of writing an edited value changes besides the value: the numbers
behind DESIGN.md's choice of the span editor (``data/authoring/yamledit.py``) over ruamel.yaml's round trip.

For every YAML file of a data folder, two measurements:

- **no edit**: the file loaded and dumped again by ruamel.yaml's round trip (quotes kept, lines as
  long as they are, the indentation most files use), compared with the file;
- **every English text edited**: each ``en`` text of the file (the targets an import of a Chinese →
  English file writes) given a new value by each editor; the lines that differ from the file, minus
  the lines holding an edited value, are the lines changed besides the edits.

Run: ``.venv/bin/python benchmarks/yaml_edit_measure.py [rules_data]``. Not timed: it counts bytes and lines.
"""

from __future__ import annotations

import difflib
import io
import sys
from pathlib import Path
from typing import Any

import yaml

from houserules.data.authoring.yamledit import EditError, edit_values
from houserules.data.reading.yamlload import parse

ROOT = Path(__file__).resolve().parents[1]


def node_at(root: yaml.Node, path: tuple) -> yaml.Node:
    node = root
    for key in path:
        if isinstance(key, int):
            node = node.value[key]
        else:
            node = next(value for name, value in node.value if name.value == key)
    return node


def en_paths(data: Any, path: tuple = ()) -> list[tuple]:
    """Every path of a text in English (``…/en``) in the data."""
    found = []
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "en" and isinstance(value, str):
                found.append((*path, key))
            else:
                found += en_paths(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += en_paths(value, (*path, index))
    return found


#: ruamel.yaml writes every list of a file one way: indented under its key (``offset=2``), or not.
STYLES = {"ruamel-indented": (2, 4, 2), "ruamel-flush": (2, 2, 0)}


def ruamel_text(text: str, changes: dict[tuple, str], style: str = "ruamel-indented") -> str:
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 4096
    mapping, sequence, offset = STYLES[style]
    yaml.indent(mapping=mapping, sequence=sequence, offset=offset)
    doc = yaml.load(text)
    for path, value in changes.items():
        node = doc
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    out = io.StringIO()
    yaml.dump(doc, out)
    return out.getvalue()


def changed_lines(old: str, new: str) -> tuple[int, int]:
    """(lines of ``old`` replaced or removed, bytes of ``old`` in them)."""
    a = old.splitlines(keepends=True)
    count = size = 0
    for op, i1, i2, _, _ in difflib.SequenceMatcher(
        None, a, new.splitlines(keepends=True), autojunk=False
    ).get_opcodes():
        if op != "equal":
            count += i2 - i1
            size += sum(len(line.encode()) for line in a[i1:i2])
    return count, size


def main(folder: Path) -> None:
    files = sorted(folder.rglob("*.yaml"))
    editors = ("spans", *STYLES)
    totals = {"files": len(files), "bytes": 0}
    for style in STYLES:
        totals[f"{style}_no_edit_files"] = totals[f"{style}_no_edit_lines"] = 0
    for editor in editors:
        totals[f"{editor}_edited_values"] = totals[f"{editor}_other_lines"] = totals[f"{editor}_refused"] = 0
    for path in files:
        text = path.read_text(encoding="utf-8")
        totals["bytes"] += len(text.encode())
        for style in STYLES:
            same = ruamel_text(text, {}, style)
            if same != text:
                totals[f"{style}_no_edit_files"] += 1
                totals[f"{style}_no_edit_lines"] += changed_lines(text, same)[0]
        data = parse(text).data
        changes = {p: f"Edited text {i}" for i, p in enumerate(en_paths(data))}
        if not changes:
            continue
        lines = set(range(1, text.count("\n") + 2))
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        edited: set[int] = set()  # the lines that hold an edited value (a block's lines, each)
        for p in changes:
            node = node_at(root, p)
            end = node.end_mark.line + (1 if node.end_mark.column else 0)
            edited.update(range(node.start_mark.line + 1, max(end, node.start_mark.line + 1) + 1))
        for editor in editors:
            try:
                new = edit_values(text, changes)[0] if editor == "spans" else ruamel_text(text, changes, editor)
            except EditError:
                totals[f"{editor}_refused"] += 1
                continue
            a = text.splitlines(keepends=True)
            other = 0
            for op, i1, i2, _, _ in difflib.SequenceMatcher(
                None, a, new.splitlines(keepends=True), autojunk=False
            ).get_opcodes():
                if op != "equal":
                    other += sum(1 for n in range(i1 + 1, i2 + 1) if n in lines and n not in edited)
            totals[f"{editor}_edited_values"] += len(changes)
            totals[f"{editor}_other_lines"] += other
    for key, value in totals.items():
        print(f"{key}: {value}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "rules_data")
