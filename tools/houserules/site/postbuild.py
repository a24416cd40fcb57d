"""Files the site carries beside its pages, written after MkDocs: the JSON API, the scripts of the links
by code, the site's search index, the changes feed and the offline app's file list.

A live preview keeps its :class:`Outputs` between builds (:class:`houserules.adapter.livepreview.LivePreview`)
and tells them what changed in the data (:class:`houserules.data.versions.savediff.Changes`); ``None`` means a
full build, and then every file is written whole. The API redoes only the records a change shows; the
search files are the adapter's (:class:`houserules.adapter.searchhandoff.SearchWriter`: after a change the
index is rebuilt in the background, so a saved entry's page is on disk first); the small files are written
whole each time.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Protocol

from ..data.versions.savediff import Changes
from ..export.api import EntriesDocument
from ..render.urls import CHANGES_FEED, DATA_VERSION_SCRIPT
from ..text.chinese import to_traditional
from .changelog import changes_feed
from .context import SiteContext
from .golinks import shard_files
from .hantpages import TABLE_SCRIPT, write_table
from .offline import write_offline


@dataclass(frozen=True)
class SiteInfo:
    """What the post-build files need from the site's configuration."""

    name: str
    url: str | None
    description: str
    short_name: str
    offline: bool


class SearchFiles(Protocol):
    """The site's search files, written after the pages (the adapter's, which knows where the theme looks)."""

    def write(self, ctx: SiteContext, site_dir: Path, changes: Changes | None) -> None: ...


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


def version_script(version: str) -> str:
    """``version.js``: the build's data version, for the citation a report copies (:mod:`houserules.site.report`).

    >>> print(version_script("2026-12-02 · fb591ce2"), end="")
    window.houserulesDataVersion = "2026-12-02 \\u00b7 fb591ce2";
    """
    return f"window.houserulesDataVersion = {json.dumps(version)};\n"


class Outputs:
    """Every post-build file of a site, kept from one build of a folder to the next."""

    def __init__(self, search: SearchFiles, downloads: bool = True) -> None:
        self.api = EntriesDocument()
        self.search = search
        #: Whether to write the translators' downloads (a full build does; the live preview does not).
        self.downloads = downloads

    def write(
        self,
        ctx: SiteContext,
        site_dir: Path,
        info: SiteInfo,
        changes: Changes | None = None,
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
        self.search.write(ctx, site_dir, changes)
        (site_dir / CHANGES_FEED).write_text(changes_feed(ctx.kb, ctx.history, info.name, info.url), encoding="utf-8")
        version = ctx.version
        (site_dir / DATA_VERSION_SCRIPT).write_text(version_script(str(version or "")), encoding="utf-8")
        # Every page written: the table reads them all (seconds), so a preview writes it on its first build only,
        # as it leaves out the downloads; a page an edit changes converts by its characters until the next build.
        if self.downloads or not (site_dir / TABLE_SCRIPT).exists():
            write_table(site_dir, partial(to_traditional, terms=ctx.kb.traditional_terms()))
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
