"""The package's layout by stage: imports point only down the pipeline, no modules import each other in a
circle, and none imports another's private names."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import grimp

from conftest import ROOT

GRAPH = grimp.build_graph("houserules")


def test_the_import_contract_holds():
    """``lint-imports`` (pyproject.toml): the layers cli > serve > build > adapter > site > print > export, search >
    render > check > data, only the adapter importing MkDocs, Material and watchdog, no cycles between siblings,
    the data layer's jobs, and the independent modules of check/, render/ and export/."""
    result = subprocess.run(
        [str(Path(sys.executable).parent / "lint-imports")], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 7 kept, 0 broken." in result.stdout


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
    GRAPH.add_import(importer="houserules.data.reading.model", imported="houserules.data.reading.load")
    try:
        assert any(
            {"houserules.data.reading.load", "houserules.data.reading.model"} <= set(group) for group in _cycles()
        )
    finally:
        GRAPH.remove_import(importer="houserules.data.reading.model", imported="houserules.data.reading.load")


def private_imports(source: str, module: str) -> list[str]:
    """``from M import _name`` of another module's private name in ``source`` (the code of ``module``)."""
    package = module.rsplit(".", 1)[0]
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:  # relative: resolve against the importing module's package
            base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
            target = f"{base}.{node.module}" if node.module else base
        else:
            target = node.module or ""
        for alias in node.names:
            private = alias.name.startswith("_") and not alias.name.startswith("__")
            if private and target != module and (target == "houserules" or target.startswith("houserules.")):
                found.append(f"{module}:{node.lineno}: from {target} import {alias.name}")
    return found


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT / "tools").with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_no_module_imports_another_modules_private_names():
    """A name starting with ``_`` is its module's own business: another module that needs it gets a public name."""
    found = [
        problem
        for path in sorted((ROOT / "tools/houserules").rglob("*.py"))
        for problem in private_imports(path.read_text(encoding="utf-8"), _module_name(path))
    ]
    assert found == []


def test_a_private_import_is_found():
    source = "from .git import _checkout, public\nfrom ..reading.safefile import _children\nfrom . import _self_ok\n"
    assert private_imports(source, "houserules.data.versions.history") == [
        "houserules.data.versions.history:1: from houserules.data.versions.git import _checkout",
        "houserules.data.versions.history:2: from houserules.data.reading.safefile import _children",
        "houserules.data.versions.history:3: from houserules.data.versions import _self_ok",
    ]


#: Names that begin with "_" but are public by the library's own word: os._exit, a named tuple's methods.
PUBLIC_UNDERSCORED = {"_exit", "_replace", "_asdict", "_fields", "_make"}


def private_reads(source: str, module: str) -> list[str]:
    """``x._name`` in ``source`` where ``x`` is not ``self`` or ``cls``: a read of another object's private name."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Attribute):
            continue
        name = node.attr
        if not name.startswith("_") or name.startswith("__") or name in PUBLIC_UNDERSCORED:
            continue
        if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            continue
        found.append(f"{module}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_module_reads_another_objects_private_names():
    """What a class keeps under ``_`` is read by its own methods only: the site's index reads the search index
    through ``SearchIndex.postings`` (``search/postings.py``, the one reader of Whoosh's objects), not ``_reader``."""
    found = [
        problem
        for path in sorted((ROOT / "tools/houserules").rglob("*.py"))
        for problem in private_reads(path.read_text(encoding="utf-8"), _module_name(path))
    ]
    assert found == []


def test_a_private_read_is_found():
    source = "self._a\ncls._b\nindex._reader.lexicon('w')\nos._exit(1)\nrow._replace(a=1)\nx.__class__\n"
    assert private_reads(source, "houserules.search.shards") == ["houserules.search.shards:3: index._reader"]


def test_every_module_name_is_unique():
    """Two modules of one name (``cache.py`` in two packages) make a reader open the wrong room."""
    names: dict[str, list[str]] = {}
    for path in sorted((ROOT / "tools/houserules").rglob("*.py")):
        if path.name != "__init__.py":
            names.setdefault(path.stem, []).append(str(path.relative_to(ROOT)))
    assert {name: paths for name, paths in names.items() if len(paths) > 1} == {}


def test_the_text_analysis_knows_no_search_engine():
    """``houserules.text`` reads text with no search engine: of Whoosh it loads the Porter stemmer alone
    (``whoosh.lang.porter``, a standalone module), so the index's stems are the ones the site's worker ports."""
    probe = "import sys, houserules.text.searchtext, houserules.text.querynames; print(sorted(m for m in sys.modules if 'whoosh' in m))"
    loaded = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert loaded.stdout.split() == ["['whoosh',", "'whoosh.lang',", "'whoosh.lang.porter']"]
