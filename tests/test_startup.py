"""``houserules search`` starts fast: it imports Whoosh, the analysis and the terminal text, nothing it does not use.

The command runs in a fresh interpreter (as a user starts it), which then lists the modules it
loaded. The loader, the checker, the schemas, YAML, Markdown, MkDocs and the print code cost a
query about 165 ms of imports and are never used by it (BENCHMARKS.md: cold search).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import FIXTURES, ROOT, run_cli, run_process
from houserules.cli import HARD_EXIT
from houserules.search import indexcache

SEARCH_DATA = FIXTURES / "search" / "data"
#: Modules a search never needs (each with its submodules).
UNUSED = [
    "houserules.check",
    "houserules.print",
    "houserules.site",
    "houserules.export",
    "houserules.build",
    "houserules.data.reading.load",
    "houserules.data.reading.model",
    "houserules.render.text",
    "houserules.render.blocks",
    "houserules.render.entrytext",
    "jsonschema",
    "yaml",
    "markdown",
    "mkdocs",
    "weasyprint",
    "jieba",
]
RUN = """
import json, sys
from houserules.cli import main
code = main(sys.argv[1:])
sys.stdout.flush()
print("\\n" + json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def run_main(*args: str, cache, code: str = RUN) -> subprocess.CompletedProcess:
    """``code`` (by default :data:`RUN`: ``main(args)``, then the modules it loaded) in a new interpreter."""
    result = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "HOUSERULES_CACHE": str(cache)},
    )
    assert result.returncode == 0, result.stderr
    return result


def loaded_by(*args: str, cache) -> tuple[int, set[str]]:
    result = run_main(*args, cache=cache)
    report = json.loads(result.stdout.rstrip("\n").rsplit("\n", 1)[-1])
    return report["code"], set(report["modules"])


def unused(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == u or m.startswith(u + ".") for u in UNUSED))


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    folder = tmp_path_factory.mktemp("startup-cache")
    code, _ = loaded_by("search", "塔楼", "--data", str(SEARCH_DATA), cache=folder)  # the index, built once
    assert code == 0
    return folder


@pytest.mark.parametrize("args", [["search", "塔楼"], ["search", "塔楼", "--json"], ["search", "no-such-word"]])
def test_a_search_imports_nothing_it_does_not_use(cache, args):
    code, modules = loaded_by(*args, "--data", str(SEARCH_DATA), cache=cache)
    assert code in (0, 1)
    assert "whoosh.index" in modules and "houserules.search.index" in modules
    assert unused(modules) == []


def test_a_typo_search_reads_the_tables_written_with_the_index(cache):
    """塔喽 (for 塔楼) has a Chinese bigram the index lacks: its correction reads the homophone table and
    the characters' readings written with the index, never pypinyin's table (0.03 s at each start)."""
    code = RUN.replace(
        "print(",
        "homophones = sys.modules['houserules.search.homophones']\n"
        "assert not homophones.readings.cache_info().currsize, 'pypinyin read'\nprint(",
    )
    result = run_main("search", "塔喽", "--data", str(SEARCH_DATA), cache=cache, code=code)
    assert "Showing results for: 塔楼 — search instead for: 塔喽" in result.stderr
    assert "demo:tower" in result.stdout


def test_the_list_catches_a_heavy_import(cache):
    """The same check sees the loader and the checker where they are used: ``houserules show``."""
    code, modules = loaded_by("show", "DM-R01", "--data", str(SEARCH_DATA), cache=cache)
    assert code == 0
    assert {"houserules.data.reading.load", "yaml", "houserules.render.entrytext"} <= set(unused(modules))


def test_the_console_script_ends_a_search_with_its_whole_output_and_status(tmp_path, monkeypatch):
    """A search ends its process without the interpreter's tear-down (``cli.HARD_EXIT``): what it
    printed is all there (flushed to a pipe first), with the status ``main()`` returned, and the
    index and memo it wrote on the way are whole (the next search uses them as they are)."""
    assert "search" in HARD_EXIT
    cache = tmp_path / "cache"
    monkeypatch.setenv("HOUSERULES_CACHE", str(cache))
    # Buffered, as a pipe's output is unless PYTHONUNBUFFERED says otherwise: only a flush writes it.
    env = {"HOUSERULES_CACHE": str(cache), "COLUMNS": "60", "PYTHONUNBUFFERED": ""}
    data = ["--data", str(SEARCH_DATA)]
    built = run_process("search", "塔楼", "--json", *data, env=env)  # an empty cache: builds the index
    assert built.returncode == 0, built.stderr
    assert json.loads(built.stdout)[0]["title"]["zh"]
    folder = indexcache.index_home(SEARCH_DATA) / indexcache.fingerprint(SEARCH_DATA)
    assert indexcache.intact(folder) and indexcache.memo_file(SEARCH_DATA).is_file()
    made = folder.stat().st_ino
    for args in (
        ["search", "塔楼", "--json"],
        ["search", "塔楼", "--limit", "50"],
        ["search", "no-such-word"],
        ["search", "塔楼", "--kind", "nonsense"],
    ):
        console = run_process(*args, *data, env=env)
        inside = run_cli(*args, *data, env=env)
        assert (console.returncode, console.stdout, console.stderr) == (inside.returncode, inside.stdout, inside.stderr)
        assert console.returncode == (1 if "nonsense" in args else 0)
        assert console.stdout or console.stderr
    assert folder.stat().st_ino == made  # never rebuilt: the first search left it whole
