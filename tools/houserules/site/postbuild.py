"""Files the site carries beside its pages (the JSON API; the site's search files), written after MkDocs.

Each writer is an object with ``write(kb, site_dir, changes)``. ``changes`` is what
changed in the data since the writer's last ``write`` into the same folder
(:class:`houserules.data.changes.Changes`), or ``None`` for a full build: then, and
whenever it cannot do better, a writer writes its files whole. A live preview keeps
its writers between builds (:class:`houserules.site.plugin.Preview`), so a writer may
keep what it needs to update its files (the API keeps each entry's record).

A new writer (e.g. the sharded site search index) is added to :data:`WRITERS`; one that only
writes everything is wrapped in :class:`FullRewrite`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from ..data.changes import Changes
from ..data.model import KnowledgeBase
from ..export.api import EntriesDocument


class Writer(Protocol):
    def write(self, kb: KnowledgeBase, site_dir: Path, changes: Changes | None) -> None: ...


class ApiWriter:
    """``api/entries.json`` (the contract of README); after a change only the records it shows are made again."""

    def __init__(self) -> None:
        self.document = EntriesDocument()

    def write(self, kb: KnowledgeBase, site_dir: Path, changes: Changes | None) -> None:
        api = site_dir / "api"
        api.mkdir(parents=True, exist_ok=True)
        text = self.document.text(kb, changes)
        (api / "entries.json").write_text(text, encoding="utf-8")


class FullRewrite:
    """A writer of everything, whatever changed: ``FullRewrite(lambda kb, site_dir: ...)``."""

    def __init__(self, write: Callable[[KnowledgeBase, Path], object]) -> None:
        self._write = write

    def write(self, kb: KnowledgeBase, site_dir: Path, changes: Changes | None) -> None:
        if changes is None or not changes.empty:
            self._write(kb, site_dir)


#: The writers of a build, in order: each a function returning a new writer.
WRITERS: list[Callable[[], Writer]] = [ApiWriter]


class Outputs:
    """One instance of every writer, kept from one build of a folder to the next."""

    def __init__(self) -> None:
        self.writers = [make() for make in WRITERS]

    def write(self, kb: KnowledgeBase, site_dir: Path, changes: Changes | None = None) -> None:
        for writer in self.writers:
            writer.write(kb, site_dir, changes)


def write_outputs(kb: KnowledgeBase, site_dir: Path) -> None:
    """Every post-build file of ``kb`` into a built site, written whole."""
    Outputs().write(kb, site_dir)
