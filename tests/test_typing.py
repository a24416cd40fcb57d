"""``make lint`` runs mypy (pyproject.toml: [tool.mypy]); these tests show it fails on what it must catch."""

from __future__ import annotations

from pathlib import Path

from mypy import api

from conftest import FIXTURES, ROOT

TYPING = FIXTURES / "typing"


def mypy(*args: str, cache: Path) -> tuple[str, int]:
    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", str(cache), *args])
    return out + err, status


def test_a_type_error_fails(tmp_path):
    out, status = mypy(str(TYPING / "wrong_type.py"), cache=tmp_path)
    assert status == 1, out
    assert 'wrong_type.py:5: error: Incompatible return value type (got "str", expected "int")' in out


def test_an_untyped_function_passes_by_default_and_fails_in_a_strict_package(tmp_path, monkeypatch):
    out, status = mypy(str(TYPING / "untyped.py"), cache=tmp_path / "cache")
    assert status == 0, out
    # The same file as a module of houserules.check, one of the strict packages.
    package = tmp_path / "houserules" / "check"
    package.mkdir(parents=True)
    (package.parent / "__init__.py").write_text("", encoding="utf-8")
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "untyped.py").write_text((TYPING / "untyped.py").read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    out, status = mypy("houserules/check/untyped.py", cache=tmp_path / "cache")
    assert status == 1, out
    assert "untyped.py:4: error: Function is missing a type annotation  [no-untyped-def]" in out
