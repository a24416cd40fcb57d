"""Warm search latency of two checkouts side by side, on one open index each (a command, not a test).

    .venv/bin/python -m benchmarks.ranking_compare --old OLD_ROOT --new NEW_ROOT \\
        --old-data D1 --new-data D2 [--old-cache C1 --new-cache C2] [--trials 8 --rounds 5]

Each checkout searches the data its own ``benchmarks/synth.py`` wrote (``python -m benchmarks.synth 5000 D``),
with its own cached index (built by a ``houserules search`` beforehand). A trial is one new process per
checkout that opens the index, runs every query once (the first use of a term reads its postings), then
``--rounds`` rounds of :data:`QUERIES`, each timed. Trials alternate old, new, old, new ... so a machine
whose speed drifts slows both alike. Prints p50 and p95 of all the timed queries of each checkout, the
median of the per-trial p50s, and new ÷ old.

With ``--old-site S1 --new-site S2`` (the two checkouts' sites built from that data), the site's search
box is measured instead, alternating too, ``--trials`` times each side over http and from ``file://``
(``--modes``). A trial of one side is two fresh browsers: :func:`benchmarks.site_search_bench.measure_cpu`
(unthrottled: the browser's CPU seconds to the first results after the page is loaded and idle, and from
the navigation's start; the wall time; the bytes fetched before them), then
:func:`benchmarks.site_search_bench.measure` (the wall time with the CPU slowed 4x, for reference; the
site's offline service worker blocked in both). Printed: each side's median (min-max), new / old of the
medians, and the median (min-max) of the paired per-trial ratios; the load average before and after.
CPU time is what a shared machine cannot stretch much, where wall time is not a measurement there; the
threads that do the search's work (the page's main thread and the worker, ``schedstat``) less still than
the whole browser, whose compositor and I/O threads tick for as long as the wait lasts.
``--json FILE`` keeps every trial.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from benchmarks.measure import percentile
from benchmarks.search_bench import QUERIES as CLI_QUERIES

#: The command-line benchmark's queries, then whole situations typed as sentences, English and Chinese.
QUERIES = [
    *CLI_QUERIES,
    "what happens when the mystic elevator falls into the basement while a player is inside",
    "my explorer found the vault but has no key, can another player help open it",
    "the haunt started and the traitor wants to know if monsters can attack in the same turn",
    "a trapped room stops my movement but I already used an item this turn, does it still count",
    "魔梯掉到地下室的时候里面的玩家怎么办",
    "作祟开始以后叛徒的怪物这一回合能不能马上攻击",
    "我在金库里没有钥匙别的玩家能不能帮我打开",
    "两个玩家同时要对抗检定的时候谁先掷骰",
]

#: Run in the checkout's own interpreter path: open the index, warm it, time the rounds, print JSON.
WORKER = """
import json, os, sys, time
from pathlib import Path
from houserules.search.index import open_index
queries = json.loads(sys.argv[2]); rounds = int(sys.argv[3])
with open_index(Path(sys.argv[1])) as index:
    for q in queries:
        index.search(q)
    times = []
    for _ in range(rounds):
        for q in queries:
            start = time.perf_counter()
            index.search(q, limit=10)
            times.append(time.perf_counter() - start)
