"""Shared fixtures: paths, running the CLI as a user would, and one site build per session."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Property-based tests: quick by default; HYPOTHESIS_PROFILE=long (make fuzz) runs many more examples.
settings.register_profile(
    "default",
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
settings.register_profile(
    "long",
    max_examples=3000,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "rules_data"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
GOOD = FIXTURES / "good"
BAD = FIXTURES / "bad"
#: The source documents the entries cite. They are not redistributed with the project (two of
#: them are others' copyrighted texts); the workspace keeps them beside the checkout.
SEEDS = Path(os.environ.get("HOUSERULES_SEEDS") or ROOT.parent / "shared" / "seeds")
HOUSERULES = Path(sys.executable).parent / "houserules"


#: A minimal valid ruling for the fixture game ``demo`` (tests/fixtures/good), to copy and break.
ENTRY_TEMPLATE = """id: {id}
code: {code}
kind: ruling
title: {{zh: 标题, en: Title}}
summary: {{zh: 一句话。}}
authority: clarification
confidence: confirmed
sources:
  - {{doc: seed.txt, ref: "【1】"}}
see_also: [demo:tower]
"""


#: ``UPDATE_GOLDEN=1 .venv/bin/pytest`` rewrites every golden file from the current output (then review the diff).
UPDATE_GOLDEN = bool(os.environ.get("UPDATE_GOLDEN"))


def assert_golden(path: Path, actual: str) -> None:
    """``actual`` equals the golden file ``path`` (refreshed instead when UPDATE_GOLDEN is set)."""
    if UPDATE_GOLDEN:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
    assert path.is_file(), f"{path} is missing: run UPDATE_GOLDEN=1 .venv/bin/pytest {path.parent}"
    assert actual == path.read_text(encoding="utf-8"), f"{path} differs (UPDATE_GOLDEN=1 refreshes it; review the diff)"


def load_kb(data: Path):
    """The knowledge base of ``data``, which must load without problems."""
    from houserules.data.load import load

    loaded = load(data)
    assert loaded.problems == [], loaded.problems
    return loaded.kb


def run_cli(*args: str, cwd: Path = ROOT, timeout: float = 300, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run the installed ``houserules`` command in a subprocess, as a user would."""
    full_env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **(env or {})}
    return subprocess.run(
        [str(HOUSERULES), *args], cwd=cwd, capture_output=True, text=True, timeout=timeout, env=full_env
    )


@pytest.fixture(scope="session")
def seeds() -> Path:
    """The seed folder; outside CI a checkout without it skips the seed tests, in CI it fails."""
    if not any(SEEDS.glob("*.txt")):
        message = f"source documents not found in {SEEDS}; set HOUSERULES_SEEDS to their folder"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return SEEDS


def build_once(tmp_path_factory, data: Path, name: str) -> Path:
    """``houserules build`` of ``data`` into a fresh temporary folder, as a user runs it."""
    out = tmp_path_factory.mktemp(name) / "site"
    result = run_cli("build", "--data", str(data), "-o", str(out))
    assert result.returncode == 0, result.stdout + result.stderr
    return out


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    """The real data built once into a temporary site folder (check + MkDocs + post steps)."""
    return build_once(tmp_path_factory, DATA, "site")


@pytest.fixture(scope="session")
def built_fixture_site(tmp_path_factory) -> Path:
    """The small known-good fixture data built once."""
    return build_once(tmp_path_factory, GOOD, "fixture-site")


def git(repo: Path, *args: str) -> str:
    """Run git in ``repo`` as a fixed author at a fixed time; its output."""
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.org",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.org",
        "GIT_COMMITTER_DATE": "2026-12-01T10:00:00+00:00",
        "GIT_AUTHOR_DATE": "2026-12-01T10:00:00+00:00",
    }
    return subprocess.run(
        ["git", "-C", str(repo), *args], check=True, capture_output=True, text=True, env=env
    ).stdout.strip()
