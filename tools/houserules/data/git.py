"""Asking git about the data folder: the checkout holding it, its commits, and objects read in batches.

Every call goes through :func:`_git`, with a fixed locale and no optional locks;
any failure (git missing, no checkout, an unreadable repository) is a :class:`NoGit`
whose message says why, so a caller can fall back to the data without its history.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from ..errors import display_path


class NoGit(Exception):
    pass


GIT_MISSING = "git is not installed"


def _git(cwd: Path, *args: str, stdin: bytes | None = None) -> bytes:
    env = {**os.environ, "LC_ALL": "C", "GIT_OPTIONAL_LOCKS": "0"}
    try:
        done = subprocess.run(["git", "-C", str(cwd), *args], input=stdin, capture_output=True, env=env, check=False)
    except FileNotFoundError:
        raise NoGit(GIT_MISSING) from None
    if done.returncode != 0:
        lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise NoGit(lines[-1] if lines else "git failed")
    return done.stdout


def git_checkout(data_dir: Path) -> tuple[Path, str]:
    """The top of the git checkout holding ``data_dir`` and the folder's path in it (``rules_data/``)."""
    try:
        top, prefix = _git(data_dir, "rev-parse", "--show-toplevel", "--show-prefix").decode().split("\n")[:2]
    except NoGit as exc:
        if str(exc) == GIT_MISSING:
            raise
        if "not a git repository" in str(exc):
            raise NoGit(f"{display_path(data_dir)} is not in a git checkout") from None
        raise NoGit(f"git cannot read the history of {display_path(data_dir)} ({exc})") from None  # e.g. ownership
    return Path(top), prefix


def git_objects(top: Path, names: list[str]) -> dict[str, bytes | None]:
    """The contents of ``<commit>:<path>`` objects, in one ``git cat-file --batch``; None for a missing one."""
    if not names:
        return {}
    out = _git(top, "cat-file", "--batch", stdin="".join(n + "\n" for n in names).encode())
    found: dict[str, bytes | None] = {}
    pos = 0
    for name in names:
        end = out.index(b"\n", pos)
        header = out[pos:end].split(b" ")
        pos = end + 1
        if header[-1] == b"missing" or len(header) < 3:
            found[name] = None
            continue
        size = int(header[2])
        found[name] = out[pos : pos + size]
        pos += size + 1
    return found


def git_tree_ids(top: Path, names: list[str]) -> list[str | None]:
    out = _git(top, "cat-file", "--batch-check", stdin="".join(n + "\n" for n in names).encode()).decode()
    return [
        parts[0] if len(parts) == 3 and parts[1] == "tree" else None
        for parts in (line.split(" ") for line in out.splitlines())
    ]


def git_log(top: Path, prefix: str) -> list[tuple[str, str, str, list[tuple[str, str]]]]:
    """(commit, date, subject, [(status, path in the data folder)]) of each commit changing the folder, newest first."""
    out = _git(
        top,
        "log",
        "--first-parent",
        "--diff-merges=first-parent",
        "--no-renames",
        "--name-status",
        "-z",
        "--format=%x01%H%x02%cI%x02%s",
        "--",
        f":(top){prefix}" if prefix else ":(top)",
    )
    commits = []
    for chunk in out.decode("utf-8", "replace").split("\x01")[1:]:
        header, _, rest = chunk.partition("\0")
        commit, date, subject = (header.split("\x02") + ["", ""])[:3]
        fields = rest.lstrip("\n").split("\0")
        files = [
            (fields[i][:1], fields[i + 1].removeprefix(prefix))
            for i in range(0, len(fields) - 1, 2)
            if fields[i] and fields[i + 1].startswith(prefix)
        ]
        commits.append((commit, date[:10], subject, files))
    return commits


def committed_blobs(top: Path, tree: str) -> dict[str, str]:
    out = _git(top, "ls-tree", "-r", "-z", tree).decode("utf-8", "replace")
    found = {}
    for item in out.split("\0"):
        if "\t" in item:
            meta, path = item.split("\t", 1)
            found[path] = meta.split(" ")[2]
    return found
