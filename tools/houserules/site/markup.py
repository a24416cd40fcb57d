"""What generated pages need besides their templates: front matter and links relative to a page.

The pages themselves are templates (``render/templates/site/``, the entry's in
``render/templates/``): fixed labels and structure written as Markdown, everything
from the data escaped (``md_text``, :func:`~houserules.render.text.escape_md`, in
Markdown lines) or inside raw HTML blocks (the ``html_block`` filter), where the
templates escape every value.
"""

from __future__ import annotations

import json
from collections.abc import Hashable
from typing import Any

from ..data.reading.model import Entry, KnowledgeBase
from ..render.text import Linker, inline_html
from ..render.urls import entry_url, relative_url


def front_matter(title: str, description: str = "", **extra: Any) -> str:
    """YAML front matter; the title and description escaped, since Material prints them as HTML."""
    # JSON strings are valid YAML scalars, whatever the text holds.
    lines = ["---", f"title: {json.dumps(inline_html(title), ensure_ascii=False)}"]
    if description:
        lines.append(f"description: {json.dumps(inline_html(description[:300]), ensure_ascii=False)}")
    lines += [f"{key}: {json.dumps(value, ensure_ascii=False)}" for key, value in extra.items()]
    return "\n".join(lines + ["---", ""])


class SiteLinker(Linker):
    """References as links relative to one page of the site."""

    def __init__(self, kb: KnowledgeBase, page: str):
        super().__init__(kb)
        self.page = page
        self._folder = page.rpartition("/")[0]

    @property
    def key(self) -> Hashable:
        # Relative links depend on the page only through its folder.
        return ("site", self._folder)

    def href(self, target: Entry) -> str:
        return relative_url(entry_url(target), self.page)

    def url(self, path: str) -> str:
        """Any site path relative to this page."""
        return relative_url(path, self.page)
