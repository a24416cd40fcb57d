"""The site search's hand-off with Material: Material's index in, ours out.

Material's search plugin writes its own index (``search/search_index.json``; its offline
plugin a copy as ``search_index.js``) and hands its configuration to the search worker.
The site searches with the command line's index instead (:mod:`houserules.search.siteindex`,
under ``search/hr/``): Material's index is written again without documents (the plugin
excludes every page from it), with a pointer to ours in its configuration
(:mod:`houserules.adapter.protocol`), so a browser loads one index.

The index is made from the knowledge base the build already holds: a full build forks a
copy of the process as the build starts, which indexes while MkDocs renders the pages
(:class:`~houserules.search.siteindex.Prepared`); a live preview forks once a save's pages
are written and moves the index in when it is ready (:class:`SearchWriter`).
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..data.reading.model import KnowledgeBase
from ..data.versions.savediff import Changes
from ..search.siteindex import Prepared, build_index
from ..site.context import SiteContext
from .protocol import CONFIG_KEY, MATERIAL_INDEX, SITE_FOLDER


def write_site_index(
    kb: KnowledgeBase, site_dir: Path, prepared: Prepared | None = None, report: dict[str, str] | None = None
) -> dict[str, Any]:
    """Index ``kb`` as the command line does, write the index into ``site_dir`` and point Material's index at it.

    When ``prepared`` (indexing the same ``kb`` in a forked process) succeeded, its result is
    moved into place; otherwise the index is built here. Returns the head (sizes and version).
    """
    target = Path(site_dir) / SITE_FOLDER
    head = prepared.take(target) if prepared is not None else None
    if head is None:
        head = build_index(kb, target)
    point_material_index(Path(site_dir), head["version"], report)
    return head


def point_material_index(site_dir: Path, version: str, report: dict[str, str] | None = None) -> None:
    """Material's index without documents, with a pointer to ours; its offline copy (``search_index.js``,
    written by Material's offline plugin) says the same. ``report`` (:func:`search_report`) tells the
    worker where a reader reports a question no ruling answers."""
    path = site_dir / MATERIAL_INDEX
    try:
        config = json.loads(path.read_text(encoding="utf-8")).get("config", {})
    except (OSError, ValueError):
        config = {}
    config[CONFIG_KEY] = {"version": version, "path": SITE_FOLDER, **({"report": report} if report else {})}
    text = json.dumps({"config": config, "docs": []}, ensure_ascii=False, separators=(",", ":"))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    offline = path.with_suffix(".js")
    if offline.exists():
        offline.write_text(f"var __index = {text}", encoding="utf-8")


@dataclass
class _Rebuild:
    """One background rebuild of the site's search index: its forked indexing and the thread waiting for it."""

    prepared: Prepared
    thread: threading.Thread | None = None
    superseded: bool = False


class SearchWriter:
    """The site's search index: whole in a full build; after a change, rebuilt in the background.

    A full build starts indexing as it starts (:meth:`prepare`) and takes the result at the end.
    After a change the indexing starts once the pages are written, and a thread waits for it
    and moves the result into the site. A save that comes while an earlier rebuild is still
    indexing never waits for it: the earlier process is stopped and its result dropped, since
    the new one indexes the newer data. The lock keeps a move into the site and the dropping
    of that rebuild apart.
    """

    def __init__(self) -> None:
        self.version = ""
        self.report: dict[str, str] | None = None
        self._lock = threading.Lock()
        self._prepared: Prepared | None = None
        self._current: _Rebuild | None = None

    def prepare(self, kb: KnowledgeBase) -> None:
        """Start indexing ``kb`` now, beside MkDocs (a full build); :meth:`write` takes the result."""
        self.supersede()
        self.discard()
        self._prepared = Prepared(kb)

    def discard(self) -> None:
        """Drop the indexing :meth:`prepare` started (the build failed)."""
        if self._prepared is not None:
            self._prepared.discard()
            self._prepared = None

    def write(self, ctx: SiteContext, site_dir: Path, changes: Changes | None) -> None:
        """Write the index (``changes`` None: a full build) or start its rebuild after a change."""
        prepared, self._prepared = self._prepared, None
        self.report = search_report(ctx)
        if changes is None:
            self.supersede()
            self.version = write_site_index(ctx.kb, site_dir, prepared, self.report)["version"]
            return
        point_material_index(
            site_dir, self.version, self.report
        )  # Material wrote its (empty) index again: point it at ours
        if changes.empty:
            if prepared is not None:
                prepared.discard()
            return
        self.supersede()
        prepared = prepared or Prepared(ctx.kb)
        if not prepared.forked:  # no fork on this system: index here
            self.version = write_site_index(ctx.kb, site_dir, prepared, self.report)["version"]
            return
        rebuild = self._current = _Rebuild(prepared)
        rebuild.thread = threading.Thread(
            target=self._finish, args=(rebuild, ctx, site_dir), name="houserules-search-index", daemon=True
        )
        rebuild.thread.start()

    def _finish(self, rebuild: _Rebuild, ctx: SiteContext, site_dir: Path) -> None:
        rebuild.prepared.finished()  # waits for the process, outside the lock
        with self._lock:
            if rebuild.superseded:  # newer data: its own rebuild follows
                rebuild.prepared.discard()
                return
            # moved into place, or (the process failed) indexed here, with its messages
            self.version = write_site_index(ctx.kb, site_dir, rebuild.prepared, self.report)["version"]

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

    def stop(self) -> None:
        """Stop any indexing (the preview ends)."""
        self.supersede()
        self.discard()


def search_report(ctx: SiteContext) -> dict[str, str] | None:
    """Where the site's search tells a reader to report a question no ruling answers: a new issue of the
    repository (``url``, :func:`~houserules.site.repo.missing_ruling_url`), else the ``extra.report`` channel
    of ``mkdocs.yml`` (``channel``: an address or a sentence), else None (the search says nothing more)."""
    from ..site.repo import QUERY_MARK, missing_ruling_url

    url = missing_ruling_url(ctx.repo) if ctx.repo else None
    if url:
        return {"url": url, "mark": QUERY_MARK}
    return {"channel": ctx.report} if ctx.report else None
