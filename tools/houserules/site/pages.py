"""Every generated page of the site, as Markdown: a pure function of the knowledge base."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import partial

from ..data.reading import vocab
from ..data.reading.model import Game
from ..render.html import Html
from ..render.templating import render
from ..render.urls import (
    CHANGES_PAGE,
    GO_PAGE,
    PRINT_DIR,
    PRINT_PAGE,
    entry_src,
    faq_src,
    game_src,
    page_url,
    pdf_name,
    question_url,
    tag_src,
)
from . import translators
from .changelog import changes_page
from .context import SiteContext
from .entry_page import entry_page
from .golinks import go_page
from .markup import SiteLinker, front_matter


def _page(ctx: SiteContext, src: str) -> tuple[SiteLinker, Html]:
    linker = SiteLinker(ctx.kb, page_url(src))
    return linker, Html(ctx.kb, linker, ctx.markdown)


def game_page(ctx: SiteContext, game: Game) -> str:
    src = game_src(game.id)
    linker, h = _page(ctx, src)
    questions = sum(len(e.questions) for e in ctx.game_entries(game.id))
    head = front_matter(f"{game.name['zh']} {game.name['en']}", game.description.zh if game.description else "")
    sources = [{"title": s.title, "kind": vocab.SOURCE_KINDS[s.kind]["zh"], "note": s.note} for s in game.sources]
    sections = [(anchor, title, [ctx.kb.entries[r] for r in refs]) for anchor, title, refs in ctx.sections(game)]
    return f"{head}\n" + render(
        "site/game.html",
        h=h,
        game=game,
        description=game.description,
        licence=game.licence,
        translator_links=translators.game_links(game, linker, questions),
        sections=sections,
        empty=not any(entries for _, _, entries in sections),  # a new game: one line says so
        not_covered=game.not_covered,
        sources=sources,
    )


def faq_page(ctx: SiteContext, game: Game) -> str:
    """All of a game's questions with their answers, grouped as on the game page: the page a group bookmarks."""
    src = faq_src(game.id)
    linker, h = _page(ctx, src)
    count = sum(len(e.questions) for e in ctx.game_entries(game.id))
    head = front_matter(f"常见问题 FAQ · {game.name['zh']}", f"{game.name['zh']}：{count} 个常见问题与答案")
    sections = []
    for anchor, title, refs in ctx.sections(game):
        holders = [ctx.kb.entries[r] for r in refs if ctx.kb.entries[r].questions]
        if holders:
            sections.append((anchor, title, holders))
    return f"{head}\n" + render(
        "site/faq.html",
        h=h,
        game=game,
        count=count,
        game_href=linker.url(page_url(game_src(game.id))),
        sections=sections,
        question_href=lambda entry, qid: linker.url(question_url(entry, qid)),
    )


def home_cards(ctx: SiteContext, page: str = "index.html") -> str:
    cards = []
    for game in ctx.kb.games.values():
        entries = ctx.game_entries(game.id)
        kinds = Counter(entry.kind for entry in entries)
        cards.append(
            {
                "game": game,
                "href": SiteLinker(ctx.kb, page).url(page_url(game_src(game.id))),
                "entries": len(entries),
                "questions": sum(len(e.questions) for e in entries),
                "kinds": " · ".join(f"{vocab.KINDS[k]['zh']} {n}" for k, n in kinds.items()),
                "sources": "、".join(s.title.zh for s in game.sources if s.kind in {"seed", "srd"}),
            }
        )
    return render("site/cards.html", cards=cards)


def licences(ctx: SiteContext, page: str) -> str:
    h = Html(ctx.kb, SiteLinker(ctx.kb, page), ctx.markdown)
    return render("site/licences.html", h=h, games=[(g, g.licence) for g in ctx.kb.games.values()])


def tag_index(ctx: SiteContext) -> str:
    linker = SiteLinker(ctx.kb, "tags/index.html")
    tags = [
        {"href": linker.url(page_url(tag_src(t))), "name": ctx.tag_names[t], "count": len(refs)}
        for t, refs in sorted(ctx.tagged.items())
    ]
    return front_matter("标签 Tags", search={"exclude": True}) + render("site/tags.html", tags=tags)


def tag_page(ctx: SiteContext, tag: str) -> str:
    name = ctx.tag_names[tag]
    _, h = _page(ctx, tag_src(tag))
    entries = [ctx.kb.entries[r] for r in ctx.tagged[tag]]
    return front_matter(f"{name['zh']} {name['en']}", search={"exclude": True}) + render(
        "site/tag.html", h=h, name=name, entries=entries
    )


def print_page(ctx: SiteContext) -> str:
    """The site's ``print/index.md``: the PDFs and how to print a group's own FAQ."""
    kb = ctx.kb
    linker = SiteLinker(kb, page_url(PRINT_PAGE))
    rows = [(pdf_name(None), "全部游戏", "All games", len(kb.entries))]
    rows += [(pdf_name(g.id), g.name["zh"], g.name["en"], len(ctx.game_entries(g.id))) for g in kb.games.values()]
    pdfs = [
        {"href": linker.url(f"{PRINT_DIR}/{name}"), "zh": zh, "en": en, "count": count} for name, zh, en, count in rows
    ]
    return front_matter("打印版 Printed FAQ") + render("site/print.html", pdfs=pdfs)


def page_makers(ctx: SiteContext) -> dict[str, Callable[[], str]]:
    """Every generated page, in site order: docs-relative path → the function making its Markdown.

    A live preview makes only the pages a change touches (:mod:`houserules.site.incremental`).
    """
    kb = ctx.kb
    makers: dict[str, Callable[[], str]] = {entry_src(e): partial(entry_page, ctx, e) for e in kb.entries.values()}
    for game in kb.games.values():
        makers[game_src(game.id)] = partial(game_page, ctx, game)
        makers[faq_src(game.id)] = partial(faq_page, ctx, game)
    makers["tags/index.md"] = partial(tag_index, ctx)
    makers.update({tag_src(t): partial(tag_page, ctx, t) for t in sorted(ctx.tagged)})
    makers.update(translators.makers(ctx))
    makers[PRINT_PAGE] = partial(print_page, ctx)
    makers[GO_PAGE] = partial(go_page, kb)
    makers[CHANGES_PAGE] = partial(changes_page, kb, ctx.history)
    return makers


def site_pages(ctx: SiteContext) -> dict[str, str]:
    """Every generated page: docs-relative path → Markdown."""
    return {src: make() for src, make in page_makers(ctx).items()}
