"""更新记录 · What changed: versions of the data from git, the changes page, its Atom feed and ``pdf --changes-since``.

The fixture is a git repository whose data folder went through three commits: the demo
game (v1); a new ruling, a changed answer and a changed question (v2); a ruling removed (v3).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as etree
from pathlib import Path

import pytest

from conftest import DATA, GOOD, HOUSERULES, git, load_kb, run_cli
from houserules.check.wording import NEUTRAL_SUBJECT, subject_pattern
from houserules.data.versions import git as git_module
from houserules.data.versions.history import load_history
from houserules.data.versions.version import tree_hash
from houserules.site.changelog import FEED_VERSIONS, PAGE_VERSIONS

ATOM = "{http://www.w3.org/2005/Atom}"
NEW_RULING = """id: tower-stairs
code: DM-A3
kind: ruling
title: {zh: 塔楼的楼梯, en: The Tower stairs}
summary: {zh: 楼梯不算障碍。, en: The stairs are no barrier.}
see_also: [demo:tower]
authority: clarification
confidence: confirmed
sources:
  - {doc: seed.txt, ref: "【2】"}
history:
  - {date: 2026-12-01, change: created}
"""


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new), encoding="utf-8")


def make_repo(root: Path) -> tuple[Path, list[str]]:
    """The repository with its three versions; returns the data folder and each version's tree hash, oldest first."""
    repo = root / "repo"
    data = repo / "rules_data"
    shutil.copytree(GOOD, data)
    (repo / "README").write_text("not data\n", encoding="utf-8")
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "v1: the demo game")
    (data / "demo/entries/tower-stairs.yaml").write_text(NEW_RULING, encoding="utf-8")
    edit(
        data / "demo/game.yaml",
        "[demo:tower-crossing, demo:tower-errata]",
        "[demo:tower-crossing, demo:tower-errata, demo:tower-stairs]",
    )
    crossing = data / "demo/entries/tower-crossing.yaml"
    edit(crossing, "summary: {zh: 考验失败就停在原地，下回合再试。", "summary: {zh: 考验失败就停下，下回合重掷。")
    edit(crossing, "a: {zh: 停在原地，下回合再试。", "a: {zh: 停在原地，下回合重掷。")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "v2: the Tower stairs; a clearer answer")
    (repo / "README").write_text("a commit outside the data is no version\n", encoding="utf-8")
    git(repo, "commit", "-q", "-am", "docs only")
    (data / "demo/entries/tower-errata.yaml").unlink()
    edit(
        data / "demo/game.yaml",
        "[demo:tower-crossing, demo:tower-errata, demo:tower-stairs]",
        "[demo:tower-crossing, demo:tower-stairs]",
    )
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "v3: the erratum is withdrawn")
    trees = [git(repo, "rev-parse", f"HEAD~{n}:rules_data") for n in (3, 2, 0)]
    return data, trees


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    return make_repo(tmp_path_factory.mktemp("history"))


@pytest.fixture(scope="module")
def site(repo, tmp_path_factory):
    data, _ = repo
    out = tmp_path_factory.mktemp("history-site") / "site"
    result = run_cli("build", "--data", str(data), "-o", str(out))
    assert result.returncode == 0, result.stderr
    return out


def test_each_commit_changing_the_data_is_a_version_with_its_changes(repo):
    data, trees = repo
    history = load_history(load_kb(data))
    assert history.from_git
    assert [v.version.tree for v in history.versions] == trees[::-1]  # newest first; the docs-only commit is none
    assert history.versions[0].version.tree == tree_hash(data)
    v3, v2, v1 = history.versions
    assert str(v3.version) == f"2026-12-01 · {trees[2][:8]}"  # the current version carries its newest history date
    assert [(c.status, c.code) for c in v1.entries] == [("added", "DM-A1"), ("added", "DM-A2"), ("added", "DM-R01")]
    assert [(c.status, c.code, c.aspects) for c in v2.entries] == [
        ("added", "DM-A3", []),
        ("changed", "DM-A1", ["answer", "questions"]),
    ]
    assert v2.entries[1].questions == {"added": 0, "removed": 0, "changed": 1}
    assert v2.others == [("demo", "game")] and v2.subject == "v2: the Tower stairs; a clearer answer"
    assert [(c.status, c.code, c.title["zh"]) for c in v3.entries] == [("removed", "DM-A2", "塔楼的中文译文有误")]


