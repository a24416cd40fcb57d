"""The questions of entries: ids of their own, answers citing the entry's sources, every clause answered."""

from __future__ import annotations

from collections.abc import Iterator

from ..data import vocab
from ..data.model import KnowledgeBase
from ..errors import Problem, display_path
from .rules import entry_problem


def check_questions(kb: KnowledgeBase) -> Iterator[Problem]:
    """Questions have ids of their own and cite a source (and clause) of their entry."""
    reserved = set(vocab.SECTIONS)
    clauses_of = {game.id: game.clauses() for game in kb.games.values()}
    for entry in kb.entries.values():
        if not entry.questions:
            continue
        cited = {(s["doc"], s["ref"]) for _, s in entry.sources()}
        clauses = clauses_of[entry.game]
        seen: dict[str, int] = {}
        for i, question in enumerate(entry.questions):
            qid, line = question["id"], entry.line("questions", i, "id")
            if qid in seen:
                yield entry_problem(
                    entry,
                    ("questions", i, "id"),
                    f"duplicate question id '{qid}' (first on line {seen[qid]})",
                    "give each question of the entry an id of its own",
                )
            elif qid in reserved:
                yield entry_problem(
                    entry,
                    ("questions", i, "id"),
                    f"question id '{qid}' is the anchor of a section of the page",
                    f"choose another id (taken: {', '.join(sorted(reserved))})",
                )
            seen.setdefault(qid, line)
            source = question["source"]
            where = ("questions", i, "source")
            if (source["doc"], source["ref"]) not in cited:
                yield entry_problem(
                    entry,
                    where,
                    f"question '{qid}' cites {source['doc']} {source['ref']}, which the entry does not cite",
                    "cite one of the entry's sources (or add it to sources)",
                )
                continue
            declared = clauses.get((source["doc"], source["ref"]))
            if declared is None and "clause" in source:
                yield entry_problem(
                    entry,
                    where + ("clause",),
                    f"question '{qid}' names clause '{source['clause']}', but "
                    f"game '{entry.game}' declares no clauses for {source['ref']}",
                    "remove 'clause', or declare the clauses in the game's sources",
                )
            elif declared is not None and source.get("clause") not in declared:
                shown = f"clause '{source['clause']}'" if "clause" in source else "no clause"
                yield entry_problem(
                    entry,
                    where,
                    f"question '{qid}' names {shown} of {source['ref']}",
                    f"name the clause it answers, one of: {', '.join(declared)}",
                )


def check_clauses(kb: KnowledgeBase) -> Iterator[Problem]:
    """Every clause a game declares for a source section is answered by some question."""
    answered = {
        (e.game, q["source"]["doc"], q["source"]["ref"], q["source"].get("clause"))
        for e in kb.entries.values()
        for q in e.questions
    }
    for game in kb.games.values():
        for i, source in enumerate(game.data.get("sources", [])):
            for section, clauses in source.get("clauses", {}).items():
                line = game.line("sources", i, "clauses", section)
                where = display_path(game.path)
                if section not in source.get("sections", []):
                    yield Problem(
                        where,
                        line,
                        game.id,
                        f"clauses given for '{section}', which is not a section of {source['id']}",
                        "add it to 'sections' or fix the name",
                    )
                    continue
                for clause in clauses:
                    if (game.id, source["id"], section, clause) not in answered:
                        yield Problem(
                            where,
                            line,
                            game.id,
                            f"clause '{clause}' of {section} is not answered by any question",
                            f'add a question with source: {{doc: {source["id"]}, ref: "{section}", '
                            f"clause: {clause}}} to the entry citing {section}",
                        )
