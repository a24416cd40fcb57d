"""The freshness check: a warning for each translation made from an older source text."""

from __future__ import annotations

from collections.abc import Iterator

from ..data.reading.model import KnowledgeBase
from ..data.versions.sourcehash import UNREVIEWED, stale_fields
from ..errors import Problem, display_path


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def check_freshness(kb: KnowledgeBase) -> Iterator[Problem]:
    """A warning for each translation of which a field's source text changed since it was stamped.

    A stamp field by field names the fields; an old one-hash stamp can only say the translation.
    """
    for entry in kb.entries.values():
        for lang in entry.translations:
            fields = stale_fields(entry, lang)
            if not fields:
                continue
            record = entry.translations[lang]
            line = entry.line("translations", lang, "source_hash")
            where = display_path(entry.path)
            if isinstance(record.source_hash, str):
                yield Problem(
                    where,
                    line,
                    entry.ref,
                    f"the {lang} translation may be out of date: the {record.from_} text changed since it was stamped",
                    f"update the {lang} {_listed(fields)}, then run 'houserules stamp {entry.ref}'",
                    severity="warning",
                )
                continue
            unreviewed = [name for name in fields if record.source_hash[name] == UNREVIEWED]
            changed = [name for name in fields if name not in unreviewed]
            if changed:
                yield Problem(
                    where,
                    line,
                    entry.ref,
                    f"the {lang} {_listed(changed)} may be out of date: the {record.from_} {_listed(changed)} "
                    "changed since it was stamped",
                    f"update the {lang} {_listed(changed)}, then run 'houserules stamp {entry.ref}'",
                    severity="warning",
                )
            if unreviewed:
                yield Problem(
                    where,
                    line,
                    entry.ref,
                    f"the {lang} {_listed(unreviewed)} {'is' if len(unreviewed) == 1 else 'are'} not stamped as "
                    f"reviewed (imported unreviewed, or not known to match the {record.from_} text)",
                    f"review the {lang} {_listed(unreviewed)}, then run 'houserules stamp {entry.ref}'",
                    severity="warning",
                )
