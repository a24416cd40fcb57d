"""Shared fixtures: paths, running the CLI as a user would, and one site build per session."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "rules_data"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
GOOD = FIXTURES / "good"
BAD = FIXTURES / "bad"
SEEDS = ROOT.parent / "shared" / "seeds"
HOUSERULES = Path(sys.executable).parent / "houserules"


def run_cli(*args: str, cwd: Path = ROOT, timeout: float = 300, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run the installed ``houserules`` command in a subprocess, as a user would."""
    full_env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **(env or {})}
    return subprocess.run([str(HOUSERULES), *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env=full_env)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    """The real data built once into a temporary site folder (check + MkDocs + post steps)."""
    out = tmp_path_factory.mktemp("site") / "site"
    result = run_cli("build", "--data", str(DATA), "-o", str(out))
    assert result.returncode == 0, result.stdout + result.stderr
    return out


@pytest.fixture(scope="session")
def built_fixture_site(tmp_path_factory) -> Path:
    """The small known-good fixture data built once."""
    out = tmp_path_factory.mktemp("fixture-site") / "site"
    result = run_cli("build", "--data", str(GOOD), "-o", str(out))
    assert result.returncode == 0, result.stdout + result.stderr
    return out
