"""MkDocs hook: Material's search box stays, Material's own search index goes; ours is built meanwhile.

The site search ranks with the command-line index (:mod:`houserules.siteindex`,
written by ``mkdocs_hook.on_post_build``); Material's lunr index would be a second,
disagreeing index that every browser downloads whole (23.5 MB at 5,000 entries) and
that costs the build a jieba pass over every page. Marking each page
``search: {exclude: true}`` (Material's documented per-page switch) before the
search plugin sees it leaves that index empty; the plugin still writes its
configuration, which the theme reads.

Our index is started in another process as the build starts (``siteindex.prepare``)
and picked up by ``mkdocs_hook.on_post_build`` (``siteindex.write_site_index``).
"""

from __future__ import annotations

from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority
from mkdocs.structure.pages import Page

from houserules import siteindex
from houserules.mkdocs_hook import data_dir


@event_priority(100)  # before the data is checked: the index builds while MkDocs works
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    siteindex.prepare(data_dir(config))
    return config


def on_build_error(error: Exception) -> None:
    siteindex.discard()


@event_priority(100)  # before Material's search plugin indexes the page
def on_page_context(context: dict[str, Any], page: Page, config: Any, nav: Any) -> dict[str, Any]:
    page.meta["search"] = {**(page.meta.get("search") or {}), "exclude": True}
    return context
