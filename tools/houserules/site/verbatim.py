"""A Python-Markdown extension that passes a one-line HTML block through without parsing it.

The generated pages carry their HTML as blocks of their own (the templates' ``html_block``
filter, :func:`houserules.render.templating.one_block`), which Markdown leaves alone.
Python-Markdown still parses each one, tag by tag, in pure
Python, to find where it ends: a tag page of 4,000 entries takes 0.3 s, more than the rest
of its page. A block that stands on one line between blank lines, opens with a block-level
tag and closes that same element at the end of the line is stored as it is, which is what
Python-Markdown ends up doing with it (``tests/test_verbatim.py`` compares the two on
every generated page of the fixtures and the real data). Any other line takes the usual path.

>>> import markdown
>>> markdown.markdown('<div class="x"><p>*a*</p></div>\\n\\n*b*', extensions=[VerbatimBlocks()])
'<div class="x"><p>*a*</p></div>\\n\\n<p><em>b</em></p>'
"""

from __future__ import annotations

import re
from collections.abc import Callable

from markdown import Markdown
from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor

#: An opening or closing tag (attribute values may hold ">": then the tag ends early, which
#: only drops text from the count, never a tag).
_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)[^>]*?(/?)>")
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


def one_element(line: str, is_block_level: Callable[[str], bool]) -> bool:
    """Whether ``line`` is exactly one HTML element that starts with a block-level tag.

    >>> one_element('<p>a</p>', lambda tag: True), one_element('<p>a</p><p>b</p>', lambda tag: True)
    (True, False)
    """
    if not line.startswith("<") or not line.endswith(">") or "<!--" in line:
        return False
    tags = _TAG.finditer(line)
    first = next(tags, None)
    if first is None or first.start() != 0 or first.group(1) or not is_block_level(first.group(2).lower()):
        return False
    if first.group(2).lower() in _VOID or first.group(3):
        return False
    depth = 1
    for match in tags:
        name = match.group(2).lower()
        if match.group(1):
            depth -= 1
            if depth == 0:
                return match.end() == len(line) and name == first.group(2).lower()
        elif name not in _VOID and not match.group(3):
            depth += 1
    return False


class _Verbatim(Preprocessor):
    def run(self, lines: list[str]) -> list[str]:
        out = []
        last = len(lines) - 1
        for i, line in enumerate(lines):
            if (
                (i == 0 or not lines[i - 1].strip())
                and (i == last or not lines[i + 1].strip())
                and one_element(line, self.md.is_block_level)
            ):
                line = self.md.htmlStash.store(line + "\n")  # as Python-Markdown keeps the line's end
            out.append(line)
        return out


class VerbatimBlocks(Extension):
    """Store one-line HTML blocks as they are, before Python-Markdown's own HTML block parser runs."""

    def extendMarkdown(self, md: Markdown) -> None:
        # The HTML block preprocessor runs at 20; normalising whitespace (30) must come first.
        md.preprocessors.register(_Verbatim(md), "houserules-verbatim", 25)
