"""The benchmarks: the synthetic data they generate, the plain-MkDocs baseline, and a smoke run.

No timings are asserted here (they belong to BENCHMARKS.md); these tests make
sure that ``make bench`` runs and measures what it says it measures. The smoke run
(two minutes: it builds sites and PDFs) is marked ``bench``: ``make bench-smoke`` runs it,
``make test`` does not.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter

import pytest

from benchmarks import plain, site_search_bench, synth
from benchmarks.run import ROWS
from conftest import DATA, GOOD, ROOT
from houserules.check import run as run_check
from houserules.data.reading.model import INLINE_REF, KnowledgeBase


def rates(kb: KnowledgeBase) -> dict[str, object]:
    """What the generator promises to keep: counts of everything that drives the cost."""
    entries = list(kb.entries.values())
    return {
        "kinds": Counter(e.kind for e in entries),
        "refs": sum(len(e.all_refs()) for e in entries),
        "aliases": sum(len(e.aliases) for e in entries),
        "errata": sum(len(e.errata) for e in entries),
        "facts": sum(len(e.data.get("facts", [])) for e in entries),
        "terms": sum(len(g.glossary.terms) for g in kb.games.values() if g.glossary),
        # a copy's [[refs]] name its own game, so they are left out of the length
        "zh_chars": sum(len(INLINE_REF.sub("", e.summary["zh"])) for e in entries),
    }


@pytest.fixture(scope="module")
def real() -> KnowledgeBase:
    return synth.load_template(DATA)


def test_whole_copies_keep_every_rate_of_the_real_data(real, tmp_path):
    synth.generate(2 * len(real.entries), tmp_path, real)
    report = run_check(tmp_path)
    assert report.problems == []
    assert len(report.kb.games) == 2 * len(real.games)
    doubled = {
        key: (Counter({k: 2 * n for k, n in value.items()}) if isinstance(value, Counter) else 2 * value)
        for key, value in rates(real).items()
    }
    assert rates(report.kb) == doubled


@pytest.mark.parametrize("size", [1, 2, 4])  # cut inside the first copy, at its end, inside the second
def test_any_size_passes_the_check_with_exactly_that_many_entries(size, tmp_path):
    template = synth.load_template(GOOD)  # 3 entries that refer to one another
    synth.generate(size, tmp_path, template)
    report = run_check(tmp_path)
    assert report.problems == []
    assert len(report.kb.entries) == size
    codes = {e.code.split("-")[0] for e in report.kb.entries.values()}
    assert len(codes) == len(report.kb.games)  # each copy has its own code prefix


def test_a_short_copy_turns_references_to_left_out_entries_into_their_titles(tmp_path):
    template = synth.load_template(GOOD)
    kept = synth.ordered_entries(template, template.games["demo"])[:1]
    left_out = {ref for ref in kept[0].all_refs()} - {kept[0].ref}
    assert left_out, "the fixture's first entry must refer to another entry"
    synth.generate(1, tmp_path, template)
    (entry,) = run_check(tmp_path).kb.entries.values()
    assert entry.all_refs() == []
    text = json.dumps(entry.data, ensure_ascii=False)
    for ref in left_out:
        assert template.entries[ref].title["zh"] in text or template.entries[ref].title["en"] in text


def test_the_plain_baseline_has_the_plugin_pages_and_no_plugin(tmp_path):
    yml = plain.write(GOOD, tmp_path)
    text = yml.read_text(encoding="utf-8")
    assert "houserules" not in text.split("plugins:")[1].split("\n\n")[0] and "docs_dir: docs" in text
    docs = tmp_path / "docs"
    home = (docs / "index.md").read_text(encoding="utf-8")
    assert "<!-- houserules:games -->" not in home and "hr-card" in home
    for entry in run_check(GOOD).kb.entries.values():
        assert (docs / entry.game / f"{entry.id}.md").is_file()


@pytest.mark.bench
def test_smoke_run_prints_every_measure(tmp_path):
    out = tmp_path / "bench.json"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "benchmarks.run",
            "--sizes",
            "6",
            "--no-real",
            "--from",
            str(GOOD),
            "--rounds",
            "1",
            "--json",
            str(out),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    (column,) = json.loads(out.read_text(encoding="utf-8"))["results"]
    assert column["entries"] == 6
    for key, label, _ in ROWS:
        assert column[key] > 0, key
        assert f"| {label} |" in result.stdout
    assert column["pdf_warm_games"] == column["rebuild_games"] == 1  # one entry changed: one game laid out again


def test_many_games_leave_the_navigation_that_every_page_carries(tmp_path):
    from houserules.site.nav import NAV_GAMES

    template = synth.load_template(GOOD)
    synth.generate(len(template.entries) * (NAV_GAMES + 1), tmp_path / "data", template)
    nav = plain.write(tmp_path / "data", tmp_path / "plain").read_text(encoding="utf-8").split("\nnav: ")[1]
    assert "demo-1/index.md" not in nav and "glossary.md" not in nav
    home = (tmp_path / "plain" / "docs" / "index.md").read_text(encoding="utf-8")
    assert all(f"demo-{n}/index.html" in home for n in range(1, NAV_GAMES + 2))  # the home page lists them all


#: A child that renames itself awkwardly, uses 0.3 s of CPU of its own, says so and waits for its stdin to close.
_BURN = """
import sys, time
with open("/proc/self/comm", "w") as comm:
    comm.write("a) b (c")
while time.process_time() < 0.3:
    pass
print(time.process_time(), flush=True)
sys.stdin.read()
"""


def test_the_browser_cpu_reader_counts_a_process_tree_while_its_children_run_and_after_they_end():
    me = os.getpid()
    before = site_search_bench.tree_cpu(me)
    assert "browser" in before  # the root is named browser (a test worker may already have children: Chromium)
    with subprocess.Popen(
        [sys.executable, "-c", _BURN], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as child:
        used = float(child.stdout.readline())
        assert used >= 0.3
        assert child.pid in site_search_bench.descendants(me)
        assert site_search_bench._proc_stat(child.pid)[0] == me  # its parent, read past the odd name
        running = site_search_bench.tree_cpu(me)
        # the child's own count, in whole ticks (one may be still unreported)
        assert running["other"] >= before.get("other", 0.0) + used - 2 * site_search_bench.TICK
        (thread,) = site_search_bench.tree_runtime_ns(child.pid)  # its one thread, named as the process
        assert thread == f"browser {child.pid}/a) b (c {child.pid}"
        assert site_search_bench.tree_runtime_ns(child.pid)[thread] >= (used - 0.01) * 1e9
        child.stdin.close()
        child.wait()
    after = site_search_bench.tree_cpu(me)
    # reaped: no longer a process of the tree, but counted in its parent's children's times
    assert child.pid not in site_search_bench.descendants(me)
    assert after["browser"] >= before["browser"] + used - 2 * site_search_bench.TICK
