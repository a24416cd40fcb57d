"""What changed in entries between two states of the data folder: added, changed or removed, and in which aspects.

The changes are computed from the files' data before and after (parsed from git's
blobs or the working folder by :mod:`houserules.data.versions.history`); an entry added or
removed takes its code and titles from the current data when it has them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..reading import vocab
from ..reading.load import ENTRIES_DIR, GAME_FILE, GLOSSARY_FILE
from ..reading.model import KnowledgeBase
from ..reading.schemaparts import SLUG
from ..reading.yamlload import YamlError, parse
from .git import shown_text

_SLUG = re.compile(SLUG)

#: Which aspect of an entry a change of each field is (the other fields: "details").
ASPECT_OF: dict[str, str] = {
    "title": "title",
    "aliases": "aliases",
    "code": "code",
    "summary": "answer",
    "body": "body",
    "questions": "questions",
    "errata": "errata",
    "facts": "facts",
    "applies_to": "references",
    "see_also": "references",
    "sources": "sources",
    "completion": "sources",
    "confidence": "status",
    "confidence_note": "status",
    "status": "status",
    "translator_notes": "translator-notes",
    "translations": "translations",
    "history": "history",
}


@dataclass
class EntryChange:
    """One entry added, changed or removed in a version."""

    ref: str
    code: str
    title: dict[str, str]
    status: str  # added | changed | removed
    #: What changed (keys of :data:`houserules.data.reading.vocab.CHANGE_ASPECTS`), for a changed entry.
    aspects: list[str] = field(default_factory=list)
    #: For changed questions: how many were added, removed and changed.
    questions: dict[str, int] = field(default_factory=dict)
    #: The entry's data before and after a change (for what a layout prints of it; None when absent or unread).
    before: dict[str, Any] | None = field(default=None, repr=False, compare=False)
    after: dict[str, Any] | None = field(default=None, repr=False, compare=False)


def read_blob(blob: bytes | None) -> dict[str, Any] | None:
    if blob is None:
        return None
    try:
        data = parse(blob.decode("utf-8-sig").replace("\r\n", "\n")).data
    except (YamlError, UnicodeDecodeError):
        return None
    return data if isinstance(data, dict) else None


def entry_change(ref: str, status: str, old: dict[str, Any] | None, new: dict[str, Any] | None) -> EntryChange:
    """What changed between two versions of an entry's data (either may be None: added, removed or unreadable)."""
    shown = new if new is not None else old
    found = shown.get("title") if shown else None
    title: dict[str, Any] = found if isinstance(found, dict) else {}
    code = shown_text(str(shown.get("code", ""))) if shown else ""
    titles = {"zh": shown_text(str(title.get("zh", ref))), "en": shown_text(str(title.get("en", "")))}
    change = EntryChange(ref, code, titles, status, before=old, after=new)
    if status != "changed":
        return change
    if old is None or new is None:
        change.aspects = ["details"]
        return change
    aspects: dict[str, None] = {}
    for key in sorted(set(old) | set(new), key=lambda k: list(ASPECT_OF).index(k) if k in ASPECT_OF else 99):
        if old.get(key) != new.get(key):
            aspects.setdefault(ASPECT_OF.get(key, "details"), None)
    change.aspects = list(aspects)
    if "questions" in aspects:
        before = {q.get("id"): q for q in old.get("questions", []) if isinstance(q, dict)}
        after = {q.get("id"): q for q in new.get("questions", []) if isinstance(q, dict)}
        change.questions = {
            "added": len(after.keys() - before.keys()),
            "removed": len(before.keys() - after.keys()),
            "changed": sum(1 for k in before.keys() & after.keys() if before[k] != after[k]),
        }
    return change


def code_order(code: str) -> list[Any]:
    """A sort key that puts BH-A2 before BH-A10.

    >>> sorted(["BH-A10", "BH-A2", "BH-R01"], key=code_order)
    ['BH-A2', 'BH-A10', 'BH-R01']
    """
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", code)]


def _classify(path: str) -> tuple[str, str] | None:
    """``betrayal/entries/vault.yaml`` → ("entry", "betrayal:vault"); game and glossary files likewise."""
    parts = path.split("/")
    if not _SLUG.match(parts[0]):  # a folder no game can have (it never loaded): not data
        return None
    if (
        len(parts) == 3
        and parts[1] == ENTRIES_DIR
        and parts[2].endswith(".yaml")
        and _SLUG.match(parts[2].removesuffix(".yaml"))
    ):
        return "entry", f"{parts[0]}:{parts[2].removesuffix('.yaml')}"
    if len(parts) == 2 and parts[1] in (GAME_FILE, GLOSSARY_FILE):
        return ("game" if parts[1] == GAME_FILE else "glossary"), parts[0]
    return None


def needs_reading(letter: str, path: str, kb: KnowledgeBase) -> bool:
    """Whether a changed file must be read: a changed entry (to say what changed), an added or removed one
    only when the current data no longer has it (its code and titles come from the current entry otherwise,
    so a first import of thousands of entries reads none of them)."""
    kind = _classify(path)
    return kind is not None and kind[0] == "entry" and (letter not in "AD" or kind[1] not in kb.entries)


def entry_changes(
    files: Iterable[tuple[str, str]],
    old: Callable[[str], dict[str, Any] | None],
    new: Callable[[str], dict[str, Any] | None],
    kb: KnowledgeBase,
) -> tuple[list[EntryChange], list[tuple[str, str]]]:
    """Entry changes and other changed files from (status letter, path in the data folder) pairs.

    ``old(path)`` and ``new(path)`` give a file's data before and after (None when absent).
    """
    entries, others = [], []
    for letter, path in files:
        kind = _classify(path)
        if kind is None:
            continue
        if kind[0] == "entry":
            status = {"A": "added", "D": "removed"}.get(letter, "changed")
            current = kb.entries.get(kind[1])
            if status != "changed" and current is not None:
                entries.append(EntryChange(kind[1], current.code, current.title.as_dict(), status))
                continue
            entries.append(
                entry_change(
                    kind[1],
                    status,
                    old(path) if status != "added" else None,
                    new(path) if status != "removed" else None,
                )
            )
        elif (kind[1], kind[0]) not in others:
            others.append((kind[1], kind[0]))
    entries.sort(key=lambda c: (["added", "changed", "removed"].index(c.status), code_order(c.code), c.ref))
    return entries, sorted(others)


def aspect_names(change: EntryChange) -> list[dict[str, str]]:
    """What changed in words, Chinese and English: ``常见问题（+2 ~1）`` for questions with their counts."""
    names = []
    for aspect in change.aspects:
        name = dict(vocab.CHANGE_ASPECTS[aspect])
        if aspect == "questions" and change.questions:
            marks = [
                f"{sign}{change.questions[k]}"
                for k, sign in (("added", "+"), ("removed", "−"), ("changed", "~"))
                if change.questions.get(k)
            ]
            if marks:
                name = {lang: f"{text} ({' '.join(marks)})" for lang, text in name.items()}
        names.append(name)
    return names
