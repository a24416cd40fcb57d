"""``houserules check`` against a parse of the same files with libyaml's CSafeLoader: their ratio.

    .venv/bin/python -m benchmarks.check_ratio [DATA] [--size 5000] [--runs 5] [--code tools --code OTHER/tools]

Without DATA, a synthetic knowledge base of ``--size`` entries is written to a temporary folder
(:mod:`benchmarks.synth`). Each round runs, one after the other, the parse (every ``*.yaml`` of
DATA read and loaded with ``yaml.CSafeLoader``, nothing else) and ``houserules check --data DATA``
with each ``--code`` folder first on ``PYTHONPATH`` (default: this checkout's ``tools``), so two
checkouts are compared in one run. The check runs what the ``houserules`` console script runs in
that checkout (its ``pyproject.toml``, beside ``tools``), as a user's ``houserules check`` would. Each figure is the CPU time (user + system) of the whole
process, from ``wait4``; the ratio is taken round by round, so a machine that slows down between
rounds slows both sides, and the median of the rounds is printed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

from benchmarks.measure import ratio_report

ROOT = Path(__file__).resolve().parent.parent

#: What the check is compared with: reading and parsing the same files, the least any check does.
PARSE = """
import pathlib, sys, yaml
for path in sorted(pathlib.Path(sys.argv[1]).rglob("*.yaml")):
    yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
"""


def cpu_seconds(command: list[str], env: dict[str, str] | None = None) -> float:
    """User plus system CPU time of ``command`` as a whole process (its exit status must be 0)."""
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    error = process.stderr.read().decode() if process.stderr else ""
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({process.returncode}): {error[-2000:]}")
    return usage.ru_utime + usage.ru_stime


def console_script(code: Path) -> str:
    """What the checkout of ``code`` (its ``tools`` folder) runs as ``houserules``, as Python code."""
    project = tomllib.loads((code.parent / "pyproject.toml").read_text(encoding="utf-8"))
    module, function = project["project"]["scripts"]["houserules"].split(":")
    return f"import sys; from {module} import {function}; sys.exit({function}())"


def check_command(data: Path, code: Path) -> list[str]:
    return [sys.executable, "-c", console_script(code), "check", "--data", str(data)]


def measure(data: Path, codes: list[Path], runs: int) -> dict[str, list[float]]:
    """Per round: the parse's CPU time, then each checkout's check's; ``{"parse": [...], code: [...]}``."""
    found: dict[str, list[float]] = {"parse": [], **{str(code): [] for code in codes}}
    for _ in range(runs + 1):  # the first round warms the file cache and is left out
        parse = cpu_seconds([sys.executable, "-c", PARSE, str(data)])
        checks: dict[str, float] = {}
        for code in codes:
            env = {**os.environ, "PYTHONPATH": str(code), "HOUSERULES_CACHE": tempfile.gettempdir()}
            checks[str(code)] = cpu_seconds(check_command(data, code), env)
        found["parse"].append(parse)
        for name, seconds in checks.items():
            found[name].append(seconds)
    return {name: values[1:] for name, values in found.items()}


def report(found: dict[str, list[float]]) -> str:
    return ratio_report(found, "parse", "parse (CSafeLoader)", "check", "parse")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", nargs="?", type=Path, help="a data folder (default: a synthetic one of --size entries)")
    parser.add_argument("--size", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--code", type=Path, action="append", help="a checkout's tools/ folder (repeatable)")
    args = parser.parse_args()
    codes = [path.resolve() for path in args.code or [ROOT / "tools"]]
    with tempfile.TemporaryDirectory(prefix="hr-ratio-") as tmp:
        data = args.data
        if data is None:
            from benchmarks import synth

            data = Path(tmp) / "data"
            synth.generate(args.size, data, synth.load_template(ROOT / "rules_data"))
        print(report(measure(data, codes, args.runs)))


if __name__ == "__main__":
    main()
