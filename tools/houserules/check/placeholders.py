"""Placeholders left by ``houserules new`` and ``new-game``: each one is a located problem saying what to write there.

``houserules new`` fills every required field it cannot know with a text starting
with :data:`~houserules.data.reading.vocab.PLACEHOLDER` (``TODO``), so the new file loads
and every later check runs; this check then names each placeholder left, with its
line and what belongs there, until the entry is written. An entry's placeholder is an
error (the entry's page would show it). A game's (``houserules new-game``: the licence,
the description, a source's title) is a warning, so that a new game builds and previews
while its first entries are written; ``houserules publish --check`` refuses them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..data.reading.model import Entry, Game, KnowledgeBase
from ..data.reading.vocab import PLACEHOLDER, is_placeholder
from ..errors import Problem, display_path
from .rules import entry_problem


def _fix(entry: Entry, kb: KnowledgeBase, path: tuple[Any, ...]) -> str:
    """What belongs in the field at ``path``."""
    field = tuple(p for p in path if not isinstance(p, int))
    languages = {"zh": "in Chinese", "en": "in English (or remove the line)"}
    if field[:1] == ("summary",) and field[-1] in languages:
        return f"write the one-line answer a player needs mid-game, {languages[field[-1]]}"
    if field[:1] == ("body",) and field[-1] in languages:
        return f"write the details {languages[field[-1]]}, or remove the field"
    if field[-1:] == ("doc",):
        declared = ", ".join(sorted(kb.games[entry.game].source_ids)) or "(none: declare one in game.yaml)"
        return f"write the id of the source document the entry is based on, one of: {declared}"
    if field[-1:] == ("ref",):
        return "write where in that source: a ruling number, a section heading or a page, e.g. 【13】 or p. 12"
    return "replace it with the real text"


def check_placeholders(kb: KnowledgeBase) -> Iterator[Problem]:
    yield from game_placeholders(kb)
    for entry in kb.entries.values():
        if PLACEHOLDER not in entry.all_text:
            continue
        for path, text in entry.texts:
            if PLACEHOLDER in text and is_placeholder(text):
                name = ".".join(map(str, path))
                yield entry_problem(
                    entry, path, f"field '{name}' is still a placeholder ({PLACEHOLDER}…)", _fix(entry, kb, path)
                )


#: What belongs in a field of ``game.yaml``, by its path (numbers left out), for each language.
_GAME_FIXES = {
    ("description",): "describe the game in a sentence or two, and which of its rules the entries cover, {lang}",
    ("licence", "name"): "name the licence of the game's rules (CC BY 4.0, Public domain...), or 'All rights "
    "reserved' (then the entries paraphrase and credit)",
    ("licence", "attribution"): "write the credit the rights holder asks for (the game's makers, the licence, "
    "what was changed), {lang}",
    ("sources", "title"): "write the document's title as a reader should see it, {lang}",
}
_LANGS = {"zh": "in Chinese", "en": "in English"}


def _game_texts(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _game_texts(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _game_texts(item, (*path, index))


def game_placeholders(kb: KnowledgeBase) -> Iterator[Problem]:
    """Every placeholder left in a game's ``game.yaml``, as a warning."""
    for game in kb.games.values():
        yield from _placeholders_of(game)


def _placeholders_of(game: Game) -> Iterator[Problem]:
    for path, text in _game_texts(game.data):
        if not is_placeholder(text):
            continue
        field = tuple(p for p in path if not isinstance(p, int))
        lang = _LANGS.get(str(field[-1]), "")
        fix = _GAME_FIXES.get(field[:-1] if lang else field, "replace it with the real text")
        yield Problem(
            display_path(game.path),
            game.line(*path),
            game.id,
            f"field '{'.'.join(map(str, path))}' is still a placeholder ({PLACEHOLDER}…)",
            fix.format(lang=lang),
            "warning",
        )
