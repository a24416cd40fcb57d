"""The questions of entries: ids of their own, answers citing the entry's sources, every clause answered."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator, Sequence

from ..data.reading import vocab
from ..data.reading.model import Entry, KnowledgeBase, Question, SourceException
from ..errors import Problem, display_path
from .rules import entry_problem


def check_questions(kb: KnowledgeBase) -> Iterator[Problem]:
    """Questions have ids of their own and cite a source (and clause) of their entry."""
    reserved = set(vocab.SECTIONS)
    clauses_of = {game.id: game.clauses() for game in kb.games.values()}
    for entry in kb.entries.values():
        if not entry.questions:
            continue
        cited = {(s.doc, s.ref) for _, s in entry.citations()}
        clauses = clauses_of[entry.game]
        seen: dict[str, int] = {}
        for i, question in enumerate(entry.questions):
            qid, line = question.id, entry.line("questions", i, "id")
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
            source = question.source
            where = ("questions", i, "source")
            if (source.doc, source.ref) not in cited:
                yield entry_problem(
                    entry,
                    where,
                    f"question '{qid}' cites {source.doc} {source.ref}, which the entry does not cite",
                    "cite one of the entry's sources (or add it to sources)",
                )
                continue
            declared = clauses.get((source.doc, source.ref))
            yield from _check_restates(entry, i, question, cited, clauses, declared)
            if declared is None and source.clause:
                yield entry_problem(
                    entry,
                    where + ("clause",),
                    f"question '{qid}' names clause '{source.clause}', but "
                    f"game '{entry.game}' declares no clauses for {source.ref}",
                    "remove 'clause', or declare the clauses in the game's sources",
                )
            elif declared is not None and source.clause not in declared:
                shown = f"clause '{source.clause}'" if source.clause else "no clause"
                yield entry_problem(
                    entry,
                    where,
                    f"question '{qid}' names {shown} of {source.ref}",
                    f"name the clause it answers, one of: {', '.join(declared)}",
                )


def _check_restates(
    entry: Entry,
    i: int,
    question: Question,
    cited: set[tuple[str, str]],
    clauses: dict[tuple[str, str], tuple[str, ...]],
    declared: tuple[str, ...] | None,
) -> Iterator[Problem]:
    """A question whose section declares no clauses, in an entry citing a section that does, names the
    clauses of that section its answer states too (``restates``, ``[]`` for none): their exceptions are
    then checked like its own. Each one named is a declared clause of a section the entry cites."""
    qid, where = question.id, ("questions", i, "restates")
    if question.restates is None:
        own = (question.source.doc, question.source.ref)
        others = list(dict.fromkeys(key for key in _citation_order(entry) if key in clauses and key != own))
        if declared is None and others:
            doc, ref = others[0]
            yield entry_problem(
                entry,
                ("questions", i, "source"),
                f"question '{qid}' cites {question.source.doc} {question.source.ref}, which declares no clauses, "
                f"in an entry that also cites {' and '.join(r for _, r in others)}: it does not say which of "
                "their clauses its answer states",
                f'name them (restates: [{{doc: {doc}, ref: "{ref}", clause: ...}}]), or write restates: [] '
                "if it states none",
            )
        return
    if declared is not None:
        yield entry_problem(
            entry,
            where,
            f"question '{qid}' names clauses it restates, but its own source {question.source.ref} declares clauses",
            "remove 'restates' and name the clause it answers in 'source'",
        )
        return
    for k, item in enumerate(question.restates):
        here = (*where, k)
        if (item.doc, item.ref) not in cited:
            yield entry_problem(
                entry,
                here,
                f"question '{qid}' restates {item.doc} {item.ref}, which the entry does not cite",
                "cite it in the entry's sources (role: context) or remove the item",
            )
        elif (item.doc, item.ref) not in clauses:
            yield entry_problem(
                entry,
                here,
                f"question '{qid}' restates a clause of {item.ref}, which declares no clauses",
                "name a clause of a section that declares them, or remove the item",
            )
        elif item.clause not in clauses[(item.doc, item.ref)]:
            yield entry_problem(
                entry,
                (*here, "clause"),
                f"question '{qid}' restates clause '{item.clause}', which {item.ref} does not declare",
                f"name one of: {', '.join(clauses[(item.doc, item.ref)])}",
            )


def _citation_order(entry: Entry) -> list[tuple[str, str]]:
    """The sections an entry cites, in the order it cites them."""
    return [(source.doc, source.ref) for _, source in entry.citations()]


def check_clauses(kb: KnowledgeBase) -> Iterator[Problem]:
    """Every clause a game declares for a source section is answered by some question."""
    answered = {(e.game, q.source.doc, q.source.ref, q.source.clause) for e in kb.entries.values() for q in e.questions}
    for game in kb.games.values():
        for i, source in enumerate(game.sources):
            for section, clauses in source.clauses.items():
                line = game.line("sources", i, "clauses", section)
                where = display_path(game.path)
                if section not in (source.sections or ()):
                    yield Problem(
                        where,
                        line,
                        game.id,
                        f"clauses given for '{section}', which is not a section of {source.id}",
                        "add it to 'sections' or fix the name",
                    )
                    continue
                for clause in clauses:
                    if (game.id, source.id, section, clause) not in answered:
                        yield Problem(
                            where,
                            line,
                            game.id,
                            f"clause '{clause}' of {section} is not answered by any question",
                            f'add a question with source: {{doc: {source.id}, ref: "{section}", '
                            f"clause: {clause}}} to the entry citing {section}",
                        )


# -- variants: each phrasing belongs to one question -------------------------------------------------


def _phrasing(text: str) -> str:
    """A phrasing as search compares it: NFKC, case-folded, without spaces or a closing question mark.

    >>> _phrasing(" Gallery Drop Damage？")
    'gallerydropdamage'
    """
    folded = unicodedata.normalize("NFKC", text).casefold()
    return "".join(folded.split()).rstrip("?")


def check_variants(kb: KnowledgeBase) -> Iterator[Problem]:
    """A variant belongs to one question of its game: never a second question's variant or its ``q``."""
    by_game: dict[str, list[Entry]] = {}
    for e in kb.entries.values():
        by_game.setdefault(e.game, []).append(e)
    for game in sorted(by_game):
        entries = sorted(by_game[game], key=lambda e: e.id)
        asked: dict[str, tuple[str, str]] = {}
        for entry in entries:
            for question in entry.questions:
                for lang in ("zh", "en"):
                    asked.setdefault(_phrasing(question.q.get(lang)), (entry.ref, question.id))
        owner: dict[str, tuple[str, str, int]] = {}
        for entry in entries:
            for i, question in enumerate(entry.questions):
                here = (entry.ref, question.id)
                for k, variant in enumerate(question.variants):
                    key, path = _phrasing(variant), ("questions", i, "variants", k)
                    other = asked.get(key)
                    if other is not None and other != here:
                        yield entry_problem(
                            entry,
                            path,
                            f"variant '{variant}' of question '{question.id}' is the question "
                            f"'{other[1]}' of {other[0]}",
                            "remove the variant: search finds that question by its own words",
                        )
                        continue
                    first = owner.setdefault(key, (*here, entry.line(*path)))
                    if first[:2] != here:
                        yield entry_problem(
                            entry,
                            path,
                            f"variant '{variant}' of question '{question.id}' is also a variant of question "
                            f"'{first[1]}' of {first[0]} (line {first[2]})",
                            "keep it under the one question it asks, and word the other question's variant its own way",
                        )


