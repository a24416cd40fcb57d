"""The translators' pages of the site: errata, glossary and translator notes, their links and nav."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errata import errata_page, errata_src
from .glossary import glossary_page, glossary_src
from .model import KnowledgeBase
from .notes import notes_page, notes_src
from .textrender import inline_html, relative_url

if TYPE_CHECKING:
    from .model import Game
    from .pages import SiteRenderer

#: The pages every game has, in the order they are linked: (docs path, Chinese, English).
GAME_PAGES = (
    (glossary_src, "术语表", "Glossary"),
    (errata_src, "勘误", "Errata"),
    (notes_src, "译注", "Translator notes"),
)
ALL_ERRATA = ("errata.md", "全部勘误", "All errata")


def pages(site: "SiteRenderer") -> dict[str, str]:
    """Every translators' page: docs-relative path → Markdown."""
    result = {ALL_ERRATA[0]: errata_page(site)}
    for game in site.kb.games.values():
        result[glossary_src(game)] = glossary_page(site, game)
        result[errata_src(game)] = errata_page(site, game)
        result[notes_src(game)] = notes_page(site, game)
    return result


def game_links(game: "Game", page: str) -> str:
    """The line of links from a game's page to its translators' pages."""
    links = " · ".join(
        f'<a href="{inline_html(relative_url(src(game).removesuffix(".md") + ".html", page))}">{zh} '
        f'<span lang="en">{en}</span></a>' for src, zh, en in GAME_PAGES)
    return f'<p class="hr-translators">译者工具 · For translators: {links}</p>\n'


def nav(kb: KnowledgeBase) -> list[dict[str, Any]]:
    """A nav section with the errata of all games and each game's translators' pages."""
    items: list[dict[str, Any]] = [{f"{ALL_ERRATA[1]} {ALL_ERRATA[2]}": ALL_ERRATA[0]}]
    for game in kb.games.values():
        items.append({f"{game.name['zh']} {game.name['en']}": [
            {f"{zh} {en}": src(game)} for src, zh, en in GAME_PAGES]})
    return [{"译者 Translators": items}]
