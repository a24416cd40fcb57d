"""The print document of one or more games: cover, contents and entries, as HTML for WeasyPrint.

Two layouts choose from the same entry blocks as the site (:mod:`houserules.render.blocks`):
``qa`` (the default: each entry's one-line answer and its questions, what a group
prints) and ``full`` (every detail: body, facts, errata, references, sources).
A reference prints as the target's title, code and page number, so a reader can
follow it on paper. The options and which entries print are in
:mod:`houserules.print.plan`; the cover and contents in :mod:`houserules.print.cover`.
"""

from __future__ import annotations

import xml.etree.ElementTree as etree
from collections.abc import Callable

from markupsafe import Markup

from ..check.profile import ORIGIN
from ..data.reading import vocab
from ..data.reading.model import Entry, Game, KnowledgeBase
from ..render import blocks as B
from ..render.html import Html, entry_html
from ..render.templating import render
from ..render.text import Linker, MarkdownRenderer
from ..render.urls import entry_url, go_url, question_code
from .cover import FrontMatter, document, title_of
from .plan import Group, PrintOptions, anchor, printed_names

LAYOUTS = vocab.PRINT_LAYOUTS
_QA = ("meta", "overridden", "answer", "uncertain", "stale", "stub", "questions")
#: The blocks each layout prints, in order (the site shows all of them): the full layout adds the details.
PRINT_BLOCKS: dict[str, tuple[str, ...]] = {
    "qa": _QA,
    "full": (*_QA, "body", "completion", "facts", "errata", "applies-to", "rulings", "see-also", "sources"),
}


class PrintLinker(Linker):
    """References to entries in this PDF: the title, then the code and page number; others by code (and web link)."""

    def __init__(
        self,
        kb: KnowledgeBase,
        printed: set[str],
        site_url: str | None = None,
        pages: dict[str, int] | None = None,
        placeholder: int = 0,
    ):
        super().__init__(kb)
        self.printed = printed
        #: Page number of each entry's anchor, from the previous layout pass.
        self.pages = pages or {}
        #: Printed before the page numbers are known (the first layout pass). Digits are all
        #: equally wide in the print font, so a placeholder with as many digits as the numbers
        #: to come lays the text out as they will, and the second pass confirms it.
        self.placeholder = placeholder
        self.site_url = site_url.rstrip("/") + "/" if site_url else None

    @property
    def key(self) -> tuple[str, PrintLinker]:
        # The rendered text depends on the page numbers: never share it across passes. The linker
        # itself (hashed by identity), not id(self): the render cache's key keeps it alive, so its
        # identity is never reused by the next pass's linker while the cached text exists.
        return ("print", self)

    def page_of(self, entry: Entry) -> int:
        return self.pages.get(anchor(entry), self.placeholder)  # the placeholder only in the first layout pass

    def web_url(self, entry: Entry) -> str | None:
        """The entry's page on the public site, when its address is configured."""
        return self.site_url + entry_url(entry) if self.site_url and entry.origin == "shared" else None

    def go_link(self, entry: Entry) -> str | None:
        """The entry's link by code on the public site (``…/go.html#BH-A13``), as the site's copy buttons give."""
        return self.site_url + go_url(entry.code) if self.site_url and entry.origin == "shared" else None

    def href(self, target: Entry) -> str | None:
        return "#" + anchor(target) if target.ref in self.printed else self.web_url(target)

    def element(self, target: Entry, label: str) -> etree.Element:
        outer = etree.Element("span", {"class": "hr-xref"})
        link = super().element(target, label)
        outer.append(link)
        pref = etree.SubElement(outer, "span", {"class": "hr-pref"})
        if target.ref in self.printed:
            pref.text = f"（{target.code}，"
            page = etree.SubElement(pref, "a", {"class": "hr-page", "href": "#" + anchor(target)})
            page.text = f"第 {self.page_of(target)} 页"
            page.tail = "）"
        else:
            pref.text = f"（{target.code}）"
        return outer

    def printed_page(self, target: Entry) -> tuple[str, int] | None:
        return (anchor(target), self.page_of(target)) if target.ref in self.printed else None


class PrintDocument:
    """Print HTML for a set of printed entries, with one linker (and so one set of page numbers)."""

    def __init__(
        self,
        kb: KnowledgeBase,
        linker: PrintLinker,
        options: PrintOptions,
        blocks: B.EntryBlocks | None = None,
        markdown: MarkdownRenderer | None = None,
    ):
        self.kb, self.linker, self.options = kb, linker, options
        self.h = Html(kb, linker, markdown)
        self.blocks = blocks or B.EntryBlocks(kb)
        self.front = FrontMatter(kb, options, linker.page_of)

    # -- an entry -----------------------------------------------------------------------------
    def entry_html(self, entry: Entry) -> str:
        """The entry's ``<article>``: its title, the marks of a house rule and of a change, its blocks."""
        profile = self.options.profile
        house = entry.origin == ORIGIN
        since = self.options.since
        change = since.changes.get(entry.ref) if since is not None else None
        found = {block.kind: block for block in self.blocks.blocks(entry)}
        return entry_html(
            self.h,
            "print",
            entry,
            [found[kind] for kind in PRINT_BLOCKS[self.options.layout] if kind in found],
            question_code=question_code,
            anchor=anchor(entry),
            printed=self.linker.printed,
            house=house,
            house_name=(
                {"zh": profile.name["zh"], "en": profile.name.get("en", profile.name["zh"])}
                if house and profile is not None
                else None
            ),
            change=(
                {
                    "status": change.status,
                    "label": vocab.CHANGE_STATUSES[change.status],
                    "names": printed_names(change, self.options.layout),
                }
                if change is not None
                else None
            ),
            qr=self.qr(entry),
        )

    def qr(self, entry: Entry) -> dict[str, str] | None:
        """The QR code of the entry's link by code on the site (when its address is configured)."""
        url = self.linker.go_link(entry)
        if not url:
            return None
        import segno  # only when the site's address is configured

        return {"src": segno.make(url, error="m").svg_data_uri(scale=1, border=0), "alt": url}

    # -- the document ---------------------------------------------------------------------------
    def game_html(self, game: Game, groups: list[Group]) -> str:
        """One game's print document: cover, contents, then its entries group by group."""
        printed = [self.kb.entries[r] for _, _, refs in groups for r in refs]
        entries = [
            (key, title, [Markup(self.entry_html(self.kb.entries[r])) for r in refs]) for key, title, refs in groups
        ]
        section = render("print/game.html", h=self.h, game=game, licence=game.licence, groups=entries)
        return document(
            title_of([game]), [self.front.cover([game], printed), self.front.toc([(game, groups)]), section]
        )

    def front_html(self, parts: list[tuple[Game, list[Group]]]) -> str:
        """The cover and contents of several games (their pages follow, from each game's own document)."""
        return self.front.front_html(parts)

    def front_chunks(self, parts: list[tuple[Game, list[Group]]], entries: int) -> list[Callable[[int], str]]:
        """The cover and contents of several games as documents of about ``entries`` contents lines each
        (:meth:`~houserules.print.cover.FrontMatter.front_chunks`)."""
        return self.front.front_chunks(parts, entries)


assert all(set(kinds) <= set(B.ORDER) for kinds in PRINT_BLOCKS.values()), "a printed block is a block of an entry"
