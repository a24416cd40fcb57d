"""The search's synonym tables point at the rules' words.

A synonym (``say`` → ``means``) helps only if what it means is something the search
can find: a title, alias or glossary term (of its game, or of any game for the general
table), or words the entries use. Anything else points at nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..data import searchtext
from ..data.model import KnowledgeBase, Synonyms
from ..errors import Problem, display_path


def check_synonyms(kb: KnowledgeBase) -> Iterator[Problem]:
    vocabularies: dict[str, set[str]] = {}
    for table in kb.synonym_tables():
        games = [table.game] if table.game else sorted(kb.games)
        names = _names(kb, games)
        for index, item in enumerate(table.items):
            means = item["means"]
            if searchtext.fold(means).strip() in names:
                continue
            key = table.game or "*"
            if key not in vocabularies:
                vocabularies[key] = _vocabulary(kb, games)
            missing = [t for t in searchtext.query_terms(means) if t not in vocabularies[key]]
            if missing or not searchtext.query_terms(means):
                yield _problem(table, index, means, missing)


def _problem(table: Synonyms, index: int, means: str, missing: list[str]) -> Problem:
    scope = f"game '{table.game}'" if table.game else "any game"
    unused = f"; the entries never use {', '.join(repr(t) for t in missing)}" if missing else ""
    return Problem(
        display_path(table.path),
        table.line("synonyms", index, "means"),
        table.game or "-",
        f"synonym '{means}' points at nothing: it is no title, alias or glossary term of {scope}{unused}",
        "write a title, alias, glossary term or words the entries use, or remove the synonym",
    )


def _names(kb: KnowledgeBase, games: list[str]) -> set[str]:
    found: set[str] = set()
    for entry in kb.entries.values():
        if entry.game in games:
            found.update(searchtext.fold(n).strip() for n in [*entry.title.values(), *entry.aliases])
    for game in games:
        glossary = kb.games[game].glossary if game in kb.games else None
        for term in glossary.terms if glossary else []:
            found.update(searchtext.fold(n).strip() for n in [term["zh"], term["en"], *term.get("variants", [])])
    return found


def _vocabulary(kb: KnowledgeBase, games: list[str]) -> set[str]:
    """Every term the search indexes in the games' entries."""
    analyze = searchtext.analyzer()
    words: set[str] = set()
    for entry in kb.entries.values():
        if entry.game not in games:
            continue
        texts: list[Any] = [*entry.title.values(), *entry.aliases, *entry.summary.values(), *entry.body.values()]
        for question in entry.questions:
            texts += [*question["q"].values(), *question["a"].values(), *question.get("variants", [])]
        words.update(token.text for token in analyze("\n".join(texts)))
    return words
