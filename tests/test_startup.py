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

from conftest import FIXTURES, ROOT

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


def loaded_by(*args: str, cache) -> tuple[int, set[str]]:
    result = subprocess.run(
        [sys.executable, "-c", RUN, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "HOUSERULES_CACHE": str(cache)},
    )
    assert result.returncode == 0, result.stderr
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


def test_the_list_catches_a_heavy_import(cache):
    """The same check sees the loader and the checker where they are used: ``houserules show``."""
    code, modules = loaded_by("show", "DM-R01", "--data", str(SEARCH_DATA), cache=cache)
    assert code == 0
    assert {"houserules.data.reading.load", "yaml", "houserules.render.entrytext"} <= set(unused(modules))
