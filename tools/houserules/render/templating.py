"""HTML from Jinja2 templates (``render/templates/``), with every printed value escaped.

The templates are autoescaped, and escaped the project's way: every value a template
prints goes through the environment's ``finalize``, which escapes it as
:func:`~houserules.render.text.inline_html` does (control characters dropped, a line break
as ``&#10;``), unless it is already :class:`~markupsafe.Markup`. Markup is what another
template or macro rendered, or data Markdown that
:func:`~houserules.render.text.markdown_html` rendered and sanitized (``h.md`` in the
templates, :meth:`houserules.render.html.Html.md`): no other text from the data ever
becomes markup, and a template cannot forget to escape a field.

A line break in a template and the indentation after it lay out the template's source and
are no part of its output. A template
writes ``{{ nl }}`` where its output needs a line break (the Markdown of a site page).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any

import jinja2
from jinja2.ext import Extension
from jinja2.lexer import Token, TokenStream
from markupsafe import Markup

from ..data.reading import vocab
from .blocks import NOTICES
from .text import escape_md, inline_html

_LINE_BREAK = re.compile(r"\n[ \t]*")


class _JoinLines(Extension):
    """A template's line breaks (and the indentation after them) are layout of its source, not output.

    They are taken out of the literal text of the template as it is parsed (its line numbers,
    in error messages, stay those of the file).
    """

    def filter_stream(self, stream: TokenStream) -> Iterator[Token]:
        for token in stream:
            if token.type == "data":
                token = Token(token.lineno, "data", _LINE_BREAK.sub("", token.value))
            yield token


def escape(value: object) -> Markup:
    """What a template prints: Markup as it is, anything else escaped as :func:`inline_html` does.

    >>> escape('<b title="x">\\n'), escape(Markup("<b>"))
    (Markup('&lt;b title=&quot;x&quot;&gt;&#10;'), Markup('<b>'))
    """
    if isinstance(value, Markup):
        return value
    if hasattr(value, "__html__"):
        return Markup(value)
    if value is None:
        raise TypeError("a template printed None: a missing field must be tested before it is printed")
    return Markup(inline_html(str(value)))


def one_block(html: str) -> str:
    """Raw HTML as a block of its own in a Markdown page, on one line: Markdown leaves it alone.

    Line breaks inside (a code block of an entry's text, say) become character references,
    which show the same: a blank line would end the block and hand the rest to Markdown.

    >>> one_block("<div><pre>a\\n\\n{: onclick=x}</pre></div>")
    '\\n<div><pre>a&#10;&#10;{: onclick=x}</pre></div>\\n'
    """
    return f"\n{html.replace(chr(13), '').replace(chr(10), '&#10;')}\n" if html else ""


def _html_block(html: str) -> Markup:
    return Markup(one_block(str(escape(html))))


def _md_text(text: str) -> Markup:
    """Plain text in a Markdown line (a heading): :func:`escape_md` leaves nothing HTML or Markdown reads as syntax."""
    return Markup(escape_md(text))


@functools.cache
def environment() -> jinja2.Environment:
    """The templates' environment (built once)."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("houserules.render", "templates"),
        autoescape=True,
        finalize=escape,
        undefined=jinja2.StrictUndefined,
        extensions=[_JoinLines],
        auto_reload=False,
    )
    env.filters["html_block"] = _html_block
    env.filters["md_text"] = _md_text
    env.globals.update(nl=Markup("\n"), langs=vocab.LANGS, notices=NOTICES)
    return env


def render(name: str, /, **context: Any) -> str:
    """The template ``name`` rendered with ``context``.

    A plain string (not Markup, whose methods would escape their arguments): HTML made by one
    template is passed to another wrapped in Markup by the code that passes it.
    """
    return environment().get_template(name).render(**context)


def macros(name: str) -> Any:
    """The macros of the template ``name``, to call from Python (rendered without a context)."""
    return environment().get_template(name).module
