"""Data text to safe HTML: the one place where entry text becomes markup.

Entry text is Markdown written by contributors and is never trusted as HTML:
raw HTML is shown as text, ``[[game:id]]`` becomes the link the output needs
(:class:`Linker`), links and images follow the link policy of
:mod:`houserules.textpolicy`, and the result passes an allow-list sanitizer
(nh3). Plain-text fields (titles, aliases, codes, names) are escaped with
:func:`inline_html` in HTML and with :func:`escape_md` where they stand in
Markdown, so neither Markdown nor attribute lists ever see them as syntax.
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as etree
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

import markdown
import nh3
from markdown.extensions import Extension
from markdown.inlinepatterns import InlineProcessor
from markdown.treeprocessors import Treeprocessor
from markdown.util import AtomicString

from ..data.reading.model import INLINE_REF
from ..data.reading.textpolicy import allowed_link, markdown_shape_problem

if TYPE_CHECKING:
    from ..data.reading.model import Entry, KnowledgeBase

ALLOWED_TAGS = {
    "p",
    "br",
    "em",
    "strong",
    "code",
    "pre",
    "blockquote",
    "ul",
    "ol",
    "li",
    "a",
    "hr",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "h3",
    "h4",
    "h5",
    "h6",
    "del",
    "sup",
    "sub",
    "span",
}
ALLOWED_ATTRIBUTES = {"a": {"href", "title", "class"}, "th": {"align"}, "td": {"align"}, "span": {"class"}}
URL_SCHEMES = {"http", "https", "mailto"}
REF_CLASS = "hr-ref"

#: Control characters and bidirectional overrides: invisible in a page or a PDF, but they can
#: garble or reorder what a reader sees. YAML escapes ("\e", "\u202e") can put them in data.
INVISIBLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_MD_SPECIAL = re.compile(r"[\\`*_{}\[\]<>()#+!|~^&\"'=.-]")


class Linker:
    """What ``[[game:id]]`` becomes in one output: a link to the target, labelled with its title.

    The site links relative to the page, the printed FAQ to the entry's place in the PDF
    with its code and page, the terminal names the title and code. Subclasses change
    :meth:`element` (HTML outputs) or :meth:`text` (plain text).
    """

    def __init__(self, kb: KnowledgeBase):
        self.kb = kb

    #: Outputs of two linkers with the same key are the same for targets with the same title and
    #: code (the render cache relies on it, and adds those of the text's targets to its key).
    @property
    def key(self) -> Hashable:
        return (type(self).__name__,)

    def href(self, target: Entry) -> str | None:
        return None

    def element(self, target: Entry, label: str) -> etree.Element:
        href = self.href(target)
        el = etree.Element("a" if href else "span", {"class": REF_CLASS})
        if href:
            el.set("href", href)
        el.text = AtomicString(label)
        return el

    def printed_page(self, target: Entry) -> tuple[str, int] | None:
        """Where the document being made prints ``target``: its anchor and page number (None: it does not)."""
        return None

    def text(self, target: Entry, lang: str) -> str:
        return f"{target.title.get(lang)} ({target.code})"


class _RefPattern(InlineProcessor):
    """``[[game:id]]`` → the linker's element for that entry (unknown references stay text)."""

    def __init__(self, ext: RefExtension):
        super().__init__(INLINE_REF.pattern)
        self.ext = ext

    def handleMatch(self, m: re.Match[str], data: str) -> tuple[Any, int, int]:  # type: ignore[override]
        linker = self.ext.linker
        target = linker.kb.entries.get(m.group(1).strip()) if linker is not None else None
        if linker is None or target is None:
            return AtomicString(m.group(0)), m.start(0), m.end(0)
        return linker.element(target, target.title[self.ext.lang]), m.start(0), m.end(0)