print(json.dumps({"times": times}))
"""


def trial(root: Path, data: Path, cache: Path, rounds: int) -> dict:
    env = {**os.environ, "PYTHONPATH": f"{root / 'tools'}{os.pathsep}{root}", "HOUSERULES_CACHE": str(cache)}
    result = subprocess.run(
        [sys.executable, "-c", WORKER, str(data), json.dumps(QUERIES), str(rounds)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        raise SystemExit(f"the search in {root} failed:\n{result.stderr}")
    return json.loads(result.stdout.splitlines()[-1])


#: What a site trial reports: key, label, scale (to the unit in the label).
SITE_ROWS = [
    ("cpu_first_s", "CPU to first results, loaded page (s)", 1),
    ("runtime_first_s", "  the same from every thread's schedstat (s)", 1),
    ("cpu_page_worker_s", "  of which the page's main thread + worker (s)", 1),
    ("cpu_nav_first_s", "CPU from navigation to first results (s)", 1),
    ("cpu_renderer_s", "  of the first: renderer, page + worker (s)", 1),
    ("first_ms", "wall to first results, unthrottled (ms)", 1),
    ("wall_4x_ms", "wall to first results, CPU 4x (ms)", 1),
    ("results", "results shown then, CPU trial", 1),
    ("results_4x", "results shown then, CPU 4x trial", 1),
    ("bytes", "fetched before first results, raw (KB)", 1 / 1000),
    ("gz_bytes", "  the same gzipped (KB)", 1 / 1000),
    ("search_gz_bytes", "  of which search, gzipped (KB)", 1 / 1000),
]


def site_trial(site: Path, mode: str) -> dict:
    """One side's trial: the CPU measure, then the throttled wall time (both in fresh browsers)."""
    from benchmarks import site_search_bench

    found = site_search_bench.measure_cpu(site, mode)
    found["cpu_renderer_s"] = found["cpu_first_by_kind"].get("renderer", 0.0)
    threads = _by_thread_name(found["runtime_first_by_thread"])
    found["cpu_page_worker_s"] = threads.get("renderer/chromium", 0.0) + threads.get("renderer/DedicatedWorker", 0.0)
    throttled = site_search_bench.measure(site, mode, rounds=0, service_workers="block")
    found["wall_4x_ms"], found["results_4x"] = throttled["first_ms"], throttled["results"]
    return found


def _by_thread_name(threads: dict[str, float]) -> dict[str, float]:
    """``"renderer 12/CrRendererMain 12": s`` summed to ``"renderer/CrRendererMain": s``."""
    summed: dict[str, float] = {}
    for key, seconds in threads.items():
        kind, rest = key.split(" ", 1)
        name = f"{kind}/{rest.split('/', 1)[1].rsplit(' ', 1)[0]}"
        summed[name] = summed.get(name, 0.0) + seconds
    return summed


