"""The consistency rules of the data: references, ids, codes, sources, scope, contents, orphans, coverage.

Each ``check_*`` function is a small generator of :class:`~houserules.errors.Problem`
over a loaded knowledge base.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

from ..data.reading import vocab
from ..data.reading.model import Entry, KnowledgeBase
from ..data.reading.schemaparts import REF
from ..data.reading.yamlload import Path_
from ..errors import Problem, display_path

_REF = re.compile(REF)


def entry_problem(
    entry: Entry, path: tuple[Any, ...], problem: str, fix: str, severity: str = "error", line: int | None = None
) -> Problem:
    line = entry.doc.line(path) if line is None else line
    return Problem(display_path(entry.path), line, entry.ref, problem, fix, severity)


def check_references(kb: KnowledgeBase) -> Iterator[Problem]:
    for entry in kb.entries.values():
        # The line of a reference is found only for a problem (offset None: the field's own line).
        refs: list[tuple[Path_, int | None, str, str]] = [
            (path, None, ref, f"'{ref}'") for path, ref in entry.field_refs()
        ]
        refs += [(path, offset, ref, f"[[{ref}]]") for path, offset, ref in entry.placed_inline_refs()]
        for path, offset, ref, shown in refs:
            if ref in kb.entries and ref != entry.ref:
                continue  # most references: fine
            line = entry.doc.line(path) if offset is None else entry.doc.text_line(path, offset)
            if not _REF.fullmatch(ref):
                yield entry_problem(
                    entry,
                    path,
                    f"reference {shown} is not of the form game:id",
                    "write it as game:id, e.g. [[betrayal:vault]]",
                    line=line,
                )
            elif ref == entry.ref:
                yield entry_problem(
                    entry, path, f"the entry refers to itself ({shown})", "remove the self-reference", line=line
                )
            elif ref not in kb.entries:
                game = ref.split(":", 1)[0]
                if game not in kb.games:
                    yield entry_problem(
                        entry,
                        path,
                        f"reference {shown} names unknown game '{game}'",
                        f"use one of: {', '.join(sorted(kb.games))}",
                        line=line,
                    )
                else:
                    yield entry_problem(
                        entry,
                        path,
                        f"reference {shown} does not resolve",
                        f"create rules_data/{game}/entries/{ref.split(':', 1)[1]}.yaml or fix the id",
                        line=line,
                    )


def check_ids(kb: KnowledgeBase) -> Iterator[Problem]:
    for entry in kb.entries.values():
        if entry.id in vocab.RESERVED_IDS:
            yield entry_problem(
                entry,
                ("id",),
                f"id '{entry.id}' is reserved for a page of the game",
                f"choose another id (reserved: {', '.join(sorted(vocab.RESERVED_IDS))})",
            )


def check_games(kb: KnowledgeBase) -> Iterator[Problem]:
    """A game's id is no folder the site needs for itself; its code letters are its own and begin no other game's."""
    seen: dict[str, str] = {}
    for game in kb.games.values():
        if game.id in vocab.RESERVED_GAME_IDS:
            yield Problem(
                display_path(game.path),
                game.line("id"),
                game.id,
                f"game id '{game.id}' is the name of a folder of the site",
                f"rename the game's folder and its id (reserved: {', '.join(sorted(vocab.RESERVED_GAME_IDS))})",
            )
        prefix = game.code_prefix
        for other_prefix, other in seen.items():
            if prefix == other_prefix or prefix.startswith(other_prefix) or other_prefix.startswith(prefix):
                same = prefix == other_prefix
                yield Problem(
                    display_path(game.path),
                    game.line("code_prefix"),
                    game.id,
                    f"code letters {prefix} {'are also' if same else 'begin alike with'} those of game '{other}' "
                    f"({other_prefix})",
                    "give each game letters of its own, neither beginning with the other's: a code typed without "
                    "its hyphen must name one game",
                )
        seen[prefix] = game.id


def check_codes(kb: KnowledgeBase) -> Iterator[Problem]:
    seen: dict[str, Entry] = {}
    for entry in kb.entries.values():
        game = kb.games[entry.game]
        if not entry.code.startswith(game.code_prefix + "-"):
            yield entry_problem(
                entry,
                ("code",),
                f"code '{entry.code}' does not start with the game's prefix '{game.code_prefix}-'",
                f"use a code like {game.code_prefix}-{entry.code.split('-', 1)[-1]}",
            )
        if entry.code in seen:
            other = seen[entry.code]
            yield entry_problem(
                entry,
                ("code",),
                f"duplicate code '{entry.code}' (also {other.ref})",
                "give this entry a code of its own; codes are printed and cited",
            )
        else:
            seen[entry.code] = entry


def check_sources(kb: KnowledgeBase) -> Iterator[Problem]:
    for entry in kb.entries.values():
        declared = kb.games[entry.game].source_ids
        for path, source in entry.citations():
            if source.doc not in declared and not vocab.is_placeholder(source.doc):  # placeholders: their own check
                yield entry_problem(
                    entry,
                    path + ("doc",),
                    f"source document '{source.doc}' is not declared by game '{entry.game}'",
                    f"add it to the sources of rules_data/{entry.game}/game.yaml "
                    f"or use one of: {', '.join(sorted(declared))}",
                )


def check_scope(kb: KnowledgeBase) -> Iterator[Problem]:
    for entry in kb.entries.values():
        game = kb.games[entry.game]
        if entry.scope is None:
            continue
        for key, named, value in (
            ("edition", game.editions, entry.scope.edition),
            ("expansion", game.expansions, entry.scope.expansion),
        ):
            allowed = [item.id for item in named]
            if value and value not in allowed:
                yield entry_problem(
                    entry,
                    ("scope", key),
                    f"{key} '{value}' is not declared by game '{entry.game}'",
                    f"use one of: {', '.join(allowed) or '(none declared)'}",
                )


def check_contents(kb: KnowledgeBase) -> Iterator[Problem]:
    """The game's contents list only its own, existing entries, each once."""
    for game in kb.games.values():
        counts = Counter(ref for section in game.contents for ref in section.entries)
        for i, section in enumerate(game.contents):
            for j, ref in enumerate(section.entries):
                entry = kb.entries.get(ref)
                if entry is None:
                    problem, fix = (
                        f"contents list '{ref}', which does not exist",
                        "fix the reference or create the entry",
                    )
                elif entry.game != game.id:
                    problem, fix = f"contents list '{ref}' of another game", "list it in that game's game.yaml"
                elif counts[ref] > 1:
                    problem, fix = f"contents list '{ref}' more than once", "keep it in one section"
                else:
                    continue
                yield Problem(display_path(game.path), game.line("contents", i, "entries", j), game.id, problem, fix)