class _LinkPolicy(Treeprocessor):
    """Links the data may not make become their text; images become their alt text."""

    def run(self, root: etree.Element) -> None:
        for parent in root.iter():
            for child in list(parent):
                if child.tag == "img":
                    _replace_with_text(parent, child, child.get("alt", ""))
                elif child.tag == "a" and REF_CLASS not in (child.get("class") or "").split():
                    if not allowed_link(child.get("href", "")):
                        child.tag = "span"
                        child.attrib.clear()


def _replace_with_text(parent: etree.Element, child: etree.Element, text: str) -> None:
    index = list(parent).index(child)
    tail = text + (child.tail or "")
    if index:
        previous = parent[index - 1]
        previous.tail = (previous.tail or "") + tail
    else:
        parent.text = (parent.text or "") + tail
    parent.remove(child)


class RefExtension(Extension):
    """The ``[[ref]]`` links and the link policy, for one linker and language at a time."""

    def __init__(self, linker: Linker | None = None, lang: str = "zh"):
        super().__init__()
        self.linker = linker
        self.lang = lang

    def extendMarkdown(self, md: markdown.Markdown) -> None:
        # Before links (160) and references (170): "[[" must never start a Markdown link.
        md.inlinePatterns.register(_RefPattern(self), "houserules-ref", 175)
        md.treeprocessors.register(_LinkPolicy(md), "houserules-links", 1)


def _markdown() -> tuple[markdown.Markdown, RefExtension]:
    ext = RefExtension()
    md = markdown.Markdown(extensions=["tables", "sane_lists", ext], output_format="html")
    # Raw HTML in data is text, never markup.
    md.preprocessors.deregister("html_block")
    md.inlinePatterns.deregister("html")
    return md, ext


class MarkdownRenderer:
    """One output's Markdown parser and the HTML it made: one per build (the site's context, the printed
    FAQ's games), handed to every :class:`~houserules.render.html.Html` of that build.

    The parser is made on the first text that needs it (most one-line answers never do), and a text
    rendered again with the same linker key, language and reference targets comes from the cache.
    """

    #: Past this many texts the cache starts again (a 5,000-entry site renders some 60,000).
    LIMIT = 200_000

    def __init__(self) -> None:
        self._parser: tuple[markdown.Markdown, RefExtension] | None = None
        self._cache: dict[tuple[str, Hashable, str, tuple[Any, ...]], str] = {}

    def html(self, text: str, linker: Linker, lang: str = "zh") -> str:
        """Data Markdown as sanitized HTML: see :func:`markdown_html`."""
        text = INVISIBLE.sub("", text)
        if _PLAIN.fullmatch(text):
            # Most one-line answers: the same result as the full path, without it (a large site
            # renders tens of thousands of them; tests/test_textrender.py compares the two).
            return f"<p>{html.escape(text, quote=False)}</p>"
        if markdown_shape_problem(text) is not None:
            # Text the check refuses (too deep, too many brackets) is never given to Markdown, whose
            # cost would grow with it squared or exhaust the stack: it is shown as plain paragraphs.
            return "".join(f"<p>{inline_html(part)}</p>" for part in text.split("\n\n") if part.strip())
        key = (text, linker.key, lang, _targets(text, linker, lang))
        cached = self._cache.get(key)
        if cached is None:
            cached = clean(self.convert(text, linker, lang))
            if len(self._cache) >= self.LIMIT:
                self._cache.clear()
            self._cache[key] = cached
        return cached

    def convert(self, text: str, linker: Linker | None, lang: str = "zh") -> str:
        """Markdown's own HTML of ``text``, before the sanitizer and without the shortcuts of :meth:`html`."""
        if self._parser is None:
            self._parser = _markdown()
        md, ext = self._parser
        ext.linker, ext.lang = linker, lang
        md.reset()
        return md.convert(text)


def escape_md(text: str) -> str:
    """Plain text for a Markdown line: every character Markdown or its extensions read as syntax
    becomes an HTML character reference, so the text shows exactly as written.

    >>> escape_md("a *b* {: onclick=x} <i>")
    'a &#42;b&#42; &#123;: onclick&#61;x&#125; &#60;i&#62;'
    """
    return _MD_SPECIAL.sub(lambda m: f"&#{ord(m.group(0))};", INVISIBLE.sub("", text)).replace("\n", "&#10;")


