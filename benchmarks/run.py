"""How the cost of checking, building and searching grows with the number of entries.

    make bench                                   # = the line below
    .venv/bin/python -m benchmarks.run --sizes 100,1000,5000
    .venv/bin/python -m benchmarks.run --sizes 20 --no-real --from tests/fixtures/good   # a smoke run

For each size, a synthetic knowledge base copied from the real data
(:mod:`benchmarks.synth`) is written to a temporary folder; the real data is
measured too. Every step runs as its own process, as a user runs it, and is
timed with its peak memory (GNU time's, or the sum over the process and its
workers, sampled, when that is larger):

* ``houserules check``;
* the site: ``mkdocs build --strict`` of the project (the plugin renders the
  checked data) next to ``mkdocs build`` of the same pages written out as
  plain Markdown (:mod:`benchmarks.plain`), and their ratio, our overhead;
* the Whoosh index build, a cold ``houserules search`` (index cached) next to
  ``grep -ril`` on the data, and warm queries (p50, p95) on one open index;
* the site's size and its search index (raw and gzipped, per entry);
* the site's search box on a throttled phone, ours next to Material's search on the
  plain site (:mod:`benchmarks.site_search_bench`): bytes fetched before the first
  results, time to them, warm queries, over http and from file://;
* on a copy of the data, with one PDF cache: ``houserules pdf`` of every game
  with the cache empty, again after one entry changed, then ``houserules build``
  and ``houserules build`` again after another entry changed, with the number
  of games laid out again (up to ``--pdf-max`` entries);
* ``houserules serve``: from saving a changed entry to its new page
  (:mod:`benchmarks.serve_bench`), three times.

Prints one table (``--json FILE`` also writes the numbers).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks import plain, synth
from benchmarks.measure import Sample, change_one_entry, gzip_bytes, percentile, run, tree_bytes
from benchmarks.search_bench import QUERIES

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
HOUSERULES = str(BIN / "houserules")
MKDOCS = str(BIN / "mkdocs")
COLD_QUERY = "魔梯"
STEPS = ("check", "site", "sitesearch", "search", "pdf", "serve")

Results = dict[str, Any]


def log(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def record(results: Results, name: str, sample: Sample) -> None:
    results[f"{name}_s"] = sample.seconds
    results[f"{name}_mb"] = sample.peak_mb


def bench_check(data: Path, work: Path, results: Results) -> None:
    record(results, "check", run([HOUSERULES, "check", "--data", str(data)]))


#: The site step of ``houserules build`` alone (no PDFs): load and check once, then MkDocs with the plugin.
SITE_ONLY = (
    "import sys; from pathlib import Path; from houserules.check import run; from houserules.build import mkdocs_build; "
    "mkdocs_build(run(Path(sys.argv[1])).kb, Path(sys.argv[1]), Path(sys.argv[2]))"
)


def bench_site(data: Path, work: Path, results: Results) -> None:
    env = {"NO_MKDOCS_2_WARNING": "1"}
    site = work / "site"
    record(results, "site", run([sys.executable, "-c", SITE_ONLY, str(data), str(site)], env))
    yml = plain.write(data, work / "plain")
    record(
        results, "plain", run([MKDOCS, "build", "--strict", "-q", "-f", str(yml), "-d", str(work / "plain-site")], env)
    )
    results["overhead"] = results["site_s"] / results["plain_s"]
    index = work / "plain-site" / "search" / "search_index.json"  # Material's, on the plain site
    results["site_bytes"] = tree_bytes(site)
    results["index_bytes"] = index.stat().st_size
    results["index_gz_bytes"] = gzip_bytes(index)
    ours = site / "search" / "hr"
    results["hr_bytes"] = tree_bytes(ours)
    results["hr_gz_bytes"] = sum(gzip_bytes(p) for p in ours.rglob("*.js"))
    results["hr_files"] = sum(1 for _ in ours.rglob("*.js"))
    results["hr_head_bytes"] = (ours / "head.js").stat().st_size


def bench_site_search(work: Path, results: Results) -> None:
    from benchmarks import site_search_bench

    for label, site in (("ours", work / "site"), ("material", work / "plain-site")):
        for mode in ("http", "file"):
            for key, value in site_search_bench.measure(site, mode).items():
                results[f"ss_{label}_{mode}_{key}"] = value


def bench_search(data: Path, work: Path, results: Results, rounds: int) -> None:
    from houserules.search import index as search

    cache = work / "cache"
    env = {"HOUSERULES_CACHE": str(cache)}
    code = f"from pathlib import Path; from houserules.search.indexcache import build_for; build_for(Path({str(data)!r}), Path({str(work / 'ix')!r}))"
    record(results, "index", run([sys.executable, "-c", code]))
    results["whoosh_bytes"] = tree_bytes(work / "ix")
    run([HOUSERULES, "search", "--data", str(data), COLD_QUERY], env)  # builds the cached index
    cold = [run([HOUSERULES, "search", "--data", str(data), COLD_QUERY, "--json"], env) for _ in range(5)]
    grep = [run(["grep", "-ril", COLD_QUERY, str(data)], ok=(0, 1)) for _ in range(5)]  # 1: no match
    results["search_s"] = statistics.median(s.seconds for s in cold)
    results["search_mb"] = max(s.peak_mb for s in cold)
    results["grep_s"] = statistics.median(s.seconds for s in grep)
    results["search_vs_grep"] = results["search_s"] / results["grep_s"]
    os.environ["HOUSERULES_CACHE"] = str(cache)
    with search.open_index(data) as index:
        for query in QUERIES:  # the first use of a term reads its postings
            index.search(query)
        times = []
        for _ in range(rounds):
            for query in QUERIES:
                start = time.perf_counter()
                index.search(query, limit=10)
                times.append(time.perf_counter() - start)
    results["warm_p50_ms"] = percentile(times, 0.5) * 1000
    results["warm_p95_ms"] = percentile(times, 0.95) * 1000


def laid_out(cache: Path, before: set[str]) -> int:
    """How many games' PDFs were laid out since ``before`` (the cache's metadata files then)."""
    new = [p for p in (cache / "pdf").glob("*.json") if p.name not in before]
    return sum(1 for p in new if json.loads(p.read_text(encoding="utf-8")).get("game"))


def _cached(cache: Path) -> set[str]:
    return {p.name for p in (cache / "pdf").glob("*.json")} if (cache / "pdf").is_dir() else set()


def bench_pdf(data: Path, work: Path, results: Results) -> None:
    """``houserules pdf`` cold, then after one entry changed, then ``houserules build`` before and after a change.

    All on a copy of the data with one PDF cache: the build's PDF step finds the games printed before.
    """
    copy = work / "data-edited"
    shutil.copytree(data, copy)
    cache = work / "cache"
    env = {"HOUSERULES_CACHE": str(cache), "NO_MKDOCS_2_WARNING": "1"}
    pdf = [HOUSERULES, "pdf", "--data", str(copy), "-o", str(work / "faq.pdf")]
    record(results, "pdf", run(pdf, env))
    before = _cached(cache)
    change_one_entry(copy, 0)
    record(results, "pdf_warm", run(pdf, env))
    results["pdf_warm_games"] = laid_out(cache, before)
    build = [HOUSERULES, "build", "--data", str(copy), "-o", str(work / "built")]
    record(results, "build", run(build, env))
    before = _cached(cache)
    change_one_entry(copy, 1)
    record(results, "rebuild", run(build, env))
    results["rebuild_games"] = laid_out(cache, before)


def bench_serve(data: Path, work: Path, results: Results) -> None:
    from benchmarks.serve_bench import edit_to_page

    times = edit_to_page(data, edits=3)
    results["serve_s"] = statistics.median(times)
    results["serve_worst_s"] = max(times)


def measure(name: str, data: Path, work: Path, args: argparse.Namespace) -> Results:
    from houserules.data.reading.load import load

    kb = load(data).kb
    results: Results = {
        "name": name,
        "entries": len(kb.entries),
        "games": len(kb.games),
        "data_bytes": tree_bytes(data),
    }
    steps: dict[str, Callable[[], None]] = {
        "check": lambda: bench_check(data, work, results),
        "site": lambda: bench_site(data, work, results),
        "sitesearch": lambda: bench_site_search(work, results),
        "search": lambda: bench_search(data, work, results, args.rounds),
        "pdf": lambda: bench_pdf(data, work, results),
        "serve": lambda: bench_serve(data, work, results),
    }
    if results["entries"] > args.pdf_max:
        log(f"{name}: no PDF or build above --pdf-max {args.pdf_max} entries")
    for step, function in steps.items():
        if step not in args.skip and (step != "pdf" or results["entries"] <= args.pdf_max):
            log(f"{name}: {step}")
            function()
    return results


# -- the table -----------------------------------------------------------------------------


def _s(value: float) -> str:
    return f"{value:.2f} s" if value < 10 else f"{value:.1f} s"


def _kb(value: float) -> str:
    return f"{value / 1024:,.1f} KB" if value < 1024 * 1024 else f"{value / 1024 / 1024:,.1f} MB"


def _site_search_rows(mode: str) -> list[tuple[str, str, Callable[[Results], str]]]:
    def both(key: str, show: Callable[[float], str]) -> Callable[[Results], str]:
        return lambda r: f"{show(r[f'ss_ours_{mode}_{key}'])} / {show(r[f'ss_material_{mode}_{key}'])}"

    def ms(value: float) -> str:
        return f"{value:,.0f} ms"

    where = "http://127.0.0.1" if mode == "http" else "file://"
    return [
        (
            f"ss_ours_{mode}_first_ms",
            f"search box, {where}, CPU 4x: first results (ours / Material)",
            both("first_ms", ms),
        ),
        (f"ss_ours_{mode}_bytes", "  fetched before them, raw (ours / Material)", both("bytes", _kb)),
        (f"ss_ours_{mode}_gz_bytes", "  the same gzipped", both("gz_bytes", _kb)),
        (f"ss_ours_{mode}_search_gz_bytes", "  of which search, gzipped", both("search_gz_bytes", _kb)),
        (f"ss_ours_{mode}_warm_p50_ms", "  warm query p50 (ours / Material)", both("warm_p50_ms", ms)),
        (f"ss_ours_{mode}_warm_p95_ms", "  warm query p95 (ours / Material)", both("warm_p95_ms", ms)),
    ]


ROWS: list[tuple[str, str, Callable[[Results], str]]] = [
    ("games", "games", lambda r: f"{r['games']}"),
    ("data_bytes", "data (YAML)", lambda r: _kb(r["data_bytes"])),
    ("check_s", "houserules check", lambda r: _s(r["check_s"])),
    ("check_mb", "  peak memory", lambda r: f"{r['check_mb']:.0f} MB"),
    ("site_s", "site: mkdocs build + plugin", lambda r: _s(r["site_s"])),
    ("plain_s", "plain mkdocs build, same pages", lambda r: _s(r["plain_s"])),
    ("overhead", "  overhead (ratio)", lambda r: f"{r['overhead']:.2f}x"),
    ("site_mb", "  peak memory (ours / plain)", lambda r: f"{r['site_mb']:.0f} / {r['plain_mb']:.0f} MB"),
    ("site_bytes", "site size", lambda r: _kb(r["site_bytes"])),
    ("index_bytes", "Material's search_index.json (plain site) raw", lambda r: _kb(r["index_bytes"])),
    ("index_gz_bytes", "  gzipped", lambda r: _kb(r["index_gz_bytes"])),
    ("index_gz_bytes", "  gzipped per entry", lambda r: f"{r['index_gz_bytes'] / r['entries'] / 1024:.2f} KB"),
    ("index_bytes", "  raw per entry", lambda r: f"{r['index_bytes'] / r['entries'] / 1024:.2f} KB"),
    ("hr_bytes", "site search index (search/hr/) raw", lambda r: _kb(r["hr_bytes"])),
    ("hr_gz_bytes", "  gzipped", lambda r: _kb(r["hr_gz_bytes"])),
    ("hr_files", "  files (head / all)", lambda r: f"{_kb(r['hr_head_bytes'])} / {r['hr_files']:,}"),
    *[row for mode in ("http", "file") for row in _site_search_rows(mode)],
    ("index_s", "Whoosh index build", lambda r: _s(r["index_s"])),
    ("whoosh_bytes", "  index size", lambda r: _kb(r["whoosh_bytes"])),
    ("search_s", "cold houserules search", lambda r: _s(r["search_s"])),
    ("grep_s", "grep -ril on the data", lambda r: f"{r['grep_s'] * 1000:.0f} ms"),
    ("search_vs_grep", "  search / grep (ratio)", lambda r: f"{r['search_vs_grep']:.1f}x"),
    ("search_mb", "  peak memory", lambda r: f"{r['search_mb']:.0f} MB"),
    ("warm_p50_ms", "warm query p50", lambda r: f"{r['warm_p50_ms']:.1f} ms"),
    ("warm_p95_ms", "warm query p95", lambda r: f"{r['warm_p95_ms']:.1f} ms"),
    (
        "serve_s",
        "serve: edit to refreshed page (median of 3)",
        lambda r: f"{r['serve_s']:.2f} s (worst {r['serve_worst_s']:.2f} s)",
    ),
    ("pdf_s", "houserules pdf, all games, cold cache", lambda r: _s(r["pdf_s"])),
    ("pdf_mb", "  peak memory (all processes)", lambda r: f"{r['pdf_mb']:.0f} MB"),
    ("pdf_warm_s", "houserules pdf, one entry changed", lambda r: _s(r["pdf_warm_s"])),
    ("pdf_warm_mb", "  peak memory (all processes)", lambda r: f"{r['pdf_warm_mb']:.0f} MB"),
    ("pdf_warm_games", "  games laid out again", lambda r: f"{r['pdf_warm_games']} of {r['games']}"),
    ("build_s", "houserules build (site + PDFs from the cache)", lambda r: _s(r["build_s"])),
    ("build_mb", "  peak memory (all processes)", lambda r: f"{r['build_mb']:.0f} MB"),
    ("rebuild_s", "houserules build again, one entry changed", lambda r: _s(r["rebuild_s"])),
    ("rebuild_games", "  games laid out again", lambda r: f"{r['rebuild_games']} of {r['games']}"),
]

#: Costs whose growth is compared with the number of entries.
GROWTH = ["check_s", "site_s", "plain_s", "index_s", "search_s", "pdf_s", "serve_s", "index_bytes"]


def table(columns: list[Results]) -> str:
    """A Markdown table: one row per measure, one column per data set."""
    head = ["", *(f"{c['name']} ({c['entries']:,})" for c in columns)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for key, label, show in ROWS:
        if any(key in c for c in columns):
            lines.append("| " + " | ".join([label, *(show(c) if key in c else "–" for c in columns)]) + " |")
    return "\n".join(lines)


def growth(columns: list[Results]) -> str:
    """Cost per entry of the largest synthetic size over the smallest: 1.0 is linear growth."""
    synthetic = sorted((c for c in columns if c["name"] != "real"), key=lambda c: c["entries"])
    if len(synthetic) < 2:
        return ""
    small, large = synthetic[0], synthetic[-1]
    parts = [
        f"{key[:-2] if key.endswith('_s') else key} {(large[key] / large['entries']) / (small[key] / small['entries']):.2f}"
        for key in GROWTH
        if key in small and key in large
    ]
    return (
        f"Cost per entry at {large['entries']:,} relative to {small['entries']:,} entries "
        f"(1.00 = linear, {large['entries'] // small['entries']} = quadratic): " + ", ".join(parts)
    )


def machine() -> str:
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor(),
    )
    memory = next(
        (
            int(line.split()[1]) // 1024 // 1024
            for line in Path("/proc/meminfo").read_text().splitlines()
            if line.startswith("MemTotal")
        ),
        0,
    )
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    return (
        f"{cpu}, {os.cpu_count()} cores, {memory} GB RAM, Python {platform.python_version()}, "
        f"{platform.system()} {platform.release()}; load average {load}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes", default="100,1000,5000", help="entries of each synthetic data set (default: 100,1000,5000)"
    )
    parser.add_argument("--data", type=Path, default=ROOT / "rules_data", help="the real data (default: rules_data/)")
    parser.add_argument("--from", dest="template", type=Path, help="the data the synthetic sets copy (default: --data)")
    parser.add_argument("--no-real", action="store_true", help="measure only the synthetic sets")
    parser.add_argument("--skip", default="", help=f"comma-separated steps to leave out: {', '.join(STEPS)}")
    parser.add_argument(
        "--pdf-max",
        type=int,
        default=100_000,
        metavar="N",
        help="print the PDFs and build only for data sets of at most N entries (default: all)",
    )
    parser.add_argument("--rounds", type=int, default=20, help="rounds of the warm queries (default: 20)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the numbers as JSON")
    args = parser.parse_args(argv)
    args.skip = {s for s in args.skip.split(",") if s}
    sizes = [int(s) for s in args.sizes.split(",") if s]
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    started = time.perf_counter()
    columns: list[Results] = []
    with tempfile.TemporaryDirectory(prefix="houserules-bench-") as tmp:
        os.environ["HOUSERULES_CACHE"] = str(Path(tmp) / "cache")  # never the user's cache
        template = synth.load_template(args.template or args.data)
        for size in sizes:
            data = Path(tmp) / f"data-{size}"
            log(f"generating {size} entries")
            synth.generate(size, data, template)
            work = Path(tmp) / f"work-{size}"
            work.mkdir()
            columns.append(measure("synthetic", data, work, args))
            shutil.rmtree(work, ignore_errors=True)
        if not args.no_real:
            work = Path(tmp) / "work-real"
            work.mkdir()
            columns.append(measure("real", args.data.resolve(), work, args))
    print(f"Machine: {machine()}")
    print(f"Benchmark time: {time.perf_counter() - started:.0f} s\n")
    print(table(columns))
    print()
    print(growth(columns))
    if args.json:
        args.json.write_text(json.dumps({"machine": machine(), "results": columns}, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
