"""The print document of one or more games: cover, contents and entries, as HTML for WeasyPrint.

Two layouts choose from the same entry blocks as the site (:mod:`houserules.render.blocks`):
``qa`` (the default: each entry's one-line answer and its questions, what a group
prints) and ``full`` (every detail: body, facts, errata, references, sources).
A reference prints as the target's title, code and page number, so a reader can
follow it on paper.
"""

from __future__ import annotations

import datetime
import hashlib
import itertools
import os
import xml.etree.ElementTree as etree
from collections.abc import Callable, Iterable
from dataclasses import dataclass


from ..data import vocab
from ..data.history import EntryChange, aspect_names
from ..data.model import Entry, Game, KnowledgeBase, game_sections
from ..data.version import data_version, game_version
from ..check.profile import ORIGIN, Profile
from ..render import blocks as B
from ..render.html import Html, bilingual_label
from ..render.text import Linker, inline_html
from ..render.urls import entry_url, go_url, question_code

LAYOUTS = ("qa", "full")
#: The blocks each layout prints, in order (the site shows all of them).
PRINT_BLOCKS: dict[str, tuple[str, ...]] = {
    "qa": ("meta", "answer", "uncertain", "stale", "stub", "questions"),
    "full": ("meta", "answer", "uncertain", "stale", "stub", "questions", "body", "completion", "facts", "errata",
             "applies-to", "rulings", "see-also", "sources"),
}
Group = tuple[str, dict[str, str], list[str]]
#: How the contents of several games link their entries, which are laid out in the games' own
#: files: WeasyPrint keeps such a link as it is, and the assembled PDF turns it into a link to
#: the named destination of the entry (:mod:`houserules.print.cache`).
FRONT_LINK = "houserules-anchor:"
_TOKENS = itertools.count()


def anchor(entry: Entry) -> str:
    """The entry's id in the print HTML (slugs have no '--', so this is unambiguous)."""
    return f"e-{entry.game}--{entry.id}"


class PrintLinker(Linker):
    """References to entries in this PDF: the title, then the code and page number; others by code (and web link)."""

    def __init__(self, kb: KnowledgeBase, printed: set[str], site_url: str | None = None,
                 pages: dict[str, int] | None = None, placeholder: int = 0):
        super().__init__(kb)
        self.printed = printed
        #: Page number of each entry's anchor, from the previous layout pass.
        self.pages = pages or {}
        #: Printed before the page numbers are known (the first layout pass). Digits are all
        #: equally wide in the print font, so a placeholder with as many digits as the numbers
        #: to come lays the text out as they will, and the second pass confirms it.
        self.placeholder = placeholder
        self.site_url = site_url.rstrip("/") + "/" if site_url else None
        self._token = next(_TOKENS)

    @property
    def key(self):
        # The rendered text depends on the page numbers: never share it across passes (a token,
        # not id(self): a freed linker's id is soon reused by the next pass's).
        return ("print", self._token)

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
        return (f'{link}<span class="hr-pref">（<a class="hr-page" href="#{anchor(target)}">'
                f"第 {self.page_of(target)} 页</a>）</span>")




@dataclass
class Since:
    """An insert of what changed since an earlier data version: ``houserules pdf --changes-since VERSION``."""

    version: str
    #: The entries added or changed since, by reference (only these are printed).
    changes: dict[str, EntryChange]
    removed: list[EntryChange]


@dataclass
class PrintOptions:
    layout: str = "qa"
    profile: Profile | None = None
    site_url: str | None = None
    #: The data version the cover prints (computed from the data folder when not given).
    version: str | None = None
    #: Print only what changed since an earlier version (an insert for a printed FAQ).
    since: Since | None = None


def print_groups(kb: KnowledgeBase, game: Game, profile: Profile | None, only: set[str] | None = None) -> list[Group]:
    """The game's printed entries, grouped as on its site page; a group's house rules first; ``only`` these if given."""
    groups: list[Group] = []
    if profile is not None:
        own = sorted((e for e in kb.game_entries(game.id) if e.origin == ORIGIN), key=lambda e: e.code)
        if own:
            name = profile.name
            groups.append(("house-rules", {"zh": f"本组房规：{name['zh']}", "en": f"House rules of {name.get('en', name['zh'])}"},
                           [e.ref for e in own]))
    for key, title, refs in game_sections(kb, game):
        kept = [r for r in refs if kb.entries[r].origin == "shared" and (profile is None or profile.includes(kb.entries[r]))
                and (only is None or r in only)]
        if kept:
            groups.append((key, title, kept))
    return groups