def test_uncommitted_changes_are_the_newest_version(repo, tmp_path):
    data, trees = repo
    work = tmp_path / "work"
    shutil.copytree(data.parent, work)
    edit(work / "rules_data/demo/entries/tower.yaml", "有障碍的房间，", "有障碍的房间（改），")
    history = load_history(load_kb(work / "rules_data"))
    first = history.versions[0]
    assert first.commit is None and first.version.tree == tree_hash(work / "rules_data") != trees[2]
    assert [(c.status, c.code, c.aspects) for c in first.entries] == [("changed", "DM-R01", ["answer"])]
    assert len(history.versions) == 4


def test_git_is_asked_four_times_however_long_the_history(repo, tmp_path, monkeypatch):
    data, _ = repo
    work = tmp_path / "long"
    shutil.copytree(data.parent, work)
    for n in range(12):
        edit(
            work / "rules_data/demo/entries/tower-crossing.yaml",
            "history:\n",
            f"history:\n  - {{date: 2026-12-0{n % 9 + 1}, change: edit {n}}}\n",
        )
        git(work, "commit", "-q", "-am", f"edit {n}")
    calls = []
    real = subprocess.run
    monkeypatch.setattr(git_module.subprocess, "run", lambda args, **kw: calls.append(args[3]) or real(args, **kw))
    history = load_history(load_kb(work / "rules_data"))
    assert len(history.versions) == 15
    assert calls == ["rev-parse", "log", "cat-file", "cat-file"]


@pytest.mark.slow
def test_the_changes_page_lists_each_version_newest_first(site, repo):
    _, trees = repo
    html = (site / "changes.html").read_text(encoding="utf-8")
    versions = re.findall(r'<details class="hr-fold hr-version" id="v-([0-9a-f]{8})"', html)
    assert versions == [t[:8] for t in trees[::-1]]
    # each headed by its version as faq.pdf's cover prints it, then when it was committed
    assert [re.sub(r"<[^>]+>", "", s) for s in re.findall(r'class="hr-version-name">(.*?)</span> ', html)] == [
        f"2026-12-01 · {trees[2][:8]}（当前 · current）",
        f"2026-12-01 · {trees[1][:8]}",
        f"2026-11-30 · {trees[0][:8]}",
    ]
    assert re.findall(r"<summary>.*?<time>(.*?)</time>", html) == ["2026-12-01 10:00 UTC"] * 3
    assert "v3: the erratum is withdrawn" in html and "docs only" not in html
    v2 = html.split('id="v-' + trees[1][:8])[1].split("</details>")[0]
    assert '<code class="hr-code">DM-A3</code> <a href="demo/tower-stairs.html">塔楼的楼梯</a>' in v2
    assert '一句话答案、常见问题 (~1) · <span lang="en">answer, questions (~1)</span>' in v2
    v3 = html.split('id="v-' + trees[2][:8])[1].split("</details>")[0]
    assert (
        '<ul class="hr-changes hr-changes--removed" data-status="removed"><li><code class="hr-code">DM-A2</code> '
        "塔楼的中文译文有误" in v3
    )  # removed: no link to a page that is gone
    assert f'<code class="hr-code">2026-12-01 · {trees[2][:8]}</code>' in html  # the current version
    assert 'href="changes.xml"' in html
    assert 'href="changes.html"' in (site / "index.html").read_text(encoding="utf-8")  # in the navigation


@pytest.mark.slow
def test_the_feed_is_atom_with_an_entry_per_version(site, repo):
    _, trees = repo
    feed = etree.parse(site / "changes.xml").getroot()
    assert feed.tag == f"{ATOM}feed"
    for required in ("id", "title", "updated", "author"):
        assert feed.find(f"{ATOM}{required}") is not None
    entries = feed.findall(f"{ATOM}entry")
    assert (
        [e.findtext(f"{ATOM}title") for e in entries]
        == [
            f"数据版本 2026-12-01 · {trees[2][:8]}：删除 1",
            f"数据版本 2026-12-01 · {trees[1][:8]}：新增 1，更改 1",  # as faq.pdf printed it
            f"数据版本 2026-11-30 · {trees[0][:8]}：新增 3",
        ]
    )
    assert len({e.findtext(f"{ATOM}id") for e in entries}) == 3
    assert all(re.fullmatch(r"urn:uuid:[0-9a-f-]{36}", e.findtext(f"{ATOM}id")) for e in entries)
    assert all(e.findtext(f"{ATOM}updated") == "2026-12-01T10:00:00+00:00" for e in entries)  # the commit's time
    assert [e.find(f"{ATOM}link").get("href") for e in entries] == [f"changes.html#v-{t[:8]}" for t in trees[::-1]]
    content = entries[1].find(f"{ATOM}content")
    assert content.get("type") == "html"
    assert '<a href="demo/tower-stairs.html">塔楼的楼梯</a>' in content.text  # escaped HTML, parsed back


