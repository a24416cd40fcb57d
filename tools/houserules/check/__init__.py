"""``houserules check``: every consistency rule over the loaded knowledge base.

The rules live in :mod:`.rules`, :mod:`.questions`, :mod:`.glossary`, :mod:`.freshness` and the other
modules of the package; ``run``
loads the data, runs them all and returns every problem at once, sorted by
file and line, so one bad file never hides the next.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ..data.reading.load import collector_paused, load
from ..data.reading.model import KnowledgeBase
from ..data.reading.readfile import ReadCache
from ..errors import Problem
from . import (
    certainty,
    freshness,
    glossary,
    links,
    notcovered,
    overrides,
    placeholders,
    questions,
    rules,
    shortanswer,
    synonymcheck,
    traditional,
    wording,
)


@dataclass
class Report:
    kb: KnowledgeBase
    problems: list[Problem]

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "warning"]

    def summary(self) -> str:
        refs = sum(len(e.all_refs()) for e in self.kb.entries.values())
        text = (
            f"{_count(len(self.kb.entries), 'entry', 'entries')}, {_count(refs, 'reference')}, "
            f"{_count(len(self.kb.games), 'game')}"
        )
        if self.errors:
            return f"{text}: {_count(len(self.errors), 'problem')}"
        if self.warnings:
            return f"ok: {text}, {_count(len(self.warnings), 'warning')}"
        return f"ok: {text}"


def _count(n: int, noun: str, plural: str = "") -> str:
    """``1 problem``, ``2 problems``."""
    return f"{n} {noun}" if n == 1 else f"{n} {plural or noun + 's'}"


CHECKS: list[Callable[[KnowledgeBase], Iterator[Problem]]] = [
    rules.check_references,
    rules.check_ids,
    rules.check_games,
    rules.check_codes,
    rules.check_sources,
    rules.check_scope,
    rules.check_contents,
    rules.check_orphans,
    rules.check_coverage,
    placeholders.check_placeholders,
    shortanswer.check_summary_length,
    certainty.check_certainty,
    questions.check_questions,
    questions.check_clauses,
    questions.check_variants,
    questions.check_exceptions,
    questions.check_exception_declarations,
    *glossary.CHECKS,
    freshness.check_freshness,
    links.check_links,
    links.check_markdown_shape,
    links.check_references_alike,
    wording.check_wording,
    synonymcheck.check_synonyms,
    notcovered.check_not_covered,
    overrides.check_overrides,
    traditional.check_traditional,
    traditional.check_measure_words,
]


def check_kb(kb: KnowledgeBase) -> list[Problem]:
    """Every problem of an already loaded knowledge base."""
    return [problem for check in CHECKS for problem in check(kb)]


def run(data_dir: Path, cache: ReadCache | None = None) -> Report:
    """Load ``data_dir`` and run every check; problems sorted by file and line.

    With ``cache`` (kept by the caller, e.g. a live preview) only the files that changed
    since the last run are read and validated again; the checks across entries always
    run on the whole knowledge base.
    """
    with collector_paused():  # the checks too make many objects that stay (the entries' texts and references)
        loaded = load(data_dir, cache)
        problems = loaded.problems + check_kb(loaded.kb)
    return Report(loaded.kb, sorted(set(problems), key=lambda p: (p.path, p.line, p.problem)))
