"""What the plugin keeps from one build of a live preview's site folder to the next (``houserules serve``).

MkDocs keeps a plugin object from one build to the next when it has an ``on_startup`` event
(as Material's search plugin keeps its index between the builds of ``mkdocs serve``): the
houserules plugin keeps a :class:`LivePreview` of the folder it builds, and with it runs MkDocs'
dirty build, which renders only the pages whose Markdown differs from the last build's
(:mod:`houserules.site.incremental`), and tells the post-build files what changed
(:mod:`houserules.site.postbuild`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File

from ..data.reading.model import KnowledgeBase
from ..site.incremental import SiteState
from ..site.nav import site_nav
from ..site.postbuild import Outputs
from .searchhandoff import SearchWriter


class LivePreview:
    """What a live preview keeps from one build of its site folder to the next.

    The pages' data and Markdown, the navigation, the title of every page (a page that
    is not rendered again has none, and the navigation of the pages that are names it),
    the post-build writers (which keep their own state, the search index's among them)
    and Jinja's compiled templates. The plugin keeps what a build made once it succeeded
    (:meth:`keep`); :meth:`reset` makes the next build a full one.
    """

    def __init__(self, site_dir: Path) -> None:
        self.site_dir = site_dir
        self.bytecode = _MemoryBytecode()
        self.search = SearchWriter()
        self.reset()

    def reset(self) -> None:
        self.state: SiteState | None = None
        self.nav: list[Any] | None = None
        self.titles: dict[str, str | None] = {}
        self.search.supersede()
        # The translators' downloads come with 'houserules build' only: making them again on every save
        # would cost the preview seconds per save at thousands of entries.
        self.outputs = Outputs(self.search, downloads=False)
        self.dirty = False

    def start(self, kb: KnowledgeBase, config: MkDocsConfig) -> bool:
        """Whether the next build of ``kb`` may be a dirty one: there is a last build and the navigation is the same.

        Material renders the navigation into every page, so a new navigation rebuilds them all.
        """
        self.dirty = self.state is not None and site_nav(kb, config.nav or []) == self.nav
        return self.dirty

    def keep(self, state: SiteState, nav: list[Any], titles: dict[str, str | None]) -> None:
        """What a build made (its pages, navigation and titles): the last build from now on."""
        self.state, self.nav, self.titles = state, nav, titles

    def stop(self) -> None:
        """The preview ends: its background indexing stops."""
        self.search.stop()


class _MemoryBytecode(jinja2.BytecodeCache):
    """Jinja's compiled templates kept in memory between builds (compiling Material's costs 0.4 s a build)."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.key in self._code:
            bucket.bytecode_from_string(self._code[bucket.key])

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


#: Material's templates compiled once per process for every build that is not a live preview's (tests and
#: scripts build many sites in one process). A pure memo: Jinja checks each template's source checksum.
COMPILED_TEMPLATES = _MemoryBytecode()


class GeneratedPage(File):
    """A generated page that knows whether its Markdown differs from the last build's (dirty builds ask)."""

    modified = True

    def is_modified(self) -> bool:
        return self.modified


def always_modified() -> bool:
    return True
