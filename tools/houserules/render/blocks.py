"""The blocks of an entry, as data: what every output of an entry can show, in order.

The site page, the printed FAQ and the terminal each choose which blocks they
lay out (``SITE``, ``PRINT`` ...) and how, but they all take them from
:meth:`EntryBlocks.blocks`, so an entry cannot show an answer, a warning or an
erratum in one output and silently lose it in another.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass

from ..data.reading import vocab
from ..data.reading.model import Change, Completion, Entry, Fact, KnowledgeBase, Question, Source, Text, TranslatorNote
from ..data.reading.model import Erratum as ErratumRecord
from ..data.versions.sourcehash import stale_translations

#: Every block an entry can have, in the order outputs show them.
ORDER = (
    "overridden",
    "answer",
    "questions",
    "aliases",
    "uncertain",
    "stale",
    "stub",
    "body",
    "completion",
    "facts",
    "errata",
    "applies-to",
    "rulings",
    "see-also",
    "referenced-by",
    "translator-notes",
    "sources",
    "meta",
    "history",
)
#: Labels of the blocks that are not sections of the page (those are in vocab.SECTIONS).
LABELS: dict[str, dict[str, str]] = {
    "overridden": {"zh": "本组房规", "en": "Your group's house rule"},
    "answer": {"zh": "一句话答案", "en": "Short answer"},
    "aliases": {"zh": "别名", "en": "Aliases"},
    "uncertain": {"zh": "存疑", "en": "Uncertain"},
    "stale": {"zh": "译文可能已过时", "en": "Translation may be out of date"},
    "stub": {"zh": "待补充", "en": "Stub"},
    "meta": {"zh": "条目信息", "en": "About this entry"},
    "body": vocab.SECTIONS["details"],
}
#: Fixed sentences of the warning blocks.
NOTICES: dict[str, dict[str, str]] = {
    "stale": {
        "zh": "译文可能已过时：原文在翻译之后有改动。",
        "en": "The translation may be out of date: the source text changed after it was translated.",
    },
    "stub": {
        "zh": "待补充：现有资料尚未涵盖此条目的完整内容。",
        "en": "Stub: the sources do not cover this entry in full yet.",
    },
    "completion": {
        "zh": "以下内容不在原始资料中，由其他来源补全。",
        "en": "Not in the source document: completed from another source.",
    },
}


def label(kind: str) -> dict[str, str]:
    """The bilingual label of a block kind."""
    return LABELS.get(kind) or vocab.SECTIONS[kind]


@dataclass(frozen=True)
class Block:
    """One part of an entry: its kind (one of :data:`ORDER`) and the data it shows; each kind is a class of its
    own below, with its data typed (the records of :mod:`houserules.data.reading.records`, never the file's dicts)."""

    kind: str

    @property
    def label(self) -> dict[str, str]:
        return label(self.kind)


@dataclass(frozen=True)
class OverriddenBlock(Block):
    """The house rules of a group that change this official entry: "" (its one-line answer) or a question's id
    → the house rules' refs."""

    data: Mapping[str, list[str]]


@dataclass(frozen=True)
class TextBlock(Block):
    """A bilingual text: the one-line answer (``answer``), the body (``body``), why it is uncertain
    (``uncertain``), the fixed sentence of a stub (``stub``)."""

    data: Text


@dataclass(frozen=True)
class QuestionsBlock(Block):
    data: tuple[Question, ...]


@dataclass(frozen=True)
class NamesBlock(Block):
    """Words: the entry's aliases (``aliases``), the languages of a stale translation (``stale``)."""

    data: tuple[str, ...]


@dataclass(frozen=True)
class CompletionBlock(Block):
    data: Completion


@dataclass(frozen=True)
class FactsBlock(Block):
    data: tuple[Fact, ...]


@dataclass(frozen=True)
class Erratum:
    """An erratum as one entry shows it: who records it and how it relates to the entry shown."""

    holder: Entry
    data: ErratumRecord
    #: ``own`` (the entry records it), ``about`` (it corrects this entry) or
    #: ``applied`` (it corrects a component this entry applies to).
    relation: str


@dataclass(frozen=True)
class ErrataBlock(Block):
    data: tuple[Erratum, ...]


@dataclass(frozen=True)
class LinksBlock(Block):
    """Other entries, as refs: ``applies-to``, ``rulings``, ``see-also``, ``referenced-by``."""

    data: tuple[str, ...]


@dataclass(frozen=True)
class NotesBlock(Block):
    data: tuple[TranslatorNote, ...]


@dataclass(frozen=True)
class SourcesBlock(Block):
    data: tuple[Source, ...]


@dataclass(frozen=True)
class Meta:
    """What the entry is: its code, kind, authority and confidence (their bilingual names) and the editions or
    expansions it is limited to."""

    code: str
    kind: dict[str, str]
    authority: dict[str, str]
    confidence: dict[str, str]
    scope: tuple[Text, ...]


@dataclass(frozen=True)
class MetaBlock(Block):
    data: Meta


@dataclass(frozen=True)
class HistoryBlock(Block):
    data: tuple[Change, ...]


class EntryBlocks:
    """The knowledge base's cross-entry indexes, computed once, and each entry's blocks."""

    def __init__(self, kb: KnowledgeBase):
        self.kb = kb
        self.backlinks = kb.backlinks()
        self.applying: dict[str, list[str]] = defaultdict(list)
        self.errata_for: dict[str, list[tuple[Entry, ErratumRecord]]] = defaultdict(list)
        #: The house rules overriding an entry: its ref → "" (its one-line answer) or a question id → their refs.
        self.overridden: dict[str, dict[str, list[str]]] = {}
        for entry in kb.entries.values():
            for target in entry.overrides:
                ref, _, question = target.partition("/")
                self.overridden.setdefault(ref, {}).setdefault(question, []).append(entry.ref)
            for ref in entry.applies_to:
                self.applying[ref].append(entry.ref)
            for erratum in entry.errata:
                self.errata_for[erratum.component].append((entry, erratum))

    def errata(self, entry: Entry) -> tuple[Erratum, ...]:
        """The errata an entry shows: its own, those about it, those about what it applies to."""
        records = [Erratum(entry, e, "own") for e in entry.errata]
        for relation, ref in (("about", entry.ref), *(("applied", r) for r in entry.applies_to)):
            records += [
                Erratum(holder, e, relation) for holder, e in self.errata_for.get(ref, []) if holder is not entry
            ]
        return tuple(records)

    def blocks(self, entry: Entry) -> list[Block]:
        """Every block the entry has, in :data:`ORDER`; a block with nothing to show is left out."""
        game = self.kb.games[entry.game]
        uncertain = entry.confidence == "uncertain"
        names = {item.id: item.name for item in (*game.editions, *game.expansions)}
        scope = entry.scope
        scoped = [scope.edition, scope.expansion] if scope else []  # the file's order: an edition, an expansion
        overridden = self.overridden.get(entry.ref)
        uncertainty = entry.confidence_note or (UNCERTAIN if uncertain else None)
        found: list[Block | None] = [
            # a group's house rules that change this official entry (its one-line answer, "", or questions)
            OverriddenBlock("overridden", overridden) if overridden else None,
            TextBlock("answer", entry.summary),
            QuestionsBlock("questions", entry.questions),
            NamesBlock("aliases", entry.aliases),
            TextBlock("uncertain", uncertainty) if uncertain and uncertainty else None,
            NamesBlock("stale", tuple(stale_translations(entry))),
            TextBlock("stub", Text.of(NOTICES["stub"])) if entry.status == "stub" else None,
            TextBlock("body", entry.body),
            CompletionBlock("completion", entry.completion) if entry.completion else None,
            FactsBlock("facts", entry.facts),
            ErrataBlock("errata", self.errata(entry)),
            LinksBlock("applies-to", tuple(r for r in entry.applies_to if r in self.kb.entries)),
            LinksBlock("rulings", tuple(self.applying.get(entry.ref, []))),
            LinksBlock("see-also", tuple(r for r in entry.see_also if r in self.kb.entries)),
            LinksBlock("referenced-by", tuple(self.backlinks.get(entry.ref, []))),
            NotesBlock("translator-notes", entry.translator_notes),
            SourcesBlock("sources", entry.sources),
            MetaBlock(
                "meta",
                Meta(
                    entry.code,
                    vocab.KINDS[entry.kind],
                    vocab.AUTHORITIES[entry.authority],
                    vocab.CONFIDENCES[entry.confidence],
                    tuple(names.get(v, Text(v, v)) for v in scoped if v),
                ),
            ),
            HistoryBlock("history", entry.history),
        ]
        return [block for block in found if block is not None and _shows(block)]


#: The uncertain block of an uncertain entry without a note.
UNCERTAIN = Text("此条目存疑。", "This entry is uncertain.")


def _shows(block: Block) -> bool:
    """Whether a block has anything to show (an empty list, an empty text: it is left out)."""
    data = getattr(block, "data", None)
    if isinstance(data, Text):
        return bool(data.zh or data.en)
    return bool(data)
