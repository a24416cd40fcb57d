"""What a print document prints: the options, the printed entries by group, and where each entry is anchored."""

from __future__ import annotations

from dataclasses import dataclass

from ..check.profile import ORIGIN, Profile
from ..data.reading.model import Bilingual, Entry, Game, KnowledgeBase, game_sections
from ..data.versions.history import EntryChange

#: A heading of printed entries: its key, its title (``zh``, ``en``) and the entries' references.
Group = tuple[str, Bilingual, list[str]]
#: How the contents of several games link their entries, which are laid out in the games' own
#: files: WeasyPrint keeps such a link as it is, and the assembled PDF turns it into a link to
#: the named destination of the entry (:mod:`houserules.print.pdfcache`).
FRONT_LINK = "houserules-anchor:"


#: The kinds of change (:data:`houserules.data.reading.vocab.CHANGE_ASPECTS`) each layout's pages show
#: (:data:`houserules.print.document.PRINT_BLOCKS`: the code, title and kind, the one-line answer, the
#: questions, the uncertain, stale and stub notices; the full layout adds the details). An insert of what
#: changed since a printout lists an entry only for these: a change of its aliases, its history or its
#: translator notes alone prints nothing new.
PRINTED_ASPECTS: dict[str, frozenset[str]] = {
    "qa": frozenset({"title", "code", "answer", "questions", "status", "translations", "details"}),
}
PRINTED_ASPECTS["full"] = PRINTED_ASPECTS["qa"] | {"body", "facts", "errata", "references", "sources"}


def printed_changes(changes: list[EntryChange], layout: str) -> list[EntryChange]:
    """The added, removed and changed entries of ``changes`` whose change a printout in ``layout`` shows."""
    shown = PRINTED_ASPECTS[layout]
    return [c for c in changes if c.status != "changed" or not c.aspects or not shown.isdisjoint(c.aspects)]


def printed_since(kb: KnowledgeBase, version: str, changes: list[EntryChange], layout: str) -> Since:
    """What an insert of the changes since ``version`` prints in ``layout``: of the entries whose change it
    shows (:func:`printed_changes`), those added or changed and still in the data, and those removed."""
    shown = printed_changes(changes, layout)
    changed = {c.ref: c for c in shown if c.status != "removed" and c.ref in kb.entries}
    return Since(version, changed, [c for c in shown if c.status == "removed"])


def anchor(entry: Entry) -> str:
    """The entry's id in the print HTML (slugs have no '--', so this is unambiguous)."""
    return f"e-{entry.game}--{entry.id}"


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
            groups.append(
                (
                    "house-rules",
                    {"zh": f"本组房规：{name['zh']}", "en": f"House rules of {name.get('en', name['zh'])}"},
                    [e.ref for e in own],
                )
            )
    for key, title, refs in game_sections(kb, game):
        kept = [
            r
            for r in refs
            if kb.entries[r].origin == "shared"
            and (profile is None or profile.includes(kb.entries[r]))
            and (only is None or r in only)
        ]
        if kept:
            groups.append((key, title, kept))
    return groups


def printed_groups(kb: KnowledgeBase, game: Game, options: PrintOptions) -> list[Group]:
    """What ``options`` print of ``game``: its entries by the group's profile, and of an insert only those
    added or changed since (the contents of an insert list nothing it does not print)."""
    only = set(options.since.changes) if options.since is not None else None
    return print_groups(kb, game, options.profile, only)
