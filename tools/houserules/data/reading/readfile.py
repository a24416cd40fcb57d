"""Read one data file: parse, validate against its schema, and remember what was read.

:func:`read_document` gives a file's validated document and its problems;
:class:`ReadCache` lets a caller that loads the same folder again (a live preview)
skip files that did not change.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from ...errors import Problem, display_path
from .model import Entry
from .records import build
from .safefile import unreadable
from .validate import field_name, has_visible_text, validate
from .yamlload import Document, YamlError
from .yamlload import load as load_yaml


def _blank_texts(doc: Document, path: Path, label: str) -> Iterator[Problem]:
    """A problem for each text of the file that shows nothing (``"   "``, a zero-width space)."""
    for data_path, text in doc.texts():
        first = text[:1]
        if "\u4e00" <= first <= "\u9fff" or first.isascii() and first.isalnum():
            continue  # most texts start with a Chinese character, a letter or a digit (has_visible_text's first test)
        if not has_visible_text(text):
            yield Problem(
                display_path(path),
                doc.line(data_path),
                label,
                f"field '{field_name(data_path)}' has no visible text",
                "write the text or remove the field",
            )


def read_document(path: Path, schema_name: str, label: str) -> tuple[Document | None, list[Problem]]:
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
        return None, [
            Problem(
                display_path(path),
                1,
                label,
                f"the file holds a {kind}, not a mapping of fields",
                "write the fields as 'name: value' lines",
            )
        ]
    problems = validate(doc, schema_name, path, label)
    if problems:
        return None, problems
    return doc, list(_blank_texts(doc, path, label))


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
        doc, problems = read_document(path, schema_name, label)
        if signature is not None:
            self._files[key] = (signature, doc, list(problems))
        return doc, problems

    def entry(self, path: Path, doc: Document, game: str, origin: str) -> Entry:
        """The entry of ``doc``: the same object as last time when the document is the same."""
        key = (path, game, origin)
        known = self._entries.get(key)
        if known is None or known.doc is not doc:
            known = self._entries[key] = build(Entry, doc.data, path=path, doc=doc, game=game, origin=origin)
        return known
