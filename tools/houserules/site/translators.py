"""The translators' pages: errata (per game and for all), glossary and translator notes, their links and nav."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from ..data.reading import vocab
from ..data.reading.model import Game, KnowledgeBase
from ..render.blocks import Erratum
from ..render.html import Html
from ..render.templating import render
from ..render.urls import download_url, errata_src, faq_src, glossary_src, notes_src, page_url, translators_src
from .markup import SiteLinker, front_matter
from .report import channel_url

if TYPE_CHECKING:
    from .context import SiteContext

#: The pages every game has, in the order they are linked: (docs path, Chinese, English).
GAME_PAGES = (
    (faq_src, "常见问题", "FAQ"),
    (glossary_src, "术语表", "Glossary"),
    (errata_src, "勘误", "Errata"),
    (notes_src, "译注", "Translator notes"),
    (translators_src, "译者下载", "For translators"),
)
ALL_ERRATA = (errata_src(None), "全部勘误", "All errata")
ALL_TRANSLATORS = (translators_src(None), "译者 · 全部游戏", "For translators: all games")


def game_links(game: Game, linker: SiteLinker, questions: int) -> list[dict[str, Any]]:
    """The links from a game's page to its FAQ (with its number of questions) and translators' pages."""
    return [
        {"href": linker.url(page_url(src(game.id))), "zh": zh, "en": en, "count": questions if src is faq_src else None}
        for src, zh, en in GAME_PAGES
    ]


def nav(kb: KnowledgeBase) -> list[dict[str, Any]]:
    """A nav section with the errata of all games and each game's FAQ and translators' pages."""
    items: list[dict[str, Any]] = [
        {f"{ALL_TRANSLATORS[1]} {ALL_TRANSLATORS[2]}": ALL_TRANSLATORS[0]},
        {f"{ALL_ERRATA[1]} {ALL_ERRATA[2]}": ALL_ERRATA[0]},
    ]
    for game in kb.games.values():
        items.append({f"{game.name.zh} {game.name.en}": [{f"{zh} {en}": src(game.id)} for src, zh, en in GAME_PAGES]})
    return [{"译者 Translators": items}]


def _errata(ctx: SiteContext, game_id: str) -> list[Erratum]:
    return ctx.errata_by_game.get(game_id, [])


def _statuses(records: list[Erratum]) -> str:
    """How many errata of each status: ``已报告 2 · 已确认 1``."""
    counts = Counter(record.data.status for record in records)
    return " · ".join(f"{vocab.ERRATA_STATUSES[s]['zh']} {counts[s]}" for s in vocab.ERRATA_STATUSES if counts[s])


def errata_page(ctx: SiteContext, game: Game | None = None) -> str:
    """The errata page of one game, or of all games (one section per game)."""
    src = errata_src(game.id if game else None)
    h = Html(ctx.kb, SiteLinker(ctx.kb, page_url(src)), ctx.markdown)
    if game is not None:
        records = _errata(ctx, game.id)
        return (
            front_matter(f"勘误 Errata · {game.name['zh']}")
            + "\n"
            + render("site/errata.html", h=h, game=game, records=records, statuses=_statuses(records))
        )
    groups = [
        (each, records, _statuses(records)) for each in ctx.kb.games.values() if (records := _errata(ctx, each.id))
    ]
    return front_matter("全部勘误 All errata") + "\n" + render("site/errata.html", h=h, game=None, groups=groups)


def glossary_page(ctx: SiteContext, game: Game) -> str:
    """A table of every term of a game, sorted by English name, for translators to scan and search."""
    linker = SiteLinker(ctx.kb, page_url(glossary_src(game.id)))
    glossary = game.glossary.terms if game.glossary else []
    terms = [(term, ctx.kb.entries.get(term.entry)) for term in sorted(glossary, key=lambda t: t.en.casefold())]
    return (
        front_matter(f"术语表 Glossary · {game.name['zh']}", f"{game.name['zh']} 中英术语对照")
        + "\n"
        + render(
            "site/glossary.html",
            h=Html(ctx.kb, linker, ctx.markdown),
            game=game,
            terms=terms,
            downloads_href=linker.url(page_url(translators_src(game.id))),
        )
    )


def notes_page(ctx: SiteContext, game: Game) -> str:
    """One section per entry holding translator notes, each note as on the entry's own page."""
    linker = SiteLinker(ctx.kb, page_url(notes_src(game.id)))
    holders = [(e, e.translator_notes) for e in ctx.game_entries(game.id) if e.translator_notes]
    count = sum(len(notes) for _, notes in holders)
    return (
        front_matter(f"译注 Translator notes · {game.name['zh']}")
        + "\n"
        + render("site/notes.html", h=Html(ctx.kb, linker, ctx.markdown), game=game, holders=holders, count=count)
    )


def translators_page(ctx: SiteContext, game: Game | None = None) -> str:
    """The downloads for translators (of one game, or of all games) and what each one is for."""
    from ..export.downloads import DOWNLOADS

    src = translators_src(game.id if game else None)
    linker = SiteLinker(ctx.kb, page_url(src))
    name = f"{game.name['zh']}" if game else "全部游戏"
    files = []
    for item in DOWNLOADS:
        url = download_url(game.id if game else None, item.name)
        files.append(
            {
                "href": linker.url(url),
                "name": url.rsplit("/", 1)[-1],
                "item": item,
                "command": item.command + (f" --game {game.id}" if game else ""),
            }
        )
    pages = []  # a game's: links to its other pages
    if game is not None:
        pages = [
            {"href": linker.url(page_url(page(game.id))), "zh": zh, "en": en, "count": None}
            for page, zh, en in GAME_PAGES
            if page is not translators_src
        ]
    games = [{"game": g, "href": linker.url(page_url(translators_src(g.id)))} for g in ctx.kb.games.values()]
    return (
        front_matter(f"译者 For translators · {name}")
        + "\n"
        + render(
            "site/downloads.html",
            game=game,
            name=name,
            name_en=game.name["en"] if game else "all games",
            files=files,
            pages=pages,
            games=games,
            back=send_back(ctx, f"{game.name['zh']} · {game.name['en']}" if game else "全部游戏 · All games"),
        )
    )


def send_back(ctx: SiteContext, game: str) -> dict[str, str | None]:
    """Where a translator sends an edited file back: a new issue on the site's repository (the file attached to it),
    else the group's channel (``extra.report``: an address, or a sentence shown as it is), else nothing named."""
    href = ctx.repo.translation_url(game) if ctx.repo is not None else None
    if href:
        return {"href": href, "text": None}
    if ctx.report:
        address = channel_url(ctx.report, {"title": f"译文 · Translation: {game}", "cite": "l10n"})
        return {"href": address, "text": None if address else ctx.report.strip()}
    return {"href": None, "text": None}


def makers(ctx: SiteContext) -> dict[str, Callable[[], str]]:
    """Every translators' page: docs-relative path → the function making its Markdown."""
    result: dict[str, Callable[[], str]] = {
        ALL_ERRATA[0]: partial(errata_page, ctx),
        ALL_TRANSLATORS[0]: partial(translators_page, ctx),
    }
    for game in ctx.kb.games.values():
        result[glossary_src(game.id)] = partial(glossary_page, ctx, game)
        result[errata_src(game.id)] = partial(errata_page, ctx, game)
        result[notes_src(game.id)] = partial(notes_page, ctx, game)
        result[translators_src(game.id)] = partial(translators_page, ctx, game)
    return result
