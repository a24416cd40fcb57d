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
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from ...errors import HouserulesError, display_path, visible
from ..reading.load import ENTRIES_DIR
from ..reading.model import KnowledgeBase
from .entrychanges import EntryChange, aspect_names, entry_change, entry_changes, needs_reading, read_blob
from .fingerprint import Fingerprint, fingerprint
from .git import Commit, NoGit, committed_blobs, git_checkout, git_log, git_objects, git_tree_ids, subject
from .version import SHORT, DataVersion, newest_date

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
    #: When it was committed, as git prints it (``2026-12-02T06:52:11+00:00``; empty: not committed yet).
    time: str = ""
    #: Each game's newest history date in this version: the date its own PDF prints beside the game's hash.
    dates: dict[str, str] = field(default_factory=dict)

    @property
    def short(self) -> str:
        return self.version.short

    @property
    def when(self) -> str:
        """The day and minute of the commit in UTC (``2026-12-02 06:52 UTC``); the day alone when not committed.

        >>> Version(DataVersion("a" * 40), "1" * 40, "2026-12-02", time="2026-12-02T14:52:11+08:00").when
        '2026-12-02 06:52 UTC'
        """
        if not self.time:
            return self.date
        moment = datetime.datetime.fromisoformat(self.time).astimezone(datetime.UTC)
        return moment.strftime("%Y-%m-%d %H:%M UTC")

    def of(self, status: str) -> list[EntryChange]:
        return [c for c in self.entries if c.status == status]


@dataclass(frozen=True)
class Printed:
    """A version as a PDF prints it: the data version it came from (the oldest holding what it prints) and the game
    whose own PDF prints it (None: the whole folder's version, which ``faq.pdf`` prints)."""

    version: Version
    game: str | None
    #: What the PDF's cover prints (``2026-12-02 · fa61695e``).
    printed: DataVersion


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
    #: The games of the data, in order, and each one's version now (what its own PDF prints).
    games: dict[str, DataVersion] = field(default_factory=dict)

    @property
    def from_git(self) -> bool:
        return not self.note

    @property
    def own_pdfs(self) -> bool:
        """Whether each game's PDF prints a version of its own (with one game, it prints the whole folder's)."""
        return len(self.games) > 1

    def trees(self, version: Version) -> dict[str, str]:
        """Each game's folder hash in ``version``, in the order of the games."""
        if version is self.versions[0] and self.games:
            return {game: current.tree for game, current in self.games.items()}
        trees = self.game_trees.get(version.commit or "", {})
        return {game: trees[game] for game in self.games if game in trees} or dict(trees)

    def printed(self, version: Version, game: str | None = None) -> DataVersion | None:
        """What a PDF made from ``version`` prints on its cover: the whole folder's version (``game`` None), or
        that game's own (None when the game had no folder then)."""
        if game is None:
            if version is self.versions[0]:
                return version.version
            return DataVersion(version.version.tree, max(version.dates.values(), default=""))
        if version is self.versions[0] and game in self.games:
            return self.games[game]
        tree = self.trees(version).get(game)
        return DataVersion(tree, version.dates.get(game, "")) if tree else None

    def pdf_versions(self, game: str | None = None) -> list[Printed]:
        """The versions one PDF went through, newest first (``game`` None: ``faq.pdf``'s, the whole folder's):
        each with the oldest data version holding it, where what it changed is listed."""
        found: dict[str, Printed] = {}
        for version in self.versions:  # newest first: the last one seen of a version is the oldest holding it
            printed = self.printed(version, game)
            if printed is not None:
                first = found.get(printed.tree)
                found[printed.tree] = Printed(version, game, printed if first is None else first.printed)
        return list(found.values())

    def locate(self, wanted: str) -> Printed | None:
        """The version a PDF printed as ``wanted`` (its hash or a prefix of at least 6 hex digits, or the whole
        ``2026-12-02 · fa61695e``): the whole folder's, or one game's (the oldest version holding it). None when
        no PDF printed it; an error when the data has no history or ``wanted`` names several versions."""
        hashes = _HEX.findall(wanted.strip().lower())
        key = hashes[-1] if hashes else ""
        if not self.from_git:
            raise HouserulesError(
                f"cannot look up data version '{wanted}': {self.note}; the changes since a version "
                "come from the git history of the data folder"
            )
        if not key:
            return None
        folder = [v for v in self.versions if v.version.tree.startswith(key)]
        if len(folder) > 1:
            raise HouserulesError(
                f"data version '{wanted}' is ambiguous ({', '.join(v.short for v in folder)}); give more of its hash"
            )
        if folder:
            return Printed(folder[0], None, self.printed(folder[0]) or folder[0].version)
        games: dict[tuple[str, str], Printed] = {}
        for game in list(self.games) or sorted({g for trees in self.game_trees.values() for g in trees}):
            for printed in self.pdf_versions(game):
                if printed.printed.tree.startswith(key):
                    games[(game, printed.printed.tree)] = printed
        if len(games) > 1:
            raise HouserulesError(
                f"data version '{wanted}' is ambiguous "
                f"({', '.join(f'{p.printed.short} of {g}' for (g, _), p in games.items())}); give more of its hash"
            )
        return next(iter(games.values()), None)

    def find(self, wanted: str) -> Version:
        """The data version named by ``wanted``: its tree hash or a prefix of it (at least 6 hex digits), or its
        label; or the version of one game, printed on its own PDF: the oldest version holding it."""
        found = self.locate(wanted)
        if found is not None:
            return found.version
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


