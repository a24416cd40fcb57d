"""What a live preview (``houserules serve``) keeps from one build of its site folder to the next.

With it the plugin runs MkDocs' dirty build: only the pages whose Markdown differs from the
last build's are rendered again (:mod:`houserules.site.incremental`), and the post-build files
are told what changed (:mod:`houserules.site.postbuild`).
"""

from __future__ import annotations

from typing import Any

import jinja2
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File

from ..data.reading.model import KnowledgeBase
from .incremental import SiteState
from .nav import site_nav
from .postbuild import Outputs


class Preview:
    """What a live preview keeps from one build of its site folder to the next.

    The pages' data and Markdown, the navigation, the title of every page (a page that
    is not rendered again has none, and the navigation of the pages that are names it),
    the search documents of every page, the post-build writers (which keep their own
    state) and Jinja's compiled templates. Kept only once a build succeeded
    (:meth:`commit`); :meth:`reset` makes the next build a full one.
    """

    def __init__(self) -> None:
        self.bytecode = _MemoryBytecode()
        self.reset()

    def reset(self) -> None:
        self.state: SiteState | None = None
        self.nav: list[Any] | None = None
        self.titles: dict[str, str | None] = {}
        # The translators' downloads come with 'houserules build' only: making them again on every save
        # would cost the preview seconds per save at thousands of entries.
        self.outputs = Outputs(downloads=False)
        self.dirty = False
        self._pending: tuple[SiteState, list[Any], dict[str, str | None]] | None = None

    def start(self, kb: KnowledgeBase, config: MkDocsConfig) -> bool:
        """Whether the next build of ``kb`` may be a dirty one: there is a last build and the navigation is the same.

        Material renders the navigation into every page, so a new navigation rebuilds them all.
        """
        self.dirty = self.state is not None and site_nav(kb, config.nav or []) == self.nav
        self._pending = None
        return self.dirty

    def commit(self) -> None:
        """The build succeeded: what it made is the last build."""
        if self._pending is None:
            self.reset()
            return
        self.state, self.nav, self.titles = self._pending
        self._pending = None


class _MemoryBytecode(jinja2.BytecodeCache):
    """Jinja's compiled templates kept in memory between builds (compiling Material's costs 0.4 s a build)."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.key in self._code:
            bucket.bytecode_from_string(self._code[bucket.key])

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


class GeneratedPage(File):
    """A generated page that knows whether its Markdown differs from the last build's (dirty builds ask)."""

    modified = True

    def is_modified(self) -> bool:
        return self.modified


def always_modified() -> bool:
    return True
