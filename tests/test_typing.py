"""``make lint`` runs mypy (pyproject.toml: [tool.mypy]); these tests show it fails on what it must catch."""

from __future__ import annotations

from pathlib import Path

import pytest
from mypy import api

from conftest import FIXTURES, ROOT

TYPING = FIXTURES / "typing"


@pytest.fixture(scope="module")
def mypy_cache(tmp_path_factory) -> Path:
    """One mypy cache for the module: the standard library's stubs are read once, not at every run."""
    return tmp_path_factory.mktemp("mypy-cache")


def mypy(*args: str, cache: Path) -> tuple[str, int]:
    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", str(cache), *args])
    return out + err, status


def test_a_type_error_fails(tmp_path, mypy_cache):
    out, status = mypy(str(TYPING / "wrong_type.py"), cache=mypy_cache)
    assert status == 1, out
    assert 'wrong_type.py:5: error: Incompatible return value type (got "str", expected "int")' in out


@pytest.mark.parametrize("strict", ["check", "data/reading", "cli", "print"])
def test_an_untyped_function_passes_by_default_and_fails_in_a_strict_package(tmp_path, monkeypatch, strict, mypy_cache):
    out, status = mypy(str(TYPING / "untyped.py"), cache=mypy_cache)
    assert status == 0, out
    # The same file as a module of a package: every package of houserules is strict.
    package = tmp_path / "houserules" / strict
    package.mkdir(parents=True)
    for folder in [package, *package.relative_to(tmp_path).parents][:-1]:
        (tmp_path / folder / "__init__.py").write_text("", encoding="utf-8")
    (package / "untyped.py").write_text((TYPING / "untyped.py").read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    out, status = mypy(f"houserules/{strict}/untyped.py", cache=mypy_cache)
    assert status == 1, out
    assert "untyped.py:4: error: Function is missing a type annotation  [no-untyped-def]" in out


def test_reading_the_model_as_dicts_fails(tmp_path, mypy_cache):
    """The loaded records are typed: a question read as the dict of its file is a type error."""
    out, status = mypy(str(TYPING / "model_as_dict.py"), cache=mypy_cache)
    assert status == 1, out
    assert 'model_as_dict.py:7: error: Value of type "Question" is not indexable  [index]' in out


def test_a_records_file_as_written_is_read_only_where_allowed(tmp_path, monkeypatch, mypy_cache):
    """``Record.data`` (the file as written) outside the data layer, the API and the round trip: an error; the same
    read in a module of the data layer passes."""
    out, status = mypy(str(TYPING / "record_as_written.py"), cache=mypy_cache)
    assert status == 1, out
    assert "record_as_written.py:7: error: function houserules.data.reading.model.Record.data is deprecated" in out
    package = tmp_path / "houserules" / "data" / "reading"
    package.mkdir(parents=True)
    for folder in (tmp_path / "houserules", tmp_path / "houserules" / "data", package):
        (folder / "__init__.py").write_text("", encoding="utf-8")
    # ... with a type error of its own, which shows that the record's type was read there too.
    text = (TYPING / "record_as_written.py").read_text(encoding="utf-8")
    (package / "as_written.py").write_text(
        text + "\n\ndef code(entry: Entry) -> int:\n    return entry.code\n", "utf-8"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MYPYPATH", str(ROOT / "tools"))
    out, status = mypy("houserules/data/reading/as_written.py", cache=mypy_cache)
    assert 'as_written.py:11: error: Incompatible return value type (got "str", expected "int")' in out, out
    assert "deprecated" not in out, out
