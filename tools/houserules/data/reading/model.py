"""The loaded knowledge base: games, their glossaries and entries.

Each file becomes a frozen record (:mod:`.records`: typed fields, built once by the loader from
the validated data) that keeps the file's path and line map, so every later check can point back
at the exact line: ``entry.line("questions", 0, "q", "zh")``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:  # for mypy only (see Record.data): at run time the mark does nothing
    from typing_extensions import deprecated
else:

    def deprecated(message: str, category: object = None) -> Any:
        return lambda function: function


from . import vocab
from .records import (
    JSON,
    LINE_TEXT_BOTH,
    NO_TEXT,
    TEXT,
    Bilingual,
    Change,
    ClauseRef,
    Completion,
    Erratum,
    Fact,
    GameSource,
    Licence,
    Named,
    NotCovered,
    Question,
    QuestionSource,
    RegionalTerm,
    Scope,
    Section,
    Source,
    SourceException,
    Synonym,
    Term,
    Text,
    Translation,
    TranslatorNote,
    array,
    build,
    prop,
    to_def,
    words,
)
from .schemaparts import CODE, CODE_PREFIX, OVERRIDE, enum_of, line_field, text_field
from .vocab import INLINE_REF  # noqa: F401 - re-exported: where the data model is read
from .yamlload import Document, Path_, text_fields

__all__ = [
    "NO_TEXT",
    "QuestionSource",
    "read_entry",
    "Bilingual",
    "Change",
    "ClauseRef",
    "Completion",
    "Entry",
    "Erratum",
    "Fact",
    "Game",
    "GameSource",
    "Glossary",
    "INLINE_REF",
    "KnowledgeBase",
    "Licence",
    "Named",
    "NotCovered",
    "Question",
    "Record",
    "Scope",
    "Section",
    "Source",
    "SourceException",
    "Synonym",
    "Synonyms",
    "Term",
    "Text",
    "Translation",
    "TranslatorNote",
    "game_sections",
    "text_fields",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class Record:
    """What every loaded file has in common: its path and its document (the line of every value)."""

    path: Path
    doc: Document = field(repr=False, compare=False)

    @property
    # Marked so that mypy reports a read of it where pyproject.toml does not allow one ([tool.mypy]: the error code
    # "deprecated"); nothing is deprecated at run time (category=None: no warning).
    @deprecated("the file as written: outside the data layer, read the record's typed fields", category=None)
    def data(self) -> dict[str, JSON]:
        """The file's validated data as read (read it only where no record field says it)."""
        data: dict[str, JSON] = self.doc.data
        return data

    def line(self, *path: str | int) -> int:
        return self.doc.line(tuple(path))


@dataclass(frozen=True, slots=True, kw_only=True)
class Glossary(Record):
    game: str
    terms: tuple[Term, ...] = field(metadata=prop(array(Term)))


@dataclass(frozen=True, slots=True, kw_only=True)
class Synonyms(Record):
    """A synonym table of the search: what players say → the rules' word (``game`` "" for every game)."""

    game: str = ""
    synonyms: tuple[Synonym, ...] = field(metadata=prop(array(Synonym)))

    @property
    def items(self) -> tuple[Synonym, ...]:
        return self.synonyms


@dataclass(frozen=True, slots=True, kw_only=True)
class TraditionalTerms(Record):
    """The reviewed Traditional forms of the search (``rules_data/traditional.yaml``): what a query in
    Traditional characters reads where OpenCC's conversion would not do."""

    terms: tuple[RegionalTerm, ...] = field(metadata=prop(array(RegionalTerm)))


@dataclass(frozen=True, slots=True, kw_only=True)
class Game(Record):
    id: str = field(metadata=prop(to_def("slug")))
    code_prefix: str = field(metadata=prop(text_field(pattern=CODE_PREFIX)))
    name: Text = field(metadata=prop(LINE_TEXT_BOTH))
    aliases: tuple[str, ...] = field(default=(), metadata=prop(words()))
    publisher: str = field(default="", metadata=prop(line_field()))
    designers: tuple[str, ...] = field(default=(), metadata=prop(array(line_field())))
    description: Text | None = field(default=None, metadata=prop(TEXT))
    editions: tuple[Named, ...] = field(metadata=prop(array(Named, minItems=1)))
    expansions: tuple[Named, ...] = field(default=(), metadata=prop(array(Named)))
    licence: Licence = field(metadata=prop(Licence))
    sources: tuple[GameSource, ...] = field(metadata=prop({"type": "array", "minItems": 1, "items": GameSource}))
    contents: tuple[Section, ...] = field(metadata=prop(array(Section)))
    not_covered: tuple[NotCovered, ...] = field(
        default=(),
        metadata=prop(
            array(
                NotCovered,
                description="Topics of the game players ask about that no source here covers: a question about "
                "one is told that no ruling answers it.",
            )
        ),
    )
    production_words: tuple[str, ...] = field(
        default=(),
        metadata=prop(
            words(
                description="Words of the project's production that no shown text may use (e.g. 种子, seed); "
                "the ids of source documents that are file names are added."
            )
        ),
    )
    glossary: Glossary | None = None
    synonyms: Synonyms | None = None

    @property
    def source_ids(self) -> set[str]:
        return {source.id for source in self.sources}

    def source(self, doc_id: str) -> GameSource | None:
        return next((s for s in self.sources if s.id == doc_id), None)

    def source_title(self, doc_id: str, lang: str = "zh") -> str:
        """The title a reader sees for a source document (its id only when the game does not declare it)."""
        declared = self.source(doc_id)
        return declared.title.get(lang) if declared else doc_id

    def exceptions(self) -> dict[tuple[str, str], tuple[SourceException, ...]]:
        """The exceptions and conditions each source section attaches to its clauses: ``(doc, section) -> [...]``."""
        return {
            (source.id, section): exceptions
            for source in self.sources
            for section, exceptions in source.exceptions.items()
        }

    def clauses(self) -> dict[tuple[str, str], tuple[str, ...]]:
        """The clauses each source section declares: ``(doc, section) -> [clause ids]``."""
        return {(source.id, section): clauses for source in self.sources for section, clauses in source.clauses.items()}


