"""The JSON API of the site (``site/api/entries.json``): every entry, fully resolved.

References carry the target's code, titles and page; questions carry their citation
code and anchor. The document is data, not HTML: whoever shows it in a page must escape it.
"""

from __future__ import annotations

import json
from typing import Any

from ..data.freshness import stale_translations
from ..data.model import Entry, KnowledgeBase
from ..render.urls import entry_url, question_code, question_url

EXPORT_VERSION = 1


def entry_record(entry: Entry, kb: KnowledgeBase, backlinks: dict[str, list[str]]) -> dict[str, Any]:
    """One entry, fully resolved: references carry the target's code and titles."""
    game = kb.games[entry.game]
    data = entry.data

    def ref_info(ref: str) -> dict[str, Any]:
        target = kb.entries[ref]
        return {"id": ref, "code": target.code, "title": target.title, "url": entry_url(target)}

    def source_info(source: dict[str, Any]) -> dict[str, Any]:
        declared = game.source(source["doc"]) or {}
        return {**source, "title": declared.get("title"), "kind": declared.get("kind")}

    return {
        "id": entry.ref,
        "game": entry.game,
        "slug": entry.id,
        "code": entry.code,
        "kind": entry.kind,
        "title": entry.title,
        "aliases": entry.aliases,
        "summary": entry.summary,
        "body": entry.body,
        "facts": data.get("facts", []),
        "questions": [{**question, "code": question_code(entry, question["id"]), "url": question_url(entry, question["id"])}
                      for question in entry.questions],
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
        "translations": {lang: {**record, "stale": lang in stale_translations(entry)}
                         for lang, record in data.get("translations", {}).items()},
        "origin": entry.origin,
        "url": entry_url(entry),
    }


def entries_json(kb: KnowledgeBase) -> str:
    """Every entry as a JSON document: ``{"version", "games", "entries"}``."""
    backlinks = kb.backlinks()
    games = [{"id": g.id, "code_prefix": g.code_prefix, "name": g.name, "licence": g.data["licence"],
              "url": f"{g.id}/index.html"} for g in kb.games.values()]
    payload = {
        "version": EXPORT_VERSION,
        "games": games,
        "entries": [entry_record(e, kb, backlinks) for e in kb.entries.values()],
    }
    # Compact: with an indent, json falls back from its C encoder (4x slower at 5,000 entries).
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
