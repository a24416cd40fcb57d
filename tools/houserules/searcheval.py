"""``houserules search-eval``: ranking quality on a judged query set.

The judgements file lists queries as players type them, each with the entry
(or entries) that should come back::

    queries:
      - {group: question, q: 电梯坠毁会怎样, expect: betrayal:mystic-elevator-ruling}

For each group this reports hit@1, hit@3 (an expected entry among the first one
or three hits) and the mean reciprocal rank (1/rank of the first expected hit,
0 when it is not in the first ten).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import HouserulesError, Problem, display_path
from .search import SearchIndex
from .data.yamlload import YamlError, load as load_yaml

DEPTH = 10


@dataclass(frozen=True)
class Judgement:
    group: str
    query: str
    expect: tuple[str, ...]
    game: str | None
    line: int


@dataclass(frozen=True)
class Outcome:
    judgement: Judgement
    rank: int | None  # 1-based rank of the first expected entry, None if not in the first DEPTH

    def hit(self, k: int) -> bool:
        return self.rank is not None and self.rank <= k


def read_judgements(path: Path) -> list[Judgement]:
    """The judged queries of ``path``; a malformed item is a located error."""
    where = display_path(path)
    try:
        doc = load_yaml(path)
    except YamlError as exc:
        raise HouserulesError("cannot read the judgements", [Problem(where, exc.line, "-", exc.problem, exc.fix)])
    except OSError as exc:
        raise HouserulesError(f"cannot read {where}: {exc.strerror} — pass --judgements FILE")
    items = doc.data.get("queries") if isinstance(doc.data, dict) else None
    if not isinstance(items, list):
        raise HouserulesError("no judged queries", [Problem(where, 1, "-", "no 'queries:' list",
                                                            "write 'queries:' followed by items")])
    result, problems = [], []
    for index, item in enumerate(items):
        line = doc.line(("queries", index))
        expect = item.get("expect") if isinstance(item, dict) else None
        expect = [expect] if isinstance(expect, str) else expect
        if not (isinstance(item, dict) and isinstance(item.get("q"), str) and isinstance(item.get("group"), str)
                and isinstance(expect, list) and expect and all(isinstance(e, str) for e in expect)):
            problems.append(Problem(where, line, "-", "a judgement needs 'group', 'q' and 'expect'",
                                    "write {group: G, q: QUERY, expect: game:id}"))
            continue
        result.append(Judgement(item["group"], item["q"], tuple(expect), item.get("game"), line))
    if problems:
        raise HouserulesError("malformed judgements", problems)
    return result


def check_refs(judgements: list[Judgement], known: set[str], path: Path) -> None:
    """Fail on judgements that expect entries the data does not have."""
    problems = [Problem(display_path(path), j.line, ref, f"expected entry '{ref}' is not in the data",
                        "use a game:id that exists")
                for j in judgements for ref in j.expect if ref not in known]
    if problems:
        raise HouserulesError("judgements refer to unknown entries", problems)


def evaluate(index: SearchIndex, judgements: list[Judgement]) -> list[Outcome]:
    """Run every judged query and record where its expected entry ranked."""
    outcomes = []
    for j in judgements:
        ids = [hit.record["id"] for hit in index.search(j.query, game=j.game, limit=DEPTH)]
        rank = next((i + 1 for i, ref in enumerate(ids) if ref in j.expect), None)
        outcomes.append(Outcome(j, rank))
    return outcomes


def scores(outcomes: list[Outcome]) -> dict[str, dict[str, Any]]:
    """hit@1, hit@3 and MRR per group and ``overall``, in file order of the groups."""
    groups: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in outcomes:
        groups[outcome.judgement.group].append(outcome)
    groups["overall"] = list(outcomes)

    def summary(items: list[Outcome]) -> dict[str, Any]:
        n = len(items)
        return {"queries": n,
                "hit@1": sum(o.hit(1) for o in items) / n,
                "hit@3": sum(o.hit(3) for o in items) / n,
                "mrr": sum(1 / o.rank for o in items if o.rank) / n}

    return {name: summary(items) for name, items in groups.items() if items}


def report(table: dict[str, dict[str, Any]], misses: list[Outcome]) -> str:
    """The scores as a table, then the queries whose expected entry was not first."""
    lines = [f"{'group':<12} {'queries':>7} {'hit@1':>6} {'hit@3':>6} {'MRR':>6}"]
    for name, row in table.items():
        lines.append(f"{name:<12} {row['queries']:>7} {row['hit@1']:>6.3f} {row['hit@3']:>6.3f} {row['mrr']:>6.3f}")
    if misses:
        lines.append("\nnot first:")
        for o in misses:
            where = "not found" if o.rank is None else f"rank {o.rank}"
            lines.append(f"  [{o.judgement.group}] {o.judgement.query!r}: {where} (expected {', '.join(o.judgement.expect)})")
    return "\n".join(lines)