@dataclass(frozen=True, slots=True, kw_only=True)
class Entry(Record):
    """One entry file, its values as typed fields; ``game:id`` is its ``ref``."""

    SCHEMA_EXTRA: ClassVar[dict[str, Any]] = {
        "allOf": [
            {
                "if": {"properties": {"confidence": {"const": "uncertain"}}, "required": ["confidence"]},
                "then": {"required": ["confidence_note"]},
            }
        ]
    }

    game: str
    #: Where the entry comes from: ``shared`` data, or a group's house-rule profile.
    origin: str = "shared"
    id: str = field(metadata=prop(to_def("slug")))
    code: str = field(metadata=prop(text_field(pattern=CODE, description="Short stable citation code, e.g. BH-A13.")))
    kind: str = field(metadata=prop(enum_of(vocab.KINDS)))
    title: Text = field(metadata=prop(LINE_TEXT_BOTH))
    aliases: tuple[str, ...] = field(default=(), metadata=prop(array(line_field(maxLength=200), uniqueItems=True)))
    summary: Text = field(metadata=prop(TEXT))
    body: Text = field(default=NO_TEXT, metadata=prop(TEXT))
    facts: tuple[Fact, ...] = field(default=(), metadata=prop(array(Fact)))
    applies_to: tuple[str, ...] = field(default=(), metadata=prop(to_def("refs")))
    see_also: tuple[str, ...] = field(default=(), metadata=prop(to_def("refs")))
    overrides: tuple[str, ...] = field(
        default=(),
        metadata=prop(
            array(
                text_field(pattern=OVERRIDE, maxLength=200),
                uniqueItems=True,
                description="A group's house rule: the official entries (game:id: their one-line answer) and "
                "questions (game:id/question-id) it changes; each of them then says so and points to it.",
            )
        ),
    )
    authority: str = field(metadata=prop(enum_of(vocab.AUTHORITIES)))
    scope: Scope | None = field(default=None, metadata=prop(Scope))
    confidence: str = field(metadata=prop(enum_of(vocab.CONFIDENCES)))
    confidence_note: Text | None = field(default=None, metadata=prop(TEXT))
    status: str = field(default="", metadata=prop(enum_of(vocab.STATUSES)))
    sources: tuple[Source, ...] = field(metadata=prop(to_def("sources")))
    completion: Completion | None = field(default=None, metadata=prop(Completion))
    questions: tuple[Question, ...] = field(default=(), metadata=prop(array(Question)))
    errata: tuple[Erratum, ...] = field(default=(), metadata=prop(array(Erratum)))
    translator_notes: tuple[TranslatorNote, ...] = field(default=(), metadata=prop(array(TranslatorNote)))
    translations: Mapping[str, Translation] = field(
        default_factory=dict,
        metadata=prop({"type": "object", "propertyNames": enum_of(vocab.LANGS), "additionalProperties": Translation}),
    )
    history: tuple[Change, ...] = field(default=(), metadata=prop(array(Change)))
    #: ``game:id``.
    ref: str = field(init=False, repr=False, compare=False)
    #: What the entry computes once (its texts and references): entries do not change once loaded.
    _memo: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "ref", f"{self.game}:{self.id}")

    def field_refs(self) -> Iterator[tuple[Path_, str]]:
        """References held in reference fields, with their paths."""
        for index, ref_ in enumerate(self.applies_to):
            yield ("applies_to", index), ref_
        for index, ref_ in enumerate(self.see_also):
            yield ("see_also", index), ref_
        for index, target in enumerate(self.overrides):
            yield ("overrides", index), target.split("/", 1)[0]
        for index, erratum in enumerate(self.errata):
            yield ("errata", index, "component"), erratum.component

    def inline_refs(self) -> Iterator[tuple[Path_, str]]:
        """``[[...]]`` references written inside any text field."""
        for path, _, ref_ in self.placed_inline_refs():
            yield path, ref_

    def placed_inline_refs(self) -> list[tuple[Path_, int, str]]:
        """``[[...]]`` references with their field path and offset in the field's text (found once)."""
        found: list[tuple[Path_, int, str]] | None = self._memo.get("inline_refs")
        if found is None:
            found = self._memo["inline_refs"] = (
                [
                    (path, match.start(), match.group(1).strip())
                    for path, text in self.texts
                    if "[[" in text
                    for match in INLINE_REF.finditer(text)
                ]
                if "[[" in self.all_text
                else []
            )
        return found

    def located_inline_refs(self) -> list[tuple[Path_, int, str]]:
        """``[[...]]`` references with their field path and line in the file."""
        return [(path, self.doc.text_line(path, offset), ref_) for path, offset, ref_ in self.placed_inline_refs()]

    @property
    def texts(self) -> tuple[tuple[Path_, str], ...]:
        """Every text of the entry with its path (:func:`text_fields`), found once."""
        found: tuple[tuple[Path_, str], ...] | None = self._memo.get("texts")
        if found is None:
            found = self._memo["texts"] = self.doc.texts()
        return found

    @property
    def all_text(self) -> str:
        """Every text of the entry joined by blank lines (found once): a check looks for a word in it
        first, and at the texts one by one only when it is there."""
        found: str | None = self._memo.get("all_text")
        if found is None:
            found = self._memo["all_text"] = "\n\n".join(map(itemgetter(1), self.texts))
        return found

    def all_refs(self) -> list[str]:
        """Every reference of the entry, fields first, in order, without repeats."""
        found: tuple[str, ...] | None = self._memo.get("all_refs")
        if found is None:
            seen: dict[str, None] = {}
            for _, ref_ in (*self.field_refs(), *self.inline_refs()):
                seen.setdefault(ref_, None)
            found = self._memo["all_refs"] = tuple(seen)
        return list(found)

    def citations(self) -> Iterator[tuple[Path_, Source]]:
        """Every source citation in the entry, wherever it stands, with its path."""
        for index, source in enumerate(self.sources):
            yield ("sources", index), source
        if self.completion:
            for index, source in enumerate(self.completion.sources):
                yield ("completion", "sources", index), source
        for i, erratum in enumerate(self.errata):
            for j, source in enumerate(erratum.sources):
                yield ("errata", i, "sources", j), source
        for i, note in enumerate(self.translator_notes):
            yield ("translator_notes", i, "source"), note.source
        for i, fact in enumerate(self.facts):
            if fact.source:
                yield ("facts", i, "source"), fact.source


