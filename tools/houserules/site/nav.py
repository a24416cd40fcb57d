"""The site's navigation, made from the knowledge base."""

from __future__ import annotations

from typing import Any

from ..data.reading.model import KnowledgeBase
from ..render.text import inline_html
from ..render.urls import CHANGES_PAGE
from . import translators

#: Material renders the whole navigation into every page: a nav item per game would make
#: the site grow as pages × games (1.6 GB at 5,000 entries in 120 games). Past this many
#: games the nav leaves the games out (BENCHMARKS.md).
NAV_GAMES = 12
HOME = "index.md"


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
    return [
        {inline_html(title): _escaped(value) if isinstance(value, list) else value for title, value in item.items()}
        if isinstance(item, dict)
        else item
        for item in nav
    ]