class PrintDocument:
    """Print HTML for a set of printed entries, with one linker (and so one set of page numbers)."""

    def __init__(self, kb: KnowledgeBase, linker: PrintLinker, options: PrintOptions, blocks: B.EntryBlocks | None = None):
        self.kb, self.linker, self.options = kb, linker, options
        self.h = Html(kb, linker)
        self.blocks = blocks or B.EntryBlocks(kb)

    # -- an entry -----------------------------------------------------------------------------
    def entry_html(self, entry: Entry) -> str:
        profile = self.options.profile
        house = entry.origin == ORIGIN
        out = [f'<article class="entry{" entry--house" if house else ""}" id="{anchor(entry)}">',
               f'<h3 class="entry-title">{self.qr(entry)}<span class="entry-code">{inline_html(entry.code)}</span> · '
               f'{inline_html(entry.title["zh"])}</h3>',
               f'<p class="entry-en" lang="en">{inline_html(entry.title["en"])}</p>']
        if house and profile is not None:
            out.append(f'<p class="house-mark">本组房规 · {inline_html(profile.name["zh"])}：非官方规则，仅本组使用。'
                       f'<span lang="en">House rule of {inline_html(profile.name.get("en", profile.name["zh"]))}, '
                       f'not an official rule.</span></p>')
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
        what = (f'：{inline_html("、".join(n["zh"] for n in names))} · '
                f'<span lang="en">{inline_html(", ".join(n["en"] for n in names))}</span>' if names else "")
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
        return (f'<div class="{css}" data-block="{block.kind}"><p class="hr-answer-label">{bilingual_label(block.label)}</p>'
                f"{inner}</div>")

    def answer(self, entry: Entry, block: B.Block) -> str:
        return self.boxed(block, "hr-answer", self.h.bilingual(block.data))

    def uncertain(self, entry: Entry, block: B.Block) -> str:
        return self.boxed(block, "hr-warning", self.h.bilingual(block.data))

    def notice(self, entry: Entry, block: B.Block) -> str:
        text = B.NOTICES[block.kind]
        return (f'<div class="hr-warning" data-block="{block.kind}"><p>{inline_html(text["zh"])}'
                f'<span lang="en">{inline_html(text["en"])}</span></p></div>')

    def questions(self, entry: Entry, block: B.Block) -> str:
        items = []
        for question in block.data:
            flag = '<span class="hr-flag">存疑 · uncertain</span> ' if question.get("confidence") == "uncertain" else ""
            items.append(f'<div class="hr-q" id="{anchor(entry)}--{question["id"]}">'
                         f'<p class="hr-q-text"><span class="hr-q-mark">问</span>{inline_html(question["q"]["zh"])} '
                         f'<span class="hr-en" lang="en">{inline_html(question["q"]["en"])}</span></p>'
                         f'<div class="hr-q-answer">{self.h.bilingual(question["a"])}</div>'
                         f'<p class="hr-q-cite">{flag}{inline_html(question_code(entry, question["id"]))}</p></div>')
        return f'<div class="hr-questions" data-block="questions">{"".join(items)}</div>'

    def body(self, entry: Entry, block: B.Block) -> str:
        return f'<div class="hr-body" data-block="body">{self.h.bilingual(block.data)}</div>'

    def completion(self, entry: Entry, block: B.Block) -> str:
        game = self.kb.games[entry.game]
        sources = "; ".join(self.h.source_label(game, s) for s in block.data["sources"])
        note = B.NOTICES["completion"]
        return (f'<div class="hr-completion" data-block="completion"><p class="hr-answer-label">{inline_html(note["zh"])} · '
                f'<span lang="en">{inline_html(note["en"])}</span></p>{self.h.bilingual(block.data["text"])}'
                f'<p class="hr-cite">{sources}</p></div>')

    def facts(self, entry: Entry, block: B.Block) -> str:
        return f'<div data-block="facts">{self.h.facts_table(self.kb.games[entry.game], block.data)}</div>'

    def errata(self, entry: Entry, block: B.Block) -> str:
        # On paper an erratum prints twice only: with the entry holding it and with its component.
        records = [r for r in block.data if r.relation != "applied"]
        if not records:
            return ""
        return (f'<div data-block="errata"><p class="hr-label">{bilingual_label(block.label)}</p>'
                f"{self.h.errata_table(records, via_page=False)}</div>")

    def refs(self, entry: Entry, block: B.Block) -> str:
        refs = block.data if block.kind != "rulings" else [r for r in block.data if r in self.linker.printed]
        links = [self.h.link(ref) for ref in refs]
        if not links:
            return ""
        return (f'<p class="hr-refs" data-block="{block.kind}"><span class="hr-label">{bilingual_label(block.label)}：</span>'
                + "；".join(links) + "</p>")

    def sources(self, entry: Entry, block: B.Block) -> str:
        game = self.kb.games[entry.game]
        return ('<p class="hr-cite entry-sources" data-block="sources">出处 · Sources：'
                + "；".join(self.h.source_label(game, s) for s in block.data) + "</p>")

    # -- the document ---------------------------------------------------------------------------
    def toc(self, layout: Iterable[tuple[Game, list[Group]]], link: str = "#", title: bool = True) -> str:
        """The contents; ``link`` prefixes each anchor (:data:`FRONT_LINK` when the entries are in other files).

        ``title=False``: a continuation of the contents, without its heading.
        """
        out = ['<nav class="toc">' + ('<h2 class="toc-title">目录 · Contents</h2>' if title else '')]
        for game, groups in layout:
            first = self.kb.entries[groups[0][2][0]] if groups else None
            start = f' data-page="{self.linker.page_of(first)}"' if first else ""
            out.append(f'<p class="toc-game"><a href="{link}g-{game.id}"{start}>{inline_html(game.name["zh"])} '
                       f'<span class="hr-en" lang="en">{inline_html(game.name["en"])}</span></a></p>')
            for key, title, refs in groups:
                out.append(f'<p class="toc-group toc-group--{inline_html(key)}">{inline_html(title["zh"])} · '
                           f'<span lang="en">{inline_html(title["en"])}</span></p><ul>')
                for ref in refs:
                    entry = self.kb.entries[ref]
                    out.append(f'<li><a href="{link}{anchor(entry)}" data-page="{self.linker.page_of(entry)}">'
                               f'<span class="entry-code">{inline_html(entry.code)}</span> {inline_html(entry.title["zh"])} '
                               f'<span class="hr-en" lang="en">{inline_html(entry.title["en"])}</span></a></li>')
                out.append("</ul>")
        out.append("</nav>")
        return "\n".join(out)

    def cover(self, games: list[Game], printed: list[Entry]) -> str:
        profile, since = self.options.profile, self.options.since
        if len(games) == 1:
            title, subtitle = games[0].name["zh"], games[0].name["en"]
        else:
            title, subtitle = "规则补充说明与房规", "Rulings, errata and house rules"
        if since is not None:
            title, subtitle = f"自 {since.version} 以来的更改", f"Changes since {since.version}"
        names = "".join(f'<li>{inline_html(g.name["zh"])} <span lang="en">{inline_html(g.name["en"])}</span></li>'
                        for g in games)
        group = ""
        if profile is not None:
            group = (f'<p class="cover-group">含本组房规：{inline_html(profile.name["zh"])}'
                     f'<br><span lang="en">With the house rules of {inline_html(profile.name.get("en", profile.name["zh"]))}</span></p>')
        layout = {"qa": ("问答版", "Questions and answers"), "full": ("完整版", "Full details")}[self.options.layout]
        questions = sum(len(e.questions) for e in printed)
        # One game's PDF prints that game's own version (a change elsewhere leaves it, and its cached layout, as it
        # was); several games print the whole folder's. --changes-since finds either.
        alone = len(games) == 1 and len(self.kb.games) > 1
        version = self.options.version or str(game_version(self.kb, games[0].id) if alone else data_version(self.kb))
        rows = [("数据版本 · Data version", version), ("打印日期 · Printed", print_date()),
                ("版式 · Layout", f"{layout[0]} · {layout[1]}"),
                ("条目 · Entries", str(len(printed))), ("问题 · Questions", str(questions))]
        removed = ""
        if since is not None:
            counts = [f"{vocab.CHANGE_STATUSES[status]['zh']} {n}" for status, n in (
                ("added", sum(c.status == "added" for c in since.changes.values())),
                ("changed", sum(c.status == "changed" for c in since.changes.values())),
                ("removed", len(since.removed))) if n]
            rows.insert(1, ("更改自 · Changes since", since.version))
            rows.insert(2, ("更改 · Changes", "，".join(counts) or "—"))
            removed = self.removed_list(since.removed)
        meta = "".join(f"<tr><th>{k}</th><td>{inline_html(v)}</td></tr>" for k, v in rows)
        kicker = "房规速查 · houserules FAQ" + (" · 更新插页 · update insert" if since is not None else "")
        return (f'<section class="cover"><p class="cover-kicker">{kicker}</p>'
                f'<h1 class="cover-title">{inline_html(title)}</h1><p class="cover-en" lang="en">{inline_html(subtitle)}</p>'
                f'<ul class="cover-games">{names}</ul>{group}<table class="cover-meta">{meta}</table>{removed}</section>')

    def removed_list(self, removed: list[EntryChange]) -> str:
        """The codes an insert withdraws: strike them out of the printed FAQ."""
        if not removed:
            return ""
        items = "".join(f'<li><span class="entry-code">{inline_html(c.code)}</span> {inline_html(c.title["zh"])} '
                        f'<span class="hr-en" lang="en">{inline_html(c.title["en"])}</span></li>' for c in removed)
        return (f'<div class="cover-removed" data-block="removed"><p class="hr-label">已删除的条目 · '
                f'<span lang="en">Removed entries</span>（{len(removed)}）</p><ul>{items}</ul></div>')

    def game_html(self, game: Game, groups: list[Group]) -> str:
        """One game's print document: cover, contents, then its entries group by group."""
        printed = [self.kb.entries[r] for _, _, refs in groups for r in refs]
        body = [self.cover([game], printed), self.toc([(game, groups)]),
                f'<section class="game" id="g-{game.id}"><h1 class="game-title">{inline_html(game.name["zh"])} '
                f'<span class="hr-en" lang="en">{inline_html(game.name["en"])}</span></h1>' + self.h.licence_box(game)]
        for key, title, refs in groups:
            body.append(f'<section class="group group--{inline_html(key)}"><h2 class="group-title">'
                        f'{inline_html(title["zh"])} · <span lang="en">{inline_html(title["en"])}</span></h2>')
            body += [self.entry_html(self.kb.entries[r]) for r in refs]
            body.append("</section>")
        body.append("</section>")
        return document(title_of([game]), body)

    def front_html(self, parts: list[tuple[Game, list[Group]]]) -> str:
        """The cover and contents of several games (their pages follow, from each game's own document)."""
        printed = [self.kb.entries[r] for _, groups in parts for _, _, refs in groups for r in refs]
        games = [game for game, _ in parts]
        return document(title_of(games), [self.cover(games, printed), self.toc(parts, FRONT_LINK)])

    def front_chunks(self, parts: list[tuple[Game, list[Group]]], entries: int) -> list[Callable[[int], str]]:
        """The cover and contents of several games as documents of about ``entries`` contents lines each.

        WeasyPrint holds a whole document's layout, about 0.25 MB per line of contents: thousands
        of entries are laid out a chunk of games at a time. Each chunk starts a new page; its
        HTML is made with the page number it starts on (a function of it), which the chunks
        before it decide. With one chunk, this is :meth:`front_html`.
        """
        chunks: list[list[tuple[Game, list[Group]]]] = [[]]
        size = 0
        for part in parts:
            count = sum(len(refs) for _, _, refs in part[1])
            if chunks[-1] and size + count > entries:
                chunks.append([])
                size = 0
            chunks[-1].append(part)
            size += count
        if len(chunks) == 1:
            return [lambda first_page: self.front_html(parts)]
        printed = [self.kb.entries[r] for _, groups in parts for _, _, refs in groups for r in refs]
        games = [game for game, _ in parts]
        made: list[Callable[[int], str]] = [
            lambda first_page: document(title_of(games), [self.cover(games, printed), self.toc(chunks[0], FRONT_LINK)])]
        for chunk in chunks[1:]:
            made.append(lambda first_page, chunk=chunk: document(
                title_of(games), [self.toc(chunk, FRONT_LINK, title=False)], first_page))
        return made


