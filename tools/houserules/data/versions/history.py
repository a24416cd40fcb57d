"""The versions of the data folder and what each changed, from git: entries added, changed and removed.

A version is one state of the data folder, named by git's tree hash of the folder
(:mod:`houserules.data.versions.version`): each commit on the first-parent line that changed
the folder is one, and uncommitted changes in the working folder are one more. Git
is asked three times whatever the length of the history: one ``git log --raw -z``
for the commits and the files each changed (ids, dates, statuses and paths only,
NUL-separated: git's history is input, and a commit subject or a file name holding
separators or line breaks must not pose as another commit or file), one ``git cat-file
--batch-check`` for their tree hashes, one ``git cat-file --batch`` for the commits'
subjects and the changed files' contents, old and new, asked for by object id. Only changed entries are parsed (and added or removed
ones the current data no longer has): the code and titles of the others come from the
current entries, so even a first import of thousands of entries parses nothing.

Without git (not installed, the data outside a checkout, nothing committed yet) the
history is the current version alone, and :attr:`History.note` says why. The git
commands are in :mod:`houserules.data.versions.git`, what an entry's change is in
:mod:`houserules.data.versions.entrychanges`.
"""

from __future__ import annotations

import datetime
import os
import re
import sys
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from ...errors import HouserulesError, display_path, visible
from ..reading.model import KnowledgeBase
from .entrychanges import EntryChange, aspect_names, entry_change, entry_changes, needs_reading, read_blob
from .fingerprint import fingerprint
from .git import NoGit, committed_blobs, git_checkout, git_log, git_objects, git_tree_ids, subject
from .version import SHORT, DataVersion, newest_date, tree_hash

_HEX = re.compile(r"[0-9a-f]{6,40}")


@dataclass
class Version:
    version: DataVersion
    #: The commit (None: the working folder, not committed yet).
    commit: str | None
    #: The day of the commit (or of the build, for uncommitted changes), YYYY-MM-DD.
    date: str
    subject: str = ""
    entries: list[EntryChange] = field(default_factory=list)
    #: Other files that changed: (game, "game" | "glossary").
    others: list[tuple[str, str]] = field(default_factory=list)

    @property
    def short(self) -> str:
        return self.version.short

    def of(self, status: str) -> list[EntryChange]:
        return [c for c in self.entries if c.status == status]


@dataclass
class History:
    """The versions of the data folder, newest first; the first is the one being built."""

    versions: list[Version]
    #: Why there is no history (empty when it comes from git).
    note: str = ""
    #: Each committed version's game folders with their tree hashes (a game's PDF prints its own version).
    game_trees: dict[str, dict[str, str]] = field(default_factory=dict)
    #: What of the git history was left out, and why (files named as no data file can be).
    warnings: list[str] = field(default_factory=list)

    @property
    def from_git(self) -> bool:
        return not self.note

    def find(self, wanted: str) -> Version:
        """The version named by ``wanted``: its tree hash or a prefix of it (at least 6 hex digits), or its label."""
        hashes = _HEX.findall(wanted.strip().lower())
        key = hashes[-1] if hashes else ""
        found = [v for v in self.versions if key and v.version.tree.startswith(key)]
        if not found and key:  # the version of one game, printed on its own PDF: the first commit holding it
            found = [
                v
                for v in reversed(self.versions)
                if v.commit and any(tree.startswith(key) for tree in self.game_trees.get(v.commit, {}).values())
            ][:1]
        if len(found) == 1:
            return found[0]
        if not self.from_git:
            raise HouserulesError(
                f"cannot look up data version '{wanted}': {self.note}; the changes since a version "
                "come from the git history of the data folder"
            )
        if len(found) > 1:
            raise HouserulesError(
                f"data version '{wanted}' is ambiguous ({', '.join(v.short for v in found)}); give more of its hash"
            )
        known = ", ".join(f"{v.version} ({v.date})" for v in self.versions[:5])
        more = f" and {len(self.versions) - 5} older" if len(self.versions) > 5 else ""
        raise HouserulesError(
            f"unknown data version '{wanted}' — the data folder's versions are: {known}{more} "
            "(the PDF cover and the site's 更新记录 page print them)"
        )


def _data_dir(kb: KnowledgeBase) -> Path:
    """The folder ``kb`` was loaded from (a knowledge base built in memory has none, so no history)."""
    if kb.root is None:
        raise HouserulesError("these entries were not loaded from a data folder, so they have no history to compare")
    return Path(kb.root)


def _file_blobs(folder: Path) -> dict[str, str]:
    """Git's blob hash of every file under ``folder`` (relative paths with '/'), ``.git`` left out: its fingerprint's files."""
    return {path: oid for path, (mode, oid) in fingerprint(folder).files.items() if mode != "120000"}