def changes_between(
    kb: KnowledgeBase, top: Path, tree: str, before: dict[str, str] | None = None
) -> tuple[list[EntryChange], list[tuple[str, str]]]:
    """What changed from the committed tree ``tree`` of the data folder (its files ``before``, when known) to the
    files ``kb`` was loaded from."""
    data_dir = _data_dir(kb)
    if before is None:
        before = committed_blobs(top, tree)
    now = _file_blobs(data_dir)
    files = [("A", p) for p in now if p not in before] + [("D", p) for p in before if p not in now]
    files += [("M", p) for p in now if p in before and before[p] != now[p]]
    old = git_objects(top, [before[p] for letter, p in files if letter != "A" and needs_reading(letter, p, kb)])

    def read_new(path: str) -> dict[str, Any] | None:
        try:
            return read_blob((data_dir / path).read_bytes())
        except OSError:
            return None

    return entry_changes(files, lambda p: read_blob(old.get(before.get(p, ""))), read_new, kb)


def changes_since(
    kb: KnowledgeBase, history: History, found: Printed
) -> tuple[list[EntryChange], list[tuple[str, str]]]:
    """What changed from the version a PDF printed (``found``, of ``history.locate``) to the folder ``kb`` was
    loaded from, now: of that PDF's games only (one game's, for the version a game's own PDF prints).

    Raises :class:`HouserulesError` when it is the current version: nothing changed since.
    """
    if found.version is history.versions[0] or (
        found.game is not None and found.game in history.games and history.games[found.game].tree == found.printed.tree
    ):
        what = f"in the game '{found.game}' " if found.game is not None else ""
        now = "version of that game's own PDF" if found.game is not None else "data version"
        raise HouserulesError(f"nothing changed {what}since {found.printed}: it is the current {now}")
    top, _ = git_checkout(_data_dir(kb))  # found: so the folder is in a checkout
    entries, others = changes_between(kb, top, found.version.version.tree)
    if found.game is not None:
        entries = [c for c in entries if c.ref.split(":", 1)[0] == found.game]
        others = [o for o in others if o[0] == found.game]
    return entries, others


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
    files = fingerprint(data_dir)
    current = current or DataVersion(files.tree, newest_date(kb))
    now_dates = _kb_dates(kb)
    games = {g: DataVersion(files.subtree(g), now_dates.get(g, "")) for g in kb.games}
    alone = Version(current, None, today(), dates=now_dates)
    try:
        top, prefix = git_checkout(data_dir)
        commits, skipped = git_log(top, prefix)
        if not commits:
            return History([alone], f"no commit holds {display_path(data_dir)} yet", warnings=skipped, games=games)
        # One batch: each commit's tree of the data folder, then of each game folder (a game's PDF prints its own).
        names = sorted(kb.games)
        game_names = [f"{c.id}:{prefix}{g}" for c in commits for g in names]
        all_trees = git_tree_ids(
            top, [f"{c.id}:{prefix}" if prefix else f"{c.id}^{{tree}}" for c in commits] + game_names
        )
        trees = all_trees[: len(commits)]
        game_trees: dict[str, dict[str, str]] = {c.id: {} for c in commits}
        for name, tree in zip(game_names, all_trees[len(commits) :]):
            commit_id, _, path = name.partition(":")
            if tree:
                game_trees[commit_id][path.removeprefix(prefix)] = tree
        committed = trees[0] == current.tree
        # The entry files of the newest commit: the files now, or (uncommitted changes) as committed.
        newest = _blobs(files) if committed else committed_blobs(top, trees[0] or "")
        known = _current_dates(kb, data_dir, _blobs(files))
        ids = [
            blob
            for c in commits
            for letter, path, old, new in c.files
            if needs_reading(letter, path, kb)
            for blob in (old, new)
            if blob is not None
        ]
        dated = _dated_blobs(newest, commits, known)
        # the commits, for their subjects, the changed files this process has not read yet, and the entry files
        # each version's dates need
        blobs = git_objects(top, [c.id for c in commits] + [b for b in ids if b not in _READ] + dated)
        read = _read_blobs(ids, blobs)
        dates = _version_dates(newest, commits, {**known, **{b: _history_date(blobs.get(b)) for b in dated}})
        versions = []
        for commit, tree in zip(commits, trees):
            before = {path: old for _, path, old, _ in commit.files}
            after = {path: new for _, path, _, new in commit.files}
            entries, others = entry_changes(
                [(letter, path) for letter, path, _, _ in commit.files],
                partial(_read_at, read, before),
                partial(_read_at, read, after),
                kb,
            )
            version = DataVersion(tree or "0" * 40)
            versions.append(
                Version(
                    version,
                    commit.id,
                    commit.date,
                    subject(blobs.get(commit.id) or b""),
                    entries,
                    others,
                    commit.time,
                    dates[commit.id],
                )
            )
        if not committed:  # uncommitted changes: the build's version comes first
            entries, others = changes_between(kb, top, versions[0].version.tree, newest)
            versions.insert(0, Version(current, None, today(), "", entries, others, dates=now_dates))
        else:
            versions[0].version = current  # the committed state is the one being built: it has its date
        return History(versions, game_trees=game_trees, warnings=skipped, games=games)
    except NoGit as exc:
        return History([alone], str(exc), games=games)


