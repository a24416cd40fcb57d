"""Timing, memory and size helpers shared by the benchmarks."""

from __future__ import annotations

import gzip
import os
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Sample:
    """One run of a command: wall time and the peak resident memory of its process tree's largest process."""

    seconds: float
    peak_mb: float


def run(args: list[str], env: dict[str, str] | None = None, cwd: Path | None = None, ok: tuple[int, ...] = (0,)) -> Sample:
    """Run ``args`` and measure it; an exit code not in ``ok`` stops the benchmark with the command's output."""
    start = time.perf_counter()
    proc = subprocess.Popen(args, env={**os.environ, **(env or {})}, cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    output = proc.stdout.read() if proc.stdout else b""
    # wait4 gives this child's own rusage (getrusage(RUSAGE_CHILDREN) would be the maximum over all children).
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.stdout:
        proc.stdout.close()
    elapsed = time.perf_counter() - start
    if proc.returncode not in ok:
        raise SystemExit(f"{' '.join(map(str, args))} failed ({proc.returncode}):\n{output.decode(errors='replace')[-3000:]}")
    return Sample(elapsed, usage.ru_maxrss / 1024)


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
