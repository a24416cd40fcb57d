"""The Markdown skeleton of generated pages: front matter, headings, and links relative to a page.

Fixed labels and structure are written as Markdown; everything from the data
goes in escaped (:func:`~houserules.render.text.escape_md` in Markdown lines)
or already rendered and sanitized inside raw HTML blocks.
"""

from __future__ import annotations

import json
from collections.abc import Hashable
from typing import Any

from ..data.reading.model import Entry, KnowledgeBase
from ..render.text import Linker, escape_md, inline_html
from ..render.urls import entry_url, relative_url


def front_matter(title: str, description: str = "", **extra: Any) -> str:
    """YAML front matter; the title and description escaped, since Material prints them as HTML."""
    # JSON strings are valid YAML scalars, whatever the text holds.
    lines = ["---", f"title: {json.dumps(inline_html(title), ensure_ascii=False)}"]
    if description:
        lines.append(f"description: {json.dumps(inline_html(description[:300]), ensure_ascii=False)}")
    lines += [f"{key}: {json.dumps(value, ensure_ascii=False)}" for key, value in extra.items()]
    return "\n".join(lines + ["---", ""])


def heading(level: int, names: dict[str, str], anchor: str, block: str = "") -> str:
    """A Markdown heading ``中文 · English`` with a fixed anchor (attribute lists see only our own ids).

    ``block`` marks the heading as the start of an entry block (``data-block``).

    >>> heading(2, {"zh": "说明", "en": "Details"}, "details", "body")
    '\\n## 说明 · Details { #details data-block="body" }\\n'
    """
    marker = f' data-block="{block}"' if block else ""
    return f"\n{'#' * level} {escape_md(names['zh'])} · {escape_md(names['en'])} {{ #{anchor}{marker} }}\n"


def html_block(html: str) -> str:
    """Raw HTML as a block of its own, on one line: Markdown leaves it alone (it starts with a block tag).

    Line breaks inside (a code block of an entry's text, say) become character references,
    which show the same: a blank line would end the block and hand the rest to Markdown.

    >>> html_block("<div><pre>a\\n\\n{: onclick=x}</pre></div>")
    '\\n<div><pre>a&#10;&#10;{: onclick=x}</pre></div>\\n'
    """
    return f"\n{html.replace(chr(13), '').replace(chr(10), '&#10;')}\n" if html else ""


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
