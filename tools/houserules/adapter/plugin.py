"""The houserules plugin of MkDocs: the generated pages, their navigation and the files beside them.

Declared in ``mkdocs.yml`` as the ``houserules`` plugin (an entry point of the
package). ``houserules build`` loads and checks the data once and hands the
knowledge base to the plugin (:meth:`HouserulesPlugin.use`); run by plain
``mkdocs build``, the plugin loads the ``data_dir`` folder named in its config.
Everything it adds to the site comes from :mod:`houserules.site.pages`, a pure
function of the knowledge base. MkDocs keeps the plugin object from one build to the
next (it has an ``on_startup`` event, as Material's search plugin does); for a live
preview it keeps a :class:`~houserules.adapter.livepreview.LivePreview` and runs
MkDocs' dirty build of the pages that changed (:meth:`HouserulesPlugin.live`).
``houserules build`` hands over the previous build of its folder
(:class:`~houserules.site.reuse.PageReuse`): MkDocs renders only the pages whose Markdown or salt changed, the
others are taken from that build.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Literal

import jinja2
from mkdocs.config import config_options
from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page
from mkdocs.utils.templates import TemplateContext

from ..data.reading.model import KnowledgeBase
from ..errors import HouserulesError
from ..render.urls import page_url
from ..site.context import SiteContext
from ..site.incremental import Plan, plan
from ..site.nav import site_nav
from ..site.pages import home_cards, licences
from ..site.postbuild import Outputs, SiteInfo
from ..site.publishing import environment_urls
from ..site.repo import RepoLinks
from ..site.reuse import PageReuse, site_salt
from ..site.verbatim import VerbatimBlocks
from . import csp
from .livepreview import COMPILED_TEMPLATES, GeneratedPage, LivePreview, always_modified
from .liveserver import serve_with_policy
from .searchhandoff import SearchWriter

log = logging.getLogger("mkdocs.plugins.houserules")

#: The theme overrides that come with the package (the search box and its worker, the app's manifest and icons,
#: the styles): every site uses them, after its own ``custom_dir`` if it has one. In a checkout this is a link to
#: ``site_overrides/``; an installed package holds a copy, so a knowledge base made by ``houserules init`` needs no
#: copy of its own, and a new version of the package brings its theme along.
THEME_DIR = Path(__file__).resolve().parents[1] / "theme"


def with_package_theme(config: MkDocsConfig) -> bool:
    """Add the package's theme overrides to the site's theme (after its ``custom_dir``), unless they are its
    ``custom_dir`` already (this checkout's mkdocs.yml); whether they were added."""
    theme = config.theme
    own = THEME_DIR.resolve()
    if any(Path(folder).resolve() == own for folder in theme.dirs):
        return False
    theme.dirs.insert(1 if theme.custom_dir else 0, str(own))
    return True


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
        #: What a live preview keeps between the builds of its site folder (None: no preview).
        self.preview: LivePreview | None = None
        #: The previous build of the coming build's folder, to take unchanged pages from (``houserules build``).
        self.reuse: PageReuse | None = None
        #: What use() and live() asked of the coming build: the knowledge base, its data folder, whether live.
        self._request: tuple[KnowledgeBase, Path, bool] | None = None
        self._begin(None, None, False)

    def _begin(self, kb: KnowledgeBase | None, data_dir: Path | None, live: bool) -> None:
        """What one build knows: MkDocs keeps this object from build to build, so each starts here."""
        self._given, self._data_dir = kb, data_dir
        self._live = live  # whether this build is the live preview's
        self.ctx: SiteContext | None = None
        self.plan: Plan | None = None
        self._search: SearchWriter | None = None
        self._outputs: Outputs | None = None
        self._files: list[GeneratedPage] = []
        self._data: Path | None = None  # the data folder of the build at hand
        self._theme_added = False  # whether the package's theme was added to the site's (with_package_theme)
        self._titles: dict[str, str | None] = {}
        self._nav: list[Any] = []

    # -- before a build --------------------------------------------------------------------------------------------

    def use(self, kb: KnowledgeBase, data_dir: Path, reuse: PageReuse | None = None) -> None:
        """Build from ``kb`` (loaded and checked from ``data_dir``) instead of loading the configured folder.

        It holds for the coming build only: the one after loads the configured folder again, unless told so.
        With ``reuse`` (a dirty build into a fresh folder), the pages the previous build of the folder made
        as they are now are taken from it.
        """
        self._request = (kb, data_dir, False)
        self.reuse = reuse

    def live(self, config: MkDocsConfig, *, fresh: bool = False) -> bool:
        """Make the coming build (of the knowledge base given to :meth:`use`) the live preview's; whether it may
        be a dirty one (then pass ``dirty=True`` to MkDocs' build).

        The plugin keeps a :class:`LivePreview` of the site folder: a build into another folder, or
        ``fresh`` (the hand-written pages, the theme or ``mkdocs.yml`` changed), starts from a full one.
        """
        assert self._request is not None, "use() names the knowledge base of a live build"
        kb, data_dir, _ = self._request
        site_dir = Path(config.site_dir)
        if self.preview is None or self.preview.site_dir != site_dir:
            self.stop_preview()
            self.preview = LivePreview(site_dir)
        elif fresh:
            self.preview.reset()
        self._request = (kb, data_dir, True)
        return self.preview.start(kb, config)

    def stop_preview(self) -> None:
        """Forget the live preview (its background indexing stops)."""
        if self.preview is not None:
            self.preview.stop()
            self.preview = None

    @property
    def _active(self) -> LivePreview | None:
        """The live preview this build belongs to, if any."""
        return self.preview if self._live else None

    @property
    def _dirty(self) -> bool:
        return self._active is not None and self._active.dirty

    # -- MkDocs' events --------------------------------------------------------------------------------------------

    def on_startup(self, *, command: Literal["build", "gh-deploy", "serve"], dirty: bool) -> None:
        # Having this event, the plugin is kept from one build to the next (see livepreview); a new command
        # starts without a preview.
        self.stop_preview()

    def on_shutdown(self) -> None:
        self.stop_preview()

    def on_serve(
        self, server: LiveReloadServer, /, *, config: MkDocsConfig, builder: Callable[..., Any]
    ) -> LiveReloadServer:
        # Plain 'mkdocs serve': the data folder is watched too, and the reload script MkDocs adds to
        # each page it serves is allowed by the page's policy.
        if self._data is not None:
            server.watch(str(self._data))
        return serve_with_policy(server)

    def _load(self, data: Path) -> KnowledgeBase:
        from ..check import run as run_check

        report = run_check(data)
        if report.errors:
            for problem in report.errors:  # one by one, so a live preview shows them too
                log.error(str(problem))
            raise PluginError(f"the data has {len(report.errors)} problems; fix them (see 'houserules check')")
        return report.kb

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        self._begin(*(self._request or (None, None, False)))
        self._request = None
        self._theme_added = with_package_theme(config)
        data = self._data_dir or Path(config.config_file_path).parent / self.config.data_dir
        self._data = data if data.is_dir() else None
        kb = self._given or self._load(data)
        preview = self._active
        search = self._search = preview.search if preview else SearchWriter()
        self._outputs = preview.outputs if preview else Outputs(search)
        # A full build indexes on the other core while MkDocs renders; a live preview's dirty build
        # starts indexing only once its pages are written, so a save's page comes first.
        if self._dirty:
            search.supersede()
        else:
            search.prepare(kb)
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
        self.ctx.site_url = config.site_url or None
        config.nav = self._nav = site_nav(kb, config.nav or [])
        config.extra["houserules_offline"] = self.config.offline  # main.html names the worker only then
        config.markdown_extensions.append(VerbatimBlocks())  # type: ignore[arg-type]
        return config

    def on_build_error(self, error: Exception) -> None:
        self.reuse = None
        if self._search is not None:
            self._search.discard()
        if self._active is not None:
            self._active.reset()  # what this build made is not known: the next one is a full one

    def on_files(self, files: Files, config: MkDocsConfig) -> Files:
        assert self.ctx is not None
        preview = self._active
        self.plan = plan(self.ctx, preview.state if preview and self._dirty else None)
        render = self.plan.modified
        if self.reuse is not None and not self._live:
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
            self._files.append(file)
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
        if self._theme_added:
            sources.append(THEME_DIR)
        return site_salt(self._nav, Path(config.config_file_path), settings, sources)

    def on_nav(self, nav: Navigation, config: MkDocsConfig, files: Files) -> Navigation:
        preview = self._active
        if preview is not None and self._dirty:
            for page in nav.pages:  # not rendered again: its title as the last build found it
                if not page.file.is_modified() and page.title is None:
                    page.title = preview.titles.get(page.file.src_uri)
        if self.reuse is not None and not self._live:
            for page in nav.pages:  # taken from the previous build: its title as that build found it
                if not page.file.is_modified() and page.title is None:
                    page.title = self.reuse.title(page.file.src_uri)
        return nav

    def on_env(self, env: jinja2.Environment, config: MkDocsConfig, files: Files) -> jinja2.Environment:
        env.bytecode_cache = self._active.bytecode if self._active is not None else COMPILED_TEMPLATES
        return env

    def on_page_markdown(self, markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        assert self.ctx is not None
        # The site searches with its own index (houserules.adapter.searchhandoff); Material's stays empty,
        # so a browser loads one index and the build skips a jieba pass over every page. Set here, before
        # any plugin's page context, where Material's search reads it.
        page.meta["search"] = {**(page.meta.get("search") or {}), "exclude": True}
        markers = {"<!-- houserules:games -->": home_cards, "<!-- houserules:licences -->": licences}
        for marker, render in markers.items():
            if marker in markdown:
                markdown = markdown.replace(marker, render(self.ctx, page.file.url))
        return markdown

    def on_page_context(
        self, context: TemplateContext, /, *, page: Page, config: MkDocsConfig, nav: Navigation
    ) -> TemplateContext:
        self._titles[page.file.src_uri] = page.title
        return context

    def on_post_page(self, output: str, page: Page, config: MkDocsConfig) -> str:
        return csp.add_policy(output)

    def on_post_template(self, output_content: str, template_name: str, config: MkDocsConfig) -> str:
        # The theme's own pages (404.html); not the sitemap.
        return csp.add_policy(output_content) if template_name.endswith(".html") else output_content

    # Last of all: after Material's search plugin wrote its index (at 0) and its offline plugin the index's
    # copy (at -100), so the hand-off rewrites both and the offline app lists every file.
    @event_priority(-110)
    def on_post_build(self, config: MkDocsConfig) -> None:
        assert self.ctx is not None and self.plan is not None and self._outputs is not None
        site_dir = Path(config.site_dir)
        info = SiteInfo(
            config.site_name,
            config.site_url,
            config.site_description or "",
            self.config.short_name,
            self.config.offline,
        )
        if self.reuse is not None and not self._live:
            rendered = {
                file.src_uri: (file.dest_uri, self._titles.get(file.src_uri)) for file in self._files if file.modified
            }
            self.reuse.place(site_dir, rendered)  # before the offline list, which names every file
            self.reuse = None
        self._outputs.write(self.ctx, site_dir, info, self.plan.changes)
        preview = self._active
        if preview is None:
            return
        for src in self.plan.removed:
            (site_dir / page_url(src)).unlink(missing_ok=True)
        titles = {**preview.titles, **self._titles} if self._dirty else dict(self._titles)
        for src in self.plan.removed:
            titles.pop(src, None)
        # Kept now; a strict build that aborts after this event calls on_build_error, which resets it.
        preview.keep(self.plan.state, self._nav, titles)
