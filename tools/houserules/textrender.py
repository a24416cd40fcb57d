"""Data text to safe HTML: the one place where entry text becomes markup.

Entry text is Markdown written by contributors and is never trusted as HTML:
raw HTML is shown as text, ``[[game:id]]`` becomes a link to the entry, and
the result passes an allow-list sanitizer (nh3) that drops every attribute,
tag and URL scheme not listed here. The site, the PDF and the JSON export all
call :func:`markdown_html`, so they agree on what a text means.
"""

from __future__ import annotations

import html
import posixpath
import re
from functools import lru_cache
from typing import Callable

import markdown
import nh3

from .model import INLINE_REF

ALLOWED_TAGS = {
    "p", "br", "em", "strong", "code", "pre", "blockquote", "ul", "ol", "li", "a", "hr",
    "table", "thead", "tbody", "tr", "th", "td", "h3", "h4", "h5", "h6", "del", "sup", "sub", "span",
}
ALLOWED_ATTRIBUTES = {"a": {"href", "title", "class"}, "th": {"align"}, "td": {"align"}, "span": {"class"}}
URL_SCHEMES = {"http", "https", "mailto"}

#: Resolves a reference to (link text, URL relative to the page) or None if unknown.
Resolver = Callable[[str], "tuple[str, str] | None"]

#: Control characters and bidirectional overrides: invisible in a page or a PDF, but they can
#: garble or reorder what a reader sees. YAML escapes ("\e", "\u202e") can put them in data.
_INVISIBLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")

_MD_SPECIAL = re.compile(r"[\\`*_{}\[\]<>()#+!|~^&\"']")


def _markdown() -> markdown.Markdown:
    md = markdown.Markdown(extensions=["tables", "sane_lists"], output_format="html")
    # Raw HTML in data is text, never markup.
    md.preprocessors.deregister("html_block")
    md.inlinePatterns.deregister("html")
    return md


_MD = _markdown()


def escape_md(text: str) -> str:
    """Text that Markdown (with attr_list, admonitions...) shows exactly as written.

    >>> escape_md("a *b* {: onclick=x} <i>")
    'a &#42;b&#42; &#123;: onclick=x&#125; &#60;i&#62;'
    """
    return _MD_SPECIAL.sub(lambda m: f"&#{ord(m.group(0))};", text)


def clean(html_text: str) -> str:
    """Sanitize HTML with the project's allow-list."""
    return nh3.clean(html_text, tags=ALLOWED_TAGS, attributes=ALLOWED_ATTRIBUTES,
                     url_schemes=URL_SCHEMES, link_rel=None)


#: One line with no Markdown syntax at all: its HTML is a paragraph of the escaped text.
_PLAIN = re.compile(r"(?=.)(?![-+*>#=]|\d+[.)]|\s)[^\x00-\x1f\x7f-\x9f\u2028\u2029*_`\[\]<>#|\\!&~=:]*(?<!\s)")


def markdown_html(text: str, resolve: Resolver) -> str:
    """Render data Markdown to sanitized HTML, turning ``[[game:id]]`` into links.

    >>> markdown_html("see [[g:a]] <b>", lambda ref: ("A", "a.html"))
    '<p>see <a href="a.html" class="hr-ref">A</a> &lt;b&gt;</p>'
    """
    text = _INVISIBLE.sub("", text)
    if _PLAIN.fullmatch(text):
        # Most one-line answers: the same result as the full path, without it (a large site
        # renders tens of thousands of them; tests/test_hardening.py compares the two).
        return f"<p>{html.escape(text, quote=False)}</p>"

    def link(match: re.Match[str]) -> str:
        ref = match.group(1).strip()
        target = resolve(ref)
        if target is None:
            return escape_md(match.group(0))
        label, url = target
        return f"[{escape_md(label)}]({url}){{hr-ref}}"

    source = INLINE_REF.sub(link, text)
    _MD.reset()
    rendered = _MD.convert(source)
    # Mark reference links with a class after sanitizing the rest (attr_list is off).
    rendered = re.sub(r'(<a href="[^"]*")>(.*?)</a>\{hr-ref\}', r'\1 class="hr-ref">\2</a>', rendered)
    return clean(rendered)


def inline_html(text: str) -> str:
    """Plain text for an HTML context (titles, aliases, codes)."""
    return html.escape(_INVISIBLE.sub("", text), quote=True)


@lru_cache(maxsize=65536)
def relative_url(target: str, page: str) -> str:
    """A site path made relative to the page that links to it.

    >>> relative_url("mausritter/saves.html", "betrayal/vault.html")
    '../mausritter/saves.html'
    """
    base = posixpath.dirname(page) or "."
    return posixpath.relpath(target, base)