#: A ``date:`` of an item of an entry's ``history`` list (the start of an item or a key after another key).
_HISTORY_DATE = re.compile(rb"(?:^[ \t]*-[ \t]*\{?|^[ \t]+|[{,][ \t]*)date:[ \t]*[\"']?(\d{4}-\d{2}-\d{2})", re.M)
#: An entry file's ``history:`` list: its line and the lines after it that are indented, list items or comments.
_HISTORY_LIST = re.compile(rb"^history:[^\n]*(?:\n(?:[ \t-][^\n]*|#[^\n]*|[ \t]*(?=\n)))*", re.M)


def _history_date(blob: bytes | None) -> str:
    """The newest date of an entry file's ``history`` list, read without parsing the file (a first import of
    thousands of entries must not parse each one): as ``newest_date`` finds it in the loaded entry.

    >>> _history_date(b"id: x\\nerrata:\\n  - {date: 2027-01-01}\\nhistory:\\n  - {date: 2026-11-30, change: a}\\n  - date: 2026-12-01\\n    change: b\\n")
    '2026-12-01'
    >>> _history_date(b"id: x\\nhistory: [{date: '2026-10-01', change: a}]\\n")
    '2026-10-01'
    """
    if not blob:
        return ""
    found = _HISTORY_LIST.search(blob)
    dates = _HISTORY_DATE.findall(found.group(0)) if found else []
    return max(dates).decode() if dates else ""