@pytest.mark.slow
def test_without_git_the_page_says_so_and_shows_the_current_version(tmp_path):
    data = tmp_path / "rules_data"
    shutil.copytree(GOOD, data)
    out = tmp_path / "site"
    assert run_cli("build", "--data", str(data), "-o", str(out)).returncode == 0
    html = (out / "changes.html").read_text(encoding="utf-8")
    assert "此站点构建时没有数据的 git 历史，只显示当前版本。" in html
    assert f"({data} is not in a git checkout)" in html
    assert f'<code class="hr-code">2026-11-30 · {tree_hash(data)[:8]}</code>' in html
    assert "<h2" not in html.split('<article class="md-content__inner md-typeset">')[1].split("</article>")[0]
    entries = etree.parse(out / "changes.xml").getroot().findall(f"{ATOM}entry")  # the current version alone
    assert [e.findtext(f"{ATOM}title") for e in entries] == [f"数据版本 2026-11-30 · {tree_hash(data)[:8]}"]
    assert "No git history of the data" in entries[0].findtext(f"{ATOM}content")


def squeeze(text: str) -> str:
    """pdftotext's text with each run of spaces and line breaks one space (a long line wraps on paper)."""
    return " ".join(text.split())


def pdftotext(path: Path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout


@pytest.mark.slow
def test_pdf_changes_since_prints_the_added_and_changed_entries_and_the_removed_codes(repo, tmp_path):
    data, trees = repo
    out = tmp_path / "insert.pdf"
    result = run_cli("pdf", "--data", str(data), "--changes-since", trees[0][:8], "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"wrote {out} (2 entries, 3 pages)\n"
    text = pdftotext(out)
    cover = text.split("\f")[0]
    # as the cover of faq.pdf printed it: the date of the newest history line then, and the hash
    printed = f"2026-11-30 · {trees[0][:8]}"
    assert f"自{printed.replace(' ', '')}以来的更改" in squeeze(cover).replace(" ", "")
    assert f"Changes since {printed}" in squeeze(cover)
    assert "新增 1，更改 1，删除 1" in cover
    assert re.search(
        r"已删除的条目 · Removed entries（1）\s+• DM-A2 塔楼的中文译文有误 The Tower.s Chinese text is wrong", cover
    )
    body = "\f".join(text.split("\f")[2:])
    assert "DM-A3 · 塔楼的楼梯" in body and "新增 · Added" in body
    assert (
        "DM-A1 · 穿过塔楼" in body
        and "更改 · Changed：一句话答案、答案更改 DM-A1/failed-roll · one-line answer, answer changed" in squeeze(body)
    )
    assert "DM-R01 ·" not in text and "DM-A2 ·" not in text  # unchanged and removed entries are not printed


@pytest.mark.slow
def test_pdf_cover_prints_the_data_version(repo, tmp_path):
    data, trees = repo
    assert run_cli("pdf", "--data", str(data), "-o", str(tmp_path / "faq.pdf")).returncode == 0
    assert f"数据版本 · Data version   2026-12-01 · {trees[2][:8]}" in pdftotext(tmp_path / "faq.pdf").split("\f")[0]


@pytest.mark.parametrize(
    "version, message",
    [
        (
            "feedbeef",
            "unknown data version 'feedbeef' — no PDF of this data printed it. The version on a PDF's cover is one "
            "of: faq.pdf, demo.pdf: 2026-12-01 · {v3}, 2026-12-01 · {v2}, 2026-11-30 · {v1} (the site's 更新记录 page "
            "lists them all)",
        ),
        ("{v3}", "nothing changed since 2026-12-01 · {v3}: it is the current data version"),
        ("2026-12-01 · {v3}", "nothing changed since 2026-12-01 · {v3}: it is the current data version"),
    ],
)
def test_pdf_changes_since_an_unknown_or_the_current_version_is_a_clear_message(repo, tmp_path, version, message):
    data, trees = repo
    names = {"v1": trees[0][:8], "v2": trees[1][:8], "v3": trees[2][:8]}
    result = run_cli(
        "pdf", "--data", str(data), "--changes-since", version.format(**names), "-o", str(tmp_path / "x.pdf")
    )
    assert result.returncode == 1 and not (tmp_path / "x.pdf").exists()
    assert result.stderr == f"houserules pdf: {message.format(**names)}\n"


def test_pdf_changes_since_without_git_is_a_clear_message(repo, tmp_path):
    data, trees = repo
    copy = tmp_path / "rules_data"
    shutil.copytree(data, copy)
    result = run_cli("pdf", "--data", str(copy), "--changes-since", trees[0][:8], "-o", str(tmp_path / "x.pdf"))
    assert result.returncode == 1
    assert result.stderr == (
        f"houserules pdf: cannot look up data version '{trees[0][:8]}': {copy} is not in a git "
        "checkout; the changes since a version come from the git history of the data folder\n"
    )
    no_git = run_cli(
        "pdf",
        "--data",
        str(data),
        "--changes-since",
        trees[0][:8],
        "-o",
        str(tmp_path / "x.pdf"),
        env={"PATH": str(HOUSERULES.parent)},
    )
    assert no_git.stderr == (
        f"houserules pdf: cannot look up data version '{trees[0][:8]}': git is not installed; "
        "the changes since a version come from the git history of the data folder\n"
    )


def test_a_games_own_version_is_found_in_the_history():
    """A game's PDF prints the version of its folder; --changes-since finds the first commit holding it."""
    from houserules.data.versions.history import History, Version
    from houserules.data.versions.version import DataVersion

    versions = [
        Version(DataVersion("c" * 40), "3" * 40, "2026-12-03"),
        Version(DataVersion("b" * 40), "2" * 40, "2026-12-02"),
        Version(DataVersion("a" * 40), "1" * 40, "2026-12-01"),
    ]
    history = History(
        versions, game_trees={"3" * 40: {"demo": "9" * 40}, "2" * 40: {"demo": "9" * 40}, "1" * 40: {"demo": "8" * 40}}
    )
    assert history.find("2026-12-02 · 99999999").commit == "2" * 40  # the first commit with that game folder
    assert history.find("88888888").commit == "1" * 40
    assert history.find("bbbbbbbb").commit == "2" * 40


#: The subjects git writes for a merge, which the changes page shows as no subject.
GIT_MERGE = re.compile(r"Merge (?:branch|branches|remote-tracking branch|pull request|commit|tag)\b")


@pytest.mark.slow
def test_the_real_changes_page_and_feed_show_no_production_word(built_site):
    """The real history has subjects naming the seeds; 更新记录 and its feed show them as a neutral data update."""
    kb = load_kb(DATA)
    history = load_history(kb)
    pattern = subject_pattern(kb)
    production = re.compile(r"\bseeds?\b|种子|\b\d{3}_[0-9a-f]{16}\.txt\b", re.I)
    for name, count in (("changes.html", PAGE_VERSIONS), ("changes.xml", FEED_VERSIONS)):
        # git's own subject of a merge ("Merge branch 'x'") is shown as none, whatever its words
        needs_neutral = any(
            v.subject and pattern.search(v.subject) and not GIT_MERGE.match(v.subject) for v in history.versions[:count]
        )
        text = (built_site / name).read_text(encoding="utf-8")
        assert production.findall(text) == []
        assert (NEUTRAL_SUBJECT in text) == needs_neutral


def test_a_second_reading_of_the_history_parses_no_file_again_and_finds_the_same(repo, monkeypatch):
    """A blob id names its content: the entry files a process has read from the history (a preview's rebuilds, a
    run's builds) are not fetched or parsed again, and the versions and changes read are the same."""
    from houserules.data.versions import history as history_module

    data, _ = repo
    monkeypatch.setattr(history_module, "_READ", {})
    parsed = []
    real = history_module.read_blob
    monkeypatch.setattr(history_module, "read_blob", lambda blob: parsed.append(blob) or real(blob))
    first = load_history(load_kb(data))
    assert parsed and all(blob is not None for blob in parsed)
    parsed.clear()
    again = load_history(load_kb(data))
    assert parsed == []
    assert [
        (v.version, v.commit, [(c.ref, c.status, c.aspects, c.before, c.after) for c in v.entries])
        for v in again.versions
    ] == [
        (v.version, v.commit, [(c.ref, c.status, c.aspects, c.before, c.after) for c in v.entries])
        for v in first.versions
    ]
