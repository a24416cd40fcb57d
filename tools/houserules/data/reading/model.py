"""The loaded knowledge base: games, their glossaries and entries.

Objects wrap the validated data of their file (``data``) and keep the file's
path and line map, so every later check can point back at the exact line.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from .vocab import INLINE_REF  # noqa: F401 - re-exported: where the data model is read
from .yamlload import Document, Path_


def text_fields(data: Any, path: Path_ = ()) -> Iterator[tuple[Path_, str]]:
    """Every string in ``data`` with its path, depth first.

    >>> list(text_fields({"a": ["x", {"b": "y"}]}))
    [(('a', 0), 'x'), (('a', 1, 'b'), 'y')]
    """
    if isinstance(data, str):
        yield path, data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield from text_fields(value, path + (key,))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from text_fields(value, path + (index,))


@dataclass
class Record:
    """What every loaded file has in common."""

    path: Path
    doc: Document

    @property
    def data(self) -> dict[str, Any]:
        return self.doc.data

    def line(self, *path: str | int) -> int:
        return self.doc.line(tuple(path))


@dataclass
class Game(Record):
    glossary: Glossary | None = None
    synonyms: Synonyms | None = None

    @property
    def id(self) -> str:
        return self.data["id"]

    @property
    def name(self) -> dict[str, str]:
        return self.data["name"]

    @property
    def code_prefix(self) -> str:
        return self.data["code_prefix"]

    @property
    def source_ids(self) -> set[str]:
        return {source["id"] for source in self.data.get("sources", [])}

    def source(self, doc_id: str) -> dict[str, Any] | None:
        return next((s for s in self.data.get("sources", []) if s["id"] == doc_id), None)

    def source_title(self, doc_id: str, lang: str = "zh") -> str:
        """The title a reader sees for a source document (its id only when the game does not declare it)."""
        declared = self.source(doc_id)
        return declared["title"][lang] if declared else doc_id

    @property
    def contents(self) -> list[dict[str, Any]]:
        return self.data.get("contents", [])

    def exceptions(self) -> dict[tuple[str, str], list[dict[str, Any]]]:
        """The exceptions and conditions each source section attaches to its clauses: ``(doc, section) -> [...]``."""
        return {
            (source["id"], section): exceptions
            for source in self.data.get("sources", [])
            for section, exceptions in source.get("exceptions", {}).items()
        }

    def clauses(self) -> dict[tuple[str, str], list[str]]:
        """The clauses each source section declares: ``(doc, section) -> [clause ids]``."""
        return {
            (source["id"], section): clauses
            for source in self.data.get("sources", [])
            for section, clauses in source.get("clauses", {}).items()
        }


@dataclass
class Glossary(Record):
    game: str = ""

    @property
    def terms(self) -> list[dict[str, Any]]:
        return self.data.get("terms", [])


@dataclass
class Synonyms(Record):
    """A synonym table of the search: what players say → the rules' word (``game`` "" for every game)."""

    game: str = ""

    @property
    def items(self) -> list[dict[str, Any]]:
        return self.data.get("synonyms", [])


