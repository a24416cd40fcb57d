"""A group's own house rules: a profile file and a folder of entries, kept apart from the shared data.

A profile names the group, the games its FAQ covers, which shared entries to
print and the folder of its own entries (same schema as shared entries,
``kind: house-rule`` and ``authority: house-rule``)::

    name: {zh: 周五桌游小组, en: Friday board-game group}
    games: [betrayal]
    include: {all: true}          # or {kinds: [ruling]}, {refs: [betrayal:vault-ruling]}
    entries: entries              # <game>/<id>.yaml, relative to the profile file
    sources:                      # the group's own documents its entries may cite
      - {id: group-notes, title: {zh: 小组记录, en: Group notes}}

Loading never touches the shared data: the shared knowledge base is copied,
the group's entries are added with ``origin="profile"``, and the usual checks
run on the combination. House rules may refer to shared entries; shared
entries may never refer to house rules.
"""

from __future__ import annotations

import dataclasses
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..data.reading.load import LoadResult, load_entries
from ..data.reading.model import Entry, Game, GameSource, KnowledgeBase, Record
from ..data.reading.readfile import read_document
from ..data.reading.records import build
from ..data.reading.safefile import folder_children
from ..errors import HouserulesError, Problem, display_path
from . import check_kb

ORIGIN = "profile"
HOUSE_RULE = "house-rule"  # the kind and the authority every house-rule entry has


@dataclass(frozen=True, slots=True, kw_only=True)
class Profile(Record):
    """A loaded, validated profile file (read from its data: a profile is no part of the knowledge base)."""

    @property
    def name(self) -> dict[str, str]:
        name: dict[str, str] = self.data["name"]
        return name

    @property
    def games(self) -> list[str]:
        games: list[str] = self.data["games"]
        return games

    @property
    def entries_dir(self) -> Path:
        return (self.path.parent / str(self.data["entries"])).resolve()

    @property
    def label(self) -> str:
        return f"profile:{self.path.stem}"

    def includes(self, entry: Entry) -> bool:
        """Whether the group's FAQ prints ``entry`` (its own house rules always)."""
        if entry.origin == ORIGIN:
            return True
        if entry.game not in self.games:
            return False
        include = self.data["include"]
        return bool(
            include.get("all") or entry.kind in include.get("kinds", ()) or entry.ref in include.get("refs", ())
        )

    def problem(self, path: tuple[Any, ...], problem: str, fix: str) -> Problem:
        return Problem(display_path(self.path), self.doc.line(path), self.label, problem, fix)


def _with_sources(game: Game, profile: Profile) -> Game:
    """A copy of ``game`` that also declares the group's own documents (kind ``fan``)."""
    own = tuple(build(GameSource, {**source, "kind": "fan"}) for source in profile.data.get("sources", []))
    return dataclasses.replace(game, sources=game.sources + own)


def _check_profile(profile: Profile, shared: KnowledgeBase) -> Iterator[Problem]:
    for index, game in enumerate(profile.games):
        if game not in shared.games:
            yield profile.problem(
                ("games", index), f"unknown game '{game}'", f"use one of: {', '.join(sorted(shared.games))}"
            )
    for index, ref in enumerate(profile.data["include"].get("refs", [])):
        if ref not in shared.entries:
            yield profile.problem(
                ("include", "refs", index),
                f"included entry '{ref}' does not exist in the shared data",
                "fix the reference (game:id of a shared entry)",
            )
        elif shared.entries[ref].game not in profile.games:
            yield profile.problem(
                ("include", "refs", index),
                f"included entry '{ref}' belongs to a game the profile does not list",
                f"add '{ref.split(':')[0]}' to games or remove the reference",
            )
    if not profile.entries_dir.is_dir():
        yield profile.problem(
            ("entries",),
            f"entries folder '{profile.data['entries']}' not found",
            f"create {display_path(profile.entries_dir)} with <game>/<id>.yaml files",
        )


def _game_folders(profile: Profile, problems: list[Problem]) -> Iterator[tuple[str, Path]]:
    """The ``<game>/`` folders of the entries folder; anything else is a problem."""
    if not profile.entries_dir.is_dir():
        return
    children = folder_children(profile.entries_dir, profile.label, problems)
    for child, mode in children or []:
        # A group may link its game folders from elsewhere: the profile is its own, trusted.
        if (stat.S_ISDIR(mode) or stat.S_ISLNK(mode) and child.is_dir()) and child.name in profile.games:
            yield child.name, child
        else:
            problems.append(
                Problem(
                    display_path(child),
                    1,
                    profile.label,
                    f"'{child.name}' is not the folder of a game the profile lists",
                    f"keep entries in <game>/<id>.yaml with a game of: {', '.join(profile.games)}",
                )
            )


def _check_house_rules(kb: KnowledgeBase) -> Iterator[Problem]:
    """House rules say so; shared entries never lean on a group's house rules."""
    for entry in kb.entries.values():
        if entry.origin == ORIGIN:
            for name, value in (("kind", entry.kind), ("authority", entry.authority)):
                if value != HOUSE_RULE:
                    yield Problem(
                        display_path(entry.path),
                        entry.line(name),
                        entry.ref,
                        f"a group's entry has {name} '{value}'",
                        f"set '{name}: {HOUSE_RULE}'",
                    )
            continue
        for path, ref in (*entry.field_refs(), *entry.inline_refs()):
            target = kb.entries.get(ref)
            if target is not None and target.origin == ORIGIN:
                yield Problem(
                    display_path(entry.path),
                    entry.line(*path),
                    entry.ref,
                    f"shared entry refers to the house rule '{ref}' of a group",
                    "shared entries may not refer to house rules; remove the reference",
                )


def load_profile(path: Path, shared: KnowledgeBase) -> tuple[Profile, KnowledgeBase]:
    """Read ``path`` and return it with the shared data plus the group's house rules.

    Raises :class:`HouserulesError` listing every problem (located, with a fix).
    """
    label = f"profile:{path.stem}"
    doc, problems = read_document(path, "profile", label)
    if doc is None:
        raise HouserulesError(f"the profile {display_path(path)} is not valid", problems)
    profile = Profile(path=path, doc=doc)
    problems += _check_profile(profile, shared)  # beside _read's own: texts with nothing visible
    kb = KnowledgeBase(
        games={
            gid: _with_sources(game, profile) if gid in profile.games else game for gid, game in shared.games.items()
        },
        entries=dict(shared.entries),
        root=shared.root,
    )
    result = LoadResult(kb)
    for game_id, folder in _game_folders(profile, problems):
        load_entries(folder, game_id, result, origin=ORIGIN)
    problems += result.problems
    if not any(e.origin == ORIGIN for e in kb.entries.values()) and not problems:
        problems.append(
            profile.problem(
                ("entries",),
                "the profile has no house-rule entries",
                f"add <game>/<id>.yaml files to {display_path(profile.entries_dir)}",
            )
        )
    problems += check_kb(kb) + list(_check_house_rules(kb))
    if problems:
        unique = sorted(set(problems), key=lambda p: (p.path, p.line, p.problem))
        raise HouserulesError(f"the profile {display_path(path)} has {len(unique)} problems", unique)
    return profile, kb
