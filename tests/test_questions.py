"""Questions and answers: every clause of every Betrayal ruling is answered, and the clause list is the seed's.

``tests/seed_clauses.yaml`` lists, for each numbered ruling of the clarification document,
its clauses with an excerpt of the seed; ``rules_data/betrayal/game.yaml`` declares the same
clause ids, and each question names the clause it answers.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
import yaml

from conftest import real_check

CLAUSES = yaml.safe_load(Path(__file__).with_name("seed_clauses.yaml").read_text(encoding="utf-8"))
KB = real_check().kb
RULINGS = list(CLAUSES["rulings"])
#: Text between two clauses may only join them: a letter of a list (a）), or 原文 before a quotation.
JOINERS = re.compile(r"[a-d]|原文")


def seed_rulings(seeds: Path) -> dict[str, str]:
    """Each numbered ruling's text, line breaks removed (the document breaks lines mid-sentence)."""
    text = re.sub(r"\s*\n\s*", "", (seeds / CLAUSES["doc"]).read_text(encoding="utf-8"))
    return {part[: part.index("】") + 1]: part[part.index("】") + 1 :] for part in re.split(r"(?=【\d+】)", text)[1:]}


def test_the_clause_list_covers_every_ruling_of_the_seed(seeds):
    assert RULINGS == list(seed_rulings(seeds))


@pytest.mark.parametrize("ruling", RULINGS)
def test_the_clauses_are_the_rulings_text_in_order_and_leave_nothing_out(seeds, ruling):
    text = seed_rulings(seeds)[ruling]
    position, gaps = 0, []
    for clause, excerpt in CLAUSES["rulings"][ruling].items():
        found = text.find(excerpt, position)
        assert found >= 0, f"{ruling} {clause}: the excerpt is not in the seed after the previous clause"
        gaps.append(text[position:found])
        position = found + len(excerpt)
    gaps.append(text[position:])
    # The first gap is the ruling's heading (the rooms it is about, up to its colon) unless a clause covers it.
    words = [re.sub(r"\W", "", gap) for gap in gaps[1:]]
    assert [w for w in words if w and not JOINERS.fullmatch(w)] == [], f"{ruling}: text no clause covers"
    heading = re.sub(r"[a-d]）$", "", gaps[0])  # 【1】's first clause is its item a）
    assert not heading or heading.endswith("："), f"{ruling}: text before the first clause: {gaps[0]!r}"


def test_the_game_declares_the_same_clauses():
    source = next(s for s in KB.games["betrayal"].data["sources"] if s["id"] == CLAUSES["doc"])
    assert source["clauses"] == {ruling: list(clauses) for ruling, clauses in CLAUSES["rulings"].items()}


def test_every_clause_is_answered_by_a_question():
    answered = Counter(
        (q.source.ref, q.source.clause or None)
        for e in KB.game_entries("betrayal")
        for q in e.questions
        if q.source.doc == CLAUSES["doc"]
    )
    missing = {
        ruling: [c for c in clauses if not answered[(ruling, c)]] for ruling, clauses in CLAUSES["rulings"].items()
    }
    assert {ruling: clauses for ruling, clauses in missing.items() if clauses} == {}
    # The longest ruling, the Mystic Elevator, is answered many times over.
    assert sum(n for (ruling, _), n in answered.items() if ruling == "【13】") >= 7


def test_questions_have_both_languages_and_a_short_answer():
    for entry in KB.entries.values():
        for question in entry.questions:
            assert question.q.zh.strip() and question.q.en.strip(), (entry.ref, question.id)
            for lang in ("zh", "en"):
                sentences = re.findall(r"[。！？]|[.!?](?:\s|$)", question.a.get(lang))
                assert 1 <= len(sentences) <= 4, (entry.ref, question.id, lang)


def test_every_question_has_two_to_five_variants():
    """CONTRIBUTING: two to five other wordings per question: enough to be found as players say it, few enough that
    each keeps its question's condition."""
    counts = {f"{e.ref}/{q.id}": len(q.variants) for e in KB.entries.values() for q in e.questions}
    assert {question: n for question, n in counts.items() if not 2 <= n <= 5} == {}


