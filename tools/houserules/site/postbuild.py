"""Files the site carries beside its pages, written after MkDocs: the JSON API, the scripts of the links
by code, the site's search index, the changes feed and the offline app's file list.

A live preview keeps its :class:`Outputs` between builds (:class:`houserules.site.preview.Preview`) and
tells them what changed in the data (:class:`houserules.data.versions.savediff.Changes`); ``None`` means a full
build, and then every file is written whole. The API redoes only the records a change shows; the
search index is rebuilt in another process and swapped in when ready, so a saved entry's page is
on disk first; the small files are written whole each time.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

from ..data.versions.savediff import Changes
from ..export.api import EntriesDocument
from ..render.urls import CHANGES_FEED
from ..search.siteindex import Prepared, point_material_index, write_site_index
from .changelog import changes_feed
from .context import SiteContext
from .golinks import shard_files
from .offline import write_offline


@dataclass(frozen=True)
class SiteInfo:
    """What the post-build files need from the site's configuration."""

    name: str
    url: str | None
    description: str
    short_name: str
    offline: bool


@dataclass
class _Rebuild:
    """One background rebuild of the site's search index: its indexing process and its thread."""

    prepared: Prepared
    thread: threading.Thread | None = None
    superseded: bool = False


class SearchWriter:
    """The site's search index: whole in a full build; after a change, rebuilt in the background.

    The indexing runs in another process (:class:`~houserules.search.siteindex.Prepared`); a thread
    waits for it and moves the result into the site. A save that comes while an earlier rebuild
    is still indexing never waits for it: the earlier process is stopped and its result dropped,
    since the new one indexes the newer data. The lock keeps a move into the site and the
    dropping of that rebuild apart.
    """

    def __init__(self) -> None:
        self.version = ""
        self._lock = threading.Lock()
        self._current: _Rebuild | None = None

    def write(
        self,
        ctx: SiteContext,
        site_dir: Path,
        changes: Changes | None,
        prepared: Prepared | None,
        data_dir: Path | None = None,
    ) -> None:
        """Write the index (``changes`` None) or start its rebuild from ``data_dir`` after a change."""
        if changes is None:
            self.supersede()
            self.version = write_site_index(ctx.kb, site_dir, prepared)["version"]
            return
        point_material_index(site_dir, self.version)  # Material wrote its (empty) index again: point it at ours
        if changes.empty:
            if prepared is not None:
                prepared.discard()
            return
        self.supersede()
        if prepared is None and data_dir is not None:
            prepared = Prepared(data_dir)
        if prepared is None:  # no data folder to index from in another process: index here
            self.version = write_site_index(ctx.kb, site_dir)["version"]
            return
        rebuild = self._current = _Rebuild(prepared)
        rebuild.thread = threading.Thread(
            target=self._finish, args=(rebuild, ctx, site_dir), name="houserules-search-index", daemon=True
        )
        rebuild.thread.start()

    def _finish(self, rebuild: _Rebuild, ctx: SiteContext, site_dir: Path) -> None:
        state = rebuild.prepared.finished()  # waits for the process, outside the lock
        with self._lock:
            if rebuild.superseded or state == "changed":  # newer data: its own rebuild follows
                rebuild.prepared.discard()
                return
            # "ready": moved into place; "failed": indexed here, with its messages
            self.version = write_site_index(ctx.kb, site_dir, rebuild.prepared)["version"]

    def supersede(self) -> None:
        """Drop the rebuild in progress, if any: its process is stopped, its result never moved in.

        A live preview calls it as a new build starts, so the old indexing leaves the cores to the
        new pages; the new build starts its own (a build that fails leaves the index as it was).
        """
        rebuild = self._current
        if rebuild is None:
            return
        with self._lock:
            rebuild.superseded = True
            rebuild.prepared.discard()
        if rebuild.thread is not None:
            rebuild.thread.join()
        self._current = None

    def wait(self) -> None:
        """Let a background rebuild finish (a test compares the site with a full build's)."""
        rebuild = self._current
        if rebuild is not None and rebuild.thread is not None:
            rebuild.thread.join()


def write_downloads(ctx: SiteContext, site_dir: Path) -> None:
    """The translators' downloads (``translate/downloads/``), for all games and for each game."""
    from ..export.downloads import GameUnits, download_files

    version = str(ctx.version or "")
    made = GameUnits(ctx.kb)
    for game in (None, *ctx.kb.games):
        for path, data in download_files(ctx.kb, game, version, made).items():
            target = site_dir / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)


class Outputs:
    """Every post-build file of a site, kept from one build of a folder to the next."""

    def __init__(self, downloads: bool = True) -> None:
        self.api = EntriesDocument()
        self.search = SearchWriter()
        #: Whether to write the translators' downloads (a full build does; the live preview does not).
        self.downloads = downloads

    def write(
        self,
        ctx: SiteContext,
        site_dir: Path,
        info: SiteInfo,
        changes: Changes | None = None,
        prepared: Prepared | None = None,
        data_dir: Path | None = None,
    ) -> None:
        api = site_dir / "api"
        api.mkdir(parents=True, exist_ok=True)
        (api / "entries.json").write_text(self.api.text(ctx.kb, changes), encoding="utf-8")
        if self.downloads:
            write_downloads(ctx, site_dir)
        for path, text in shard_files(ctx.kb).items():
            target = site_dir / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        self.search.write(ctx, site_dir, changes, prepared, data_dir)
        (site_dir / CHANGES_FEED).write_text(changes_feed(ctx.kb, ctx.history, info.name, info.url), encoding="utf-8")
        version = ctx.version
        # Last: the offline app lists every file the site has.
        write_offline(
            site_dir,
            version.tree if version else "none",
            str(version or ""),
            info.name,
            info.short_name,
            info.description,
            info.offline,
        )
