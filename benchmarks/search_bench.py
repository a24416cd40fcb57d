"""Benchmark of the command-line search (a command, not a test).

    .venv/bin/python -m benchmarks.search_bench [--data rules_data] [--entries 5000] [--compare]

Measures, on this machine:

* cold ``houserules search`` on the real data: a new process each time, index
  already cached (the everyday case), and once with the index rebuilt;
* warm queries (one open index, many queries) at ``--entries`` synthetic entries
  made by cloning the real ones with mixed texts: median and p95;
* with ``--compare``: the judged queries (hit@1, hit@3, MRR) and the cold start
  of the alternatives: jieba's ChineseAnalyzer instead of bigrams, and bigrams
  without traditional → simplified folding.

Targets (2 cores): cold search under 0.3 s, warm p95 under 20 ms at 5,000 entries.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from benchmarks.measure import percentile
from houserules.data.reading.load import load
from houserules.search import analysis as searchtext
from houserules.search import evaluate as searcheval
from houserules.search import index as search
from houserules.search.documents import documents
from houserules.search.indexcache import write_index

ROOT = Path(__file__).resolve().parents[1]
HOUSERULES = Path(sys.executable).parent / "houserules"
JUDGEMENTS = ROOT / "tests" / "search_judgements.yaml"
QUERIES = [
    "魔梯",
    "电梯坠毁会怎样",
    "mystic elevator",
    "elevater",
    "BH-A13",
    "塔樓",
    "豁免",
    "how do I open the vault",
    "捕鼠夹",
    "opposed saves",
    "崩塌的房间掉下去落到哪里",
    "minion ambush",
]


def timed_run(args: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    result = subprocess.run(args, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed:\n{result.stderr}")
    return elapsed


def cold(data: Path, cache: Path, runs: int) -> None:
    env = {**os.environ, "HOUSERULES_CACHE": str(cache)}
    rebuild = timed_run([str(HOUSERULES), "search", "--data", str(data), "魔梯"], env)
    print(f"cold search, index rebuilt:       {rebuild * 1000:7.0f} ms")
    times = [
        timed_run([str(HOUSERULES), "search", "--data", str(data), q, "--json"], env) for q in (QUERIES * runs)[:runs]
    ]
    print(
        f"cold search, index cached ({runs} runs): median {statistics.median(times) * 1000:5.0f} ms, "
        f"p95 {percentile(times, 0.95) * 1000:5.0f} ms, max {max(times) * 1000:5.0f} ms"
    )
    baseline = [timed_run([sys.executable, "-c", "pass"], env) for _ in range(5)]
    print(f"  (python -c pass: {statistics.median(baseline) * 1000:.0f} ms)")


def synthetic_docs(data: Path, count: int, seed: int = 7) -> list[dict[str, Any]]:
    """``count`` documents cloned from the real ones, texts mixed so the vocabulary is realistic."""
    real = list(documents(load(data).kb))
    rng = random.Random(seed)
    docs = []
    for i in range(count):
        base = dict(real[i % len(real)])
        other = real[rng.randrange(len(real))]
        ref = f"synth:e{i}"
        base.update(
            ref=ref,
            game="synth",
            code=f"SY-X{i}",
            body=base["body"] + "\n" + other["body"],
            summary=base["summary"] + "\n" + other["summary"],
            exact=f"syx{i}",
            record={**base["record"], "id": ref, "code": f"SY-X{i}"},
        )
        docs.append(base)
    return docs


def warm(data: Path, count: int, cache: Path) -> None:
    start = time.perf_counter()
    folder = write_index(
        cache / "synthetic", synthetic_docs(data, count), {"entries": count, "games": ["synth"], "problems": []}
    )
    print(f"synthetic index of {count} entries written in {time.perf_counter() - start:.1f} s")
    with search.SearchIndex(folder) as index:
        for q in QUERIES:  # first use of each term loads its postings
            index.search(q)
        times = []
        for _ in range(20):
            for q in QUERIES:
                begin = time.perf_counter()
                index.search(q, limit=10)
                times.append(time.perf_counter() - begin)
    print(
        f"warm queries at {count} entries ({len(times)} queries): median {statistics.median(times) * 1000:.1f} ms, "
        f"p95 {percentile(times, 0.95) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms"
    )


@contextmanager
def no_folding() -> Iterator[None]:
    saved = dict(searchtext.T2S)
    searchtext.T2S.clear()
    try:
        yield
    finally:
        searchtext.T2S.update(saved)


def jieba_analyzer() -> Any:
    import logging

    import jieba
    from jieba.analyse import ChineseAnalyzer

    jieba.setLogLevel(logging.WARNING)
    return ChineseAnalyzer()


def compare(data: Path, cache: Path) -> None:
    judgements = searcheval.read_judgements(JUDGEMENTS)
    docs = list(documents(load(data).kb))
    meta = {"entries": len(docs), "games": [], "problems": []}
    variants = {
        "bigrams + stemmed English + folding (chosen)": (None, False),
        "bigrams + stemmed English, no folding": (None, True),
        "jieba ChineseAnalyzer": ("jieba", False),
    }
    print(f"\n{'variant':<46} {'hit@1':>6} {'hit@3':>6} {'MRR':>6} {'cold ms':>8}")
    for name, (analyzer_name, unfolded) in variants.items():
        folder = cache / f"variant-{abs(hash(name))}"
        analyzer = jieba_analyzer() if analyzer_name == "jieba" else None
        with no_folding() if unfolded else _nothing():
            docs = list(documents(load(data).kb))
            write_index(folder, docs, meta, analyzer=analyzer)
            with search.SearchIndex(folder) as index:
                table = searcheval.scores(searcheval.evaluate(index, judgements))["overall"]
        code = f"from houserules.search.index import SearchIndex; SearchIndex(__import__('pathlib').Path({str(folder)!r})).search('魔梯')"
        times = [timed_run([sys.executable, "-c", code], dict(os.environ)) for _ in range(5)]
        print(
            f"{name:<46} {table['hit@1']:>6.3f} {table['hit@3']:>6.3f} {table['mrr']:>6.3f} "
            f"{statistics.median(times) * 1000:>8.0f}"
        )
    print(
        "(cold ms: a new process opening the index and running one query; the no-folding row\n"
        " still loads the folding table, so it only measures quality)"
    )


@contextmanager
def _nothing() -> Iterator[None]:
    yield


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT / "rules_data")
    parser.add_argument("--entries", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--compare", action="store_true", help="also measure jieba and no folding")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="search-bench-") as tmp:
        cache = Path(tmp)
        cold(args.data, cache, args.runs)
        warm(args.data, args.entries, cache)
        if args.compare:
            compare(args.data, cache)


if __name__ == "__main__":
    main()
