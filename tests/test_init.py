"""``houserules init DIR``: a new, empty knowledge base for a group, and the README's two commands inside it.

The folder gets what the group owns (mkdocs.yml, content/, rules_data/, a README, a Makefile and a
requirements.txt pinned to this houserules); the theme comes from the installed package. The slow test
runs ``make test`` and ``make serve`` in a fresh folder, with houserules installed there from this checkout.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from conftest import ROOT, run_cli
from houserules.cli import starter

FILES = [
    ".gitignore",
    "Makefile",
    "README.md",
    "content/about.md",
    "content/guide.md",
    "content/index.md",
    "mkdocs.yml",
    "requirements.txt",
    "rules_data/synonyms.yaml",
]


def init(folder: Path, *args: str, cwd: Path | None = None):
    return run_cli("init", str(folder), *args, cwd=cwd or folder.parent)


def listing(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def test_init_writes_a_knowledge_base_that_checks_clean(tmp_path):
    kb = tmp_path / "friday"
    result = init(kb, "--name", "周五桌游小组")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == (
        f"wrote {kb}/ (周五桌游小组): Makefile, README.md, .gitignore, mkdocs.yml, requirements.txt, content/, rules_data/"
    )
    assert listing(kb) == FILES
    assert sorted(p.name for p in tmp_path.iterdir()) == ["friday"]  # no temporary folder left beside it
    config = (kb / "mkdocs.yml").read_text(encoding="utf-8")
    assert 'site_name: "周五桌游小组"' in config and "custom_dir:" not in config.replace("# custom_dir:", "")
    assert '      short_name: "周五桌游小组"' in config
    readme = (kb / "README.md").read_text(encoding="utf-8")
    assert readme.startswith("# 周五桌游小组\n") and "make serve" in readme and "make test" in readme
    for command in ("new-game", "new ", "check", "make serve", "pdf --game"):  # the five commands of a game
        assert f"houserules {command}" in readme or command in readme, command
    checked = run_cli("check", cwd=kb)  # the default data folder, rules_data/, inside the new folder
    assert checked.returncode == 0 and checked.stdout.strip() == "ok: 0 entries, 0 references, 0 games"
    assert (kb / "content/index.md").read_text(encoding="utf-8").startswith("---\nhide:")
    assert "\n# 周五桌游小组\n" in (kb / "content/index.md").read_text(encoding="utf-8")


def test_the_site_name_defaults_to_the_folder_and_an_empty_folder_is_filled_in_place(tmp_path):
    kb = tmp_path / "board-games"
    kb.mkdir()
    before = kb.stat().st_ino
    result = run_cli("init", ".", cwd=kb)  # the working folder itself
    assert result.returncode == 0, result.stderr
    assert kb.stat().st_ino == before and listing(kb) == FILES
    assert 'site_name: "board-games"' in (kb / "mkdocs.yml").read_text(encoding="utf-8")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board-games"]
    long = tmp_path / "a-group-with-a-long-name"
    assert init(long).returncode == 0
    assert "short_name" not in (long / "mkdocs.yml").read_text(encoding="utf-8").replace("# the app's name", "")


@pytest.mark.parametrize(
    "setup, args, message",
    [
        ("file", [], "is not empty (notes.txt) — init starts a new knowledge base in a new or empty folder"),
        ("hidden", [], "is not empty (.git)"),
        ("is-file", [], "is not a folder — give a new or empty folder"),
        ("", ["--name", "<b>群</b>"], "--name '<b>群</b>' holds '<', which the site's pages would read as markup"),
        ("", ["--name", 'a "b"'], "holds '\"'"),
        ("", ["--name", "two\nlines"], "--name must be a one-line title"),
        ("", ["--name", " "], "--name must be a one-line title, not ' '"),
    ],
)
def test_refusals_write_nothing(tmp_path, setup, args, message):
    kb = tmp_path / "kb"
    if setup == "file":
        kb.mkdir()
        (kb / "notes.txt").write_text("ours", encoding="utf-8")
    elif setup == "hidden":
        (kb / ".git").mkdir(parents=True)
    elif setup == "is-file":
        kb.write_text("x", encoding="utf-8")
    before = {str(p): (p.read_bytes() if p.is_file() else None) for p in tmp_path.rglob("*")}
    result = init(kb, *args)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.startswith("houserules init: ") and message in result.stderr, result.stderr
    assert {str(p): (p.read_bytes() if p.is_file() else None) for p in tmp_path.rglob("*")} == before


@pytest.mark.parametrize("into", ["new", "empty"])
def test_a_failure_part_way_leaves_nothing(tmp_path, monkeypatch, into):
    kb = tmp_path / "kb"
    if into == "empty":
        kb.mkdir()
    renamed = []
    real = Path.rename

    def rename(self, target):
        renamed.append(self)
        if len(renamed) == (1 if into == "new" else 3):  # the whole folder, or the third of its parts
            raise OSError(28, "No space left on device")
        return real(self, target)

    monkeypatch.setattr(Path, "rename", rename)
    result = init(kb)
    assert result.returncode == 1
    assert result.stderr == "houserules init: cannot write kb: No space left on device; nothing was written\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ([] if into == "new" else ["kb"])
    assert not kb.exists() or list(kb.iterdir()) == []


def test_the_starter_site_configuration_is_the_checkouts_but_for_what_the_group_owns(tmp_path):
    """mkdocs.yml of a new knowledge base keeps in step with this checkout's: the same theme, plugins and Markdown;
    only the name, the theme folder (the package brings it) and the checkout's watch differ."""
    assert init(tmp_path / "kb", "--name", "小组").returncode == 0

    def settings(path: Path) -> dict[str, str]:
        text = "\n".join(
            line for line in path.read_text(encoding="utf-8").splitlines() if not line.lstrip().startswith("#")
        )
        text = re.sub(r"\s+#.*", "", text)
        blocks = re.split(r"^(?=[a-z_]+:)", text, flags=re.M)
        return {block.split(":", 1)[0]: block.strip() for block in blocks if block.strip()}

    ours, checkout = settings(tmp_path / "kb/mkdocs.yml"), settings(ROOT / "mkdocs.yml")
    own = {"site_name", "watch"}
    assert set(ours) - own == set(checkout) - own
    for key in set(checkout) - own - {"theme", "plugins"}:
        assert ours[key] == checkout[key], key
    assert ours["theme"] == checkout["theme"].replace("\n  custom_dir: site_overrides", "")
    assert ours["plugins"] == checkout["plugins"].replace(
        "data_dir: rules_data", 'data_dir: rules_data\n      short_name: "小组"'
    )


