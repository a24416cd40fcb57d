"""A cold ``houserules search`` against Python only importing Whoosh: their ratio.

    .venv/bin/python -m benchmarks.search_ratio [DATA] [--runs 20] [--query 魔梯] [--code tools --code OTHER/tools]

A search cannot start faster than the interpreter importing ``whoosh.index`` and ``whoosh.qparser``
(the floor). Each round runs the floor, then ``houserules search --data DATA QUERY --json`` with
each ``--code`` folder first on ``PYTHONPATH`` (default: this checkout's ``tools``), each with its
own search cache made beforehand (so the index is cached, as after a user's first search) and its modules
byte-compiled (as `make setup` and any installer leave them). Each
figure is the CPU time (user + system) of the whole process, from ``wait4``; the ratio is taken
round by round, so a machine that slows down between rounds slows both sides, and the median of
the rounds is printed with their spread.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.check_ratio import console_script, cpu_seconds
from benchmarks.measure import ratio_report

ROOT = Path(__file__).resolve().parent.parent

#: What the search is compared with: the interpreter importing the search library, nothing else.
FLOOR = "import whoosh.index, whoosh.qparser"


def search_command(data: Path, query: str, code: Path) -> list[str]:
    """``houserules search`` as the checkout of ``code`` installs it (its console script)."""
    return [sys.executable, "-c", console_script(code), "search", "--data", str(data), query, "--json"]


def measure(data: Path, query: str, codes: list[Path], runs: int, caches: Path) -> dict[str, list[float]]:
    """Per round: the floor's CPU time, then each checkout's search's; ``{"floor": [...], code: [...]}``."""
    envs = {}
    for number, code in enumerate(codes):
        # As installed: byte-compiled (``make setup`` does the same), so no side compiles its modules at each start.
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(code)], check=True, capture_output=True)
        env = {**os.environ, "PYTHONPATH": str(code), "HOUSERULES_CACHE": str(caches / str(number))}
        subprocess.run(search_command(data, query, code), env=env, check=True, capture_output=True)  # the index, cached
        envs[str(code)] = (env, search_command(data, query, code))
    found: dict[str, list[float]] = {"floor": [], **{code: [] for code in envs}}
    for _ in range(runs + 1):  # the first round warms the file cache and is left out
        found["floor"].append(cpu_seconds([sys.executable, "-c", FLOOR]))
        for name, (env, command) in envs.items():
            found[name].append(cpu_seconds(command, env))
    return {name: values[1:] for name, values in found.items()}


def report(found: dict[str, list[float]]) -> str:
    return ratio_report(found, "floor", f"floor ({FLOOR})", "search", "floor", digits=3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", nargs="?", type=Path, default=ROOT / "rules_data", help="a data folder")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--query", default="魔梯")
    parser.add_argument("--code", type=Path, action="append", help="a checkout's tools/ folder (repeatable)")
    args = parser.parse_args()
    codes = [path.resolve() for path in args.code or [ROOT / "tools"]]
    with tempfile.TemporaryDirectory(prefix="hr-search-ratio-") as caches:
        print(report(measure(args.data.resolve(), args.query, codes, args.runs, Path(caches))))


if __name__ == "__main__":
    main()
