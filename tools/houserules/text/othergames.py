"""Other tabletop games a player may ask about (``other_games.txt``): a question naming one is told that no
ruling here answers it, unless the knowledge base holds that game (``search.indexcache.outside_names``).

A line of the file is ``English name | Chinese name | alias | …``; ``#`` starts a comment.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

GAMES_FILE = Path(__file__).with_name("other_games.txt")


@cache
def other_games() -> tuple[tuple[str, ...], ...]:
    """Each game's names: its English name, its Chinese name, then its aliases (empty fields left out).

    >>> ("Gloomhaven", "幽港迷城") in {names[:2] for names in other_games()}
    True
    """
    games = []
    for line in GAMES_FILE.read_text(encoding="utf-8").splitlines():
        fields = tuple(field.strip() for field in line.split("#", 1)[0].split("|"))
        if any(fields):
            games.append(tuple(field for field in fields if field))
    return tuple(games)


@cache
def digest() -> str:
    """The file's hash: an index made with another list is made again."""
    return hashlib.blake2b(GAMES_FILE.read_bytes(), digest_size=8).hexdigest()