# -- exceptions: what a clause's answers must keep -------------------------------------------------


def _states(text: str, keywords: Sequence[str], entry: str = "") -> bool:
    """Whether ``text`` states an exception: one of its ``keywords``, or a link to the ``entry`` that holds it.

    >>> _states("不能，除非你持有[[betrayal:revolver]]。", ["手枪"], "betrayal:revolver")
    True
    >>> _states("Yes, unless you hold the revolver.", ["Revolver"])
    True
    >>> _states("不能。", ["手枪"])
    False
    """
    folded = text.casefold()
    if any(keyword.casefold() in folded for keyword in keywords):
        return True
    return bool(entry) and f"[[{entry}]]" in text.replace(" ", "")


def _say(exception: SourceException, lang: str) -> str:
    """How to fix a missing exception: its keywords, and the entry to link when one holds it."""
    keywords = " / ".join(exception.keywords(lang))
    link = f" or link [[{exception.entry}]], which holds it" if exception.entry else ""
    return f"say it ({keywords}){link}"


def _applies(exception: SourceException, clause: str) -> bool:
    """An exception qualifies every question citing its section, or only those naming one of its ``clauses``."""
    return not exception.clauses or clause in exception.clauses


def _cited_clauses(question: Question) -> Iterator[tuple[str, str, str, tuple[str | int, ...]]]:
    """The clauses a question's answer states: its own (``source``) and those it ``restates``, each as
    ``(doc, section, clause, path of the citation)``."""
    yield question.source.doc, question.source.ref, question.source.clause, ("source",)
    for k, item in enumerate(question.restates or ()):
        yield item.doc, item.ref, item.clause, ("restates", k)


