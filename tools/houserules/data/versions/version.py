"""The version of a data folder: the newest history date and git's tree hash of the folder.

The hash is git's own tree hash of the folder, computed in Python from the folder's
fingerprint (:mod:`.fingerprint`), so it is the
same wherever the files live (a checkout, an archive, a shared drive) and, inside
a git checkout, ``git rev-parse <commit>:rules_data`` gives the hash of that
commit's data: a printed FAQ names the commit its data came from.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...errors import HouserulesError
from ..reading.model import KnowledgeBase
from .fingerprint import blob_hash, fingerprint

__all__ = ["SHORT", "DataVersion", "blob_hash", "data_version", "game_version", "newest_date", "tree_hash"]

#: How many hex digits of the tree hash a version shows (git shows 7; one more keeps clear of clashes longer).
SHORT = 8


def tree_hash(folder: Path) -> str:
    """Git's tree hash of ``folder`` as ``git add -A`` would record it: the :class:`Fingerprint` of its files.

    Files are blobs (mode 100755 when executable by their owner, else 100644),
    symbolic links are blobs of their target (mode 120000), folders are trees (empty
    ones left out, as git has no empty folders); ``.git`` and anything that is not a
    file, link or folder (a named pipe) are skipped.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     tree_hash(Path(tmp))  # git's empty tree
    '4b825dc642cb6eb9a060e54bf8d69288fbee4904'
    """
    return fingerprint(folder).tree


@dataclass(frozen=True)
class DataVersion:
    """One version of the data: git's tree hash of the folder and the newest history date in it."""

    tree: str
    date: str = ""

    @property
    def short(self) -> str:
        return self.tree[:SHORT]

    def __str__(self) -> str:
        """``2026-11-30 · 1a2b3c4d``: what the PDF cover, the site and ``--changes-since`` show."""
        return " · ".join(part for part in (self.date, self.short) if part)


def newest_date(kb: KnowledgeBase) -> str:
    return max(
        (h["date"] for e in kb.entries.values() if e.origin == "shared" for h in e.data.get("history", [])), default=""
    )


def game_version(kb: KnowledgeBase, game: str) -> DataVersion:
    """The version of one game's folder: what its own PDF prints, so a change to another game leaves
    that PDF (and its cached layout) as it was. ``--changes-since`` finds it like the whole folder's."""
    if kb.root is None:
        raise HouserulesError("the knowledge base was not loaded from a folder, so it has no data version")
    date = max(
        (
            h["date"]
            for e in kb.entries.values()
            if e.origin == "shared" and e.game == game
            for h in e.data.get("history", [])
        ),
        default="",
    )
    return DataVersion(tree_hash(Path(kb.root) / game), date)


def data_version(kb: KnowledgeBase) -> DataVersion:
    """The version of the data folder ``kb`` was loaded from (the whole folder, not only the printed files)."""
    if kb.root is None:
        raise HouserulesError("the knowledge base was not loaded from a folder, so it has no data version")
    return DataVersion(tree_hash(kb.root), newest_date(kb))
