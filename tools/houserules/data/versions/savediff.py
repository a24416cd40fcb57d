"""What changed between two loads of the same data: the entries edited, and the entries that show them.

A live preview rebuilds only what a change touches. An entry's outputs (its page, its
record in the JSON API, its search documents) show its own data and, of other entries,
the code, titles and address of those it refers to, of those that refer to it, and the
errata held about it or about what it applies to. So when an entry changes, the
outputs to make again are those of the entries *related* to it, in the old data and
in the new one: :attr:`Changes.shown`.

>>> from houserules.data.reading.model import KnowledgeBase
>>> changes = diff(KnowledgeBase(), KnowledgeBase())
>>> changes.entries, changes.everything
(frozenset(), False)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..reading.model import Entry, KnowledgeBase


@dataclass(frozen=True)
class Changes:
    """The difference between the data of the last build and of this one.

    Writers of build outputs (pages, the JSON API, search files) are given one, or
    ``None`` for a full build; any writer may ignore it and rewrite everything.
    """

    #: Entries added, removed or edited (``game:id``).
    entries: frozenset[str]
    #: Entries whose outputs may show something of an edited one: the edited entries, those they
    #: refer to, those referring to them, those showing the errata they hold (old and new data).
    shown: frozenset[str]
    #: The games of the entries in :attr:`shown`.
    games: frozenset[str]
    #: A game, a glossary or the list of games changed: every output may differ.
    everything: bool = False

    @property
    def empty(self) -> bool:
        return not self.entries and not self.everything


def _same_entry(old: Entry | None, new: Entry | None) -> bool:
    if old is None or new is None:
        return old is new
    return old is new or (old.path == new.path and old.origin == new.origin and old.data == new.data)


def _same_games(old: KnowledgeBase, new: KnowledgeBase) -> bool:
    if list(old.games) != list(new.games):
        return False
    for game_id, game in new.games.items():
        before = old.games[game_id]
        if game.data != before.data:
            return False
        glossaries = (before.glossary, game.glossary)
        if (glossaries[0] is None) != (glossaries[1] is None):
            return False
        if glossaries[0] is not None and glossaries[0].data != glossaries[1].data:  # type: ignore[union-attr]
            return False
    return True


def related(kb: KnowledgeBase, refs: Iterable[str]) -> set[str]:
    """The entries of ``kb`` whose outputs show something of the entries ``refs`` (these included)."""
    wanted = {ref for ref in refs if ref in kb.entries}
    components = {erratum.component for ref in wanted for erratum in kb.entries[ref].errata}
    found = set(wanted)
    for ref in wanted:
        found.update(r for r in kb.entries[ref].all_refs() if r in kb.entries)
    for entry in kb.entries.values():  # one pass: who refers to them, who applies to an erratum's component
        if wanted.intersection(entry.all_refs()) or components.intersection(entry.applies_to):
            found.add(entry.ref)
    found.update(c for c in components if c in kb.entries)
    return found


def diff(old: KnowledgeBase, new: KnowledgeBase) -> Changes:
    """What differs from ``old`` to ``new`` (entries compared by identity first, then by data)."""
    refs = set(old.entries) | set(new.entries)
    edited = frozenset(ref for ref in refs if not _same_entry(old.entries.get(ref), new.entries.get(ref)))
    shown = frozenset(related(old, edited) | related(new, edited))
    games = frozenset(kb.entries[ref].game for kb in (old, new) for ref in shown if ref in kb.entries)
    return Changes(edited, shown, games, everything=not _same_games(old, new))
