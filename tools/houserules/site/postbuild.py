"""Files the site carries beside its pages, written after MkDocs: the JSON API, the scripts of the links
by code, the site's search index, the changes feed and the offline app's file list.

A live preview keeps its :class:`Outputs` between builds (:class:`houserules.site.preview.Preview`) and
tells them what changed in the data (:class:`houserules.data.changes.Changes`); ``None`` means a full
build, and then every file is written whole. The API redoes only the records a change shows; the
search index is rebuilt in another process and swapped in when ready, so a saved entry's page is
on disk first; the small files are written whole each time.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

from ..data.changes import Changes
from ..export.api import EntriesDocument
from ..render.urls import CHANGES_FEED
from ..search.site import Prepared, point_material_index, write_site_index
from .changes import changes_feed
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


class SearchWriter:
    """The site's search index: whole in a full build; after a change, rebuilt in the background."""

    def __init__(self) -> None:
        self.version = ""
        self._thread: threading.Thread | None = None

    def write(self, ctx: SiteContext, site_dir: Path, changes: Changes | None, prepared: Prepared | None) -> None:
        if changes is None:
            self.wait()
            self.version = write_site_index(ctx.kb, site_dir, prepared)["version"]
            return
        point_material_index(site_dir, self.version)  # Material wrote its (empty) index again: point it at ours
        if changes.empty:
            if prepared is not None:
                prepared.discard()
            return
        self.wait()

        def rebuild() -> None:
            self.version = write_site_index(ctx.kb, site_dir, prepared)["version"]

        self._thread = threading.Thread(target=rebuild, name="houserules-search-index", daemon=True)
        self._thread.start()

    def wait(self) -> None:
        """Let a background rebuild finish (before the next one, and before a test compares sites)."""
        if self._thread is not None:
            self._thread.join()
            self._thread = None


class Outputs:
    """Every post-build file of a site, kept from one build of a folder to the next."""

    def __init__(self) -> None:
        self.api = EntriesDocument()
        self.search = SearchWriter()

    def write(self, ctx: SiteContext, site_dir: Path, info: SiteInfo, changes: Changes | None = None,
              prepared: Prepared | None = None) -> None:
        api = site_dir / "api"
        api.mkdir(parents=True, exist_ok=True)
        (api / "entries.json").write_text(self.api.text(ctx.kb, changes), encoding="utf-8")
        for path, text in shard_files(ctx.kb).items():
            target = site_dir / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        self.search.write(ctx, site_dir, changes, prepared)
        (site_dir / CHANGES_FEED).write_text(changes_feed(ctx.kb, ctx.history, info.name, info.url), encoding="utf-8")
        version = ctx.version
        # Last: the offline app lists every file the site has.
        write_offline(site_dir, version.tree if version else "none", str(version or ""), info.name, info.short_name,
                      info.description, info.offline)