class FakeDistribution:
    def __init__(self, record: dict | None, version: str = "0.3.0"):
        self.version, self.record = version, record

    def read_text(self, name: str) -> str | None:
        if name == "INSTALLER":
            return "pip\n"
        return json.dumps(self.record) if self.record is not None and name == "direct_url.json" else None


@pytest.mark.parametrize(
    "record, requirement",
    [
        (None, "houserules==0.3.0"),  # from a package index
        (
            {"url": "https://github.com/o/houserules.git", "vcs_info": {"vcs": "git", "commit_id": "abc123"}},
            "houserules @ git+https://github.com/o/houserules.git@abc123",
        ),
        (
            {"url": "https://example.org/houserules-0.3.0.tar.gz", "archive_info": {}},
            "houserules @ https://example.org/houserules-0.3.0.tar.gz",
        ),
        ({"url": "file:///src/houserules", "dir_info": {"editable": True}}, "houserules @ file:///src/houserules"),
    ],
)
def test_requirements_pin_the_houserules_that_made_the_folder(monkeypatch, record, requirement):
    from importlib import metadata

    stray = FakeDistribution(None, "0.0.0")  # a build's metadata left in a checkout: no record of an install
    stray.read_text = lambda name: None
    monkeypatch.setattr(metadata, "distributions", lambda name: [stray, FakeDistribution(record)])
    assert starter.houserules_requirement()[:2] == (requirement, "0.3.0")


def test_this_checkouts_requirement_names_it(tmp_path):
    assert starter.houserules_requirement()[0] == f"houserules @ {ROOT.as_uri()}"
    assert init(tmp_path / "kb").returncode == 0
    assert (tmp_path / "kb/requirements.txt").read_text(encoding="utf-8").splitlines()[
        -1
    ] == f"houserules @ {ROOT.as_uri()}"


def test_the_new_folder_builds_with_its_own_configuration_and_the_package_theme(tmp_path):
    """Its mkdocs.yml (beside its data) names the site; the search box, its worker and the styles come from the
    package; a game added with new-game is in the navigation."""
    from houserules.build import build_site, site_step
    from houserules.data.reading.load import load

    kb = tmp_path / "kb"
    assert init(kb, "--name", "周五小组").returncode == 0
    assert run_cli("new-game", "demo", "--zh", "演示", "--en", "Demo", "--code", "DM", cwd=kb).returncode == 0
    data = kb / "rules_data"
    site = build_site(load(data).kb, data, kb / "site", steps=[site_step])
    home = (site / "index.html").read_text(encoding="utf-8")
    assert "<title>周五小组</title>" in home
    assert 'config.search = "assets/javascripts/hr-search-worker.js"' in home  # the package's main.html
    for asset in ("javascripts/hr-search-worker.js", "javascripts/houserules.js", "stylesheets/houserules.css"):
        assert (site / "assets" / asset).is_file(), asset
    assert 'href="demo/index.html" class="md-nav__link"' in home
    assert json.loads((site / "manifest.webmanifest").read_text(encoding="utf-8"))["name"] == "周五小组"
    assert "这款游戏还没有条目。" in (site / "demo/index.html").read_text(encoding="utf-8")