#: The most questions a rule's page holds: each asks one thing a player asks of that section (its numbers, exceptions,
#: what happens after), and a section that needs more is better split into entries.
MOST_QUESTIONS = 12


def test_every_rule_has_two_questions_at_least_and_there_are_enough():
    """A stub (a rule on a page the seed does not include) has what can honestly be answered: at least one."""
    rules = [e for e in KB.entries.values() if e.kind == "rule"]
    assert [e.ref for e in rules if e.data.get("status") != "stub" and not 2 <= len(e.questions)] == []
    assert [e.ref for e in rules if len(e.questions) > MOST_QUESTIONS] == []
    assert [e.ref for e in rules if not e.questions] == []
    assert sum(len(e.questions) for e in KB.entries.values()) >= 150


# -- exceptions: what the seed attaches to a clause ------------------------------------------------
#: Wording by which the clarification attaches an exception or a condition to a rule: "unless" (除非, 除…),
#: "except" (除了), "but" (但, 不过), "only" (只有), "otherwise" (否则), "exempt" (可免) and "need not"
#: (不需要: the traitor and monsters, rooms placed by the haunt). 【14】 breaks off at 除, so a bare 除 at
#: its end counts.
EXCEPTION_WORDING = re.compile(r"除非|除了|除$|但|不过|只有|否则|可免|不需要")
#: "If … then" (若…则, also across a comma) inside a clause: a case the rule carves out ("若无，则…"). A clause
#: that opens with it ("若门靠着别的房间的墙壁，则为假门") states its own case, not an exception to another.
CONDITION = re.compile(r"若[^。；]*则")
#: Read in the seed, not caught by the wording: the Revolver continues the 除非 of 【5】 with 或者.
READ_AS_EXCEPTIONS = {("【5】", "revolver")}


def seed_clauses_with_exceptions(seeds: Path) -> set[tuple[str, str]]:
    """Each (ruling, clause) whose text in the seed carries an exception or condition."""
    rulings = seed_rulings(seeds)
    found = set()
    for ruling, clauses in CLAUSES["rulings"].items():
        for clause, excerpt in clauses.items():
            assert excerpt in rulings[ruling], f"{ruling} {clause}: the excerpt is not in the seed"
            if EXCEPTION_WORDING.search(excerpt) or CONDITION.search(excerpt[1:]):
                found.add((ruling, clause))
    return found | READ_AS_EXCEPTIONS


def declared_exceptions() -> dict[str, list[dict]]:
    source = next(s for s in KB.games["betrayal"].data["sources"] if s["id"] == CLAUSES["doc"])
    return source.get("exceptions", {})


def test_every_clause_with_an_exception_in_the_seed_declares_it(seeds):
    """A clause that says "unless", "but", "only" ... either declares what it attaches (listed in an
    exception's ``clauses``) or is where the ruling states another clause's exception (its ``clause``)."""
    wanted = seed_clauses_with_exceptions(seeds)
    assert len(wanted) >= 15, "the seed's exception wording was found"
    covered = {
        (ruling, clause)
        for ruling, exceptions in declared_exceptions().items()
        for exception in exceptions
        for clause in [*exception.get("clauses", []), *([exception["clause"]] if "clause" in exception else [])]
    }
    assert sorted(wanted - covered) == []


@pytest.mark.parametrize(
    "ruling, stated_by, qualifies",
    [
        ("【5】", "revolver", "two-sides"),  # attacking across a barrier room: unless you hold the Revolver
        ("【4】", "monsters-pass", "cross"),  # the traitor and monsters roll for nothing when crossing
        ("【12】", "all-revealed", "connect"),  # every basement room already revealed
        ("【12】", "monster-first", "below-token"),  # a monster first in
        ("【1】", "placed-no-draw", "like-exploring"),  # a room placed by the haunt or a scenario
    ],
)
def test_the_exceptions_the_seed_states_elsewhere_qualify_the_clause(ruling, stated_by, qualifies):
    exceptions = declared_exceptions()[ruling]
    assert any(e.get("clause") == stated_by and qualifies in e.get("clauses", []) for e in exceptions)


def test_every_answer_citing_a_clause_states_its_exceptions():
    """The checker's rule holds on the data: no problem about an exception."""
    problems = [p for p in real_check().problems if "exception" in p.problem]
    assert problems == []