def _qualified(text: str, lang: str) -> bool:
    """Whether a short answer says it has exceptions it leaves to the answers (:data:`vocab.QUALIFIERS`).

    >>> _qualified("要，但有例外。", "zh"), _qualified("Yes, unless you already did.", "en"), _qualified("Yes.", "en")
    (True, True, False)
    """
    folded = text.casefold()
    return any(word in folded for word in vocab.QUALIFIERS[lang])


def check_exceptions(kb: KnowledgeBase) -> Iterator[Problem]:
    """Every answer citing or restating a clause states the clause's exceptions; its entry's summary
    states each one too, or says that the rule it states has exceptions."""
    declared = {game.id: game.exceptions() for game in kb.games.values()}
    for entry in kb.entries.values():
        exceptions = declared.get(entry.game, {})
        if not exceptions:
            continue
        owed: dict[tuple[str, str, str], tuple[SourceException, str]] = {}
        for i, question in enumerate(entry.questions):
            for doc, section, clause, _ in _cited_clauses(question):
                for exception in exceptions.get((doc, section), ()):
                    if not _applies(exception, clause):
                        continue
                    owed.setdefault((doc, section, exception.id), (exception, question.id))
                    for lang in ("zh", "en"):
                        if not _states(question.a.get(lang), exception.keywords(lang), exception.entry):
                            yield entry_problem(
                                entry,
                                ("questions", i, "a", lang),
                                f"question '{question.id}' does not state the exception '{exception.id}' of "
                                f"{section} in its {lang} answer",
                                _say(exception, lang),
                            )
        for (_, section, exception_id), (exception, qid) in owed.items():
            for lang in ("zh", "en"):
                summary = entry.summary.get(lang)
                if _states(summary, exception.keywords(lang), exception.entry) or _qualified(summary, lang):
                    continue
                yield entry_problem(
                    entry,
                    ("summary", lang),
                    f"summary.{lang} states the rule without the exception '{exception_id}' of {section}, "
                    f"which its question '{qid}' keeps",
                    f"{_say(exception, lang)}, or say that it has exceptions "
                    f"({' / '.join(vocab.QUALIFIERS[lang])}) and leave them to the answers",
                )


def _entry_text(entry: Entry, lang: str) -> str:
    """Everything an entry says in one language: summary, body and answers."""
    return "\n".join([entry.summary.get(lang), entry.body.get(lang)] + [q.a.get(lang) for q in entry.questions])


def check_exception_declarations(kb: KnowledgeBase) -> Iterator[Problem]:
    """Exceptions name a declared section and clauses, and an entry of the game that states them."""
    for game in kb.games.values():
        where = display_path(game.path)
        for i, source in enumerate(game.sources):
            clauses = source.clauses
            for section, exceptions in source.exceptions.items():
                if source.sections is not None and section not in source.sections:
                    yield Problem(
                        where,
                        game.line("sources", i, "exceptions", section),
                        game.id,
                        f"exceptions given for '{section}', which is not a section of {source.id}",
                        "add it to 'sections' or fix the name",
                    )
                    continue
                known = clauses.get(section, ())
                for j, exception in enumerate(exceptions):
                    path = ("sources", i, "exceptions", section, j)
                    named: list[tuple[str, int | None, str]] = [
                        ("clauses", k, c) for k, c in enumerate(exception.clauses)
                    ]
                    named += [("clause", None, exception.clause)] if exception.clause else []
                    for field, k, clause in named:
                        if clause not in known:
                            line = game.line(*path, field, *([] if k is None else [k]))
                            choices = f"one of: {', '.join(known)}" if known else f"declare clauses for {section}"
                            yield Problem(
                                where,
                                line,
                                game.id,
                                f"exception '{exception.id}' names clause '{clause}', which {section} does not declare",
                                f"name a clause of {section} ({choices})",
                            )
                    ref = exception.entry
                    if not ref:
                        continue
                    holder = kb.entries.get(ref)
                    if holder is None or holder.game != game.id:
                        yield Problem(
                            where,
                            game.line(*path, "entry"),
                            game.id,
                            f"exception '{exception.id}' names entry {ref}, which is not an entry of {game.id}",
                            "name the game:id of the entry that states the exception, or remove 'entry'",
                        )
                        continue
                    for lang in ("zh", "en"):
                        if not _states(_entry_text(holder, lang), exception.keywords(lang)):
                            yield Problem(
                                where,
                                game.line(*path, lang),
                                game.id,
                                f"exception '{exception.id}' is held by {ref}, which uses none of its {lang} "
                                f"keywords ({' / '.join(exception.keywords(lang))})",
                                f"add the wording {ref} uses to '{lang}', or state the exception in {ref}",
                            )
