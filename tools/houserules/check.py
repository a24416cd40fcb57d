"""``houserules check``: every consistency rule over the loaded knowledge base.

Each ``_check_*`` function is a small generator of :class:`Problem`; ``run``
loads the data, runs them all and returns every problem at once, sorted by
file and line, so one bad file never hides the next.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from . import freshness, glossary, vocab
from .errors import Problem, display_path
from .load import load
from .model import Entry, KnowledgeBase
from .schema import REF

_REF = re.compile(REF)


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
        text = (f"{_count(len(self.kb.entries), 'entry', 'entries')}, {_count(refs, 'reference')}, "
                f"{_count(len(self.kb.games), 'game')}")
        if self.errors:
            return f"{text}: {_count(len(self.errors), 'problem')}"
        if self.warnings:
            return f"ok: {text}, {_count(len(self.warnings), 'warning')}"
        return f"ok: {text}"


def _count(n: int, noun: str, plural: str = "") -> str:
    """``1 problem``, ``2 problems``."""
    return f"{n} {noun}" if n == 1 else f"{n} {plural or noun + 's'}"


def _problem(entry: Entry, path: tuple, problem: str, fix: str, severity: str = "error",
             line: int | None = None) -> Problem:
    line = entry.doc.line(path) if line is None else line
    return Problem(display_path(entry.path), line, entry.ref, problem, fix, severity)


def _check_references(kb: KnowledgeBase) -> Iterator[Problem]:
    for entry in kb.entries.values():
        refs = [(path, entry.doc.line(path), ref, f"'{ref}'") for path, ref in entry.field_refs()]
        refs += [(path, line, ref, f"[[{ref}]]") for path, line, ref in entry.located_inline_refs()]
        for path, line, ref, shown in refs:
            if not _REF.fullmatch(ref):
                yield _problem(entry, path, f"reference {shown} is not of the form game:id",
                               "write it as game:id, e.g. [[betrayal:vault]]", line=line)
            elif ref == entry.ref:
                yield _problem(entry, path, f"the entry refers to itself ({shown})", "remove the self-reference",
                               line=line)
            elif ref not in kb.entries:
                game = ref.split(":", 1)[0]
                if game not in kb.games:
                    yield _problem(entry, path, f"reference {shown} names unknown game '{game}'",
                                   f"use one of: {', '.join(sorted(kb.games))}", line=line)
                else:
                    yield _problem(entry, path, f"reference {shown} does not resolve",
                                   f"create rules_data/{game}/entries/{ref.split(':', 1)[1]}.yaml or fix the id",
                                   line=line)


def _check_ids(kb: KnowledgeBase) -> Iterator[Problem]:
    for entry in kb.entries.values():
        if entry.id in vocab.RESERVED_IDS:
            yield _problem(entry, ("id",), f"id '{entry.id}' is reserved for a page of the game",
                           f"choose another id (reserved: {', '.join(sorted(vocab.RESERVED_IDS))})")


def _check_codes(kb: KnowledgeBase) -> Iterator[Problem]:
    seen: dict[str, Entry] = {}
    for entry in kb.entries.values():
        game = kb.games[entry.game]
        if not entry.code.startswith(game.code_prefix + "-"):
            yield _problem(entry, ("code",), f"code '{entry.code}' does not start with the game's prefix "
                           f"'{game.code_prefix}-'", f"use a code like {game.code_prefix}-{entry.code.split('-', 1)[-1]}")
        if entry.code in seen:
            other = seen[entry.code]
            yield _problem(entry, ("code",), f"duplicate code '{entry.code}' (also {other.ref})",
                           "give this entry a code of its own; codes are printed and cited")
        else:
            seen[entry.code] = entry


def _check_sources(kb: KnowledgeBase) -> Iterator[Problem]:
    for entry in kb.entries.values():
        declared = kb.games[entry.game].source_ids
        for path, source in entry.sources():
            if source["doc"] not in declared:
                yield _problem(entry, path + ("doc",), f"source document '{source['doc']}' is not declared by "
                               f"game '{entry.game}'", f"add it to the sources of rules_data/{entry.game}/game.yaml "
                               f"or use one of: {', '.join(sorted(declared))}")


def _check_scope(kb: KnowledgeBase) -> Iterator[Problem]:
    for entry in kb.entries.values():
        game = kb.games[entry.game]
        scope = entry.data.get("scope", {})
        for key, listed in (("edition", "editions"), ("expansion", "expansions")):
            allowed = [item["id"] for item in game.data.get(listed, [])]
            if key in scope and scope[key] not in allowed:
                yield _problem(entry, ("scope", key), f"{key} '{scope[key]}' is not declared by game "
                               f"'{entry.game}'", f"use one of: {', '.join(allowed) or '(none declared)'}")


def _check_contents(kb: KnowledgeBase) -> Iterator[Problem]:
    """The game's contents list only its own, existing entries, each once."""
    for game in kb.games.values():
        counts = Counter(ref for section in game.contents for ref in section["entries"])
        for i, section in enumerate(game.contents):
            for j, ref in enumerate(section["entries"]):
                line = game.line("contents", i, "entries", j)
                where = display_path(game.path)
                if ref not in kb.entries:
                    yield Problem(where, line, game.id, f"contents list '{ref}', which does not exist",
                                  "fix the reference or create the entry")
                elif kb.entries[ref].game != game.id:
                    yield Problem(where, line, game.id, f"contents list '{ref}' of another game",
                                  "list it in that game's game.yaml")
                elif counts[ref] > 1:
                    yield Problem(where, line, game.id, f"contents list '{ref}' more than once", "keep it in one section")


