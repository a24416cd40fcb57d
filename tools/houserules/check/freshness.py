"""The freshness check: a warning for each translation made from an older source text."""

from __future__ import annotations

from collections.abc import Iterator

from ..data.reading.model import KnowledgeBase
from ..data.versions.sourcehash import stale_translations
from ..errors import Problem, display_path


def check_freshness(kb: KnowledgeBase) -> Iterator[Problem]:
    """A warning for each translation whose source text changed since it was stamped."""
    for entry in kb.entries.values():
        for lang in stale_translations(entry):
            source = entry.translations[lang].from_
            yield Problem(
                display_path(entry.path),
                entry.line("translations", lang, "source_hash"),
                entry.ref,
                f"the {lang} translation may be out of date: the {source} text changed since it was stamped",
                f"update the {lang} title, summary and body, then run 'houserules stamp {entry.ref}'",
                severity="warning",
            )