LAYOUT: dict[str, Callable[[PrintDocument, Entry, B.Block], str]] = {
    "meta": PrintDocument.meta, "answer": PrintDocument.answer, "uncertain": PrintDocument.uncertain,
    "stale": PrintDocument.notice, "stub": PrintDocument.notice, "questions": PrintDocument.questions,
    "body": PrintDocument.body, "completion": PrintDocument.completion, "facts": PrintDocument.facts,
    "errata": PrintDocument.errata, "applies-to": PrintDocument.refs, "rulings": PrintDocument.refs,
    "see-also": PrintDocument.refs, "sources": PrintDocument.sources,
}
assert all(set(kinds) <= set(LAYOUT) for kinds in PRINT_BLOCKS.values()), "every printed block needs a print layout"


def document(title: str, body: list[str], first_page: int = 1) -> str:
    """A print document; ``first_page`` numbers its first page (a continuation of another document)."""
    style = f"<style>@page :first {{ counter-reset: page {first_page}; }}</style>" if first_page != 1 else ""
    return (f'<!DOCTYPE html><html lang="zh"><head><meta charset="utf-8"><title>{inline_html(title)}</title>{style}'
            f'</head><body>{"".join(body)}</body></html>')


def title_of(games: list[Game]) -> str:
    return "房规速查 FAQ — " + "、".join(g.name["zh"] for g in games)


def print_date() -> str:
    """Today, or the date of ``SOURCE_DATE_EPOCH`` for reproducible builds."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    day = datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc).date() if epoch else datetime.date.today()
    return day.isoformat()