def check_orphans(kb: KnowledgeBase) -> Iterator[Problem]:
    listed = {ref for game in kb.games.values() for section in game.contents for ref in section.entries}
    backlinks = kb.backlinks()
    for entry in kb.entries.values():
        if entry.origin == "shared" and entry.ref not in listed and not backlinks[entry.ref]:
            yield entry_problem(
                entry,
                ("id",),
                "orphan entry: no game contents section lists it and no entry refers to it",
                f"add '{entry.ref}' to a contents section of rules_data/{entry.game}/game.yaml "
                "or refer to it from a related entry",
            )


def check_coverage(kb: KnowledgeBase) -> Iterator[Problem]:
    """Every section a game declares for a source document is cited by some entry."""
    cited = {(e.game, s.doc, s.ref) for e in kb.entries.values() for _, s in e.citations()}
    for game in kb.games.values():
        for i, source in enumerate(game.sources):
            for j, section in enumerate(source.sections or ()):
                if (game.id, source.id, section) not in cited:
                    yield Problem(
                        display_path(game.path),
                        game.line("sources", i, "sections", j),
                        game.id,
                        f"section '{section}' of {source.id} is not cited by any entry",
                        f'cite it in an entry: sources: [{{doc: {source.id}, ref: "{section}"}}]',
                    )
