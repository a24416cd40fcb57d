"""MkDocs hooks: load ``rules_data/`` once per build and generate the pages from it.

Declared in ``mkdocs.yml`` under ``hooks:``. The data folder comes from the
``HOUSERULES_DATA`` environment variable (set by ``houserules build --data``)
or defaults to ``rules_data`` beside ``mkdocs.yml``.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from houserules.check import run as run_check
from houserules.export import entries_json
from houserules.pages import SiteRenderer
from houserules.pdf import PRINT_PAGE, print_page
from houserules.siteindex import write_site_index
from houserules.textrender import inline_html
from houserules.translators import nav as translator_nav

DATA_ENV = "HOUSERULES_DATA"
MARKERS = {
    "<!-- houserules:games -->": lambda site, page: site.home_cards(page),
    "<!-- houserules:licences -->": lambda site, page: site.licences(page),
}
#: Material renders the whole navigation into every page: a nav item per game would make
#: the site grow as pages × games (1.6 GB at 5,000 entries in 120 games). Past this many
#: games the nav leaves the games out (BENCHMARKS.md).
NAV_GAMES = 12
_site: SiteRenderer | None = None
log = logging.getLogger("mkdocs.hooks.houserules")


def data_dir(config: MkDocsConfig) -> Path:
    configured = Path(os.environ.get(DATA_ENV) or "rules_data")
    return configured if configured.is_absolute() else Path(config.config_file_path).parent / configured


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    global _site
    report = run_check(data_dir(config))
    if report.errors:
        # Logged one by one so that `mkdocs serve` shows them on a failed rebuild too.
        for problem in report.errors:
            log.error(str(problem))
        raise PluginError(f"the data has {len(report.errors)} problems; fix them (see 'houserules check')")
    _site = SiteRenderer(report.kb)
    nav = [{"首页 Home": "index.md"}]
    if len(report.kb.games) <= NAV_GAMES:
        nav += _escaped([{f"{g.name['zh']} {g.name['en']}": f"{g.id}/index.md"} for g in report.kb.games.values()])
        nav += _escaped(translator_nav(report.kb))
    else:  # the home page lists the games; each game page links its translators' pages
        nav += _escaped([{title: items[:1]} for title, items in translator_nav(report.kb)[0].items()])
    nav += [{"打印版 Printed FAQ": PRINT_PAGE}]
    nav += [item for item in (config.nav or []) if "index.md" not in str(item)]
    config.nav = nav
    return config


def _escaped(nav: list) -> list:
    """Nav titles made from data, HTML-escaped: Material prints nav titles as HTML."""
    return [{inline_html(title): _escaped(value) if isinstance(value, list) else value
             for title, value in item.items()} if isinstance(item, dict) else item for item in nav]


def on_files(files: Files, config: MkDocsConfig) -> Files:
    assert _site is not None
    for path, markdown in _site.pages().items():
        files.append(File.generated(config, path, content=markdown))
    files.append(File.generated(config, PRINT_PAGE, content=print_page(_site.kb)))  # the PDFs come after MkDocs
    return files


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    assert _site is not None
    for marker, render in MARKERS.items():
        if marker in markdown:
            markdown = markdown.replace(marker, render(_site, page.file.url))
    return markdown


def on_post_build(config: MkDocsConfig) -> None:
    assert _site is not None
    api = Path(config.site_dir) / "api"
    api.mkdir(parents=True, exist_ok=True)
    (api / "entries.json").write_text(entries_json(_site.kb), encoding="utf-8")
    write_site_index(_site.kb, Path(config.site_dir))