def clean(html_text: str) -> str:
    """Sanitize HTML with the project's allow-list."""
    return nh3.clean(
        html_text, tags=ALLOWED_TAGS, attributes=ALLOWED_ATTRIBUTES, url_schemes=URL_SCHEMES, link_rel=None
    )


#: One line with no Markdown syntax at all: its HTML is a paragraph of the escaped text.
_PLAIN = re.compile(r"(?=.)(?![-+*>#=]|\d+[.)]|\s)[^\x00-\x1f\x7f-\x9f\u2028\u2029*_`\[\]<>#|\\!&~=:]*(?<!\s)")


def markdown_html(text: str, linker: Linker, lang: str = "zh", renderer: MarkdownRenderer | None = None) -> str:
    """Data Markdown as sanitized HTML, ``[[game:id]]`` linked by ``linker`` with titles in ``lang``.

    ``renderer`` is the build's parser and cache; without one, a parser is made for this text alone
    (a build passes its own, through :class:`~houserules.render.html.Html`).

    >>> from houserules.data.reading.model import KnowledgeBase
    >>> markdown_html("**见** <b>", Linker(KnowledgeBase()))
    '<p><strong>见</strong> &lt;b&gt;</p>'
    """
    return (renderer or MarkdownRenderer()).html(text, linker, lang)


def _targets(text: str, linker: Linker, lang: str) -> tuple[tuple[str, str, str] | str, ...]:
    """What a text's ``[[refs]]`` render from: each target's title and code (the ref alone when it is missing).

    Part of the render cache's key, so the cache stays right across knowledge bases (a live
    preview renders a changed entry's referrers with its new title) without naming one.
    """
    if "[[" not in text:
        return ()
    found = []
    for match in INLINE_REF.finditer(text):
        ref = match.group(1).strip()
        target = linker.kb.entries.get(ref)
        found.append((ref, target.title.get(lang), target.code) if target is not None else ref)
    return tuple(found)


#: What no XML writer writes: what XML 1.0 cannot carry (its ``Char`` production: C0 controls but
#: tab, LF and CR, lone surrogates, U+FFFE and U+FFFF) and what it discourages (DEL, the C1
#: controls U+0080-U+009F). The checker refuses all of them in data (``data/reading/safefile.py``); the
#: writers drop them all the same, as a second defence for text that comes from elsewhere.
_NOT_XML = re.compile("[^\t\n\r\u0020-\u007e\u00a0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: str) -> str:
    """``text`` without the characters XML 1.0 cannot carry or discourages: every XML writer (TBX, the feed, XLIFF) uses it.

    >>> xml_text("a\\x1b[2Jb\\x00\\ufffe\\x9b\\x85\\tc")
    'a[2Jb\\tc'
    """
    return _NOT_XML.sub("", text)


def inline_html(text: str) -> str:
    """Plain text for an HTML context (titles, aliases, codes).

    A line break becomes a character reference: a blank line inside the raw HTML of a
    generated page would end it there and hand the rest to Markdown.

    >>> inline_html('<b>"x"</b>\\n\\n{: onclick=y}')
    '&lt;b&gt;&quot;x&quot;&lt;/b&gt;&#10;&#10;{: onclick=y}'
    """
    return html.escape(INVISIBLE.sub("", text), quote=True).replace("\r", "").replace("\n", "&#10;")


def plain_text(text: str, linker: Linker, lang: str = "zh") -> str:
    """Data text for a terminal: ``[[game:id]]`` named by ``linker``, everything else as written."""

    def name(match: re.Match[str]) -> str:
        target = linker.kb.entries.get(match.group(1).strip())
        return linker.text(target, lang) if target else match.group(1).strip()

    return INLINE_REF.sub(name, text)
