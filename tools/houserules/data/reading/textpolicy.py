"""What data text may link to, shared by the renderer (which enforces it) and the checker (which reports it).

Entries link each other with ``[[game:id]]``; a Markdown link may only leave the
site for the open web (``https://``, ``http://``) or write a mail (``mailto:``).
Relative paths (``../../etc/passwd``), protocol-relative URLs (``//host/x``),
fragments, ``file:``, ``javascript:`` and ``data:`` are never links: the site is
opened from disk and the PDF is read offline, so such a target would reach a
reader's own files or run code.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import TypeVar
from urllib.parse import urlsplit

LINK_SCHEMES = ("http", "https", "mailto")


def allowed_link(url: str) -> bool:
    """Whether a Markdown link in data may point at ``url``.

    >>> [allowed_link(u) for u in ("https://mausritter.com", "mailto:a@b.c", "//evil.test/x",
    ...                            "../../etc/passwd", "#details", "javascript:alert(1)", "HTTPS://X.ORG")]
    [True, True, False, False, False, False, True]
    """
    url = url.strip()
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    if parts.scheme.lower() not in LINK_SCHEMES:
        return False
    return parts.scheme.lower() == "mailto" or bool(parts.netloc)


#: How deep lists and quotes may nest in one Markdown text: the renderer recurses once per
#: level (some 500 levels exhaust Python's stack); no answer needs more than a few.
MAX_MARKDOWN_NESTING = 16
#: How much bracket work one Markdown text may ask for: the renderer looks for the end of each
#: '[' through the rest of its paragraph, so a paragraph costs its '[' times its length (400
#: unclosed '[' in 20,000 characters took 5 s; 20,000 '[' over a minute). The limit is about a
#: third of a second; the knowledge base's texts need a few thousand at most (30 '[' in a short
#: paragraph).
MAX_BRACKET_WORK = 500_000

P = TypeVar("P")

_LEADING = re.compile(r"[ \t]*")
_PARAGRAPH_BREAK = re.compile(r"\n(?=[ \t]*\n)")
_MARKER = re.compile(r"(?:>|[-*+](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$))[ \t]*")
#: A line that may nest deeper than :data:`MAX_MARKDOWN_NESTING`. Indent adds a level every two
#: columns (a tab: four), a marker one more: so such a line has eight blanks or more before any
#: text, or two markers in a row. A text without one needs no line-by-line look.
_MARK = r"(?:>|[-*+](?=[ \t\n]|\Z)|\d{1,9}[.)](?=[ \t\n]|\Z))"
_MAYBE_DEEP = re.compile(rf"(?:[ \t]{{{MAX_MARKDOWN_NESTING // 2}}}|[ \t]*{_MARK}[ \t]*{_MARK})")
#: The same after a line break (a search for a line break first is faster than ``^`` in every place).
_MAYBE_DEEP_LINE = re.compile(rf"\n{_MAYBE_DEEP.pattern}")


def _maybe_deep(text: str) -> bool:
    return bool(_MAYBE_DEEP.match(text) or _MAYBE_DEEP_LINE.search(text))


def markdown_nesting(line: str) -> int:
    """How deep one line of Markdown nests: its list markers and ``>`` in a row, and every two columns of indent.

    >>> markdown_nesting("- x"), markdown_nesting("    1. x"), markdown_nesting("> - > * y"), markdown_nesting("-x")
    (1, 3, 4, 0)
    """
    indent = _LEADING.match(line)
    assert indent is not None
    depth = len(indent.group().expandtabs(4)) // 2
    pos = indent.end()
    while (marker := _MARKER.match(line, pos)) is not None:
        depth += 1
        pos = marker.end()
    return depth


def markdown_shape_suspects(texts: Iterable[tuple[P, str]], joined: str) -> Iterator[tuple[P, str]]:
    """The texts :func:`markdown_shape_problem` may find something in, of ``texts`` (with a key each)
    and ``joined``, all of them joined by line breaks.

    A text's bracket work is at most its length times its '[' (most texts have none), and a line
    that may nest deep is found in the joined text as well; the others are passed at once. The
    joined text's own bracket work bounds every text's: within the limit, none is looked at.

    >>> [k for k, _ in markdown_shape_suspects([("a", "- x"), ("b", "[" * 800)], "- x\\n" + "[" * 800)]
    ['b']
    """
    deep = _maybe_deep(joined)
    if not deep and len(joined) * joined.count("[") <= MAX_BRACKET_WORK:
        return
    for key, text in texts:
        if deep or "[" in text and len(text) * text.count("[") > MAX_BRACKET_WORK:
            yield key, text


def markdown_shape_problem(text: str) -> tuple[int, str, str] | None:
    """Why the renderer must not be given ``text``, as (offset, problem, fix); None when it may.

    >>> markdown_shape_problem("[[a:b]] and [x](https://x.org)") is None
    True
    >>> markdown_shape_problem("- " * 20 + "x")[1]
    'lists or quotes nest 20 levels deep (at most 16)'
    """
    if len(text) * text.count("[") <= MAX_BRACKET_WORK and not _maybe_deep(text):
        return None  # the bracket work of the whole text is within the limit, and no line can nest deep
    offset = 0
    for line in text.split("\n"):
        depth = markdown_nesting(line)
        if depth > MAX_MARKDOWN_NESTING:
            return (
                offset,
                f"lists or quotes nest {depth} levels deep (at most {MAX_MARKDOWN_NESTING})",
                "flatten the list, or indent less",
            )
        offset += len(line) + 1
    offset = work = brackets = 0
    for paragraph in _PARAGRAPH_BREAK.split(text):
        count = paragraph.count("[")
        work += count * len(paragraph)
        brackets += count
        if work > MAX_BRACKET_WORK:
            return (
                offset + paragraph.index("["),
                f"holds {brackets} '[' in long paragraphs ('[' times paragraph length {work:,}, "
                f"at most {MAX_BRACKET_WORK:,}), which Markdown renders slowly",
                "split long paragraphs with a blank line, or write fewer '['",
            )
        offset += len(paragraph) + 1
    return None
