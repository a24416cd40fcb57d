"""Placeholders left by ``houserules new``: each one is a located problem saying what to write there.

``houserules new`` fills every required field it cannot know with a text starting
with :data:`~houserules.data.reading.vocab.PLACEHOLDER` (``TODO``), so the new file loads
and every later check runs; this check then names each placeholder left, with its
line and what belongs there, until the entry is written.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..data.reading.model import Entry, KnowledgeBase
from ..data.reading.vocab import PLACEHOLDER, is_placeholder
from ..errors import Problem
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
    for entry in kb.entries.values():
        if PLACEHOLDER not in entry.all_text:
            continue
        for path, text in entry.texts:
            if PLACEHOLDER in text and is_placeholder(text):
                name = ".".join(map(str, path))
                yield entry_problem(
                    entry, path, f"field '{name}' is still a placeholder ({PLACEHOLDER}…)", _fix(entry, kb, path)
                )