def _check_orphans(kb: KnowledgeBase) -> Iterator[Problem]:
    listed = {ref for game in kb.games.values() for section in game.contents for ref in section["entries"]}
    backlinks = kb.backlinks()
    for entry in kb.entries.values():
        if entry.origin == "shared" and entry.ref not in listed and not backlinks[entry.ref]:
            yield _problem(entry, ("id",), "orphan entry: no game contents section lists it and no entry refers to it",
                           f"add '{entry.ref}' to a contents section of rules_data/{entry.game}/game.yaml "
                           "or refer to it from a related entry")


def _check_coverage(kb: KnowledgeBase) -> Iterator[Problem]:
    """Every section a game declares for a source document is cited by some entry."""
    cited = {(e.game, s["doc"], s["ref"]) for e in kb.entries.values() for _, s in e.sources()}
    for game in kb.games.values():
        for i, source in enumerate(game.data.get("sources", [])):
            for j, section in enumerate(source.get("sections", [])):
                if (game.id, source["id"], section) not in cited:
                    yield Problem(display_path(game.path), game.line("sources", i, "sections", j), game.id,
                                  f"section '{section}' of {source['id']} is not cited by any entry",
                                  f"cite it in an entry: sources: [{{doc: {source['id']}, ref: \"{section}\"}}]")


