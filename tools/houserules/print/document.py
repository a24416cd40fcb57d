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

from ..check.profile import ORIGIN
from ..data.reading import vocab
from ..data.reading.model import Entry, Game, KnowledgeBase
from ..data.versions.history import EntryChange, aspect_names
from ..render import blocks as B
from ..render.html import Html, bilingual_label
from ..render.text import Linker, MarkdownRenderer, inline_html
from ..render.urls import entry_url, go_url, question_code
from .cover import FrontMatter, document, title_of
from .plan import Group, PrintOptions, anchor

LAYOUTS = vocab.PRINT_LAYOUTS
_QA = ("meta", "answer", "uncertain", "stale", "stub", "questions")
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
    def key(self):
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

    def link_html(self, target: Entry, label_html: str) -> str:
        link = super().link_html(target, label_html)
        if target.ref not in self.printed:
            return link
        return (
            f'{link}<span class="hr-pref">（<a class="hr-page" href="#{anchor(target)}">'
            f"第 {self.page_of(target)} 页</a>）</span>"
        )


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
        profile = self.options.profile
        house = entry.origin == ORIGIN
        out = [
            f'<article class="entry{" entry--house" if house else ""}" id="{anchor(entry)}">',
            f'<h3 class="entry-title">{self.qr(entry)}<span class="entry-code">{inline_html(entry.code)}</span> · '
            f"{inline_html(entry.title['zh'])}</h3>",
            f'<p class="entry-en" lang="en">{inline_html(entry.title["en"])}</p>',
        ]
        if house and profile is not None:
            out.append(
                f'<p class="house-mark">本组房规 · {inline_html(profile.name["zh"])}：非官方规则，仅本组使用。'
                f'<span lang="en">House rule of {inline_html(profile.name.get("en", profile.name["zh"]))}, '
                f"not an official rule.</span></p>"
            )
        if self.options.since is not None and entry.ref in self.options.since.changes:
            out.append(self.change_mark(self.options.since.changes[entry.ref]))
        found = {block.kind: block for block in self.blocks.blocks(entry)}
        out += [LAYOUT[kind](self, entry, found[kind]) for kind in PRINT_BLOCKS[self.options.layout] if kind in found]
        out.append("</article>")
        return "\n".join(part for part in out if part)

    def change_mark(self, change: EntryChange) -> str:
        """What an insert says of an entry: new, or what changed in it."""
        label = vocab.CHANGE_STATUSES[change.status]
        names = aspect_names(change)
        what = (
            f"：{inline_html('、'.join(n['zh'] for n in names))} · "
            f'<span lang="en">{inline_html(", ".join(n["en"] for n in names))}</span>'
            if names
            else ""
        )
        return f'<p class="entry-change entry-change--{change.status}">{bilingual_label(label)}{what}</p>'

    def qr(self, entry: Entry) -> str:
        url = self.linker.go_link(entry)
        if not url:
            return ""
        import segno  # only when the site's address is configured

        uri = segno.make(url, error="m").svg_data_uri(scale=1, border=0)
        return f'<img class="entry-qr" src="{inline_html(uri)}" alt="{inline_html(url)}">'

    def meta(self, entry: Entry, block: B.Block) -> str:
        data = block.data
        names = [data["kind"]["zh"], data["authority"]["zh"], data["confidence"]["zh"]]
        return f'<p class="entry-meta" data-block="meta">{" · ".join(inline_html(n) for n in dict.fromkeys(names))}</p>'

    def boxed(self, block: B.Block, css: str, inner: str) -> str:
        return (
            f'<div class="{css}" data-block="{block.kind}"><p class="hr-answer-label">{bilingual_label(block.label)}</p>'
            f"{inner}</div>"
        )

    def answer(self, entry: Entry, block: B.Block) -> str:
        return self.boxed(block, "hr-answer", self.h.bilingual(block.data))

    def uncertain(self, entry: Entry, block: B.Block) -> str:
        return self.boxed(block, "hr-warning", self.h.bilingual(block.data))

    def notice(self, entry: Entry, block: B.Block) -> str:
        text = B.NOTICES[block.kind]
        return (
            f'<div class="hr-warning" data-block="{block.kind}"><p>{inline_html(text["zh"])}'
            f'<span lang="en">{inline_html(text["en"])}</span></p></div>'
        )

    def questions(self, entry: Entry, block: B.Block) -> str:
        items = []
        for question in block.data:
            flag = '<span class="hr-flag">存疑 · uncertain</span> ' if question.get("confidence") == "uncertain" else ""
            items.append(
                f'<div class="hr-q" id="{anchor(entry)}--{question["id"]}">'
                f'<p class="hr-q-text"><span class="hr-q-mark">问</span>{inline_html(question["q"]["zh"])} '
                f'<span class="hr-en" lang="en">{inline_html(question["q"]["en"])}</span></p>'
                f'<div class="hr-q-answer">{self.h.bilingual(question["a"])}</div>'
                f'<p class="hr-q-cite">{flag}{inline_html(question_code(entry, question["id"]))}</p></div>'
            )
        return f'<div class="hr-questions" data-block="questions">{"".join(items)}</div>'

    def body(self, entry: Entry, block: B.Block) -> str:
        return f'<div class="hr-body" data-block="body">{self.h.bilingual(block.data)}</div>'

    def completion(self, entry: Entry, block: B.Block) -> str:
        game = self.kb.games[entry.game]
        sources = "; ".join(self.h.source_label(game, s) for s in block.data["sources"])
        note = B.NOTICES["completion"]
        return (
            f'<div class="hr-completion" data-block="completion"><p class="hr-answer-label">{inline_html(note["zh"])} · '
            f'<span lang="en">{inline_html(note["en"])}</span></p>{self.h.bilingual(block.data["text"])}'
            f'<p class="hr-cite">{sources}</p></div>'
        )

    def facts(self, entry: Entry, block: B.Block) -> str:
        return f'<div data-block="facts">{self.h.facts_table(self.kb.games[entry.game], block.data)}</div>'

    def errata(self, entry: Entry, block: B.Block) -> str:
        # On paper an erratum prints twice only: with the entry holding it and with its component.
        records = [r for r in block.data if r.relation != "applied"]
        if not records:
            return ""
        return (
            f'<div data-block="errata"><p class="hr-label">{bilingual_label(block.label)}</p>'
            f"{self.h.errata_table(records)}</div>"
        )

    def refs(self, entry: Entry, block: B.Block) -> str:
        refs = block.data if block.kind != "rulings" else [r for r in block.data if r in self.linker.printed]
        links = [self.h.link(ref) for ref in refs]
        if not links:
            return ""
        return (
            f'<p class="hr-refs" data-block="{block.kind}"><span class="hr-label">{bilingual_label(block.label)}：</span>'
            + "；".join(links)
            + "</p>"
        )

    def sources(self, entry: Entry, block: B.Block) -> str:
        game = self.kb.games[entry.game]
        return (
            '<p class="hr-cite entry-sources" data-block="sources">出处 · Sources：'
            + "；".join(self.h.source_label(game, s) for s in block.data)
            + "</p>"
        )

    # -- the document ---------------------------------------------------------------------------
    def game_html(self, game: Game, groups: list[Group]) -> str:
        """One game's print document: cover, contents, then its entries group by group."""
        printed = [self.kb.entries[r] for _, _, refs in groups for r in refs]
        body = [
            self.front.cover([game], printed),
            self.front.toc([(game, groups)]),
            f'<section class="game" id="g-{game.id}"><h1 class="game-title">{inline_html(game.name["zh"])} '
            f'<span class="hr-en" lang="en">{inline_html(game.name["en"])}</span></h1>' + self.h.licence_box(game),
        ]
        for key, title, refs in groups:
            body.append(
                f'<section class="group group--{inline_html(key)}"><h2 class="group-title">'
                f'{inline_html(title["zh"])} · <span lang="en">{inline_html(title["en"])}</span></h2>'
            )
            body += [self.entry_html(self.kb.entries[r]) for r in refs]
            body.append("</section>")
        body.append("</section>")
        return document(title_of([game]), body)

    def front_html(self, parts: list[tuple[Game, list[Group]]]) -> str:
        """The cover and contents of several games (their pages follow, from each game's own document)."""
        return self.front.front_html(parts)

    def front_chunks(self, parts: list[tuple[Game, list[Group]]], entries: int) -> list[Callable[[int], str]]:
        """The cover and contents of several games as documents of about ``entries`` contents lines each
        (:meth:`~houserules.print.cover.FrontMatter.front_chunks`)."""
        return self.front.front_chunks(parts, entries)


LAYOUT: dict[str, Callable[[PrintDocument, Entry, B.Block], str]] = {
    "meta": PrintDocument.meta,
    "answer": PrintDocument.answer,
    "uncertain": PrintDocument.uncertain,
    "stale": PrintDocument.notice,
    "stub": PrintDocument.notice,
    "questions": PrintDocument.questions,
    "body": PrintDocument.body,
    "completion": PrintDocument.completion,
    "facts": PrintDocument.facts,
    "errata": PrintDocument.errata,
    "applies-to": PrintDocument.refs,
    "rulings": PrintDocument.refs,
    "see-also": PrintDocument.refs,
    "sources": PrintDocument.sources,
}
assert all(set(kinds) <= set(LAYOUT) for kinds in PRINT_BLOCKS.values()), "every printed block needs a print layout"
