"""A rebuild after one changed entry against a cold build: ``houserules build`` both ways.

    .venv/bin/python -m benchmarks.rebuild_bench setup WORK [--data rules_data] [--entries 1000]
    .venv/bin/python -m benchmarks.rebuild_bench compare WORK [-n 3]
    .venv/bin/python -m benchmarks.rebuild_bench cold WORK      # one cold build (for an outside timer)
    .venv/bin/python -m benchmarks.rebuild_bench rebuild WORK   # one rebuild after one change (the same)

``setup`` copies the data (or makes a synthetic knowledge base of ``--entries`` from it,
:mod:`benchmarks.synth`) into ``WORK/data`` and builds it once into ``WORK/site`` with the
cache ``WORK/cache``: the state a rebuild starts from.

``cold`` builds ``WORK/data`` with neither an earlier site nor a cache (``WORK/cold-*``,
emptied first): every page rendered, every PDF laid out, the site's search index made.
``rebuild`` changes the one-line answer of one entry of the middle game (a new text each
time, so the change is never one a cache has seen) and builds into ``WORK/site`` with
``WORK/cache``, as a maintainer's second ``houserules build`` does. Each is one process
that ends with the build's own, so an outside timer (``/usr/bin/time``, or a tool that
runs two commands in turn) times it whole.

``compare`` runs the two in turn ``-n`` times (cold, rebuild, cold, rebuild, …) and prints
each one's wall and CPU seconds (the build and its workers) and the ratio rebuild ÷ cold,
pair by pair: a machine whose speed drifts slows both of a pair alike. The median is the
figure to quote.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.measure import change_one_entry

BIN = Path(sys.executable).parent
COUNTER = "changes"


def _build(work: Path, site: str, cache: str) -> tuple[list[str], dict[str, str]]:
    command = [str(BIN / "houserules"), "build", "--data", str(work / "data"), "-o", str(work / site)]
    return command, {
        **os.environ,
        "HOUSERULES_CACHE": str(work / cache),
        "NO_MKDOCS_2_WARNING": "1",
    }


def setup(work: Path, data: Path, entries: int | None) -> None:
    """The data and the first build a rebuild starts from."""
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    if entries:
        from benchmarks import synth

        synth.generate(entries, work / "data", synth.load_template(data))
    else:
        shutil.copytree(data, work / "data")
    (work / COUNTER).write_text("0", encoding="utf-8")
    command, env = _build(work, "site", "cache")
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)


def cold_command(work: Path) -> tuple[list[str], dict[str, str]]:
    for name in ("cold-site", "cold-cache"):
        shutil.rmtree(work / name, ignore_errors=True)
    return _build(work, "cold-site", "cold-cache")


def rebuild_command(work: Path) -> tuple[list[str], dict[str, str]]:
    counter = work / COUNTER
    n = int(counter.read_text(encoding="utf-8")) + 1
    counter.write_text(str(n), encoding="utf-8")
    change_one_entry(work / "data", n)
    return _build(work, "site", "cache")


def _timed(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one build (its own and its finished workers', from the kernel)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def compare(work: Path, runs: int) -> None:
    rows: dict[str, list[tuple[float, float]]] = {"cold": [], "rebuild": []}
    for _ in range(runs):
        rows["cold"].append(_timed(*cold_command(work)))
        rows["rebuild"].append(_timed(*rebuild_command(work)))
    for name, samples in rows.items():
        walls, cpus = [w for w, _ in samples], [c for _, c in samples]
        print(
            f"{name:8} wall {statistics.median(walls):6.1f} s (min {min(walls):.1f}, max {max(walls):.1f})  "
            f"cpu {statistics.median(cpus):6.1f} s"
        )
    for index, what in ((0, "wall"), (1, "cpu")):
        ratios = [r[index] / c[index] for r, c in zip(rows["rebuild"], rows["cold"], strict=True)]
        print(f"rebuild ÷ cold, {what}: {statistics.median(ratios):.2f} (min {min(ratios):.2f}, max {max(ratios):.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("setup", "cold", "rebuild", "compare"))
    parser.add_argument("work", type=Path)
    parser.add_argument("--data", type=Path, default=Path("rules_data"), help="the data (setup)")
    parser.add_argument("--entries", type=int, help="a synthetic knowledge base of this size instead (setup)")
    parser.add_argument("-n", "--runs", type=int, default=3, help="pairs of builds (compare)")
    args = parser.parse_args()
    work = args.work.resolve()
    if args.mode == "setup":
        setup(work, args.data, args.entries)
    elif args.mode == "compare":
        compare(work, args.runs)
    else:
        command, env = cold_command(work) if args.mode == "cold" else rebuild_command(work)
        os.execve(command[0], command, env)  # the build is this process: an outside timer sees it alone


if __name__ == "__main__":
    main()
