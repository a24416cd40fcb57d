"""Timing, memory and size helpers shared by the benchmarks."""

from __future__ import annotations

import gzip
import os
import shutil
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

#: GNU time, for each command's own peak memory (without it: wait4, which can count this process's).
TIME = shutil.which("time", path="/usr/bin:/bin")


@dataclass
class Sample:
    """One run of a command: wall time and its peak memory (of the whole process tree when sampled)."""

    seconds: float
    peak_mb: float


def folder_children(pid: int) -> list[int]:
    found = []
    try:
        tasks = Path(f"/proc/{pid}/task").iterdir()
        for task in tasks:
            text = (task / "children").read_text()
            found += [int(child) for child in text.split()]
    except OSError:
        pass
    return found


def _pss_kb(pid: int) -> int:
    """Proportional set size: pages shared by forked workers counted once over the tree, not once per process."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def descendants(root: int) -> list[int]:
    """``root`` and every process below it now, parents before children (from each task's ``children``)."""
    tree = [root]
    for pid in tree:
        tree += sorted(folder_children(pid))
    return tree


class TreeMemory:
    """The peak of the summed memory of a process and all its descendants, sampled every ``every`` seconds."""

    def __init__(self, pid: int, every: float = 0.1):
        self.pid, self.every, self.peak_kb = pid, every, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            self.peak_kb = max(self.peak_kb, sum(_pss_kb(pid) for pid in descendants(self.pid)))

    def stop(self) -> float:
        self._stop.set()
        self._thread.join()
        return self.peak_kb / 1024


def run(
    args: list[str], env: dict[str, str] | None = None, cwd: Path | None = None, ok: tuple[int, ...] = (0,)
) -> Sample:
    """Run ``args`` and measure it; an exit code not in ``ok`` stops the benchmark with the command's output."""
    # A child forked from this (large) process starts with its memory counted in its peak:
    # GNU time, small itself, forks the command and reports the command's own peak.
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss:
        wrapper = [TIME, "-q", "-f", "%M", "-o", rss.name] if TIME else []
        start = time.perf_counter()
        proc = subprocess.Popen(
            [*wrapper, *map(str, args)],
            env={**os.environ, **(env or {})},
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        tree = TreeMemory(proc.pid)
        output = proc.stdout.read() if proc.stdout else b""
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - start
        tree_mb = tree.stop()
        if proc.stdout:
            proc.stdout.close()
        code = os.waitstatus_to_exitcode(status)
        if code not in ok:
            raise SystemExit(f"{' '.join(map(str, args))} failed ({code}):\n{output.decode(errors='replace')[-3000:]}")
        peak_kb = int(rss.read().split()[-1]) if TIME else usage.ru_maxrss
    # GNU time reports the largest single process; a command with workers needs the tree's sum.
    return Sample(elapsed, max(peak_kb / 1024, tree_mb))


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile by nearest rank.

    >>> percentile([1, 2, 3, 4], 0.5), percentile([1, 2, 3, 4], 0.95)
    (2, 4)
    """
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1) + 0.49)))]


def tree_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def gzip_bytes(path: Path) -> int:
    return len(gzip.compress(path.read_bytes(), compresslevel=6))


def change_one_entry(data: Path, n: int) -> str:
    """Edit the one-line answer of an entry of the middle game (a different entry each time); return the game."""
    games = sorted(p for p in data.iterdir() if p.is_dir())
    entries = sorted((games[len(games) // 2] / "entries").glob("*.yaml"))
    path = entries[n % len(entries)]
    text = path.read_text(encoding="utf-8")
    changed = text.replace("summary:\n  zh: ", f"summary:\n  zh: 改{n}", 1)
    if changed == text:
        changed = text.replace("summary: {zh: ", f"summary: {{zh: 改{n}", 1)
    assert changed != text, path
    path.write_text(changed, encoding="utf-8")
    return games[len(games) // 2].name


def ratio_report(
    found: dict[str, list[float]], base: str, base_label: str, label: str, against: str, digits: int = 2
) -> str:
    """Lines for CPU times measured round by round against ``found[base]``: each side's median and the
    median, quartiles and range of its per-round ratios to the base."""
    import statistics

    floor = found[base]
    lines = [f"{base_label}: {statistics.median(floor):.{digits}f} s CPU, median of {len(floor)}"]
    for name, seconds in found.items():
        if name == base:
            continue
        ratios = [value / under for value, under in zip(seconds, floor)]
        quartiles = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else [ratios[0]] * 3
        lines.append(
            f"{label} ({name}): {statistics.median(seconds):.{digits}f} s CPU; {label} ÷ {against} "
            f"{statistics.median(ratios):.2f} (quartiles {quartiles[0]:.2f}–{quartiles[2]:.2f}, "
            f"rounds {min(ratios):.2f}–{max(ratios):.2f})"
        )
    return "\n".join(lines)
