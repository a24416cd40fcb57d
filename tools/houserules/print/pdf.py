"""Laying out print documents as PDFs with WeasyPrint: page numbers that match, games kept whole.

Each game is its own document (cover = page 1), laid out once and kept in the
cache (:mod:`houserules.print.pdfcache`). The all-games PDF is a shared cover and
contents followed by the very same pages, so every game keeps its own page
numbers (the running head names the game and the code).

WeasyPrint draws empty boxes, without a warning, when no CJK font is
installed, so :func:`require_cjk_font` refuses to print without one; an emoji without the colour
emoji font prints as a box too, so :func:`emoji_font_warning` says so when the text holds one.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterable
from importlib import resources
from pathlib import Path
from typing import Any

from ..data.reading.model import Entry, Game, KnowledgeBase
from ..errors import HouserulesError
from ..render.blocks import EntryBlocks
from ..render.text import MarkdownRenderer
from .document import PrintDocument, PrintLinker
from .plan import PrintOptions, anchor, printed_groups

FONT_FAMILY = "WenQuanYi Micro Hei"  # must match assets/print.css
FONT_PACKAGE = "fonts-wqy-microhei"
#: The font of emoji (and of their ZWJ sequences, which it draws as one picture), after the CJK font.
EMOJI_FAMILY = "Noto Color Emoji"  # found by fontconfig's fallback (not named in assets/print.css)
EMOJI_PACKAGE = "fonts-noto-color-emoji"
#: What the CJK font has no picture of, and the emoji font has: pictographs, symbols and dingbats,
#: flags' regional indicators.
_EMOJI = re.compile("[\u2600-\u27bf\u2b00-\u2bff\U0001f000-\U0001faff]")
PAPER_SIZES = {"a4": "A4", "letter": "letter"}


def _installed(family: str) -> bool:
    """Whether fontconfig finds the font ``family``."""
    try:
        found = subprocess.run(["fc-list", f":family={family}", "family"], capture_output=True, text=True, check=False)
    except FileNotFoundError:
        return False
    return family in found.stdout


def require_cjk_font() -> None:
    """Fail unless fontconfig finds the CJK font the print stylesheet names."""
    if not _installed(FONT_FAMILY):
        raise HouserulesError(
            f"the CJK font '{FONT_FAMILY}' is not installed, so Chinese text would print as empty "
            f"boxes — install the Debian package {FONT_PACKAGE} (tools/setup-debian.sh does)"
        )


def emoji_font_warning(texts: Iterable[str]) -> str | None:
    """A warning when ``texts`` hold an emoji and the emoji font is not installed (they would print as
    empty boxes); None otherwise."""
    for text in texts:
        found = _EMOJI.search(text)
        if found is not None:
            if _installed(EMOJI_FAMILY):
                return None
            return (
                f"warning: the text holds emoji (U+{ord(found.group()):04X}) and the font '{EMOJI_FAMILY}' is not "
                f"installed, so they print as empty boxes — install the Debian package {EMOJI_PACKAGE} "
                "(tools/setup-debian.sh does)"
            )
    return None


def stylesheet(paper: str = "a4") -> str:
    css = resources.files("houserules").joinpath("assets", "print.css").read_text(encoding="utf-8")
    return css + f"\n@page {{ size: {PAPER_SIZES[paper]}; }}\n"


def render(html: str, paper: str) -> Any:  # WeasyPrint's Document (untyped)
    from weasyprint import CSS, HTML  # slow to import: only when printing

    return HTML(string=html).render(stylesheets=[CSS(string=stylesheet(paper))])


def _anchor_pages(document: Any) -> dict[str, int]:
    """Where each anchor starts (an element split over pages is anchored on each of them)."""
    found: dict[str, int] = {}
    for number, page in enumerate(document.pages, 1):
        for name in page.anchors:
            found.setdefault(name, number)
    return found


def placeholder(entries: int) -> int:
    """A page number to print before the real ones are known: as many digits as a game of ``entries`` has pages.

    A game prints about one page per one or two entries, plus its cover and contents.

    >>> placeholder(5), placeholder(46), placeholder(400)
    (8, 88, 888)
    """
    return int("8" * len(str(max(entries, 1) + 2)))


class PrintedGame:
    """One game laid out with the page numbers of its own document (cover = page 1).

    WeasyPrint's ``target-counter()`` re-lays out every later page for each forward
    reference (minutes for a hundred entries), so page numbers are printed as plain
    text instead: a first pass finds where each entry lands (printing a placeholder
    as wide as the numbers to come), the next prints those numbers, and layout repeats
    until the numbers printed are the numbers found (two passes, rarely three).
    """

    MAX_PASSES = 4

    def __init__(
        self,
        kb: KnowledgeBase,
        game: Game,
        options: PrintOptions,
        paper: str,
        blocks: EntryBlocks | None = None,
        markdown: MarkdownRenderer | None = None,
    ):
        self.game = game
        self.groups = printed_groups(kb, game, options)
        self.entries: list[Entry] = [kb.entries[r] for _, _, refs in self.groups for r in refs]
        self.blocks = blocks or EntryBlocks(kb)
        self.markdown = markdown or MarkdownRenderer()
        self.passes = 0
        self._kb, self._options, self._paper = kb, options, paper

    def html(self, pages: dict[str, int] | None = None) -> str:
        """The game's print HTML with the page numbers ``pages`` (None: the first pass, with placeholders)."""
        printed = {e.ref for e in self.entries}
        linker = PrintLinker(self._kb, printed, self._options.site_url, pages or {}, placeholder(len(self.entries)))
        return PrintDocument(self._kb, linker, self._options, self.blocks, self.markdown).game_html(
            self.game, self.groups
        )

    def lay_out(self) -> Any:
        """The laid-out document; :attr:`pages` then holds where each anchor starts."""
        pages: dict[str, int] | None = None
        for passes in range(1, self.MAX_PASSES + 1):
            self.passes = passes
            document = render(self.html(pages), self._paper)
            found = _anchor_pages(document)
            if pages is not None and all(found.get(anchor(e)) == pages.get(anchor(e)) for e in self.entries):
                self.pages = found
                return document
            pages = found
        raise HouserulesError(f"the page numbers of {self.game.id} did not settle after {self.MAX_PASSES} layouts")


def copy_pdf(source: Path, target: Path) -> int:
    """Copy a PDF to ``target`` by the rules of every output file (:func:`~houserules.export.open_output`:
    never a half-written PDF there, a device or pipe written into, a link refused); return its pages."""
    from pypdf import PdfReader

    from ..export import OUTPUT_OPTION, copy_output

    copy_output(source, target, example="faq.pdf", option=OUTPUT_OPTION)
    return len(PdfReader(source).pages)