@dataclass
class Entry(Record):
    game: str = ""
    #: Where the entry comes from: ``shared`` data, or a group's house-rule profile.
    origin: str = "shared"

    @property
    def id(self) -> str:
        return self.data["id"]

    @cached_property
    def ref(self) -> str:
        return f"{self.game}:{self.id}"

    @property
    def code(self) -> str:
        return self.data["code"]

    @property
    def kind(self) -> str:
        return self.data["kind"]

    @property
    def title(self) -> dict[str, str]:
        return self.data["title"]

    @property
    def summary(self) -> dict[str, str]:
        return self.data["summary"]

    @property
    def body(self) -> dict[str, str]:
        return self.data.get("body", {})

    @property
    def aliases(self) -> list[str]:
        return self.data.get("aliases", [])

    @property
    def applies_to(self) -> list[str]:
        return self.data.get("applies_to", [])

    @property
    def see_also(self) -> list[str]:
        return self.data.get("see_also", [])

    @property
    def errata(self) -> list[dict[str, Any]]:
        return self.data.get("errata", [])

    @property
    def questions(self) -> list[dict[str, Any]]:
        return self.data.get("questions", [])

    def field_refs(self) -> Iterator[tuple[Path_, str]]:
        """References held in reference fields, with their paths."""
        for name in ("applies_to", "see_also"):
            for index, ref in enumerate(self.data.get(name, [])):
                yield (name, index), ref
        for index, erratum in enumerate(self.errata):
            yield ("errata", index, "component"), erratum["component"]

    def inline_refs(self) -> Iterator[tuple[Path_, str]]:
        """``[[...]]`` references written inside any text field."""
        for path, _, ref in self.located_inline_refs():
            yield path, ref

    def located_inline_refs(self) -> list[tuple[Path_, int, str]]:
        """``[[...]]`` references with their field path and line in the file."""
        return self._inline_refs

    @cached_property
    def texts(self) -> tuple[tuple[Path_, str], ...]:
        """Every text of the entry with its path (:func:`text_fields`), found once: entries do not change once loaded."""
        return tuple(text_fields(self.data))

    @cached_property
    def _inline_refs(self) -> list[tuple[Path_, int, str]]:
        # Every check and page asks for these.
        return [
            (path, self.doc.text_line(path, match.start()), match.group(1).strip())
            for path, text in self.texts
            if "[[" in text
            for match in INLINE_REF.finditer(text)
        ]

    def all_refs(self) -> list[str]:
        """Every reference of the entry, fields first, in order, without repeats."""
        return list(self._all_refs)

    @cached_property
    def _all_refs(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for _, ref in (*self.field_refs(), *self.inline_refs()):
            seen.setdefault(ref, None)
        return tuple(seen)

    def sources(self) -> Iterator[tuple[Path_, dict[str, Any]]]:
        """Every source citation in the entry, wherever it stands."""
        for index, source in enumerate(self.data.get("sources", [])):
            yield ("sources", index), source
        for index, source in enumerate(self.data.get("completion", {}).get("sources", [])):
            yield ("completion", "sources", index), source
        for i, erratum in enumerate(self.errata):
            for j, source in enumerate(erratum.get("sources", [])):
                yield ("errata", i, "sources", j), source
        for i, note in enumerate(self.data.get("translator_notes", [])):
            yield ("translator_notes", i, "source"), note["source"]
        for i, fact in enumerate(self.data.get("facts", [])):
            if "source" in fact:
                yield ("facts", i, "source"), fact["source"]


@dataclass
class KnowledgeBase:
    """Every game and entry that loaded, indexed for lookups."""

    games: dict[str, Game] = field(default_factory=dict)
    entries: dict[str, Entry] = field(default_factory=dict)
    #: The data folder it was loaded from (its data version is this folder's).
    root: Path | None = None
    #: The synonym table of every game (``rules_data/synonyms.yaml``), if any.
    synonyms: Synonyms | None = None

    def synonym_tables(self) -> list[Synonyms]:
        """The general table, then each game's."""
        tables = [self.synonyms] if self.synonyms else []
        return tables + [g.synonyms for g in self.games.values() if g.synonyms]

    def by_code(self) -> dict[str, Entry]:
        return {entry.code: entry for entry in self.entries.values()}

    def lookup(self, ref_or_code: str) -> Entry | None:
        """An entry by ``game:id`` or by its code (case-insensitive)."""
        if ref_or_code in self.entries:
            return self.entries[ref_or_code]
        wanted = ref_or_code.strip().upper()
        return next((e for e in self.entries.values() if e.code == wanted), None)

    def game_entries(self, game: str) -> list[Entry]:
        return [e for e in self.entries.values() if e.game == game]

    def backlinks(self) -> dict[str, list[str]]:
        """For each entry, the entries that refer to it (in load order)."""
        result: dict[str, list[str]] = {ref: [] for ref in self.entries}
        for entry in self.entries.values():
            for ref in entry.all_refs():
                if ref in result and ref != entry.ref and entry.ref not in result[ref]:
                    result[ref].append(entry.ref)
        return result


def game_sections(
    kb: KnowledgeBase, game: Game, entries: list[Entry] | None = None
) -> list[tuple[str, dict[str, str], list[str]]]:
    """A game's entries grouped as its page and its printed FAQ show them: (anchor, title, refs).

    The sections of the game's ``contents`` first, then every other entry by kind, by code.
    ``entries`` are the game's entries when the caller has them at hand (``kb.game_entries``).
    """
    from . import vocab

    sections = []
    listed: set[str] = set()
    for section in game.contents:
        refs = [r for r in section["entries"] if r in kb.entries]
        listed.update(refs)
        sections.append((section["id"], section["title"], refs))
    by_kind: dict[str, list[str]] = {}
    for entry in kb.game_entries(game.id) if entries is None else entries:
        if entry.ref not in listed:
            by_kind.setdefault(entry.kind, []).append(entry.ref)
    for kind, refs in by_kind.items():
        sections.append((f"more-{kind}", vocab.KINDS[kind], sorted(refs, key=lambda r: kb.entries[r].code)))
    return sections
