"""Translation freshness: which version of the source text a translation was made from.

An entry that carries a translation records it as::

    translations:
      en: {from: zh, source_hash: 3f2a9c0d41b7}

``source_hash`` is :func:`source_hash` of the ``from`` language text when the
translation was last brought up to date. When the source text changes, the
hash no longer matches: ``houserules check`` warns, the entry page says the
translation may be out of date, and ``houserules stamp game:id`` records the
new hash once the translation has been updated.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from typing import Any

from ..reading.model import Entry

#: The fields a translation is made from, in hashing order.
HASHED_FIELDS = ("title", "summary", "body")
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


def stale_translations(entry: Entry) -> list[str]:
    """The languages of an entry whose translation was made from an older source text."""
    return [
        lang
        for lang, record in entry.data.get("translations", {}).items()
        if record["source_hash"] != source_hash(entry.data, record["from"])
    ]