def _blobs(files: Fingerprint) -> dict[str, str]:
    """Each file's blob id (symbolic links left out)."""
    return {path: oid for path, (mode, oid) in files.files.items() if mode != "120000"}


def _entry_game(path: str) -> str | None:
    """The game of an entry file's path in the data folder (None: not an entry file)."""
    parts = path.split("/")
    return parts[0] if len(parts) == 3 and parts[1] == ENTRIES_DIR and parts[2].endswith(".yaml") else None


def _kb_dates(kb: KnowledgeBase) -> dict[str, str]:
    """Each game's newest history date in the loaded entries (what its PDF prints now)."""
    dates: dict[str, str] = {}
    for entry in kb.entries.values():
        if entry.origin == "shared":
            for item in entry.data.get("history", []):
                dates[entry.game] = max(dates.get(entry.game, ""), item["date"])
    return dates


def _current_dates(kb: KnowledgeBase, data_dir: Path, files: dict[str, str]) -> dict[str, str]:
    """The newest history date of each entry file now, by its blob id, from the loaded entries."""
    known = {}
    for entry in kb.entries.values():
        if entry.origin != "shared":
            continue
        try:
            path = entry.path.resolve().relative_to(data_dir.resolve()).as_posix()
        except ValueError:
            continue
        if path in files:
            known[files[path]] = max((item["date"] for item in entry.data.get("history", [])), default="")
    return known


def _dated_blobs(newest: dict[str, str], commits: list[Commit], known: dict[str, str]) -> list[str]:
    """The entry files' blobs whose dates the versions need and the loaded entries do not give."""
    needed = {blob for path, blob in newest.items() if _entry_game(path)}
    needed |= {old for c in commits for _, path, old, _ in c.files if old is not None and _entry_game(path)}
    return sorted(needed - known.keys())


def _version_dates(newest: dict[str, str], commits: list[Commit], date: dict[str, str]) -> dict[str, dict[str, str]]:
    """Each commit's games with their newest history date, from the newest commit's entry files back, undoing
    each commit's changes in turn (its files as they were before it)."""
    state = {path: blob for path, blob in newest.items() if _entry_game(path)}
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for path, blob in state.items():
        counts[_entry_game(path) or ""][date.get(blob, "")] += 1
    found = {}
    for commit in commits:
        found[commit.id] = {game: max(d for d, n in dates.items() if n > 0) for game, dates in counts.items() if +dates}
        found[commit.id] = {game: d for game, d in found[commit.id].items() if d}
        for _, path, old, _ in commit.files:
            game = _entry_game(path)
            if game is None:
                continue
            if path in state:
                counts[game][date.get(state.pop(path), "")] -= 1
            if old is not None:
                state[path] = old
                counts[game][date.get(old, "")] += 1
    return found


__all__ = [
    "EntryChange",
    "History",
    "Printed",
    "SHORT",
    "Version",
    "aspect_names",
    "changes_between",
    "changes_since",
    "entry_change",
    "load_history",
    "print_warnings",
]


#: The data of the changed files a process has read from the history, by blob id (a blob id names its content, so
#: it always reads the same): a preview's rebuilds and the builds of one process read each blob once. At most
#: READ_KEPT, the oldest forgotten first.
_READ: dict[str, dict[str, Any] | None] = {}
READ_KEPT = 20_000


def _read_blobs(ids: list[str], blobs: dict[str, bytes | None]) -> dict[str, dict[str, Any] | None]:
    """The data of each blob of ``ids``: read before by this process, else read from ``blobs`` (and kept)."""
    read = {blob: _READ[blob] if blob in _READ else read_blob(blobs.get(blob)) for blob in ids}
    _READ.update((blob, data) for blob, data in read.items() if blob in blobs)
    if len(_READ) > READ_KEPT:
        for blob in list(_READ)[: len(_READ) - READ_KEPT]:
            del _READ[blob]
    return read


def _read_at(read: dict[str, dict[str, Any] | None], ids: dict[str, str | None], path: str) -> dict[str, Any] | None:
    """The data of ``path`` in the blob ``ids`` names for it (None when absent)."""
    return read.get(ids.get(path) or "")