def changes_between(kb: KnowledgeBase, top: Path, tree: str) -> tuple[list[EntryChange], list[tuple[str, str]]]:
    """What changed from the committed tree ``tree`` of the data folder to the files ``kb`` was loaded from."""
    data_dir = _data_dir(kb)
    before, now = committed_blobs(top, tree), _file_blobs(data_dir)
    files = [("A", p) for p in now if p not in before] + [("D", p) for p in before if p not in now]
    files += [("M", p) for p in now if p in before and before[p] != now[p]]
    old = git_objects(top, [before[p] for letter, p in files if letter != "A" and needs_reading(letter, p, kb)])

    def read_new(path: str) -> dict[str, Any] | None:
        try:
            return read_blob((data_dir / path).read_bytes())
        except OSError:
            return None

    return entry_changes(files, lambda p: read_blob(old.get(before.get(p, ""))), read_new, kb)


def changes_since(kb: KnowledgeBase, wanted: str) -> tuple[Version, list[EntryChange], list[tuple[str, str]]]:
    """The version named ``wanted`` and what changed from it to the folder ``kb`` was loaded from, now.

    Raises :class:`HouserulesError` with the versions there are when ``wanted`` names none, and
    when there is no git history to look it up in.
    """
    history = load_history(kb)
    print_warnings(history)
    version = history.find(wanted)
    if version is history.versions[0]:
        raise HouserulesError(f"nothing changed since {version.version}: it is the current data version")
    top, _ = git_checkout(_data_dir(kb))  # found: so the folder is in a checkout
    entries, others = changes_between(kb, top, version.version.tree)
    return version, entries, others


def print_warnings(history: History) -> None:
    """The history's warnings (committed paths no data file can have, skipped) on stderr, as the build and
    ``pdf --changes-since`` print them: one line each, the path's odd characters as escapes."""
    for warning in history.warnings:
        print(f"houserules: warning: git history: {visible(warning)}", file=sys.stderr)


def today() -> str:
    """The build's day: today, or the day of ``SOURCE_DATE_EPOCH`` for reproducible builds."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    day = datetime.datetime.fromtimestamp(int(epoch), datetime.UTC).date() if epoch else datetime.date.today()
    return day.isoformat()


def load_history(kb: KnowledgeBase, current: DataVersion | None = None) -> History:
    """Every version of the folder ``kb`` was loaded from, newest (the current files) first.

    ``current`` is the folder's version when the caller has computed it already.
    """
    assert kb.root is not None, "a knowledge base loaded from a folder"
    data_dir = Path(kb.root)
    current = current or DataVersion(tree_hash(data_dir), newest_date(kb))
    alone = Version(current, None, today())
    try:
        top, prefix = git_checkout(data_dir)
        commits, skipped = git_log(top, prefix)
        if not commits:
            return History([alone], f"no commit holds {display_path(data_dir)} yet", warnings=skipped)
        # One batch: each commit's tree of the data folder, then of each game folder (a game's PDF prints its own).
        games = sorted(kb.games)
        game_names = [f"{c.id}:{prefix}{g}" for c in commits for g in games]
        all_trees = git_tree_ids(
            top, [f"{c.id}:{prefix}" if prefix else f"{c.id}^{{tree}}" for c in commits] + game_names
        )
        trees = all_trees[: len(commits)]
        game_trees: dict[str, dict[str, str]] = {c.id: {} for c in commits}
        for name, tree in zip(game_names, all_trees[len(commits) :]):
            commit_id, _, path = name.partition(":")
            if tree:
                game_trees[commit_id][path.removeprefix(prefix)] = tree
        ids = [
            blob
            for c in commits
            for letter, path, old, new in c.files
            if needs_reading(letter, path, kb)
            for blob in (old, new)
            if blob is not None
        ]
        blobs = git_objects(top, [c.id for c in commits] + ids)  # the commits, for their subjects, and the files
        versions = []
        for commit, tree in zip(commits, trees):
            before = {path: old for _, path, old, _ in commit.files}
            after = {path: new for _, path, _, new in commit.files}
            entries, others = entry_changes(
                [(letter, path) for letter, path, _, _ in commit.files],
                partial(_read_at, blobs, before),
                partial(_read_at, blobs, after),
                kb,
            )
            version = DataVersion(tree or "0" * 40)
            versions.append(
                Version(version, commit.id, commit.date, subject(blobs.get(commit.id) or b""), entries, others)
            )
        if versions[0].version.tree != current.tree:  # uncommitted changes: the build's version comes first
            entries, others = changes_between(kb, top, versions[0].version.tree)
            versions.insert(0, Version(current, None, today(), "", entries, others))
        else:
            versions[0].version = current  # the committed state is the one being built: it has its date
        return History(versions, game_trees=game_trees, warnings=skipped)
    except NoGit as exc:
        return History([alone], str(exc))


__all__ = [
    "EntryChange",
    "History",
    "SHORT",
    "Version",
    "aspect_names",
    "changes_between",
    "changes_since",
    "entry_change",
    "load_history",
    "print_warnings",
]


def _read_at(blobs: dict[str, bytes | None], ids: dict[str, str | None], path: str) -> dict[str, Any] | None:
    """The data of ``path`` in the blob ``ids`` names for it (None when absent)."""
    return read_blob(blobs.get(ids.get(path) or ""))
