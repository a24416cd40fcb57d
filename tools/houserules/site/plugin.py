"""The MkDocs adapter: the only module that knows MkDocs and Material.

Declared in ``mkdocs.yml`` as the ``houserules`` plugin (an entry point of the
package). ``houserules build`` loads and checks the data once and hands the
knowledge base to the plugin (:meth:`HouserulesPlugin.use`); run by plain
``mkdocs build``, the plugin loads the ``data`` folder named in its config.
Everything it adds to the site comes from :mod:`houserules.site.pages`, a pure
function of the knowledge base, so a move to another generator touches only
this file.

A live preview (``houserules serve``) also hands over a :class:`Preview`, what the
last build of its folder made, and runs MkDocs' dirty build: only the pages whose
Markdown differs from the last build's are rendered again
(:mod:`houserules.site.incremental`), and the post-build writers are told what changed.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import jinja2
from mkdocs.config import config_options
from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page

from ..data.model import KnowledgeBase
from ..render.text import inline_html
from ..render.urls import page_url
from . import csp, translators
from .context import SiteContext
from .incremental import Plan, SiteState, plan
from .pages import home_cards, licences
from .postbuild import Outputs
from .verbatim import VerbatimBlocks

log = logging.getLogger("mkdocs.plugins.houserules")
#: Material renders the whole navigation into every page: a nav item per game would make
#: the site grow as pages × games (1.6 GB at 5,000 entries in 120 games). Past this many
#: games the nav leaves the games out (BENCHMARKS.md).
NAV_GAMES = 12
HOME = "index.md"


class HouserulesConfig(Config):
    data_dir = config_options.Type(str, default="rules_data")


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
        self.search: dict[str, list[str]] = {}
        self.outputs = Outputs()
        self.dirty = False
        self._pending: tuple[SiteState, list[Any], dict[str, str | None], dict[str, list[str]]] | None = None

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
        self.state, self.nav, self.titles, self.search = self._pending
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


def _always_modified() -> bool:
    return True


class HouserulesPlugin(BasePlugin[HouserulesConfig]):
    """Adds the generated pages, the nav, the API and search files and each page's security policy."""

    def __init__(self) -> None:
        super().__init__()
        self.ctx: SiteContext | None = None
        self.plan: Plan | None = None
        self.preview: Preview | None = None
        self._given: KnowledgeBase | None = None
        self._nav: list[Any] = []
        self._files: Files | None = None
        self._titles: dict[str, str | None] = {}

    def use(self, kb: KnowledgeBase, preview: Preview | None = None) -> None:
        """Build from ``kb`` (already loaded and checked) instead of loading the data folder.

        With ``preview``, a dirty build (``preview.start`` said so) updates its last build.
        """
        self._given = kb
        self.preview = preview

    @property
    def _dirty(self) -> bool:
        return self.preview is not None and self.preview.dirty

    def _load(self, config: MkDocsConfig) -> KnowledgeBase:
        from ..check import run as run_check

        data = Path(self.config.data_dir)
        if not data.is_absolute():
            data = Path(config.config_file_path).parent / data
        report = run_check(data)
        if report.errors:
            for problem in report.errors:  # one by one, so a live preview shows them too
                log.error(str(problem))
            raise PluginError(f"the data has {len(report.errors)} problems; fix them (see 'houserules check')")
        return report.kb

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        kb = self._given or self._load(config)
        self.ctx = SiteContext(kb)
        config.nav = self._nav = site_nav(kb, config.nav or [])
        config.markdown_extensions.append(VerbatimBlocks())  # type: ignore[arg-type]
        return config

    def on_files(self, files: Files, config: MkDocsConfig) -> Files:
        assert self.ctx is not None
        self.plan = plan(self.ctx, self.preview.state if self._dirty and self.preview else None)
        if self._dirty:
            # The hand-written pages show the data too (the home page's game cards): always rendered again.
            for file in files.documentation_pages():
                file.is_modified = _always_modified  # type: ignore[method-assign]
        for path, markdown in self.plan.pages.items():
            file = GeneratedPage.generated(config, path, content=markdown)
            file.modified = path in self.plan.modified
            files.append(file)
        self._files = files
        return files

    def on_nav(self, nav: Navigation, config: MkDocsConfig, files: Files) -> Navigation:
        if self._dirty and self.preview:
            for page in nav.pages:  # not rendered again: its title as the last build found it
                if not page.file.is_modified() and page.title is None:
                    page.title = self.preview.titles.get(page.file.src_uri)
        return nav

    def on_env(self, env: jinja2.Environment, config: MkDocsConfig, files: Files) -> jinja2.Environment:
        if self.preview is not None:
            env.bytecode_cache = self.preview.bytecode
        return env

    def on_page_markdown(self, markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        assert self.ctx is not None
        markers = {"<!-- houserules:games -->": home_cards, "<!-- houserules:licences -->": licences}
        for marker, render in markers.items():
            if marker in markdown:
                markdown = markdown.replace(marker, render(self.ctx, page.file.url))
        return markdown

    def on_page_context(self, context: dict[str, Any], page: Page, config: MkDocsConfig, nav: Navigation) -> dict[str, Any]:
        self._titles[page.file.src_uri] = page.title
        return context

    def on_post_page(self, output: str, page: Page, config: MkDocsConfig) -> str:
        return csp.add_policy(output)

    @event_priority(-50)  # after Material's search index is written, before the offline plugin inlines it
    def on_post_build(self, config: MkDocsConfig) -> None:
        assert self.ctx is not None and self.plan is not None
        site_dir = Path(config.site_dir)
        outputs = self.preview.outputs if self.preview else Outputs()
        outputs.write(self.ctx.kb, site_dir, self.plan.changes)
        if self.preview is None:
            return
        for src in self.plan.removed:
            (site_dir / page_url(src)).unlink(missing_ok=True)
        titles = {**self.preview.titles, **self._titles} if self._dirty else dict(self._titles)
        for src in self.plan.removed:
            titles.pop(src, None)
        self.preview._pending = (self.plan.state, self._nav, titles, self._search_index(config))

    def _search_index(self, config: MkDocsConfig) -> dict[str, list[str]]:
        """The search documents of every page, the index made whole again after a dirty build.

        Material's search plugin indexes the pages rendered in this build only; the
        pages that were not keep their documents from the last build, in site order,
        so the index is the one a full build writes.
        """
        search = config.plugins.get("material/search")
        path = Path(config.site_dir) / "search" / "search_index.json"
        if search is None or not search.config.enabled or self._files is None or not path.is_file():
            return {}
        built: dict[str, list[str]] = {}
        for doc in search.search_index.entries:
            built.setdefault(doc["location"].partition("#")[0], []).append(_search_json(doc))
        if not self._dirty or self.preview is None:
            return built
        pages: dict[str, list[str]] = {}
        for file in self._files.documentation_pages():
            pages[file.url] = built.get(file.url, []) if file.is_modified() else self.preview.search.get(file.url, [])
        index_config = json.loads(path.read_text(encoding="utf-8"))["config"]
        docs = ",".join(doc for docs in pages.values() for doc in docs)
        path.write_text(f'{{"config":{_search_json(index_config)},"docs":[{docs}]}}', encoding="utf-8")
        return pages


def _search_json(value: Any) -> str:
    """JSON as Material's search plugin writes it."""
    return json.dumps(value, separators=(",", ":"), default=str)


def site_nav(kb: KnowledgeBase, configured: list[Any]) -> list[Any]:
    """Home, the games (while few), the translators' pages, the printed FAQ, then the configured pages."""
    nav: list[Any] = [{"首页 Home": HOME}]
    if len(kb.games) <= NAV_GAMES:
        nav += _escaped([{f"{g.name['zh']} {g.name['en']}": f"{g.id}/index.md"} for g in kb.games.values()])
        nav += _escaped(translators.nav(kb))
    else:  # the home page lists the games; each game page links its translators' pages
        nav += _escaped([{title: items[:1]} for title, items in translators.nav(kb)[0].items()])
    nav += [{"打印版 Printed FAQ": "print/index.md"}]
    return nav + [item for item in configured if item != HOME]


def _escaped(nav: list[Any]) -> list[Any]:
    """Nav titles made from data, HTML-escaped: Material prints nav titles as HTML."""
    return [{inline_html(title): _escaped(value) if isinstance(value, list) else value
             for title, value in item.items()} if isinstance(item, dict) else item for item in nav]
