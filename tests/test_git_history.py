"""The git history of the data is input: commit subjects and file names cannot forge versions or markup.

Commits are written byte for byte (``git hash-object -t commit``), so a subject may hold
NUL, the old separators ``\\x01``/``\\x02``, line breaks, bytes that are not UTF-8 and
characters XML cannot carry; committed file names may hold every control character git
allows. The history keeps one version per real commit, credits each file change to the
commit that made it, and shows every git-derived string as text.
"""

from __future__ import annotations

import dataclasses
import html
import re
import shutil
import subprocess
import unicodedata
import xml.etree.ElementTree as etree
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import GOOD, git, load_kb, run_cli
from houserules.check.wording import NEUTRAL_SUBJECT
from houserules.data.versions.history import load_history
from houserules.site.changelog import changes_feed, changes_page

CROSSING = "demo/entries/tower-crossing.yaml"


def commit_bytes(repo: Path, message: bytes) -> str:
    """Commit the index with ``message`` exactly as given (no clean-up); the new commit's id."""
    tree = git(repo, "write-tree")
    parents = git(repo, "rev-parse", "--verify", "-q", "HEAD") if (repo / ".git/refs/heads/main").exists() else ""
    header = f"tree {tree}\n" + (f"parent {parents}\n" if parents else "")
    header += "author t <t@example.org> 1764583200 +0000\ncommitter t <t@example.org> 1764583200 +0000\n\n"
    commit = (
        subprocess.run(
            ["git", "-C", str(repo), "hash-object", "-t", "commit", "-w", "--stdin"],
            input=header.encode() + message,
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .strip()
    )
    git(repo, "update-ref", "refs/heads/main", commit)
    return commit


def new_repo(root: Path) -> tuple[Path, Path]:
    repo = root / "repo"
    shutil.copytree(GOOD, repo / "rules_data")
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    commit_bytes(repo, b"v1: the demo game\n")
    return repo, repo / "rules_data"


def change_crossing(data: Path, n: int) -> None:
    """A change of the crossing entry that a printout shows (its answer), with a line of history."""
    path = data / CROSSING
    text = path.read_text(encoding="utf-8").replace(
        "history:\n", f"history:\n  - {{date: 2026-12-01, change: e{n}}}\n", 1
    )
    # the answer changes in place (not growing), so it stays within the two lines the checker allows
    path.write_text(
        re.sub(r"try again next turn( \(e\d+\))?", f"try again next turn (e{n})", text, count=1), encoding="utf-8"
    )


def shown(text: str) -> str:
    """What a subject should look like on the page: unshowable characters as spaces, runs of spaces one."""
    out = []
    for c in text:
        bad = (
            unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp")
            or "\u202a" <= c <= "\u202e"
            or "\u2066" <= c <= "\u2069"
            or "\ufdd0" <= c <= "\ufdef"
            or (ord(c) & 0xFFFE) == 0xFFFE
        )
        out.append(" " if bad else c)
    return " ".join("".join(out).split())


FORGED = "\x01" + "d" * 40 + "\x02" + "2020-01-01T00:00:00+00:00" + "\x02</code><textarea>forged"


@pytest.fixture(scope="module")
def hostile_repo(tmp_path_factory):
    """v1; v2 with a forging subject and a changed entry; v3 adding a file named with a line break and
    changing the entry again; v4 removing that file."""
    repo, data = new_repo(tmp_path_factory.mktemp("hostile-git"))
    change_crossing(data, 2)
    git(repo, "add", "-A")
    v2 = commit_bytes(repo, f"v2 {FORGED}\ufffe\uffff\u2028\x0b<script>alert(1)</script>\n".encode())
    odd = data / "demo/entries/odd\nname.yaml"
    odd.write_text((data / CROSSING).read_text(encoding="utf-8").replace("code: DM-A1", "code: DM-X9"))
    (data / "demo/entries/\x1b[2Jclear.yaml").write_text("id: x\n", encoding="utf-8")
    change_crossing(data, 3)
    git(repo, "add", "-A")
    v3 = commit_bytes(repo, b"v3: odd names\n")
    odd.unlink()
    (data / "demo/entries/\x1b[2Jclear.yaml").unlink()
    git(repo, "add", "-A")
    v4 = commit_bytes(repo, b"v4: \xff\xfe not UTF-8 \x00 and a NUL\n")
    return data, [v4, v3, v2]


def test_a_forging_subject_is_one_version_shown_as_text(hostile_repo):
    data, commits = hostile_repo
    history = load_history(load_kb(data))
    assert [v.commit for v in history.versions] == [*commits, history.versions[-1].commit]
    assert all(re.fullmatch(r"[0-9a-f]{40}", v.commit) for v in history.versions)
    v4, v3, v2, v1 = history.versions
    assert v2.subject == "v2 " + " ".join(FORGED.replace("\x01", " ").replace("\x02", " ").split()) + (
        " <script>alert(1)</script>"
    )
    assert v4.subject == "v4: \ufffd\ufffd not UTF-8 and a NUL"
    assert v1.subject == "v1: the demo game"


def test_a_file_named_with_a_line_break_shifts_no_change(hostile_repo):
    data, _ = hostile_repo
    history = load_history(load_kb(data))
    v4, v3, v2, v1 = history.versions
    assert [(c.status, c.code) for c in v2.entries] == [("changed", "DM-A1")]
    assert [(c.status, c.code) for c in v3.entries] == [("changed", "DM-A1")]
    assert v4.entries == [] and v4.others == []
    assert history.warnings == [
        f"commit {v.commit[:10]} changes a file named 'rules_data/demo/entries/{name}', "
        "which no data file can be called: its change is not listed"
        for v in (v4, v3)
        for name in ("\\x1b[2Jclear.yaml", "odd\\x0aname.yaml")
    ]


def test_the_changes_page_and_feed_show_git_text_as_text(hostile_repo):
    data, _ = hostile_repo
    kb = load_kb(data)
    history = load_history(kb)
    page = changes_page(kb, history)
    assert "<textarea" not in page and "<script" not in page
    assert "&lt;/code&gt;&lt;textarea&gt;forged" in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "\x01" not in page and "\x02" not in page and "\ufffe" not in page
    feed = changes_feed(kb, history, "Demo", None)
    root = etree.fromstring(feed.encode("utf-8"))  # well-formed XML
    contents = [e.text for e in root.iter("{http://www.w3.org/2005/Atom}content")]
    assert "&lt;textarea&gt;forged" in contents[2] and "<textarea" not in contents[2]


@pytest.mark.slow
def test_the_built_site_carries_the_hostile_history_as_text(hostile_repo, tmp_path):
    data, commits = hostile_repo
    result = run_cli("build", "--data", str(data), "-o", str(tmp_path / "site"))
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert (
        f"houserules: warning: git history: commit {commits[1][:10]} changes a file named "
        "'rules_data/demo/entries/odd\\x0aname.yaml'"
    ) in result.stderr
    page = (tmp_path / "site/changes.html").read_text(encoding="utf-8")
    assert "<textarea" not in page and "<script>alert" not in page
    assert page.count('<details class="hr-fold hr-version"') == 4
    etree.parse(tmp_path / "site/changes.xml")


@pytest.mark.slow
def test_pdf_changes_since_prints_the_history_warning_as_the_build_does(hostile_repo, tmp_path):
    data, commits = hostile_repo
    v2 = load_history(load_kb(data)).versions[2]
    assert v2.commit == commits[2]
    target = tmp_path / "insert.pdf"
    result = run_cli("pdf", "--data", str(data), "--changes-since", v2.version.short, "-o", str(target))
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr and target.stat().st_size > 0
    warnings = [line for line in result.stderr.splitlines() if line.startswith("houserules: warning: git history: ")]
    built = run_cli("build", "--data", str(data), "-o", str(tmp_path / "site"))
    assert built.returncode == 0, built.stderr
    assert warnings == [
        line for line in built.stderr.splitlines() if line.startswith("houserules: warning: git history: ")
    ]
    assert warnings == [
        f"houserules: warning: git history: commit {commit[:10]} changes a file named 'rules_data/demo/entries/{name}', "
        "which no data file can be called: its change is not listed"
        for commit in commits[:2]
        for name in ("\\x1b[2Jclear.yaml", "odd\\x0aname.yaml")
    ]


# -- production words in subjects ---------------------------------------------------------------------

#: (subject, shown): a subject using a production word, a file-name source id or a file name is shown neutral.
SUBJECTS = [
    ("Content audit against the seeds: 21 entries corrected", NEUTRAL_SUBJECT),
    ("按种子改写答案", NEUTRAL_SUBJECT),
    ("Cite 002_912163b109a9ba77.txt by section", NEUTRAL_SUBJECT),
    ("demo: notes.PDF pages", NEUTRAL_SUBJECT),
    ("Fix game.yaml contents", NEUTRAL_SUBJECT),
    ("SEED wording", NEUTRAL_SUBJECT),
    ("Linseed oil and v1.2, e.g. the tower", "Linseed oil and v1.2, e.g. the tower"),
    ("Tower crossing: the answer names its exception", "Tower crossing: the answer names its exception"),
]


@pytest.fixture(scope="module")
def wording_repo(tmp_path_factory):
    """One commit per subject of SUBJECTS, each changing an entry; the game lists its production words
    and a source document stored under a file name."""
    repo, data = new_repo(tmp_path_factory.mktemp("wording-git"))
    game = data / "demo/game.yaml"
    game.write_text(
        game.read_text(encoding="utf-8")
        .replace("  - id: seed.txt\n", "  - id: 002_912163b109a9ba77.txt\n", 1)
        .replace("doc: seed.txt", "doc: 002_912163b109a9ba77.txt")
        + "production_words: [种子, seed]\n",
        encoding="utf-8",
    )
    for entry in (data / "demo/entries").glob("*.yaml"):
        entry.write_text(
            entry.read_text(encoding="utf-8").replace("doc: seed.txt", "doc: 002_912163b109a9ba77.txt"),
            encoding="utf-8",
        )
    for n, (subject, _) in enumerate(SUBJECTS):
        change_crossing(data, 10 + n)
        git(repo, "add", "-A")
        commit_bytes(repo, subject.encode() + b"\n")
    return data


def test_a_subject_using_a_production_word_is_shown_neutral(wording_repo):
    kb = load_kb(wording_repo)
    history = load_history(kb)
    assert [v.subject for v in history.versions[:-1]] == [s for s, _ in reversed(SUBJECTS)]  # the data keeps them
    page = changes_page(kb, history)
    cites = re.findall(r'<p class="hr-cite">提交 · <span lang="en">commit</span> <code>\w+</code> · (.*?)</p>', page)
    assert cites[: len(SUBJECTS)] == [html.escape(shown, quote=True) for _, shown in reversed(SUBJECTS)]
    feed = etree.fromstring(changes_feed(kb, history, "Demo", None).encode("utf-8"))
    contents = [e.text or "" for e in feed.iter("{http://www.w3.org/2005/Atom}content")]
    for content, (_, shown) in zip(contents, reversed(SUBJECTS)):
        assert content.startswith(f"<p>{html.escape(shown, quote=True)}</p>")
    for text in (page, *contents):
        assert not re.search(r"\bseed|种子|002_912163b109a9ba77|\.txt|notes\.pdf|game\.yaml", text, re.I), text


def test_a_merge_shows_no_subject(wording_repo):
    """Git's own subject of a merge names branches, not what changed: the version is listed without one."""
    kb = load_kb(wording_repo)
    history = load_history(kb)
    for said in ("Merge branch 'tower' into main", "Merge pull request #12 from group/tower"):
        newest = dataclasses.replace(history.versions[0], subject=said)
        merged = dataclasses.replace(history, versions=[newest, *history.versions[1:]])
        page = changes_page(kb, merged)
        feed = changes_feed(kb, merged, "Demo", None)
        assert "Merge" not in page and "Merge" not in feed, said
        commit = re.escape(newest.commit[:10])
        assert re.search(rf'<span lang="en">commit</span> <code>{commit}</code></p>', page)
    # a subject that only starts like one is the group's own words
    kept = dataclasses.replace(history.versions[0], subject="Merged the two tower answers")
    assert "Merged the two tower answers" in changes_page(kb, dataclasses.replace(history, versions=[kept]))


@pytest.mark.slow
def test_the_built_changes_page_shows_no_production_word(wording_repo, tmp_path):
    result = run_cli("build", "--data", str(wording_repo), "-o", str(tmp_path / "site"))
    assert result.returncode == 0, result.stderr
    for name in ("changes.html", "changes.xml"):
        text = (tmp_path / "site" / name).read_text(encoding="utf-8")
        assert NEUTRAL_SUBJECT in text and "Tower crossing: the answer names its exception" in text
        assert not re.search(r"\bseed|种子|\w\.txt\b|notes\.pdf|game\.yaml", text, re.I)


# -- any subject, any file name ----------------------------------------------------------------------

CONTROLS = [chr(c) for c in range(1, 0x20)] + ["\x7f", "\x85", "\u2028", "\u2029", "\ufffe", "\uffff", "\u202e"]
SUBJECT_PIECES = st.sampled_from(
    [*CONTROLS, "\x00", "\n\n", "<", "&", "d" * 40, "2026-01-01T00:00:00+00:00", "M", ":100644", "a"]
)


@pytest.fixture(scope="module")
def base_repo(tmp_path_factory):
    return new_repo(tmp_path_factory.mktemp("base-git"))[0]


@given(
    subject=st.lists(st.one_of(SUBJECT_PIECES, st.text(max_size=3)), max_size=12).map("".join),
    control=st.sampled_from(CONTROLS[:-4] + ["\u2028", "\x85"]),
)
def test_any_subject_and_any_odd_file_name_keep_the_history_straight(base_repo, tmp_path_factory, subject, control):
    repo = tmp_path_factory.mktemp("git") / "repo"
    shutil.copytree(base_repo, repo, symlinks=True)
    data = repo / "rules_data"
    odd = data / f"demo/entries/a{control}b.yaml"
    odd.write_text("id: a\n", encoding="utf-8")
    change_crossing(data, 2)
    git(repo, "add", "-A")
    message = subject.encode("utf-8", "surrogatepass")
    v2 = commit_bytes(repo, message + b"\n")
    odd.unlink()
    change_crossing(data, 3)
    git(repo, "add", "-A")
    v3 = commit_bytes(repo, b"v3\n")
    history = load_history(load_kb(data))
    assert [v.commit for v in history.versions[:2]] == [v3, v2] and len(history.versions) == 3
    assert [(c.status, c.code) for c in history.versions[0].entries] == [("changed", "DM-A1")]
    assert [(c.status, c.code) for c in history.versions[1].entries] == [("changed", "DM-A1")]
    first = message.decode("utf-8", "replace").strip().split("\n\n", 1)[0]
    assert history.versions[1].subject == shown(first)
    assert len(history.warnings) == 2
    etree.fromstring(changes_feed(load_kb(data), history, "Demo", None).encode("utf-8"))
