"""What ``houserules build`` takes from the previous build of the same folder: the pages nothing changed for.

A generated page's HTML is a function of its Markdown and its path, of the navigation (Material
renders it into every page), of the site's configuration, and of the code and templates that render
it (houserules, the hand-written pages and theme overrides, MkDocs, Material, Markdown). The last
four make the *salt* (:func:`site_salt`); each page's key is a hash of the salt, its path and its
Markdown. A build renders only the pages whose key is new and takes every other page's file from the
previous site, after checking that file is still the one the previous build wrote (its size,
modification time and inode): a hard link into the new folder (a copy where a link is impossible),
so the build still writes a fresh folder and swaps it in whole.

The record of the last build lives in the cache (``site-<hash of the folder>/pages.json`` under
``$HOUSERULES_CACHE``), never in the site, and is written only once the new site is in place
(:meth:`PageReuse.commit`): a failed build leaves the record of the site still there.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterable, Mapping
from importlib import metadata
from pathlib import Path
from typing import Any

#: Bump when the record's shape or what a key covers changes: every page is rendered again.
RECORD_VERSION = 1
#: The distributions whose code renders a page.
RENDERERS = ("houserules", "mkdocs", "mkdocs-material", "markdown", "pymdown-extensions", "jinja2", "nh3", "pygments")


def _distribution(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "-"


def files_digest(roots: Iterable[Path]) -> str:
    """A hash of the names and contents of every file under ``roots`` (folders, or single files)."""
    digest = hashlib.sha256()
    for root in roots:
        paths = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file())
        for path in paths:
            if "__pycache__" in path.parts:
                continue
            digest.update(str(path.relative_to(root.parent)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def site_salt(nav: Any, config_file: Path, settings: Mapping[str, Any], sources: Iterable[Path]) -> str:
    """What every page of a build is rendered from besides its own Markdown.

    ``nav``: the navigation; ``config_file``: ``mkdocs.yml``; ``settings``: what else the build reads
    from its environment (the published addresses); ``sources``: the code, the theme overrides and the
    hand-written pages (:func:`files_digest`).
    """
    digest = hashlib.sha256(f"v{RECORD_VERSION}\0".encode())
    digest.update(json.dumps(nav, ensure_ascii=False, sort_keys=True).encode() + b"\0")
    digest.update(config_file.read_bytes() + b"\0")
    digest.update(json.dumps(dict(settings), sort_keys=True).encode() + b"\0")
    digest.update(" ".join(f"{name}={_distribution(name)}" for name in RENDERERS).encode() + b"\0")
    digest.update(files_digest(sources).encode())
    return digest.hexdigest()


def page_key(salt: str, src: str, markdown: str) -> str:
    return hashlib.sha256(f"{salt}\0{src}\0{markdown}".encode()).hexdigest()


def _stat(path: Path) -> list[int] | None:
    try:
        info = os.lstat(path)
    except OSError:
        return None
    return [info.st_size, info.st_mtime_ns, info.st_ino]


def record_home(target: Path, cache: Path) -> Path:
    """Where the record of the site built into ``target`` is kept."""
    digest = hashlib.blake2b(str(Path(os.path.abspath(target))).encode(), digest_size=8).hexdigest()
    return cache / f"site-{digest}"


class PageReuse:
    """The previous build of ``target``: which of its pages a new build takes as they are.

    :meth:`plan` says which pages to render, :meth:`place` puts the others into the new folder and
    makes the new record, :meth:`commit` keeps that record once the new site replaced the old one.
    """

    def __init__(self, target: Path, cache: Path):
        self.target = Path(os.path.abspath(target))
        self.record = record_home(self.target, cache) / "pages.json"
        self.previous: dict[str, Any] = self._read()
        self.keys: dict[str, str] = {}
        #: The pages taken from the previous site: docs path → its record (dest, title, key, stat).
        self.reused: dict[str, dict[str, Any]] = {}
        self._pending: dict[str, Any] | None = None

    def _read(self) -> dict[str, Any]:
        try:
            record = json.loads(self.record.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(record, dict) or record.get("version") != RECORD_VERSION:
            return {}
        return record

    def plan(self, salt: str, pages: Mapping[str, str]) -> set[str]:
        """The docs paths of ``pages`` (docs path → Markdown) to render: every page the previous site has no
        intact file of, under the same key."""
        self.salt = salt
        self.keys = {src: page_key(salt, src, markdown) for src, markdown in pages.items()}
        self.reused = {}
        if self.previous.get("salt") == salt and self.target.is_dir():
            for src, old in self.previous.get("pages", {}).items():
                if self.keys.get(src) == old["key"] and _stat(self.target / old["dest"]) == old["stat"]:
                    self.reused[src] = old
        return set(pages) - set(self.reused)

    def title(self, src: str) -> str | None:
        """The title a reused page had (the navigation of the pages rendered again names it)."""
        old = self.reused.get(src)
        return old["title"] if old else None

    def place(self, site_dir: Path, rendered: Mapping[str, tuple[str, str | None]]) -> None:
        """Put every reused page into ``site_dir`` and make this build's record.

        ``rendered``: docs path → (output path, title) of each generated page this build rendered.
        """
        pages: dict[str, Any] = {}
        for src, old in self.reused.items():
            target = site_dir / old["dest"]
            target.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(self.target / old["dest"], target)
            except OSError:  # another file system, or links not allowed: a copy (a new inode, recorded below)
                shutil.copy2(self.target / old["dest"], target)
            pages[src] = {**old, "stat": _stat(target)}
        for src, (dest, title) in rendered.items():
            if src in self.keys and src not in pages:
                pages[src] = {"key": self.keys[src], "dest": dest, "title": title, "stat": _stat(site_dir / dest)}
        self._pending = {"version": RECORD_VERSION, "salt": self.salt, "pages": pages}

    def commit(self) -> None:
        """The new site is in place (renames keep each file's inode and time): its record replaces the last."""
        if self._pending is None:
            return
        self.record.parent.mkdir(parents=True, exist_ok=True)
        handle, tmp = tempfile.mkstemp(prefix=".tmp-", dir=self.record.parent)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(self._pending, out, ensure_ascii=False)
            os.replace(tmp, self.record)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        self._pending = None
