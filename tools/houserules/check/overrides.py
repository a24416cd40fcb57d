"""What a group's house rule overrides (``overrides:``): official entries and questions of its game that exist.

A house rule of a profile names the official rulings it changes: an entry (``game:id``, its one-line
answer) or one of its questions (``game:id/question-id``). Each of them then says, on the site and on
paper, that the group's house rule changes it and points to it. Whether the entry exists at all is the
reference check's (:func:`houserules.check.rules.check_references`); this one checks the rest.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..data.reading.model import KnowledgeBase
from ..errors import Problem
from .rules import entry_problem


def check_overrides(kb: KnowledgeBase) -> Iterator[Problem]:
    for entry in kb.entries.values():
        if not entry.overrides:
            continue
        if entry.origin == "shared":
            yield entry_problem(
                entry,
                ("overrides",),
                "an entry of the shared data overrides official rulings",
                "remove 'overrides': only a group's house rule (an entry of its profile) overrides a ruling",
            )
            continue
        for index, target in enumerate(entry.overrides):
            ref, _, question = target.partition("/")
            found = kb.entries.get(ref)
            if found is None or found is entry:
                continue  # the reference check reports it
            path = ("overrides", index)
            if found.origin != "shared":
                yield entry_problem(
                    entry,
                    path,
                    f"overrides '{target}', which is a house rule of the group too",
                    "name the official entry or question it changes",
                )
            elif found.game != entry.game:
                yield entry_problem(
                    entry,
                    path,
                    f"overrides '{target}', an entry of another game ({found.game})",
                    f"name an entry of {entry.game}, or keep the house rule in {found.game}/ of the profile",
                )
            elif question and question not in {q.id for q in found.questions}:
                ids = ", ".join(q.id for q in found.questions) or "none: it has no questions"
                yield entry_problem(
                    entry,
                    path,
                    f"overrides the question '{question}' of {ref}, which has no such question",
                    f"use one of its question ids ({ids}), or '{ref}' for its one-line answer",
                )
