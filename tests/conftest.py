"""Shared fixtures: paths, running the CLI as a user would, and one site build per session."""

from __future__ import annotations

import collections
import contextlib
import fcntl
import functools
import io
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
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
    from houserules.data.reading.load import load

    loaded = load(data)
    assert loaded.problems == [], loaded.problems
    return loaded.kb


@functools.cache
def real_check():
    """``houserules check`` of the real data, run once per worker for every module that lists its entries
    (test_content, test_questions, test_site): read it, never change it."""
    from houserules.check import run as run_check

    return run_check(DATA)


def run_cli(*args: str, cwd: Path = ROOT, timeout: float = 300, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run ``houserules ARGS`` in this process, as :func:`run_process` would in a subprocess.

    ``main(argv)`` runs with its own working folder, environment and captured output, and the
    result has a subprocess's fields (return code, stdout and stderr as text), so a test reads
    the same either way. An exception escaping ``main`` fails the test: the command would have
    printed a traceback. ``timeout`` applies only to :func:`run_process`.
    """
    from houserules.cli import main

    out, err = io.BytesIO(), io.BytesIO()
    stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    stderr = io.TextIOWrapper(err, encoding="utf-8", write_through=True)
    previous_cwd, previous_env = Path.cwd(), dict(os.environ)
    os.environ.update({"NO_MKDOCS_2_WARNING": "1", **(env or {})})
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            try:
                code = main(list(args))
            except SystemExit as exc:  # argparse: a usage error (2) or --help (0)
                code = exc.code if isinstance(exc.code, int) else 1
    finally:
        os.chdir(previous_cwd)
        os.environ.clear()
        os.environ.update(previous_env)
    text = {name: buffer.getvalue().decode("utf-8") for name, buffer in (("out", out), ("err", err))}
    return subprocess.CompletedProcess(["houserules", *args], code, text["out"], text["err"])


def run_process(
    *args: str, cwd: Path = ROOT, timeout: float = 300, env: dict | None = None
) -> subprocess.CompletedProcess:
    """Run the installed ``houserules`` command in a subprocess, as a user would (the end-to-end tests)."""
    if args and args[0] in {"build", "pdf"}:
        require_marker(f"runs 'houserules {args[0]}' (a full build or a PDF)", "slow", "browser")
    full_env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **(env or {})}
    return subprocess.run(
        [str(HOUSERULES), *args], cwd=cwd, capture_output=True, text=True, timeout=timeout, env=full_env
    )


# -- the markers tell the truth --------------------------------------------------------------------
#
# ``make test-fast`` (``-m "not browser and not slow and not bench"``) must not launch Chromium, lay
# out a PDF or build the real data's site. Rather than trusting each test's marks, the guards below
# fail any test that does one of these without the mark that says so.

#: The test being set up, run or torn down (session fixtures are set up inside the first test that needs them).
_RUNNING: dict[str, pytest.Item] = {}


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    _RUNNING["item"] = item


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_call(item: pytest.Item) -> None:
    _RUNNING["item"] = item


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_teardown(item: pytest.Item) -> None:
    _RUNNING["item"] = item


def require_marker(what: str, *markers: str) -> None:
    """Fail the running test unless it carries one of ``markers``."""
    item = _RUNNING.get("item")
    if item is not None and not any(item.get_closest_marker(m) for m in markers):
        pytest.fail(
            f"{item.nodeid} {what} but is not marked {' or '.join(markers)}: add @pytest.mark.{markers[0]}",
            pytrace=False,
        )


def _guarded(function, what: str, *markers: str, when=lambda *args, **kwargs: True):
    def guard(*args, **kwargs):
        if when(*args, **kwargs):
            require_marker(what, *markers)
        return function(*args, **kwargs)

    return functools.wraps(function)(guard)


def pytest_configure(config: pytest.Config) -> None:
    from playwright.sync_api import BrowserType

    from houserules import build
    from houserules.print import faq, pdf
    from houserules.print import pdfcache as print_cache

    BrowserType.launch = _guarded(BrowserType.launch, "launches Chromium", "browser")
    BrowserType.launch_persistent_context = _guarded(
        BrowserType.launch_persistent_context, "launches Chromium", "browser"
    )
    for module in (pdf, print_cache):
        module.render = _guarded(module.render, "lays out a PDF", "slow", "browser")
    # A build's PDF step, even when every PDF comes from the cache.
    faq.build_pdfs = _guarded(faq.build_pdfs, "builds the printed FAQ", "slow", "browser")
    build.mkdocs_build = _guarded(
        build.mkdocs_build,
        "builds the whole site of the real data",
        "slow",
        "browser",
        when=lambda kb, data_dir, *rest, **kw: Path(data_dir).resolve() == DATA,
    )


#: Session fixtures that build a whole site with its PDFs: a test using one is slow (or a browser test).
FULL_BUILDS = {"built_site", "built_fixture_full"}


#: Which module a worker takes next: the order of the collection (``--dist loadfile --no-loadscope-reorder``:
#: whole modules, so a module's fixtures are made once). The modules with the most tests go first, as
#: pytest-xdist's own order would have them, but the module with the most tests of the real data's site goes
#: first of all: its worker builds that site at once, while the other runs tests that need no build, so no worker
#: waits on the build later (with xdist's order the second module of that site waited 6–44 s for it, idle).
#: Within its module, the longest test starts first: a fork's data built whole and published.
STARTS_FIRST = {
    "tests/test_publishing.py::test_the_published_site_takes_its_addresses_from_the_environment_and_passes_the_link_check",
}


def _module(item: pytest.Item) -> str:
    return item.nodeid.split("::", 1)[0]


#: Modules of a few tests that each take long (the whole corpus through the worker under Node and through Python,
#: a property test rendering every page, every page of the real data rendered twice, the data read without libyaml,
#: git histories, mypy): by their count of tests they would start last and leave one worker alone at the end, so
#: they start next after the real data's site, longest first.
LONG_MODULES = (
    "tests/test_search_parity.py",
    "tests/test_plaintext_fields.py",
    "tests/test_verbatim.py",
    "tests/test_model.py",
    "tests/test_git_history.py",
    "tests/test_typing.py",
)


def module_order(items: list[pytest.Item]) -> list[str]:
    """The modules of ``items`` in the order workers take them: the one with the most tests of the real data's
    site first, then those of :data:`LONG_MODULES` in its order, then the others, most tests first (ties in the
    collection's order)."""
    counts = collections.Counter(_module(item) for item in items)
    builders = collections.Counter(_module(item) for item in items if "built_site" in getattr(item, "fixturenames", ()))
    first = max(builders, key=builders.__getitem__, default=None)  # the first of equals, in collection order
    long = {module: rank for rank, module in enumerate(LONG_MODULES)}
    return sorted(
        counts,
        key=lambda module: (module != first, module not in long, long.get(module, 0), -counts[module]),
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    rank = {module: number for number, module in enumerate(module_order(items))}
    # Stable: apart from the test of STARTS_FIRST, a module's tests keep the collection's order.
    items.sort(key=lambda item: (rank[_module(item)], item.nodeid not in STARTS_FIRST))
    unmarked = [
        f"{item.nodeid} uses {', '.join(sorted(FULL_BUILDS & set(getattr(item, 'fixturenames', ()))))}"
        for item in items
        if FULL_BUILDS & set(getattr(item, "fixturenames", ()))
        and not any(item.get_closest_marker(m) for m in ("slow", "browser"))
    ]
    if unmarked:
        raise pytest.UsageError(
            "tests using a full build must be marked slow (or browser):\n  " + "\n  ".join(unmarked)
        )


@pytest.fixture(scope="session", autouse=True)
def _session_cache(tmp_path_factory) -> Iterator[None]:
    """Every cache (search index, PDFs) in a folder of this run: no test sees ~/.cache or another run's files.

    Both workers of a run share it, as two commands share a user's cache (the index and the PDFs are written
    whole, then renamed into place), so the real data's index is built once per run, not once per worker.
    """
    folder = run_folder(tmp_path_factory) / "shared-cache"
    folder.mkdir(exist_ok=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOUSERULES_CACHE", str(folder / "houserules"))
        patch.setenv("XDG_CACHE_HOME", str(folder / "xdg"))
        yield


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
    """``houserules build`` of ``data`` (the site and its PDFs) into a fresh temporary folder."""
    out = tmp_path_factory.mktemp(name) / "site"
    result = run_cli("build", "--data", str(data), "-o", str(out))
    assert result.returncode == 0, result.stdout + result.stderr
    return out


def run_folder(tmp_path_factory) -> Path:
    """The temporary folder of this run: shared by its xdist workers, each of whose own folders is inside it."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def shared_once(tmp_path_factory, name: str, make) -> Path:
    """``make(folder)`` run once for the whole run, whichever worker asks first; its result, for every worker.

    A site several workers' tests read is built by the first worker that needs it while the others
    wait on a lock, then read by all: it lives in the run's temporary folder, so no later run sees it.
    A build that fails leaves nothing behind, and the next worker that asks builds it again.
    """
    shared = run_folder(tmp_path_factory) / "shared"
    shared.mkdir(exist_ok=True)
    done = shared / name
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not done.is_dir():
                work = Path(tmp_path_factory.mktemp(name))
                result = make(work)
                (work / "result").write_text(str(Path(result).relative_to(work)), encoding="utf-8")
                shutil.move(str(work), str(done))
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return done / (done / "result").read_text(encoding="utf-8")


def _built(data: Path):
    def make(folder: Path) -> Path:
        out = folder / "site"
        result = run_cli("build", "--data", str(data), "-o", str(out))
        assert result.returncode == 0, result.stdout + result.stderr
        return out

    return make


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    """The real data built once per run into a temporary site folder (check + MkDocs + post steps + PDFs): slow.

    Read-only: a test that changes a built site copies it first.
    """
    return shared_once(tmp_path_factory, "real-site", _built(DATA))


@pytest.fixture(scope="session")
def built_fixture_site(tmp_path_factory) -> Path:
    """The small known-good fixture's pages built once (MkDocs and the post steps, no PDFs): the page tests' site."""
    from houserules.build import build_site, site_step

    return build_site(load_kb(GOOD), GOOD, tmp_path_factory.mktemp("fixture-site") / "site", steps=[site_step])


@pytest.fixture(scope="session")
def built_fixture_full(tmp_path_factory) -> Path:
    """The small known-good fixture built whole once per run, as ``houserules build`` does (with its PDFs): slow."""
    return shared_once(tmp_path_factory, "fixture-full", _built(GOOD))


# -- one Chromium per worker -----------------------------------------------------------------------


@pytest.fixture(scope="session")
def playwright():
    """Playwright, started once per worker (a second ``sync_playwright()`` cannot run beside it)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as instance:
        yield instance


@pytest.fixture(scope="session")
def browser(playwright):
    """Debian's headless Chromium, launched once per worker by the first browser test; each test opens its own
    contexts or pages and closes them."""
    from sitecheck import CHROMIUM, CHROMIUM_ARGS

    instance = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield instance
    instance.close()


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
