"""The JSON API of the site (``site/api/entries.json``): every entry, fully resolved.

References carry the target's code, titles and page; questions carry their citation
code and anchor. The document is data, not HTML: whoever shows it in a page must escape it.
"""

from __future__ import annotations

import json
from typing import Any

from ..data.reading.model import Entry, KnowledgeBase
from ..data.versions.savediff import Changes
from ..data.versions.sourcehash import stale_translations
from ..render.urls import entry_url, question_code, question_url

EXPORT_VERSION = 1


def entry_record(
    entry: Entry, kb: KnowledgeBase, backlinks: dict[str, list[str]], infos: dict[str, dict[str, Any]] | None = None
) -> dict[str, Any]:
    """One entry, fully resolved: references carry the target's code and titles.

    The entry's own values are written as its file holds them (``entry.data``): the API is that
    data, resolved, so a field the file leaves out stays out.

    ``infos`` keeps each target's summary between calls (one per entry, not one per reference).
    """
    game = kb.games[entry.game]
    data = entry.data
    known = {} if infos is None else infos

    def ref_info(ref: str) -> dict[str, Any]:
        info = known.get(ref)
        if info is None:
            target = kb.entries[ref]
            info = known[ref] = {
                "id": ref,
                "code": target.code,
                "title": target.title.as_dict(),
                "url": entry_url(target),
            }
        return info

    def source_info(source: dict[str, Any]) -> dict[str, Any]:
        declared = game.source(source["doc"])
        if declared is None:
            return {**source, "title": None, "kind": None}
        return {**source, "title": declared.title.as_dict(), "kind": declared.kind}

    return {
        "id": entry.ref,
        "game": entry.game,
        "slug": entry.id,
        "code": entry.code,
        "kind": entry.kind,
        "title": data["title"],
        "aliases": data.get("aliases", []),
        "summary": data["summary"],
        "body": data.get("body", {}),
        "facts": data.get("facts", []),
        "questions": [
            {**question, "code": question_code(entry, question["id"]), "url": question_url(entry, question["id"])}
            for question in data.get("questions", [])
        ],
        "completion": data.get("completion"),
        "applies_to": [ref_info(r) for r in entry.applies_to],
        "see_also": [ref_info(r) for r in entry.see_also],
        "refs": [ref_info(r) for r in entry.all_refs() if r in kb.entries],
        "backlinks": [ref_info(r) for r in backlinks.get(entry.ref, [])],
        "sources": [source_info(s) for s in data["sources"]],
        "errata": data.get("errata", []),
        "translator_notes": data.get("translator_notes", []),
        "authority": data["authority"],
        "scope": data.get("scope", {}),
        "confidence": data["confidence"],
        "confidence_note": data.get("confidence_note"),
        "status": data.get("status", "complete"),
        "history": data.get("history", []),
        "translations": {
            lang: {**record, "stale": lang in stale_translations(entry)}
            for lang, record in data.get("translations", {}).items()
        },
        "origin": entry.origin,
        "url": entry_url(entry),
    }


def entries_json(kb: KnowledgeBase) -> str:
    """Every entry as a JSON document: ``{"version", "games", "entries"}``."""
    return EntriesDocument().text(kb)


def _dumps(value: Any) -> str:
    # Compact: with an indent, json falls back from its C encoder (4x slower at 5,000 entries).
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class EntriesDocument:
    """The entries document, kept between builds of one site: only the records a change shows are made again.

    The document is written as the JSON of its parts joined, which is the JSON of the whole
    (``json.dumps`` of a mapping is its members' JSON in order), so an updated document is
    byte for byte the one a full build writes.
    """

    def __init__(self) -> None:
        self._records: dict[str, str] = {}

    def text(self, kb: KnowledgeBase, changes: Changes | None = None) -> str:
        """The document of ``kb``; with ``changes`` from the last call's data, only the records they show are redone."""
        if changes is None or changes.everything:
            self._records = {}
        else:
            for ref in changes.shown:
                self._records.pop(ref, None)
        backlinks: dict[str, list[str]] | None = None
        infos: dict[str, dict[str, Any]] = {}
        records = {}
        for ref, entry in kb.entries.items():
            record = self._records.get(ref)
            if record is None:
                backlinks = backlinks if backlinks is not None else kb.backlinks()
                record = _dumps(entry_record(entry, kb, backlinks, infos))
            records[ref] = record
        self._records = records
        games = [
            {
                "id": g.id,
                "code_prefix": g.code_prefix,
                "name": g.name.as_dict(),
                "licence": g.data["licence"],
                "url": f"{g.id}/index.html",
            }
            for g in kb.games.values()
        ]
        return (
            f'{{"version":{_dumps(EXPORT_VERSION)},"games":{_dumps(games)},"entries":[{",".join(records.values())}]}}'
        )
