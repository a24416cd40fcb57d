"""Laying out print documents as PDFs with WeasyPrint: page numbers that match, games kept whole.

Each game is its own document (cover = page 1). The all-games PDF is a shared
cover and contents followed by the very same pages, so every game keeps its
own page numbers (the running head names the game and the code).

WeasyPrint draws empty boxes, without a warning, when no CJK font is
installed, so :func:`require_cjk_font` refuses to print without one.
"""

from __future__ import annotations

import subprocess
from importlib import resources
from pathlib import Path

from ..errors import HouserulesError
from ..data.model import Entry, Game, KnowledgeBase
from ..render.blocks import EntryBlocks
from .document import PrintDocument, PrintLinker, PrintOptions, anchor, print_groups

FONT_FAMILY = "WenQuanYi Micro Hei"  # must match assets/print.css
FONT_PACKAGE = "fonts-wqy-microhei"
PAPER_SIZES = {"a4": "A4", "letter": "letter"}


def require_cjk_font() -> None:
    """Fail unless fontconfig finds the CJK font the print stylesheet names."""
    try:
        found = subprocess.run(["fc-list", f":family={FONT_FAMILY}", "family"],
                               capture_output=True, text=True, check=False).stdout
    except FileNotFoundError:
        found = ""
    if FONT_FAMILY not in found:
        raise HouserulesError(f"the CJK font '{FONT_FAMILY}' is not installed, so Chinese text would print as empty "
                              f"boxes — install the Debian package {FONT_PACKAGE} (tools/setup-debian.sh does)")


def stylesheet(paper: str = "a4") -> str:
    css = resources.files("houserules").joinpath("assets", "print.css").read_text(encoding="utf-8")
    return css + f"\n@page {{ size: {PAPER_SIZES[paper]}; }}\n"


def render(html: str, paper: str):
    from weasyprint import CSS, HTML  # slow to import: only when printing

    return HTML(string=html).render(stylesheets=[CSS(string=stylesheet(paper))])


def _anchor_pages(document) -> dict[str, int]:
    """Where each anchor starts (an element split over pages is anchored on each of them)."""
    found: dict[str, int] = {}
    for number, page in enumerate(document.pages, 1):
        for name in page.anchors:
            found.setdefault(name, number)
    return found


class PrintedGame:
    """One game laid out with the page numbers of its own document (cover = page 1).

    WeasyPrint's ``target-counter()`` re-lays out every later page for each forward
    reference (minutes for a hundred entries), so page numbers are printed as plain
    text instead: a first pass finds where each entry lands, the next prints those
    numbers, and layout repeats until the numbers printed are the numbers found.
    """

    MAX_PASSES = 4

    def __init__(self, kb: KnowledgeBase, game: Game, options: PrintOptions, paper: str,
                 blocks: EntryBlocks | None = None):
        self.game = game
        only = set(options.since.changes) if options.since is not None else None
        self.groups = print_groups(kb, game, options.profile, only)
        self.entries: list[Entry] = [kb.entries[r] for _, _, refs in self.groups for r in refs]
        blocks = blocks or EntryBlocks(kb)
        printed = {e.ref for e in self.entries}
        pages: dict[str, int] = {}
        for _ in range(self.MAX_PASSES):
            self.html = PrintDocument(kb, PrintLinker(kb, printed, options.site_url, pages), options, blocks) \
                .game_html(game, self.groups)
            self.document = render(self.html, paper)
            found = _anchor_pages(self.document)
            if all(found.get(anchor(e)) == pages.get(anchor(e)) for e in self.entries):
                break
            pages = found
        else:
            raise HouserulesError(f"the page numbers of {game.id} did not settle after {self.MAX_PASSES} layouts")
        self.pages = found

    @property
    def body(self) -> list:
        """The pages after the cover and contents."""
        start = self.pages[f"g-{self.game.id}"]
        return self.document.pages[start - 1:]


def combine(kb: KnowledgeBase, parts: list[PrintedGame], options: PrintOptions, paper: str):
    """One document of several games: a shared cover and contents, then each game's own pages."""
    printed = {e.ref for part in parts for e in part.entries}
    pages = {name: n for part in parts for name, n in part.pages.items()}
    doc = PrintDocument(kb, PrintLinker(kb, printed, None, pages), options)
    front = render(doc.front_html([(p.game, p.groups) for p in parts]), paper)
    return front.copy([*front.pages, *(page for part in parts for page in part.body)])


def write_pdf(document, target: Path) -> int:
    """Write a laid-out document to ``target`` (never a half-written PDF there); return its pages."""
    if target.is_dir():
        raise HouserulesError(f"{target} is a folder; give the PDF's file name with -o, e.g. -o {target / 'faq.pdf'}")
    if not target.parent.is_dir():
        raise HouserulesError(f"the folder {target.parent} does not exist; create it or choose another -o")
    partial = target.with_name(f".{target.name}.partial")
    try:
        document.write_pdf(partial)
        partial.replace(target)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise HouserulesError(f"cannot write {target}: {exc.strerror or exc} — free some space or choose another -o") from None
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    return len(document.pages)


def print_games(kb: KnowledgeBase, games: list[str], target: Path, options: PrintOptions, paper: str = "a4") -> int:
    """Print ``games`` into ``target``; return the number of pages."""
    require_cjk_font()
    blocks = EntryBlocks(kb)
    if options.since is not None:  # an insert prints the games with added or changed entries only
        games = [g for g in games if any(kb.entries[r].game == g for r in options.since.changes)]
    parts = [PrintedGame(kb, kb.games[g], options, paper, blocks) for g in games]
    document = parts[0].document if len(parts) == 1 else combine(kb, parts, options, paper)
    return write_pdf(document, target)
