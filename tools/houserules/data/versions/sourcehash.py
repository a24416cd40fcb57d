"""Translation freshness: which version of the source text a translation was made from.

An entry that carries a translation records it, field by field, as::

    translations:
      en: {from: zh, source_hash: {title: 3f2a9c0d41b7, summary: 0c1d2e3f4a5b, body: 9a8b7c6d5e4f}}

Each hash is :func:`field_hash` of that field's text in the ``from`` language when its
translation was last brought up to date. When a source field changes, its hash no longer
matches: ``houserules check`` warns (naming the fields), the entry page says the translation
may be out of date, and ``houserules stamp game:id`` records the new hashes once the
translation has been updated; ``houserules l10n import`` stamps only the fields it imported.

The earlier form, one hash of the three fields together (``source_hash: 3f2a9c0d41b7``,
:func:`source_hash`), is still read: when it does not match, every field counts as changed,
since it cannot tell which one did. A stamp of :data:`UNREVIEWED` never matches: a translation
imported unreviewed (a fuzzy PO entry) or a field of an old stamp that did not match when it was
rewritten field by field.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from typing import Any

from ..reading.model import Entry
from ..reading.records import STAMPED_FIELDS

#: The fields a translation is made from, in hashing order.
HASHED_FIELDS = STAMPED_FIELDS
HASH_LENGTH = 12


#: A space next to a Chinese character or full-width punctuation: layout, not meaning.
_CJK_SPACE = re.compile(
    r"(?<=[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]) | (?=[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef])"
)


def _normalise(text: str) -> str:
    # Reflowing lines, re-indenting a block or spacing around Chinese does not change what needs translating.
    return _CJK_SPACE.sub("", " ".join(unicodedata.normalize("NFC", text).split()))


def source_hash(data: dict[str, Any], lang: str) -> str:
    """The hash of an entry's ``lang`` text: sha256 of its normalised title, summary and body, 12 hex digits.

    >>> source_hash({"title": {"zh": "塔楼"}, "summary": {"zh": "一句话。"}}, "zh")
    'a95ec79778c7'
    >>> source_hash({"title": {"zh": "塔楼 "}, "summary": {"zh": "一句话。\\n"}}, "zh")
    'a95ec79778c7'
    """
    parts = [f"{name}\x1f{_normalise((data.get(name) or {}).get(lang, ''))}" for name in HASHED_FIELDS]
    return hashlib.sha256("\x1e".join(parts).encode("utf-8")).hexdigest()[:HASH_LENGTH]


#: The stamp of a field whose translation is not known to match its source: it never matches.
UNREVIEWED = "0" * HASH_LENGTH


def field_hash(data: dict[str, Any], name: str, lang: str) -> str:
    """The hash of one field of an entry in ``lang``: sha256 of its normalised text, 12 hex digits.

    >>> field_hash({"title": {"zh": "塔楼"}}, "title", "zh") == field_hash({"title": {"zh": " 塔楼"}}, "title", "zh")
    True
    >>> field_hash({"title": {"zh": "塔楼"}}, "title", "zh") == field_hash({"summary": {"zh": "塔楼"}}, "summary", "zh")
    False
    """
    text = _normalise((data.get(name) or {}).get(lang, ""))
    return hashlib.sha256(f"{name}\x1f{text}".encode()).hexdigest()[:HASH_LENGTH]


def field_hashes(data: dict[str, Any], lang: str, names: tuple[str, ...] = HASHED_FIELDS) -> dict[str, str]:
    return {name: field_hash(data, name, lang) for name in names}


def stamped_fields(data: dict[str, Any], lang: str) -> dict[str, str]:
    """The stamp of ``lang``'s translation field by field; an old one-hash stamp read as such (each field
    its current hash when it matches, else :data:`UNREVIEWED`). Empty when there is no stamp."""
    record = data.get("translations", {}).get(lang)
    if record is None:
        return {}
    stamp = record["source_hash"]
    if isinstance(stamp, str):
        fresh = stamp == source_hash(data, record["from"])
        return {name: field_hash(data, name, record["from"]) if fresh else UNREVIEWED for name in HASHED_FIELDS}
    return {name: stamp[name] for name in HASHED_FIELDS if name in stamp}


def stale_fields(entry: Entry, lang: str) -> list[str]:
    """The fields of ``lang``'s translation stamped from another source text than the entry holds now
    (every field of :data:`HASHED_FIELDS`, for an old one-hash stamp that does not match)."""
    return _stale_fields(entry.data, lang)


def _stale_fields(data: dict[str, Any], lang: str) -> list[str]:
    record = data.get("translations", {}).get(lang)
    if record is None:
        return []
    stamp = record["source_hash"]
    if isinstance(stamp, str):
        return [] if stamp == source_hash(data, record["from"]) else list(HASHED_FIELDS)
    return [name for name in HASHED_FIELDS if name in stamp and stamp[name] != field_hash(data, name, record["from"])]


def stale_translations(entry: Entry) -> list[str]:
    """The languages of an entry whose translation (of one field or more) was made from an older source text."""
    return stale_languages(entry.data)


def stale_languages(data: dict[str, Any]) -> list[str]:
    """The languages of an entry's data whose translation (of one field or more) was made from an older source
    text (of an earlier file the schema would refuse: ``["?"]``).

    >>> stale_languages({"title": {"zh": "塔楼"}, "translations": {"en": {"from": "zh", "source_hash": "0"}}})
    ['en']
    """
    found = data.get("translations") or {}
    try:
        return [str(lang) for lang in found if _stale_fields(data, lang)]
    except (KeyError, TypeError, AttributeError):
        return ["?"]
