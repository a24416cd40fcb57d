"""The search's synonym tables point at the rules' words.

A synonym (``say`` → ``means``) helps only if what it means is something the search
can find: a title, alias or glossary term (of its game, or of any game for the general
table), or words the entries use. Anything else points at nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..data.reading.model import KnowledgeBase, Synonyms
from ..errors import Problem, display_path
from ..text import searchtext

_ASCII = re.compile(r"[a-z0-9]+")


def check_synonyms(kb: KnowledgeBase) -> Iterator[Problem]:
    vocabularies: dict[str, _Words] | None = None  # by game, read once and only if needed
    for table in kb.synonym_tables():
        games = [table.game] if table.game else sorted(kb.games)
        names = names_of(kb, games)
        yield from _said_twice(table)
        for index, item in enumerate(table.items):
            means = item.means
            if searchtext.fold(means).strip() in names:
                continue
            if vocabularies is None:
                vocabularies = _vocabularies(kb)
            terms = searchtext.query_terms(means)
            missing = [t for t in terms if not any(g in vocabularies and t in vocabularies[g] for g in games)]
            if missing or not terms:
                yield _problem(table, index, means, missing)


def _said_twice(table: Synonyms) -> Iterator[Problem]:
    """A word said again with the same meaning in one table: the second says nothing more. (A word may mean two
    things: "toss" is dropping an item and discarding a card, each its own line.)"""
    seen: dict[tuple[str, str], int] = {}
    for index, item in enumerate(table.items):
        for say in item.say:
            key = (searchtext.fold(say).strip(), searchtext.fold(item.means).strip())
            if key in seen:
                first = table.line("synonyms", seen[key], "say")
                said = f"synonym '{say}' → '{item.means}' is said again (first on line {first})"
                yield _at(table, index, "say", said, "keep one of the two and remove the other")
            else:
                seen[key] = index


def _problem(table: Synonyms, index: int, means: str, missing: list[str]) -> Problem:
    scope = f"game '{table.game}'" if table.game else "any game"
    unused = f"; the entries never use {', '.join(repr(t) for t in missing)}" if missing else ""
    said = f"synonym '{means}' points at nothing: it is no title, alias or glossary term of {scope}{unused}"
    return _at(
        table,
        index,
        "means",
        said,
        "write a title, alias, glossary term or words the entries use, or remove the synonym",
    )


def _at(table: Synonyms, index: int, field: str, message: str, fix: str) -> Problem:
    """A problem of the table's item ``index``, at the line of its ``field``."""
    return Problem(display_path(table.path), table.line("synonyms", index, field), table.game or "-", message, fix)


def names_of(kb: KnowledgeBase, games: list[str]) -> set[str]:
    """The titles, aliases and glossary terms of the games' entries, folded."""
    found: set[str] = set()
    for entry in kb.entries.values():
        if entry.game in games:
            found.update(searchtext.fold(n).strip() for n in [*entry.title.values(), *entry.aliases])
    for game in games:
        glossary = kb.games[game].glossary if game in kb.games else None
        for term in glossary.terms if glossary else []:
            found.update(searchtext.fold(n).strip() for n in [term.zh, term.en, *term.variants])
    return found


class _Words:
    """What the entries of a game say, to look terms up in: the folded text (a Chinese term is
    found as a substring: its characters stand next to each other) and the English stems."""

    def __init__(self, texts: list[str]):
        self.text = searchtext.fold("\n".join(texts))
        self.stems = set().union(*(searchtext.index_terms(w) for w in set(_ASCII.findall(self.text))))

    def __contains__(self, term: str) -> bool:
        return term in self.stems if term.isascii() else term in self.text


def _vocabularies(kb: KnowledgeBase) -> dict[str, _Words]:
    """The words of each game's entries: names, one-line answers, bodies and questions."""
    texts: dict[str, list[str]] = {}
    for entry in kb.entries.values():
        found = texts.setdefault(entry.game, [])
        found += [*entry.title.values(), *entry.aliases, *entry.summary.values(), *entry.body.values()]
        for question in entry.questions:
            found += [*question.q.values(), *question.a.values(), *question.variants]
    return {game: _Words(found) for game, found in texts.items()}