def _check_questions(kb: KnowledgeBase) -> Iterator[Problem]:
    """Questions have ids of their own and cite a source (and clause) of their entry."""
    reserved = set(vocab.SECTIONS)
    for entry in kb.entries.values():
        cited = {(s["doc"], s["ref"]) for _, s in entry.sources()}
        clauses = kb.games[entry.game].clauses()
        seen: dict[str, int] = {}
        for i, question in enumerate(entry.questions):
            qid, line = question["id"], entry.line("questions", i, "id")
            if qid in seen:
                yield _problem(entry, ("questions", i, "id"), f"duplicate question id '{qid}' (first on line {seen[qid]})",
                               "give each question of the entry an id of its own")
            elif qid in reserved:
                yield _problem(entry, ("questions", i, "id"), f"question id '{qid}' is the anchor of a section of the page",
                               f"choose another id (taken: {', '.join(sorted(reserved))})")
            seen.setdefault(qid, line)
            source = question["source"]
            where = ("questions", i, "source")
            if (source["doc"], source["ref"]) not in cited:
                yield _problem(entry, where, f"question '{qid}' cites {source['doc']} {source['ref']}, "
                               "which the entry does not cite", "cite one of the entry's sources (or add it to sources)")
                continue
            declared = clauses.get((source["doc"], source["ref"]))
            if declared is None and "clause" in source:
                yield _problem(entry, where + ("clause",), f"question '{qid}' names clause '{source['clause']}', but "
                               f"game '{entry.game}' declares no clauses for {source['ref']}",
                               "remove 'clause', or declare the clauses in the game's sources")
            elif declared is not None and source.get("clause") not in declared:
                shown = f"clause '{source['clause']}'" if "clause" in source else "no clause"
                yield _problem(entry, where, f"question '{qid}' names {shown} of {source['ref']}",
                               f"name the clause it answers, one of: {', '.join(declared)}")


def _check_clauses(kb: KnowledgeBase) -> Iterator[Problem]:
    """Every clause a game declares for a source section is answered by some question."""
    answered = {(e.game, q["source"]["doc"], q["source"]["ref"], q["source"].get("clause"))
                for e in kb.entries.values() for q in e.questions}
    for game in kb.games.values():
        for i, source in enumerate(game.data.get("sources", [])):
            for section, clauses in source.get("clauses", {}).items():
                line = game.line("sources", i, "clauses", section)
                where = display_path(game.path)
                if section not in source.get("sections", []):
                    yield Problem(where, line, game.id, f"clauses given for '{section}', which is not a section of "
                                  f"{source['id']}", "add it to 'sections' or fix the name")
                    continue
                for clause in clauses:
                    if (game.id, source["id"], section, clause) not in answered:
                        yield Problem(where, line, game.id, f"clause '{clause}' of {section} is not answered by any question",
                                      f"add a question with source: {{doc: {source['id']}, ref: \"{section}\", "
                                      f"clause: {clause}}} to the entry citing {section}")


CHECKS: list[Callable[[KnowledgeBase], Iterator[Problem]]] = [
    _check_references,
    _check_ids,
    _check_codes,
    _check_sources,
    _check_scope,
    _check_contents,
    _check_orphans,
    _check_coverage,
    _check_questions,
    _check_clauses,
    *glossary.CHECKS,
    freshness.check_freshness,
]


def check_kb(kb: KnowledgeBase) -> list[Problem]:
    """Every problem of an already loaded knowledge base."""
    return [problem for check in CHECKS for problem in check(kb)]


def run(data_dir: Path) -> Report:
    """Load ``data_dir`` and run every check; problems sorted by file and line.

    The last report is kept while no file under ``data_dir`` changed (name, size,
    modification time), so ``houserules build`` and its MkDocs hook check once.
    """
    key = (os.path.abspath(data_dir), os.getcwd(), _snapshot(data_dir))
    if _last is not None and _last[0] == key:
        return _last[1]
    loaded = load(data_dir)
    problems = loaded.problems + check_kb(loaded.kb)
    report = Report(loaded.kb, sorted(set(problems), key=lambda p: (p.path, p.line, p.problem)))
    globals()["_last"] = (key, report)
    return report


_last: tuple[tuple, Report] | None = None


def _snapshot(data_dir: Path) -> tuple:
    """Every file and folder under ``data_dir`` with its size and modification time."""
    found = []
    for folder, dirs, files in os.walk(data_dir):
        dirs.sort()
        for name in sorted(files) + dirs:
            try:
                stat = os.lstat(os.path.join(folder, name))
            except OSError:
                continue
            found.append((folder, name, stat.st_size, stat.st_mtime_ns))
    return tuple(found)
