"""The version of a data folder: the newest history date and git's tree hash of the folder.

The hash is git's own tree hash of the folder, computed in Python, so it is the
same wherever the files live (a checkout, an archive, a shared drive) and, inside
a git checkout, ``git rev-parse <commit>:rules_data`` gives the hash of that
commit's data: a printed FAQ names the commit its data came from.
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from ...errors import HouserulesError, display_path
from ..reading.model import KnowledgeBase

#: How many hex digits of the tree hash a version shows (git shows 7; one more keeps clear of clashes longer).
SHORT = 8
_CHUNK = 1 << 20


def blob_hash(data: bytes) -> str:
    """Git's object id of a file holding ``data``.

    >>> blob_hash(b"hello\\n")  # git hash-object on a file holding "hello"
    'ce013625030ba8dba906f756967f9e9ca394464a'
    """
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def _file_hash(path: Path, size: int) -> str:
    digest = hashlib.sha1(b"blob %d\0" % size)
    with open(path, "rb") as handle:  # in chunks: a stray large file must not fill the memory
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def tree_hash(folder: Path) -> str:
    """Git's tree hash of ``folder`` as ``git add -A`` would record it.

    Files are blobs (mode 100755 when executable by their owner, else 100644),
    symbolic links are blobs of their target (mode 120000), folders are trees (empty
    ones left out, as git has no empty folders); ``.git`` and anything that is not a
    file, link or folder (a named pipe) are skipped.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     tree_hash(Path(tmp))  # git's empty tree
    '4b825dc642cb6eb9a060e54bf8d69288fbee4904'
    """
    return _tree(folder) or "4b825dc642cb6eb9a060e54bf8d69288fbee4904"


def _tree(folder: Path) -> str | None:
    items: list[tuple[bytes, bytes, str]] = []
    try:
        children = list(os.scandir(folder))
    except OSError as exc:
        raise HouserulesError(f"cannot read {display_path(folder)} for the data version: {exc.strerror}") from None
    for child in children:
        if child.name == ".git":
            continue
        name = os.fsencode(child.name)
        path = Path(child.path)
        try:
            info = os.lstat(path)
            if stat.S_ISLNK(info.st_mode):
                items.append((name, b"120000", blob_hash(os.fsencode(os.readlink(path)))))
            elif stat.S_ISDIR(info.st_mode):
                sub = _tree(path)
                if sub is not None:
                    items.append((name + b"/", b"40000", sub))
            elif stat.S_ISREG(info.st_mode):
                mode = b"100755" if info.st_mode & stat.S_IXUSR else b"100644"
                items.append((name, mode, _file_hash(path, info.st_size)))
        except OSError as exc:
            raise HouserulesError(f"cannot read {display_path(path)} for the data version: {exc.strerror}") from None
    if not items:
        return None
    items.sort()  # git orders a folder as its name followed by '/'
    body = b"".join(mode + b" " + key.removesuffix(b"/") + b"\0" + bytes.fromhex(sha) for key, mode, sha in items)
    return hashlib.sha1(b"tree %d\0" % len(body) + body).hexdigest()


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
