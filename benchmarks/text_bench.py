"""What one text field costs at the limits ``check`` allows: rendering and the deprecated-form check.

    .venv/bin/python -m benchmarks.text_bench

Each case is the worst of its kind that the check accepts (or, for the renderer's guard, the kind
it refuses, which is then shown as plain text) at growing lengths; the time of one field must stay
under :data:`BUDGET` and grow about linearly with the length. Prints one row per case and length
and exits 1 when a case is over budget. Timings, not tests: tests/test_text_limits.py checks the
answers.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from houserules.check.glossary import _deprecated_uses
from houserules.data.reading.model import KnowledgeBase
from houserules.data.reading.textpolicy import MAX_BRACKET_WORK, MAX_MARKDOWN_NESTING
from houserules.render.text import Linker, markdown_html

#: Seconds one field may take to render or check, at the largest size here (the schema's
#: longest Markdown field, 20,000 characters).
BUDGET = 0.5
SIZES = (5_000, 10_000, 20_000)


def _fill(head: str, filler: str, size: int) -> str:
    return head + filler * max(0, (size - len(head)) // len(filler))


CASES: dict[str, Callable[[int], str]] = {
    "unclosed '[' at the limit, then text": lambda n: _fill("[" * (MAX_BRACKET_WORK // n), "塔楼 ", n),
    "'[a' at the limit, then text": lambda n: _fill("[a" * (MAX_BRACKET_WORK // n), "x ", n),
    "'[a](' at the limit, then text": lambda n: _fill("[a](" * (MAX_BRACKET_WORK // n), "x ", n),
    "a run of '[' (refused: plain text)": lambda n: "[" * n,
    "nested lists at the limit, repeated": lambda n: _fill(
        "", "".join("  " * i + "- x\n" for i in range(MAX_MARKDOWN_NESTING)), n
    ),
    "'- ' repeated (refused: plain text)": lambda n: "- " * (n // 2),
    "emphasis and code markers": lambda n: _fill("", "*a_`b ", n),
    "links at the limit": lambda n: _fill("[x](https://example.org) " * (MAX_BRACKET_WORK // n), "y ", n),
    "short paragraphs, each with '['": lambda n: _fill("", "[a [b [c 塔楼\n\n", n),
}

TOWER = {"id": "tower", "en": "Tower", "zh": "塔楼", "deprecated": ["高塔", "塔"]}


def timed(run: Callable[[], object]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def main() -> int:
    linker = Linker(KnowledgeBase())
    over = []
    print(f"{'case':45} " + " ".join(f"{size:>10,}" for size in SIZES))

    def render(make: Callable[[int], str]) -> Callable[[int], Callable[[], object]]:
        return lambda n: lambda: markdown_html(make(n), linker)

    rows = {name: render(make) for name, make in CASES.items()}
    rows["deprecated form used throughout (check)"] = lambda n: (
        lambda: list(_deprecated_uses(_fill("", "高塔塔楼塔，", n), [TOWER]))
    )
    for name, case in rows.items():
        times = [timed(case(size)) for size in SIZES]
        print(f"{name:45} " + " ".join(f"{t:>9.3f}s" for t in times))
        if times[-1] > BUDGET:
            over.append(name)
    if over:
        print(f"over the budget of {BUDGET} s a field: {', '.join(over)}")
        return 1
    print(f"every field within {BUDGET} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