# -- the README's two commands, in a fresh folder --------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_init_then_the_readmes_two_commands_work_inside_the_new_folder(tmp_path):
    """``make test`` sets up .venv/ (houserules from requirements.txt: this checkout, installed as a package, not
    linked to it), checks the data and builds and link-checks the site with its PDFs; ``make serve`` serves it on
    127.0.0.1. A game added with new-game fails ``make test`` until its placeholders are filled in."""
    kb = tmp_path / "our-games"
    assert init(kb, "--name", "我们的桌游").returncode == 0
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHONPATH", "MAKE", "MFLAGS"))}
    env["PATH"] = os.pathsep.join(p for p in env["PATH"].split(os.pathsep) if ".venv" not in p)
    tested = subprocess.run(["make", "test"], cwd=kb, env=env, capture_output=True, text=True, timeout=900)
    assert tested.returncode == 0, tested.stdout[-3000:] + tested.stderr[-3000:]
    assert f"checked {kb.resolve() / 'site'}: " in tested.stdout and "ready to publish" in tested.stdout
    installed = subprocess.run(
        [
            str(kb / ".venv/bin/python"),
            "-c",
            "import houserules, pathlib; print(pathlib.Path(houserules.__file__).parent)",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert installed.startswith(str(kb / ".venv")), installed  # a package of its own, with the theme inside
    assert (Path(installed) / "theme/assets/javascripts/hr-search-worker.js").is_file()
    assert (kb / "site/print/faq.pdf").is_file() and (kb / "site/assets/javascripts/hr-search-worker.js").is_file()
    again = subprocess.run(  # the installed package carries the starter files too
        [str(kb / ".venv/bin/houserules"), "init", str(tmp_path / "another")], capture_output=True, text=True
    )
    assert again.returncode == 0 and listing(tmp_path / "another") == FILES, again.stderr

    port = free_port()
    log = tmp_path / "serve.log"
    with open(log, "w", encoding="utf-8") as output:
        server = subprocess.Popen(
            ["make", "serve", f"PORT={port}"],
            cwd=kb,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline, page = time.monotonic() + 300, ""
        while time.monotonic() < deadline and server.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
                    page = response.read().decode("utf-8")
                    break
            except OSError:
                time.sleep(0.5)
        assert "<title>我们的桌游</title>" in page, log.read_text(encoding="utf-8")[-3000:]
    finally:
        os.killpg(server.pid, signal.SIGTERM)  # make and the preview it started: the group this test started
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:  # said as a failure, and nothing left running for later tests
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
            raise AssertionError("make serve did not stop within 60 s of SIGTERM: " + log.read_text()[-2000:]) from None
    assert f"serving on http://127.0.0.1:{port}/" in log.read_text(encoding="utf-8")

    added = subprocess.run(
        [str(kb / ".venv/bin/houserules"), "new-game", "demo", "--zh", "演示", "--en", "Demo", "--code", "DM"],
        cwd=kb,
        capture_output=True,
        text=True,
    )
    assert added.returncode == 0, added.stderr
    failed = subprocess.run(["make", "test"], cwd=kb, env=env, capture_output=True, text=True, timeout=600)
    assert failed.returncode != 0 and "placeholders (TODO…) are still in the games' game.yaml" in failed.stderr


def test_the_example_game_fits_a_new_knowledge_base(tmp_path):
    """The worked example's game copied into a new knowledge base checks clean there (no warnings)."""
    import shutil

    kb = tmp_path / "kb"
    assert init(kb).returncode == 0
    shutil.copytree(ROOT / "examples/nine-mens-morris/rules_data/nine-mens-morris", kb / "rules_data/nine-mens-morris")
    checked = run_cli("check", "--warnings-as-errors", cwd=kb)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.strip() == "ok: 3 entries, 4 references, 1 game"


def test_the_package_data_holds_every_file_of_the_starter_and_the_theme():
    """An installed houserules (a wheel, not this checkout) needs them: init writes the starter, every site uses the
    theme. pyproject.toml's package-data patterns must cover each file."""
    import tomllib

    package = ROOT / "tools" / "houserules"
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"][
        "package-data"
    ]
    covered = {path for pattern in patterns["houserules"] for path in package.glob(pattern) if path.is_file()}
    for folder in ("starter", "theme"):
        files = {p for p in (package / folder).rglob("*") if p.is_file() and "__pycache__" not in p.parts}
        assert files and files <= covered, sorted(str(p) for p in files - covered)
