"""The data version: git's tree hash computed in Python, the same as git's for the same files."""

from __future__ import annotations

import shutil
import subprocess

from conftest import DATA, GOOD, git, load_kb
from houserules.data.versions.version import DataVersion, data_version, tree_hash


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
