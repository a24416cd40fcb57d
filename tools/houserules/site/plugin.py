"""The MkDocs adapter: the only module that knows MkDocs and Material (with :mod:`.preview`).

Declared in ``mkdocs.yml`` as the ``houserules`` plugin (an entry point of the
package). ``houserules build`` loads and checks the data once and hands the
knowledge base to the plugin (:meth:`HouserulesPlugin.use`); run by plain
``mkdocs build``, the plugin loads the ``data_dir`` folder named in its config.
Everything it adds to the site comes from :mod:`houserules.site.pages`, a pure
function of the knowledge base, so a move to another generator touches only
this file. A live preview also hands over a :class:`~houserules.site.preview.Preview`
and the plugin runs MkDocs' dirty build of the pages that changed; ``houserules build`` hands
over the previous build of its folder (:class:`~houserules.site.reuse.PageReuse`) and MkDocs
renders only the pages whose Markdown or salt changed, the others taken from that build.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import jinja2
from mkdocs.config import config_options
from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page
from mkdocs.utils.templates import TemplateContext

from ..data.reading.model import KnowledgeBase
from ..errors import HouserulesError
from ..render.urls import page_url
from ..search.siteindex import Prepared
from . import csp
from .context import SiteContext
from .incremental import Plan, plan
from .nav import site_nav
from .pages import home_cards, licences
from .postbuild import Outputs, SiteInfo
from .preview import GeneratedPage, Preview, always_modified
from .publishing import environment_urls
from .repo import RepoLinks
from .reuse import PageReuse, site_salt
from .verbatim import VerbatimBlocks

log = logging.getLogger("mkdocs.plugins.houserules")


class HouserulesConfig(Config):
    data_dir = config_options.Type(str, default="rules_data")
    #: Keep the whole site on a phone after the first visit (a service worker); the live preview turns it off.
    offline = config_options.Type(bool, default=True)
    #: The app's name under its icon on a phone's home screen.
    short_name = config_options.Type(str, default="房规速查")


class HouserulesPlugin(BasePlugin[HouserulesConfig]):
    """Adds the generated pages, the nav, the API, search and offline files and each page's security policy."""

    def __init__(self) -> None:
        super().__init__()
        self.ctx: SiteContext | None = None
        self.plan: Plan | None = None
        self.preview: Preview | None = None
        self.reuse: PageReuse | None = None
        self._given: KnowledgeBase | None = None
        self._data_dir: Path | None = None
        self._data: Path | None = None  # the data folder of the build at hand
        #: The site's search index, built in another process while MkDocs renders the pages.
        self._search: Prepared | None = None
        self._files: Files | None = None
        self._titles: dict[str, str | None] = {}
        self._nav: list[Any] = []

    def use(
        self, kb: KnowledgeBase, data_dir: Path, preview: Preview | None = None, reuse: PageReuse | None = None
    ) -> None:
        """Build from ``kb`` (loaded and checked from ``data_dir``) instead of loading the configured folder.

        With ``preview``, a dirty build (``preview.start`` said so) updates its last build. With ``reuse``
        (a dirty build into a fresh folder), the pages the previous build of the folder made as they are
        now are taken from it.
        """
        self._given, self._data_dir, self.preview, self.reuse = kb, data_dir, preview, reuse

    @property
    def _dirty(self) -> bool:
        return self.preview is not None and self.preview.dirty

    def _load(self, data: Path) -> KnowledgeBase:
        from ..check import run as run_check

        report = run_check(data)
        if report.errors:
            for problem in report.errors:  # one by one, so a live preview shows them too
                log.error(str(problem))
            raise PluginError(f"the data has {len(report.errors)} problems; fix them (see 'houserules check')")
        return report.kb

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        data = self._data_dir or Path(config.config_file_path).parent / self.config.data_dir
        self._data = data if data.is_dir() else None
        # A full build indexes on the other core while MkDocs renders; a live preview's dirty build
        # starts indexing only once its pages are written (Outputs), so a save's page comes first.
        self._search = Prepared(data) if self._data and not self._dirty else None
        if self._dirty and self.preview:
            self.preview.outputs.search.supersede()
        kb = self._given or self._load(data)
        self.ctx = SiteContext(kb)
        version = self.ctx.version
        try:  # a fork publishes at its own address: the environment names it (houserules.site.publishing)
            urls = environment_urls()
        except HouserulesError as exc:
            raise PluginError(str(exc)) from None
        if "site_url" in urls:
            config.site_url = urls["site_url"]
        # Only the entry pages' own links use the repository: MkDocs' edit button would point generated
        # pages at files that do not exist, and Material's repository widget asks GitHub's API.
        self.ctx.repo = RepoLinks.from_config(
            urls.get("repo_url", config.repo_url),
            urls["edit_uri"] if "repo_url" in urls else config.edit_uri,
            config.docs_dir,
            Path(config.config_file_path).parent,
            config.site_url,
            str(version) if version else "",
        )
        extra: Mapping[str, Any] = config.extra or {}
        report = extra.get("report")
        self.ctx.report = str(report).strip() if report else None
        config.nav = self._nav = site_nav(kb, config.nav or [])
        config.extra["houserules_offline"] = self.config.offline  # main.html names the worker only then
        config.markdown_extensions.append(VerbatimBlocks())  # type: ignore[arg-type]
        return config

    def on_build_error(self, error: Exception) -> None:
        if self._search is not None:
            self._search.discard()
            self._search = None

    def on_files(self, files: Files, config: MkDocsConfig) -> Files:
        assert self.ctx is not None
        self.plan = plan(self.ctx, self.preview.state if self._dirty and self.preview else None)
        render = self.plan.modified
        if self.reuse is not None:
            render = self.reuse.plan(self._salt(config), self.plan.pages)
        if self._dirty:
            # The hand-written pages show the data too (the home page's game cards): always rendered again.
            for file in files.documentation_pages():
                file.is_modified = always_modified  # type: ignore[method-assign]
        for path, markdown in self.plan.pages.items():
            file = GeneratedPage.generated(config, path, content=markdown)
            assert isinstance(file, GeneratedPage)  # File.generated makes an instance of the class it is called on
            file.modified = path in self.plan.modified and path in render
            files.append(file)
        self._files = files
        return files

    def _salt(self, config: MkDocsConfig) -> str:
        """What every page is rendered from besides its Markdown (:func:`~houserules.site.reuse.site_salt`)."""
        import houserules

        assert self.ctx is not None
        settings = {
            "site_url": config.site_url,
            "repo_url": config.repo_url,
            "edit_uri": config.edit_uri,
            "offline": self.config.offline,
            "short_name": self.config.short_name,
        }
        sources = [Path(houserules.__file__).parent, Path(config.docs_dir)]
        if config.theme.custom_dir:
            sources.append(Path(config.theme.custom_dir))
        return site_salt(self._nav, Path(config.config_file_path), settings, sources)

    def on_nav(self, nav: Navigation, config: MkDocsConfig, files: Files) -> Navigation:
        if self._dirty and self.preview:
            for page in nav.pages:  # not rendered again: its title as the last build found it
                if not page.file.is_modified() and page.title is None:
                    page.title = self.preview.titles.get(page.file.src_uri)
        if self.reuse is not None:
            for page in nav.pages:  # taken from the previous build: its title as that build found it
                if not page.file.is_modified() and page.title is None:
                    page.title = self.reuse.title(page.file.src_uri)
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

    @event_priority(100)  # before Material's search plugin indexes the page
    def on_page_context(
        self, context: TemplateContext, /, *, page: Page, config: MkDocsConfig, nav: Navigation
    ) -> TemplateContext:
        # The site searches with its own index (houserules.search.siteindex); Material's stays empty,
        # so a browser loads one index and the build skips a jieba pass over every page.
        page.meta["search"] = {**(page.meta.get("search") or {}), "exclude": True}
        self._titles[page.file.src_uri] = page.title
        return context

    def on_post_page(self, output: str, page: Page, config: MkDocsConfig) -> str:
        return csp.add_policy(output)

    def on_post_template(self, output_content: str, template_name: str, config: MkDocsConfig) -> str:
        # The theme's own pages (404.html); not the sitemap.
        return csp.add_policy(output_content) if template_name.endswith(".html") else output_content

    # Last of all (Material's offline plugin writes search/search_index.js at -100): the worker lists every file.
    @event_priority(-110)
    def on_post_build(self, config: MkDocsConfig) -> None:
        assert self.ctx is not None and self.plan is not None
        site_dir = Path(config.site_dir)
        info = SiteInfo(
            config.site_name,
            config.site_url,
            config.site_description or "",
            self.config.short_name,
            self.config.offline,
        )
        if self.reuse is not None and self._files is not None:
            rendered = {
                file.src_uri: (file.dest_uri, self._titles.get(file.src_uri))
                for file in self._files
                if isinstance(file, GeneratedPage) and file.modified
            }
            self.reuse.place(site_dir, rendered)  # before the offline list, which names every file
        outputs = self.preview.outputs if self.preview else Outputs()
        outputs.write(self.ctx, site_dir, info, self.plan.changes, self._search, self._data)
        self._search = None
        if self.preview is None:
            return
        for src in self.plan.removed:
            (site_dir / page_url(src)).unlink(missing_ok=True)
        titles = {**self.preview.titles, **self._titles} if self._dirty else dict(self._titles)
        for src in self.plan.removed:
            titles.pop(src, None)
        self.preview._pending = (self.plan.state, self._nav, titles)
