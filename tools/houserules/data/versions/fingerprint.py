"""The fingerprint of a data folder: git's object id of each of its files, found in one walk.

Whatever must know whether the data changed derives from it: the data version is git's tree hash of
the folder (:attr:`Fingerprint.tree`, :mod:`.version`); the command-line search index is kept under
a digest of its files' ids with the index format (:func:`houserules.search.indexcache.fingerprint`);
the printed FAQ's cache keys each PDF by its print HTML, whose cover names its game's version, a
subtree of the same fingerprint, with the layout's own versions. Being git's ids, the fingerprint is
the same for a copy, a checkout or an archive of the same files.

With a *memo* (a file in the cache), a file whose size, modification time, inode and mode are what
the memo recorded is not read again, as git's own index does: asking again after a change reads the
changed files only. A file changed within :data:`RACY_NS` of being hashed is not memoized (its time
might not tell a second change in the same tick).
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import tempfile
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import HouserulesError, display_path

#: git's id of the empty tree.
EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
MEMO_VERSION = 1
RACY_NS = 2_000_000_000
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


@dataclass(frozen=True)
class Fingerprint:
    """Each file of a folder (its path relative to the folder, with ``/``) → its git mode and object id."""

    files: Mapping[str, tuple[str, str]]

    @property
    def tree(self) -> str:
        """Git's tree hash of the folder, as ``git add -A`` would record it (empty folders left out)."""
        return self.subtree("")

    def subtree(self, folder: str) -> str:
        """Git's tree hash of ``folder`` (a path relative to the folder, ``""`` for the whole)."""
        prefix = folder.strip("/") + "/" if folder.strip("/") else ""
        nested: dict[str, Any] = {}
        for path, entry in self.files.items():
            if not path.startswith(prefix):
                continue
            *parents, name = path[len(prefix) :].split("/")
            node = nested
            for part in parents:
                node = node.setdefault(part + "/", {})
            node[name] = entry
        return _tree(nested) or EMPTY_TREE

    def digest(self, salt: str, paths: Iterable[str] | None = None) -> str:
        """A hash of ``salt`` and of the files ``paths`` (all when None): a cache key for what they make."""
        digest = hashlib.blake2b(salt.encode() + b"\0", digest_size=16)
        for path in sorted(self.files if paths is None else paths):
            mode, oid = self.files.get(path, ("-", "-"))
            digest.update(f"{path}\0{mode}\0{oid}\n".encode())
        return digest.hexdigest()


def _tree(nested: dict[str, Any]) -> str | None:
    items: list[tuple[bytes, bytes, str]] = []
    for key, value in nested.items():
        if isinstance(value, dict):
            sub = _tree(value)
            if sub is not None:
                items.append((os.fsencode(key), b"40000", sub))
        else:
            items.append((os.fsencode(key), value[0].encode(), value[1]))
    if not items:
        return None
    items.sort()  # git orders a folder as its name followed by '/'
    body = b"".join(mode + b" " + key.removesuffix(b"/") + b"\0" + bytes.fromhex(sha) for key, mode, sha in items)
    return hashlib.sha1(b"tree %d\0" % len(body) + body).hexdigest()


def relative(path: Path, folder: Path) -> str:
    """``path`` relative to ``folder``, with ``/``; a string cut when ``path`` was made under ``folder``
    (as the walk and the index's list make them), which a search start pays once per file."""
    name, prefix = os.fspath(path), os.path.join(os.fspath(folder), "")
    rel = name[len(prefix) :] if name.startswith(prefix) else Path(path).relative_to(folder).as_posix()
    return rel.replace(os.sep, "/") if os.sep != "/" else rel


def _walk(folder: Path) -> Iterable[Path]:
    """Every path under ``folder`` but ``.git`` folders, without following links."""
    try:
        children = list(os.scandir(folder))
    except OSError as exc:
        raise HouserulesError(f"cannot read {display_path(folder)} for the data version: {exc.strerror}") from None
    for child in children:
        if child.name == ".git":
            continue
        if child.is_dir(follow_symlinks=False):
            yield from _walk(Path(child.path))
        else:
            yield Path(child.path)


def fingerprint(folder: Path, only: Iterable[Path] | None = None, memo: Path | None = None) -> Fingerprint:
    """The fingerprint of ``folder``: every file (links as git records them; ``.git`` and what is neither a
    file nor a link, a named pipe, left out), or only the paths ``only``; files the ``memo`` knows unchanged
    are not read again.

    With ``only``, a file that cannot be read counts by its size and time (the loader says what is wrong
    with it); otherwise it is an error, as for the data version.
    """
    folder = Path(folder)
    known = _read_memo(memo) if memo is not None else {}
    files: dict[str, tuple[str, str]] = {}
    seen: dict[str, list[Any]] = {}
    now = time.time_ns()
    for path in _walk(folder) if only is None else only:
        rel = relative(path, folder)
        try:
            info = os.lstat(path)
            signature = [info.st_mode, info.st_size, info.st_mtime_ns, info.st_ino]
            old = known.get(rel)
            if old is not None and old[:4] == signature:
                files[rel] = (old[4], old[5])
            elif stat.S_ISLNK(info.st_mode):
                files[rel] = ("120000", blob_hash(os.fsencode(os.readlink(path))))
            elif stat.S_ISREG(info.st_mode):
                mode = "100755" if info.st_mode & stat.S_IXUSR else "100644"
                files[rel] = (mode, _file_hash(Path(path), info.st_size))
            else:
                continue
        except OSError as exc:
            if only is None:
                raise HouserulesError(
                    f"cannot read {display_path(Path(path))} for the data version: {exc.strerror}"
                ) from None
            files[rel] = ("unreadable", f"{exc.errno}")
            continue
        if now - info.st_mtime_ns > RACY_NS:
            seen[rel] = [*signature, *files[rel]]
    if memo is not None and seen != known:
        _write_memo(memo, seen)
    return Fingerprint(files)


def _read_memo(memo: Path) -> dict[str, list[Any]]:
    try:
        data = json.loads(memo.read_text(encoding="utf-8"))
        return data["files"] if data.get("version") == MEMO_VERSION and isinstance(data["files"], dict) else {}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def _write_memo(memo: Path, files: dict[str, list[Any]]) -> None:
    """Keep the memo, whole or not at all; a cache that cannot be written only costs the next call a read."""
    try:
        memo.parent.mkdir(parents=True, exist_ok=True)
        handle, tmp = tempfile.mkstemp(prefix=".tmp-", dir=memo.parent)
    except OSError:
        return
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump({"version": MEMO_VERSION, "files": files}, out)
        os.replace(tmp, memo)
    except OSError:
        Path(tmp).unlink(missing_ok=True)
