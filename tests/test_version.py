"""The data version: git's tree hash computed in Python, the same as git's for the same files."""

from __future__ import annotations

import shutil
import subprocess

from conftest import DATA, GOOD, git, load_kb
from houserules.data.versions import fingerprint as fp
from houserules.data.versions.fingerprint import EMPTY_TREE, fingerprint
from houserules.data.versions.version import DataVersion, data_version, tree_hash
from houserules.search import indexcache as searchcache


def test_tree_hash_is_gits_for_awkward_names_modes_links_and_empty_folders(tmp_path):
    repo = tmp_path / "repo"
    data = repo / "data"
    (data / "a").mkdir(parents=True)
    (data / "a" / "x.yaml").write_text("id: x\n", encoding="utf-8")
    (data / "a.b").write_text("dot sorts before slash\n", encoding="utf-8")
    (data / "a-b").mkdir()
    (data / "a-b" / "y.yaml").write_bytes(b"crlf\r\nline\r\n")
    (data / "\u5c71\u5c4b.yaml").write_text("名字: 中文\n", encoding="utf-8")
    (data / "run.sh").write_text("#!/bin/sh\n", encoding="utf-8")
    (data / "run.sh").chmod(0o755)
    (data / "empty").mkdir()  # git has no empty folders
    (data / "link").symlink_to("a/x.yaml")
    git(repo, "init", "-q")
    git(repo, "config", "core.autocrlf", "false")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "data")
    assert tree_hash(data) == git(repo, "rev-parse", "HEAD:data")


def test_the_real_data_and_a_copy_of_it_have_one_version(tmp_path):
    copy = tmp_path / "elsewhere" / "rules_data"
    shutil.copytree(DATA, copy)
    assert tree_hash(copy) == tree_hash(DATA)
    inside_git = subprocess.run(
        ["git", "-C", str(DATA), "status", "--porcelain", "--", "."], capture_output=True, text=True
    )
    if inside_git.returncode == 0 and not inside_git.stdout:  # a clean checkout: git agrees
        assert tree_hash(DATA) == git(DATA, "rev-parse", "HEAD:./")


def test_a_version_reads_as_the_newest_history_date_and_the_short_hash():
    version = data_version(load_kb(GOOD))
    assert version == DataVersion(tree_hash(GOOD), "2026-11-30")
    assert str(version) == f"2026-11-30 · {tree_hash(GOOD)[:8]}"


# -- the fingerprint: the one hash of the data the version and the caches derive from ----------------


def test_the_fingerprint_gives_the_version_of_the_folder_and_of_each_game():
    found = fingerprint(DATA)
    assert found.tree == tree_hash(DATA)
    for game in ("mausritter", "betrayal"):
        assert found.subtree(game) == tree_hash(DATA / game)
    assert found.subtree("no-such-game") == EMPTY_TREE


def test_a_copy_keeps_the_search_index_key_and_a_changed_entry_changes_it(tmp_path, monkeypatch):
    monkeypatch.setenv("HOUSERULES_CACHE", str(tmp_path / "cache"))
    copy = tmp_path / "data"
    shutil.copytree(GOOD, copy)  # other inodes, the same files
    assert searchcache.fingerprint(copy) == searchcache.fingerprint(GOOD)
    entry = next((copy / "demo" / "entries").glob("*.yaml"))
    entry.write_text(entry.read_text(encoding="utf-8").replace("zh: ", "zh: 改", 1), encoding="utf-8")
    assert searchcache.fingerprint(copy) != searchcache.fingerprint(GOOD)


def test_the_memo_reads_again_only_the_files_that_changed(tmp_path, monkeypatch):
    copy = tmp_path / "data"
    shutil.copytree(GOOD, copy)  # copy2: the old modification times, past the racy window
    read: list[str] = []
    hash_file = fp._file_hash
    monkeypatch.setattr(fp, "_file_hash", lambda path, size: read.append(path.name) or hash_file(path, size))
    memo = tmp_path / "memo.json"
    first = fingerprint(copy, memo=memo)
    assert len(read) == len(first.files) > 3
    read.clear()
    assert fingerprint(copy, memo=memo) == first and read == []
    entry = next((copy / "demo" / "entries").glob("*.yaml"))
    entry.write_text(entry.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    changed = fingerprint(copy, memo=memo)
    assert read == [entry.name] and changed.tree != first.tree and changed.tree == tree_hash(copy)
