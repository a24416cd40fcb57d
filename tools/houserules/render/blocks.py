"""The blocks of an entry, as data: what every output of an entry can show, in order.

The site page, the printed FAQ and the terminal each choose which blocks they
lay out (``SITE``, ``PRINT`` ...) and how, but they all take them from
:meth:`EntryBlocks.blocks`, so an entry cannot show an answer, a warning or an
erratum in one output and silently lose it in another.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from ..data.reading import vocab
from ..data.reading.model import Entry, KnowledgeBase, Text
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
    """One part of an entry: its kind (one of :data:`ORDER`) and the data it shows."""

    kind: str
    data: Any

    @property
    def label(self) -> dict[str, str]:
        return label(self.kind)


@dataclass(frozen=True)
class Erratum:
    """An erratum as one entry shows it: who records it and how it relates to the entry shown."""

    holder: Entry
    data: dict[str, Any]
    #: ``own`` (the entry records it), ``about`` (it corrects this entry) or
    #: ``applied`` (it corrects a component this entry applies to).
    relation: str


def errata_data(entry: Entry) -> list[dict[str, Any]]:
    """The errata of ``entry`` as its file writes them (what :class:`Erratum` holds for the layouts)."""
    written: list[dict[str, Any]] = entry.data.get("errata", [])
    return written


class EntryBlocks:
    """The knowledge base's cross-entry indexes, computed once, and each entry's blocks."""

    def __init__(self, kb: KnowledgeBase):
        self.kb = kb
        self.backlinks = kb.backlinks()
        self.applying: dict[str, list[str]] = defaultdict(list)
        self.errata_for: dict[str, list[tuple[Entry, dict[str, Any]]]] = defaultdict(list)
        #: The house rules overriding an entry: its ref → "" (its one-line answer) or a question id → their refs.
        self.overridden: dict[str, dict[str, list[str]]] = {}
        for entry in kb.entries.values():
            for target in entry.overrides:
                ref, _, question = target.partition("/")
                self.overridden.setdefault(ref, {}).setdefault(question, []).append(entry.ref)
            for ref in entry.applies_to:
                self.applying[ref].append(entry.ref)
            for erratum, written in zip(entry.errata, errata_data(entry)):
                self.errata_for[erratum.component].append((entry, written))

    def errata(self, entry: Entry) -> list[Erratum]:
        """The errata an entry shows: its own, those about it, those about what it applies to."""
        records = [Erratum(entry, e, "own") for e in errata_data(entry)]
        for relation, ref in (("about", entry.ref), *(("applied", r) for r in entry.applies_to)):
            records += [
                Erratum(holder, e, relation) for holder, e in self.errata_for.get(ref, []) if holder is not entry
            ]
        return records

    def blocks(self, entry: Entry) -> list[Block]:
        """Every block the entry has, in :data:`ORDER`; a block with nothing to show is left out.

        The blocks of lists of records (questions, facts, errata, notes, sources, history) hold them
        as the file writes them (``entry.data``): the page and print layouts read them so.
        """
        data = entry.data
        game = self.kb.games[entry.game]
        uncertain = entry.confidence == "uncertain"
        names = {item.id: item.name for item in (*game.editions, *game.expansions)}
        scope = [v for k, v in data.get("scope", {}).items() if k != "note"]  # in the file's order
        found: dict[str, Any] = {
            # a group's house rules that change this official entry (its one-line answer, "", or questions)
            "overridden": self.overridden.get(entry.ref),
            "answer": entry.summary,
            "questions": data.get("questions", []),
            "aliases": entry.aliases,
            "uncertain": entry.confidence_note if uncertain else None,
            "stale": stale_translations(entry),
            "stub": NOTICES["stub"] if entry.status == "stub" else None,
            "body": entry.body,
            "completion": data.get("completion"),
            "facts": data.get("facts"),
            "errata": self.errata(entry),
            "applies-to": [r for r in entry.applies_to if r in self.kb.entries],
            "rulings": self.applying.get(entry.ref, []),
            "see-also": [r for r in entry.see_also if r in self.kb.entries],
            "referenced-by": self.backlinks.get(entry.ref, []),
            "translator-notes": data.get("translator_notes"),
            "sources": data["sources"],
            "meta": {
                "code": entry.code,
                "kind": vocab.KINDS[entry.kind],
                "authority": vocab.AUTHORITIES[entry.authority],
                "confidence": vocab.CONFIDENCES[entry.confidence],
                "scope": [names.get(v, Text(v, v)) for v in scope if v],
            },
            "history": data.get("history"),
        }
        if uncertain and not found["uncertain"]:
            found["uncertain"] = {"zh": "此条目存疑。", "en": "This entry is uncertain."}
        return [Block(kind, found[kind]) for kind in ORDER if found[kind]]