def read_entry(path: Path, doc: Document, game: str, origin: str = "shared") -> Entry:
    """The entry of a validated document."""
    return build(Entry, doc.data, path=path, doc=doc, game=game, origin=origin)


#: The records of whole files, by the name of their schema.
FILE_RECORDS: dict[str, type[Record]] = {
    "entry": Entry,
    "game": Game,
    "glossary": Glossary,
    "synonyms": Synonyms,
    "traditional": TraditionalTerms,
}


@dataclass
class KnowledgeBase:
    """Every game and entry that loaded, indexed for lookups."""

    games: dict[str, Game] = field(default_factory=dict)
    entries: dict[str, Entry] = field(default_factory=dict)
    #: The data folder it was loaded from (its data version is this folder's).
    root: Path | None = None
    #: The synonym table of every game (``rules_data/synonyms.yaml``), if any.
    synonyms: Synonyms | None = None
    #: The reviewed Traditional forms (``rules_data/traditional.yaml``), if any.
    traditional: TraditionalTerms | None = None

    def traditional_terms(self) -> list[tuple[str, str]]:
        """The reviewed Traditional forms as ``(simplified, traditional)`` pairs."""
        return [(term.zh, term.hant) for term in self.traditional.terms] if self.traditional else []

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
) -> list[tuple[str, Bilingual, list[str]]]:
    """A game's entries grouped as its page and its printed FAQ show them: (anchor, title, refs).

    The sections of the game's ``contents`` first, then every other entry by kind, by code.
    ``entries`` are the game's entries when the caller has them at hand (``kb.game_entries``).
    """
    sections: list[tuple[str, Bilingual, list[str]]] = []
    listed: set[str] = set()
    for section in game.contents:
        refs = [r for r in section.entries if r in kb.entries]
        listed.update(refs)
        sections.append((section.id, section.title, refs))
    by_kind: dict[str, list[str]] = {}
    for entry in kb.game_entries(game.id) if entries is None else entries:
        if entry.ref not in listed:
            by_kind.setdefault(entry.kind, []).append(entry.ref)
    for kind, refs in by_kind.items():
        sections.append((f"more-{kind}", vocab.KINDS[kind], sorted(refs, key=lambda r: kb.entries[r].code)))
    return sections
