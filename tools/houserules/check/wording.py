"""Shown text speaks the reader's language: no production words.

The data is written from source documents that the project calls "seeds" and stores under file
names (``002_912163b109a9ba77.txt``). A reader knows neither: a page, an answer, the PDF or an
export says "this Chinese translation" or names the document by its title. Each game lists the
words its text must not show (``production_words`` in ``game.yaml``); the ids of its source
documents that look like file names are added. Keys that hold ids rather than text (a source's
``doc`` and ``id``, a source ``kind``, codes, clauses, hashes) are not shown as written and are
not checked.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from ..data.model import Game, KnowledgeBase, text_fields
from ..errors import Problem, display_path
from .rules import entry_problem

#: Keys whose values are ids, not text a reader sees as written.
ID_KEYS = frozenset({"doc", "id", "kind", "code", "clause", "clauses", "source_hash", "from", "production_words"})
_FILE_NAME = re.compile(r"\.[A-Za-z0-9]{1,5}$")


def production_words(game: Game) -> list[str]:
    """The words ``game``'s shown text must not use: its list, and its source ids that are file names.

    A source id is a file name when it ends in an extension (``002_….txt``); ``rulebook-2e`` is not.
    """
    words = list(game.data.get("production_words", []))
    words += [s["id"] for s in game.data.get("sources", []) if _FILE_NAME.search(s["id"])]
    return list(dict.fromkeys(words))


def _pattern(words: Iterable[str]) -> re.Pattern[str] | None:
    """One search for all words: Latin words from a word start (``seed`` finds ``seeds``, not ``linseed``),
    anything else anywhere; case-insensitive.

    >>> _pattern(["种子", "seed"]).findall("The seed's 种子译文; linseed; Seeds")
    ['seed', '种子', 'Seed']
    """
    parts = [
        (r"\b" if re.match(r"[A-Za-z]", word) else "") + re.escape(word)
        for word in sorted(words, key=len, reverse=True)
    ]
    return re.compile("|".join(parts), re.IGNORECASE) if parts else None


def _shown(data: Any) -> Iterator[tuple[tuple, str]]:
    for path, text in text_fields(data):
        if not any(isinstance(key, str) and key in ID_KEYS for key in path):
            yield path, text


def _fix(game: Game) -> str:
    return (
        "say it in the reader's words (本中文译本 / this translation; the document's title) — the list is "
        f"production_words in rules_data/{game.id}/game.yaml"
    )


def check_wording(kb: KnowledgeBase) -> Iterator[Problem]:
    """No text a person reads (entries, game, glossary) uses one of its game's production words."""
    patterns = {game.id: (game, _pattern(production_words(game))) for game in kb.games.values()}
    for game, pattern in patterns.values():
        if pattern is None:
            continue
        records = [(game, display_path(game.path), game.id)]
        if game.glossary is not None:
            records.append((game.glossary, display_path(game.glossary.path), game.id))
        for record, where, name in records:
            for path, text in _shown(record.data):
                if match := pattern.search(text):
                    yield Problem(where, record.line(*path), name, _message(path, match), _fix(game))
    for entry in kb.entries.values():
        game, pattern = patterns.get(entry.game, (None, None))
        if pattern is None:
            continue
        for path, text in _shown(entry.data):
            if match := pattern.search(text):
                yield entry_problem(entry, path, _message(path, match), _fix(game))


def _message(path: tuple, match: re.Match[str]) -> str:
    return f"field '{'.'.join(map(str, path))}' uses the production word '{match.group(0)}'"
