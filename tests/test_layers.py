"""The package's layout by stage: imports point only down the pipeline, and no modules import each other in a circle."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grimp

from conftest import ROOT

GRAPH = grimp.build_graph("houserules")


def test_the_import_contract_holds():
    """``lint-imports`` (pyproject.toml: cli > serve > build > site > print > export, search > render > check > data)."""
    result = subprocess.run(
        [str(Path(sys.executable).parent / "lint-imports")], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def _cycles() -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for imported in sorted(GRAPH.find_modules_directly_imported_by(module)):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(GRAPH.modules):
        if module not in index:
            visit(module)
    return found


def test_no_modules_import_each_other_in_a_circle():
    assert _cycles() == []


def test_the_check_finds_a_circle_when_there_is_one():
    GRAPH.add_import(importer="houserules.data.model", imported="houserules.data.load")
    try:
        assert any({"houserules.data.load", "houserules.data.model"} <= set(group) for group in _cycles())
    finally:
        GRAPH.remove_import(importer="houserules.data.model", imported="houserules.data.load")


def test_modules_stay_small():
    """A module over ~300 lines has grown a second job (the generated JSON Schemas are data, not code)."""
    sizes = {
        str(p.relative_to(ROOT)): len(p.read_text(encoding="utf-8").splitlines())
        for p in (ROOT / "tools/houserules").rglob("*.py")
    }
    assert {path: n for path, n in sizes.items() if n > 330} == {}
