"""The MkDocs adapter: the only module that knows MkDocs and Material.

Declared in ``mkdocs.yml`` as the ``houserules`` plugin (an entry point of the
package). ``houserules build`` loads and checks the data once and hands the
knowledge base to the plugin (:meth:`HouserulesPlugin.use`); run by plain
``mkdocs build``, the plugin loads the ``data`` folder named in its config.
Everything it adds to the site comes from :mod:`houserules.site.pages`, a pure
function of the knowledge base, so a move to another generator touches only
this file.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from mkdocs.config import config_options
from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from ..data.model import KnowledgeBase
from ..render.text import inline_html
from ..render.urls import CHANGES_FEED, CHANGES_PAGE
from ..search.site import Prepared
from . import csp, translators
from .changes import changes_feed
from .context import SiteContext
from .offline import write_offline
from .pages import home_cards, licences, site_pages
from .postbuild import write_outputs
from .repo import RepoLinks

log = logging.getLogger("mkdocs.plugins.houserules")
#: Material renders the whole navigation into every page: a nav item per game would make
#: the site grow as pages × games (1.6 GB at 5,000 entries in 120 games). Past this many
#: games the nav leaves the games out (BENCHMARKS.md).
NAV_GAMES = 12
HOME = "index.md"


class HouserulesConfig(Config):
    data_dir = config_options.Type(str, default="rules_data")
    #: Keep the whole site on a phone after the first visit (a service worker); the live preview turns it off.
    offline = config_options.Type(bool, default=True)
    #: The app's name under its icon on a phone's home screen.
    short_name = config_options.Type(str, default="房规速查")


class HouserulesPlugin(BasePlugin[HouserulesConfig]):
    """Adds the generated pages, the nav, the API and search files and each page's security policy."""

    def __init__(self) -> None:
        super().__init__()
        self.ctx: SiteContext | None = None
        self._given: KnowledgeBase | None = None
        self._data_dir: Path | None = None
        #: The site's search index, built in another process while MkDocs renders the pages.
        self._search: Prepared | None = None

    def use(self, kb: KnowledgeBase, data_dir: Path) -> None:
        """Build from ``kb`` (loaded and checked from ``data_dir``) instead of loading the configured folder."""
        self._given, self._data_dir = kb, data_dir

    def _configured_data(self, config: MkDocsConfig) -> Path:
        data = Path(self.config.data_dir)
        return data if data.is_absolute() else Path(config.config_file_path).parent / data

    def _load(self, data: Path) -> KnowledgeBase:
        from ..check import run as run_check

        report = run_check(data)
        if report.errors:
            for problem in report.errors:  # one by one, so a live preview shows them too
                log.error(str(problem))
            raise PluginError(f"the data has {len(report.errors)} problems; fix them (see 'houserules check')")
        return report.kb

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        data = self._data_dir or self._configured_data(config)
        self._search = Prepared(data) if data.is_dir() else None
        kb = self._given or self._load(data)
        self.ctx = SiteContext(kb)
        version = self.ctx.version
        self.ctx.repo = RepoLinks.from_config(config.repo_url, config.edit_uri, config.docs_dir,
                                              Path(config.config_file_path).parent, config.site_url,
                                              str(version) if version else "")
        config.nav = site_nav(kb, config.nav or [])
        config.extra["houserules_offline"] = self.config.offline  # main.html names the worker only then
        return config

    def on_build_error(self, error: Exception) -> None:
        if self._search is not None:
            self._search.discard()
            self._search = None

    @event_priority(100)  # before Material's search plugin indexes the page
    def on_page_context(self, context: dict[str, Any], page: Page, config: MkDocsConfig, nav: Any) -> dict[str, Any]:
        # The site searches with its own index (houserules.search.site); Material's stays empty,
        # so a browser loads one index and the build skips a jieba pass over every page.
        page.meta["search"] = {**(page.meta.get("search") or {}), "exclude": True}
        return context

    def on_files(self, files: Files, config: MkDocsConfig) -> Files:
        assert self.ctx is not None
        for path, markdown in site_pages(self.ctx).items():
            files.append(File.generated(config, path, content=markdown))
        return files

    def on_page_markdown(self, markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        assert self.ctx is not None
        markers = {"<!-- houserules:games -->": home_cards, "<!-- houserules:licences -->": licences}
        for marker, render in markers.items():
            if marker in markdown:
                markdown = markdown.replace(marker, render(self.ctx, page.file.url))
        return markdown

    def on_post_page(self, output: str, page: Page, config: MkDocsConfig) -> str:
        return csp.add_policy(output)

    def on_post_template(self, output_content: str, template_name: str, config: MkDocsConfig) -> str:
        # The theme's own pages (404.html); not the sitemap.
        return csp.add_policy(output_content) if template_name.endswith(".html") else output_content

    # Last of all (Material's offline plugin writes search/search_index.js at -100): the worker lists every file.
    @event_priority(-110)
    def on_post_build(self, config: MkDocsConfig) -> None:
        assert self.ctx is not None
        site = Path(config.site_dir)
        write_outputs(self.ctx.kb, site, self._search)
        self._search = None
        feed = changes_feed(self.ctx.kb, self.ctx.history, config.site_name, config.site_url)
        (site / CHANGES_FEED).write_text(feed, encoding="utf-8")
        version = self.ctx.version
        write_offline(site, version.tree if version else "none", str(version or ""), config.site_name,
                      self.config.short_name, config.site_description or "", self.config.offline)


def site_nav(kb: KnowledgeBase, configured: list[Any]) -> list[Any]:
    """Home, the games (while few), the translators' pages, the printed FAQ, then the configured pages."""
    nav: list[Any] = [{"首页 Home": HOME}]
    if len(kb.games) <= NAV_GAMES:
        nav += _escaped([{f"{g.name['zh']} {g.name['en']}": f"{g.id}/index.md"} for g in kb.games.values()])
        nav += _escaped(translators.nav(kb))
    else:  # the home page lists the games; each game page links its translators' pages
        nav += _escaped([{title: items[:1]} for title, items in translators.nav(kb)[0].items()])
    nav += [{"打印版 Printed FAQ": "print/index.md"}, {"更新记录 What changed": CHANGES_PAGE}]
    return nav + [item for item in configured if item != HOME]


def _escaped(nav: list[Any]) -> list[Any]:
    """Nav titles made from data, HTML-escaped: Material prints nav titles as HTML."""
    return [{inline_html(title): _escaped(value) if isinstance(value, list) else value
             for title, value in item.items()} if isinstance(item, dict) else item for item in nav]
