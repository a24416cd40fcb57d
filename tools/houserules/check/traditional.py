"""The reviewed Traditional forms (``rules_data/traditional.yaml``) say something and stay true.

A row replaces OpenCC's conversion of a simplified text in what a Traditional reader sees, so each
must be a Traditional form of that text (it folds back to it character by character, as the search
folds a query: a reader who types what a result shows finds it again), must differ from what OpenCC
writes anyway (else it says nothing), and its simplified text must stand in a text a result shows
(else it is stale). Two rows never give one text two forms.

And a measure word after a number in digits (``4 只鼠``): the conversion reads 只 there as "only" and writes it
so, where a Traditional reader writes 隻; a number in characters (四只鼠) converts right, on the pages too, which
convert each run of Chinese characters alone (the digit is not in it).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..data.reading.model import KnowledgeBase, TraditionalTerms
from ..errors import Problem, display_path
from ..text import chinese, searchtext
from .rules import entry_problem

#: A number in digits, then 只 (a measure word there: 4 只鼠, 2 只）).
DIGIT_MEASURE = re.compile(r"[0-9０-９][ \u00a0]?只")


def check_traditional(kb: KnowledgeBase) -> Iterator[Problem]:
    table = kb.traditional
    if table is None or not table.terms:
        return
    shown = "\n".join(_shown_texts(kb))
    seen: dict[str, int] = {}
    for index, term in enumerate(table.terms):
        if term.zh in seen:
            yield _problem(
                table,
                index,
                "zh",
                f"'{term.zh}' has two Traditional forms (also item {seen[term.zh] + 1})",
                "keep one row for it",
            )
            continue
        seen[term.zh] = index
        folded = searchtext.fold(term.hant)
        if folded != searchtext.fold(term.zh):
            yield _problem(
                table,
                index,
                "hant",
                f"'{term.hant}' folds to '{folded}', not to its simplified text '{term.zh}'",
                f"write a Traditional form of '{term.zh}', character for character",
            )
        elif chinese.to_traditional(term.zh) == term.hant:
            yield _problem(
                table,
                index,
                "hant",
                f"OpenCC already writes '{term.zh}' as '{term.hant}'",
                "remove the row",
            )
        if term.zh not in shown:
            yield _problem(
                table,
                index,
                "zh",
                f"'{term.zh}' stands in no title, answer, question or alias a result shows",
                "remove the row, or write the simplified text as the entries write it",
            )


def check_measure_words(kb: KnowledgeBase) -> Iterator[Problem]:
    """No Chinese text writes 只 after a number in digits (:data:`DIGIT_MEASURE`)."""
    for entry in kb.entries.values():
        if "只" not in entry.all_text:
            continue
        for path, text in entry.texts:
            found = DIGIT_MEASURE.search(text)
            if found is not None and "en" not in path:
                yield entry_problem(
                    entry,
                    path,
                    f"field '{'.'.join(map(str, path))}' writes '{found.group(0)}': in Traditional characters 只 after"
                    " digits reads as 'only' (只), not as the measure word 隻",
                    "write the number in characters (两只, 四只)",
                )


def _shown_texts(kb: KnowledgeBase) -> Iterator[str]:
    for entry in kb.entries.values():
        yield from (entry.title.zh, entry.summary.zh, *entry.aliases)
        for question in entry.questions:
            yield from (question.q.zh, question.a.zh, *question.variants)


def _problem(table: TraditionalTerms, index: int, key: str, problem: str, fix: str) -> Problem:
    return Problem(display_path(table.path), table.line("terms", index, key), "-", problem, fix)
