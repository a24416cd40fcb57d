"""Asking git about the data folder: the checkout holding it, its commits, and objects read in batches.

Every call goes through :func:`_git`, with a fixed locale and no optional locks;
any failure (git missing, no checkout, an unreadable repository) is a :class:`NoGit`
whose message says why, so a caller can fall back to the data without its history.
"""

from __future__ import annotations

import os
import re
import subprocess
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from ...errors import display_path, visible


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
        top, prefix = (
            _git(data_dir, "rev-parse", "--show-toplevel", "--show-prefix")
            .decode("utf-8", "surrogateescape")
            .split("\n")[:2]
        )
    except NoGit as exc:
        if str(exc) == GIT_MISSING:
            raise
        if "not a git repository" in str(exc):
            raise NoGit(f"{display_path(data_dir)} is not in a git checkout") from None
        raise NoGit(f"git cannot read the history of {display_path(data_dir)} ({exc})") from None  # e.g. ownership
    if _data_path(prefix.encode("utf-8", "surrogateescape"), "") is None:
        raise NoGit(f"the path of {display_path(data_dir)} in its checkout has a control character")
    return Path(top), prefix


#: A git object id: SHA-1 or SHA-256, lowercase hex, whole.
OBJECT_ID = re.compile(r"(?:[0-9a-f]{40}|[0-9a-f]{64})\Z")
#: A commit date as ``%cI`` prints it.
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}T[0-9:+\-Z]+\Z")


def git_objects(top: Path, ids: list[str]) -> dict[str, bytes | None]:
    """The contents of objects named by their ids, in one ``git cat-file --batch``; None for a missing one.

    Only object ids are asked for (never ``<commit>:<path>``): a name is one line of git's input,
    and a committed file name may hold a line break, which would shift every later answer.
    """
    ids = list(dict.fromkeys(ids))
    if not ids:
        return {}
    odd = [i for i in ids if not OBJECT_ID.match(i)]
    if odd:
        raise ValueError(f"not a git object id: {odd[0]!r}")
    out = _git(top, "cat-file", "--batch", stdin="".join(i + "\n" for i in ids).encode())
    found: dict[str, bytes | None] = {}
    pos = 0
    for name in ids:
        end = out.find(b"\n", pos)
        header = out[pos:end].split(b" ")
        if end < 0 or header[0] != name.encode():
            raise NoGit("git cat-file answered out of order")
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
        parts[0] if len(parts) == 3 and parts[1] == "tree" and OBJECT_ID.match(parts[0]) else None
        for parts in (line.split(" ") for line in out.splitlines())
    ]


@dataclass
class Commit:
    """One commit that changed the data folder, as ``git log --raw -z`` reports it."""

    id: str
    #: YYYY-MM-DD of the commit.
    date: str
    #: When it was committed, as git prints it (``2026-12-02T06:52:11+00:00``).
    time: str = ""
    #: (status letter, path in the data folder, blob before, blob after); a blob is None where the file is absent.
    files: list[tuple[str, str, str | None, str | None]] = field(default_factory=list)


def git_log(top: Path, prefix: str) -> tuple[list[Commit], list[str]]:
    """Each commit changing the folder, newest first, and the paths it skipped (one message each).

    The output is NUL-separated (``-z``) and holds no commit message: every field is an id,
    a date, a status or a path, each checked, so nothing in a commit's subject or a file's
    name can pose as another commit or another file. The subjects are read from the commit
    objects (:func:`subject`), with the files' contents. A path that no data file can have
    (a control character, bytes that are not UTF-8) is skipped and named in a message.
    """
    out = _git(
        top,
        "log",
        "--first-parent",
        "--diff-merges=first-parent",
        "--no-renames",
        "--raw",
        "--no-abbrev",
        "-z",
        "--format=%H%x00%cI",
        "--",
        f":(top){prefix}" if prefix else ":(top)",
    )
    commits: list[Commit] = []
    skipped: list[str] = []
    tokens = out.split(b"\0")
    i = 0
    while i < len(tokens):
        token = tokens[i].lstrip(b"\n")
        if not token:
            i += 1
        elif token.startswith(b":") and commits and i + 1 < len(tokens):
            raw, path = token[1:].decode("ascii", "replace").split(" "), tokens[i + 1]
            i += 2
            if len(raw) != 5 or not (OBJECT_ID.match(raw[2]) and OBJECT_ID.match(raw[3])) or not raw[4][:1].isalpha():
                raise NoGit("git log printed a line it should not")
            shown = _data_path(path, prefix)
            if shown is None:
                skipped.append(
                    f"commit {commits[-1].id[:10]} changes a file named "
                    f"'{visible(path.decode('utf-8', 'backslashreplace'))}', which no data file can be called: "
                    "its change is not listed"
                )
                continue
            old, new = (None if set(b) == {"0"} else b for b in raw[2:4])
            commits[-1].files.append((raw[4][:1], shown, old, new))
        else:
            commit = token.decode("ascii", "replace")
            date = tokens[i + 1].decode("ascii", "replace") if i + 1 < len(tokens) else ""
            if not OBJECT_ID.match(commit) or not _ISO_DATE.match(date):
                raise NoGit("git log printed a line it should not")
            commits.append(Commit(commit, date[:10], date))
            i += 2
    return commits, skipped


def _data_path(path: bytes, prefix: str) -> str | None:
    """``path`` (of the checkout) in the data folder; None outside it or for a name no data file can have."""
    try:
        text = path.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if not text.startswith(prefix):
        return None
    if any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn") for c in text):
        return None
    return text.removeprefix(prefix)


def subject(commit: bytes) -> str:
    """A commit object's subject as ``%s`` gives it (the first paragraph on one line), as text to show.

    Characters that no page or feed can carry (controls, lone surrogates, non-characters)
    become spaces; runs of spaces one.

    >>> subject(b"tree 0\\nauthor a\\n\\nFix\\x01 the\\nvault\\n\\nbody\\n")
    'Fix the vault'
    """
    _, _, message = commit.partition(b"\n\n")
    first = message.decode("utf-8", "replace").strip().split("\n\n", 1)[0]
    return " ".join(shown_text(first).split())


def shown_text(text: str) -> str:
    """``text`` from git with every character a page, a feed or a terminal cannot show safely as a space.

    Controls, format characters that reorder text (bidirectional overrides), line and
    paragraph separators, lone surrogates and non-characters (U+FFFE, U+FFFF, ...): XML 1.0
    cannot carry several of them and a terminal acts on others.
    """
    return "".join(" " if _unshowable(c) else c for c in text)


def _unshowable(char: str) -> bool:
    code = ord(char)
    return (
        unicodedata.category(char) in ("Cc", "Cs", "Zl", "Zp")
        or 0x202A <= code <= 0x202E
        or 0x2066 <= code <= 0x2069
        or 0xFDD0 <= code <= 0xFDEF
        or code & 0xFFFE == 0xFFFE
    )


def committed_blobs(top: Path, tree: str) -> dict[str, str]:
    out = _git(top, "ls-tree", "-r", "-z", tree).decode("utf-8", "surrogateescape")
    found = {}
    for item in out.split("\0"):
        if "\t" in item:
            meta, path = item.split("\t", 1)
            blob = meta.split(" ")[2]
            if OBJECT_ID.match(blob) and _data_path(path.encode("utf-8", "surrogateescape"), "") is not None:
                found[path] = blob
    return found
