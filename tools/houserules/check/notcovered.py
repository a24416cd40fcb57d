"""A game's ``not_covered`` topics are what no entry answers: one an entry, a glossary term or a synonym names is
covered.

A question naming a topic listed there is told that no ruling answers it (``search.query.QueryReader.outside``),
so a topic an entry now answers must leave the list, and a name the search cannot match (one Chinese character)
tells no one anything.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..data.reading.model import Game, KnowledgeBase
from ..errors import Problem, display_path
from ..text import searchtext
from .synonymcheck import names_of


def check_not_covered(kb: KnowledgeBase) -> Iterator[Problem]:
    for game in kb.games.values():
        if not game.not_covered:
            continue
        named = names_of(kb, [game.id]) | said_of(kb, game.id)
        for index, topic in enumerate(game.not_covered):
            for name in [*topic.name.values(), *topic.aliases]:
                if searchtext.fold(name).strip() in named:
                    yield _problem(
                        game,
                        index,
                        f"'{name}' is listed as not covered, but an entry, a glossary term or a synonym of the game "
                        "is named so",
                        "remove the name from not_covered: what it names answers questions about it",
                    )
                elif not searchtext.name_key(name):
                    yield _problem(
                        game,
                        index,
                        f"'{name}' names nothing the search can match (a name of one Chinese character)",
                        "write the topic's whole name",
                    )


def said_of(kb: KnowledgeBase, game: str) -> set[str]:
    """What players say that the game's synonym tables (its own and every game's) turn into the rules' words."""
    return {
        searchtext.fold(said).strip()
        for table in kb.synonym_tables()
        if table.game in (game, None, "")
        for item in table.items
        for said in item.say
    }


def _problem(game: Game, index: int, problem: str, fix: str) -> Problem:
    return Problem(display_path(game.path), game.line("not_covered", index), game.id, problem, fix, severity="warning")