def compare_sites(old: Path, new: Path, trials: int, modes: list[str], keep: Path | None) -> None:
    everything: dict[str, dict] = {}
    for mode in modes:
        load_before = os.getloadavg()
        found: dict[str, list[dict]] = {"old": [], "new": []}
        for n in range(trials):
            for side, site in (("old", old), ("new", new)):
                found[side].append(site_trial(site, mode))
                last = found[side][-1]
                print(
                    f"{mode} trial {n + 1} {side}: CPU {last['cpu_first_s']:.2f} s "
                    f"(from navigation {last['cpu_nav_first_s']:.2f} s), wall {last['first_ms']:.0f} ms, "
                    f"4x {last['wall_4x_ms']:.0f} ms, load {os.getloadavg()[0]:.1f}",
                    file=sys.stderr,
                    flush=True,
                )
        load_after = os.getloadavg()
        print(
            f"site search, {mode}, {trials} alternating trials per side; load average (1, 5, 15 min) "
            f"{', '.join(f'{x:.1f}' for x in load_before)} before, {', '.join(f'{x:.1f}' for x in load_after)} after"
        )
        print(
            f"{'':44} {'old: median (min-max)':>24} {'new: median (min-max)':>24} {'new/old':>8} {'paired ratios':>20}"
        )
        for key, label, scale in SITE_ROWS:
            cells = []
            for side in ("old", "new"):
                values = [r[key] * scale for r in found[side]]
                cells.append(f"{statistics.median(values):.3g} ({min(values):.3g}-{max(values):.3g})")
            old_median, new_median = (statistics.median(r[key] for r in found[side]) for side in ("old", "new"))
            ratios = [b[key] / a[key] for a, b in zip(found["old"], found["new"], strict=True) if a[key] > 0]
            paired = f"{statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})" if ratios else "-"
            ratio = f"{new_median / old_median:.2f}" if old_median else "-"
            print(f"{label:44} {cells[0]:>24} {cells[1]:>24} {ratio:>8} {paired:>20}")
        kinds = sorted({k for side in found.values() for r in side for k in r["cpu_first_by_kind"]})
        for side in ("old", "new"):
            shares = {k: statistics.median(r["cpu_first_by_kind"].get(k, 0.0) for r in found[side]) for k in kinds}
            print(
                f"{side} CPU to first results by process (medians, s): "
                + ", ".join(f"{k} {v:.2f}" for k, v in shares.items())
            )
        for side in ("old", "new"):
            by_thread = [_by_thread_name(r.get("runtime_first_by_thread", {})) for r in found[side]]
            names = sorted({k for r in by_thread for k in r})
            medians = {k: statistics.median(r.get(k, 0.0) for r in by_thread) for k in names}
            top = sorted(medians.items(), key=lambda item: -item[1])[:6]
            print(
                f"{side} CPU to first results by thread (schedstat medians, s): "
                + ", ".join(f"{k} {v:.3f}" for k, v in top)
            )
        everything[mode] = {"load_before": load_before, "load_after": load_after, "trials": found}
    if keep:
        keep.write_text(json.dumps(everything, indent=1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for side in ("old", "new"):
        parser.add_argument(f"--{side}", type=Path, required=True, help=f"the {side} checkout's root")
        parser.add_argument(f"--{side}-data", type=Path, required=True)
        parser.add_argument(f"--{side}-cache", type=Path, required=True, help="its HOUSERULES_CACHE")
    parser.add_argument("--old-site", type=Path, help="measure the two built sites' search box instead")
    parser.add_argument("--new-site", type=Path)
    parser.add_argument("--modes", default="http,file", help="for the sites: http, file or both (http,file)")
    parser.add_argument("--json", type=Path, help="for the sites: keep every trial in this file")
    parser.add_argument("--trials", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    if args.old_site and args.new_site:
        if not set(args.modes.split(",")) <= {"http", "file"}:
            parser.error(f"--modes {args.modes}: give http, file or http,file")
        return compare_sites(args.old_site, args.new_site, args.trials, args.modes.split(","), args.json)
    times: dict[str, list[float]] = {"old": [], "new": []}
    p50s: dict[str, list[float]] = {"old": [], "new": []}
    per_query: dict[str, dict[str, list[float]]] = {"old": {}, "new": {}}
    for n in range(args.trials):
        for side in ("old", "new"):
            root, data, cache = (getattr(args, f"{side}{suffix}") for suffix in ("", "_data", "_cache"))
            out = trial(root.resolve(), data.resolve(), cache.resolve(), args.rounds)
            times[side] += out["times"]
            p50s[side].append(percentile(out["times"], 0.5))
            for i, t in enumerate(out["times"]):
                per_query[side].setdefault(QUERIES[i % len(QUERIES)], []).append(t)
            print(f"trial {n + 1} {side}: p50 {p50s[side][-1] * 1000:.1f} ms", file=sys.stderr, flush=True)
    rows = {}
    for side in ("old", "new"):
        rows[side] = {
            "p50_ms": percentile(times[side], 0.5) * 1000,
            "p95_ms": percentile(times[side], 0.95) * 1000,
            "max_ms": max(times[side]) * 1000,
            "median_trial_p50_ms": statistics.median(p50s[side]) * 1000,
            "queries": len(times[side]),
        }
    ratios = [new / old for old, new in zip(p50s["old"], p50s["new"], strict=True)]
    print(f"{len(QUERIES)} queries x {args.rounds} rounds x {args.trials} trials per side, interleaved")
    print(f"{'':6} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'median of trial p50s':>22}")
    for side, row in rows.items():
        print(
            f"{side:6} {row['p50_ms']:>8.1f} {row['p95_ms']:>8.1f} {row['max_ms']:>8.1f} "
            f"{row['median_trial_p50_ms']:>22.1f}"
        )
    print(
        f"new/old: p50 {rows['new']['p50_ms'] / rows['old']['p50_ms']:.2f}, "
        f"p95 {rows['new']['p95_ms'] / rows['old']['p95_ms']:.2f}, "
        f"median of paired trial ratios {statistics.median(ratios):.2f}"
    )
    print(f"\n{'query':<60} {'old p50':>8} {'new p50':>8}")
    for q in QUERIES:
        old, new = (statistics.median(per_query[s][q]) * 1000 for s in ("old", "new"))
        print(f"{q[:60]:<60} {old:>8.1f} {new:>8.1f}")


if __name__ == "__main__":
    main()
