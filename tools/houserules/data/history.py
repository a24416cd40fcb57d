"""The versions of the data folder and what each changed, from git: entries added, changed and removed.

A version is one state of the data folder, named by git's tree hash of the folder
(:mod:`houserules.data.version`): each commit on the first-parent line that changed
the folder is one, and uncommitted changes in the working folder are one more. Git
is asked three times whatever the length of the history: one ``git log
--name-status`` for the commits and the files each changed, one ``git cat-file
--batch-check`` for their tree hashes, one ``git cat-file --batch`` for the changed
files' contents, old and new. Only changed entries are parsed (and added or removed
ones the current data no longer has): the code and titles of the others come from the
current entries, so even a first import of thousands of entries parses nothing.

Without git (not installed, the data outside a checkout, nothing committed yet) the
history is the current version alone, and :attr:`History.note` says why.
"""

from __future__ import annotations

import datetime
import os
import re
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import HouserulesError, display_path
from . import vocab
from .load import ENTRIES_DIR, GAME_FILE, GLOSSARY_FILE
from .model import KnowledgeBase
from .version import SHORT, DataVersion, blob_hash, newest_date, tree_hash
from .yamlload import YamlError, parse

#: Which aspect of an entry a change of each field is (the other fields: "details").
ASPECT_OF: dict[str, str] = {
    "title": "title", "aliases": "aliases", "code": "code", "summary": "answer", "body": "body",
    "questions": "questions", "errata": "errata", "facts": "facts", "applies_to": "references",
    "see_also": "references", "sources": "sources", "completion": "sources", "confidence": "status",
    "confidence_note": "status", "status": "status", "translator_notes": "translator-notes",
    "translations": "translations", "history": "history",
}
_HEX = re.compile(r"[0-9a-f]{6,40}")


@dataclass
class EntryChange:
    """One entry added, changed or removed in a version."""

    ref: str
    code: str
    title: dict[str, str]
    status: str  # added | changed | removed
    #: What changed (keys of :data:`houserules.data.vocab.CHANGE_ASPECTS`), for a changed entry.
    aspects: list[str] = field(default_factory=list)
    #: For changed questions: how many were added, removed and changed.
    questions: dict[str, int] = field(default_factory=dict)


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

    @property
    def from_git(self) -> bool:
        return not self.note

    def find(self, wanted: str) -> Version:
        """The version named by ``wanted``: its tree hash or a prefix of it (at least 6 hex digits), or its label."""
        hashes = _HEX.findall(wanted.strip().lower())
        key = hashes[-1] if hashes else ""
        found = [v for v in self.versions if key and v.version.tree.startswith(key)]
        if not found and key:  # the version of one game, printed on its own PDF: the first commit holding it
            found = [v for v in reversed(self.versions) if v.commit
                     and any(tree.startswith(key) for tree in self.game_trees.get(v.commit, {}).values())][:1]
        if len(found) == 1:
            return found[0]
        if not self.from_git:
            raise HouserulesError(f"cannot look up data version '{wanted}': {self.note}; the changes since a version "
                                  "come from the git history of the data folder")
        if len(found) > 1:
            raise HouserulesError(f"data version '{wanted}' is ambiguous ({', '.join(v.short for v in found)}); "
                                  "give more of its hash")
        known = ", ".join(f"{v.version} ({v.date})" for v in self.versions[:5])
        more = f" and {len(self.versions) - 5} older" if len(self.versions) > 5 else ""
        raise HouserulesError(f"unknown data version '{wanted}' — the data folder's versions are: {known}{more} "
                              "(the PDF cover and the site's 更新记录 page print them)")


class _NoGit(Exception):
    pass


GIT_MISSING = "git is not installed"


def _git(cwd: Path, *args: str, stdin: bytes | None = None) -> bytes:
    env = {**os.environ, "LC_ALL": "C", "GIT_OPTIONAL_LOCKS": "0"}
    try:
        done = subprocess.run(["git", "-C", str(cwd), *args], input=stdin, capture_output=True, env=env, check=False)
    except FileNotFoundError:
        raise _NoGit(GIT_MISSING) from None
    if done.returncode != 0:
        lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise _NoGit(lines[-1] if lines else "git failed")
    return done.stdout


def _checkout(data_dir: Path) -> tuple[Path, str]:
    """The top of the git checkout holding ``data_dir`` and the folder's path in it (``rules_data/``)."""
    try:
        top, prefix = _git(data_dir, "rev-parse", "--show-toplevel", "--show-prefix").decode().split("\n")[:2]
    except _NoGit as exc:
        if str(exc) == GIT_MISSING:
            raise
        if "not a git repository" in str(exc):
            raise _NoGit(f"{display_path(data_dir)} is not in a git checkout") from None
        raise _NoGit(f"git cannot read the history of {display_path(data_dir)} ({exc})") from None  # e.g. ownership
    return Path(top), prefix


def _batch(top: Path, names: list[str]) -> dict[str, bytes | None]:
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
        found[name] = out[pos:pos + size]
        pos += size + 1
    return found


def _trees(top: Path, names: list[str]) -> list[str | None]:
    out = _git(top, "cat-file", "--batch-check", stdin="".join(n + "\n" for n in names).encode()).decode()
    return [parts[0] if len(parts) == 3 and parts[1] == "tree" else None
            for parts in (line.split(" ") for line in out.splitlines())]


def _read(blob: bytes | None) -> dict[str, Any] | None:
    if blob is None:
        return None
    try:
        data = parse(blob.decode("utf-8-sig").replace("\r\n", "\n")).data
    except (YamlError, UnicodeDecodeError):
        return None
    return data if isinstance(data, dict) else None


def entry_change(ref: str, status: str, old: dict[str, Any] | None, new: dict[str, Any] | None) -> EntryChange:
    """What changed between two versions of an entry's data (either may be None: added, removed or unreadable)."""
    shown = new if new is not None else old
    title = shown.get("title") if shown and isinstance(shown.get("title"), dict) else {}
    code = str(shown.get("code", "")) if shown else ""
    change = EntryChange(ref, code, {"zh": str(title.get("zh", ref)), "en": str(title.get("en", ""))}, status)
    if status != "changed":
        return change
    if old is None or new is None:
        change.aspects = ["details"]
        return change
    aspects: dict[str, None] = {}
    for key in sorted(set(old) | set(new), key=lambda k: list(ASPECT_OF).index(k) if k in ASPECT_OF else 99):
        if old.get(key) != new.get(key):
            aspects.setdefault(ASPECT_OF.get(key, "details"), None)
    change.aspects = list(aspects)
    if "questions" in aspects:
        before = {q.get("id"): q for q in old.get("questions", []) if isinstance(q, dict)}
        after = {q.get("id"): q for q in new.get("questions", []) if isinstance(q, dict)}
        change.questions = {"added": len(after.keys() - before.keys()), "removed": len(before.keys() - after.keys()),
                            "changed": sum(1 for k in before.keys() & after.keys() if before[k] != after[k])}
    return change


def code_order(code: str) -> list[Any]:
    """A sort key that puts BH-A2 before BH-A10.

    >>> sorted(["BH-A10", "BH-A2", "BH-R01"], key=code_order)
    ['BH-A2', 'BH-A10', 'BH-R01']
    """
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", code)]


def _classify(path: str) -> tuple[str, str] | None:
    """``betrayal/entries/vault.yaml`` → ("entry", "betrayal:vault"); game and glossary files likewise."""
    parts = path.split("/")
    if len(parts) == 3 and parts[1] == ENTRIES_DIR and parts[2].endswith(".yaml"):
        return "entry", f"{parts[0]}:{parts[2].removesuffix('.yaml')}"
    if len(parts) == 2 and parts[1] in (GAME_FILE, GLOSSARY_FILE):
        return ("game" if parts[1] == GAME_FILE else "glossary"), parts[0]
    return None


def _parsed(letter: str, path: str, kb: KnowledgeBase) -> bool:
    """Whether a changed file must be read: a changed entry (to say what changed), an added or removed one
    only when the current data no longer has it (its code and titles come from the current entry otherwise,
    so a first import of thousands of entries reads none of them)."""
    kind = _classify(path)
    return kind is not None and kind[0] == "entry" and (letter not in "AD" or kind[1] not in kb.entries)


def _changes(files: Iterable[tuple[str, str]], old: Any, new: Any,
             kb: KnowledgeBase) -> tuple[list[EntryChange], list[tuple[str, str]]]:
    """Entry changes and other changed files from (status letter, path in the data folder) pairs.

    ``old(path)`` and ``new(path)`` give a file's data before and after (None when absent).
    """
    entries, others = [], []
    for letter, path in files:
        kind = _classify(path)
        if kind is None:
            continue
        if kind[0] == "entry":
            status = {"A": "added", "D": "removed"}.get(letter, "changed")
            current = kb.entries.get(kind[1])
            if status != "changed" and current is not None:
                entries.append(EntryChange(kind[1], current.code, dict(current.title), status))
                continue
            entries.append(entry_change(kind[1], status, old(path) if status != "added" else None,
                                        new(path) if status != "removed" else None))
        elif (kind[1], kind[0]) not in others:
            others.append((kind[1], kind[0]))
    entries.sort(key=lambda c: (["added", "changed", "removed"].index(c.status), code_order(c.code), c.ref))
    return entries, sorted(others)


def _log(top: Path, prefix: str) -> list[tuple[str, str, str, list[tuple[str, str]]]]:
    """(commit, date, subject, [(status, path in the data folder)]) of each commit changing the folder, newest first."""
    out = _git(top, "log", "--first-parent", "--diff-merges=first-parent", "--no-renames", "--name-status", "-z",
               "--format=%x01%H%x02%cI%x02%s", "--", f":(top){prefix}" if prefix else ":(top)")
    commits = []
    for chunk in out.decode("utf-8", "replace").split("\x01")[1:]:
        header, _, rest = chunk.partition("\0")
        commit, date, subject = (header.split("\x02") + ["", ""])[:3]
        fields = rest.lstrip("\n").split("\0")
        files = [(fields[i][:1], fields[i + 1].removeprefix(prefix)) for i in range(0, len(fields) - 1, 2)
                 if fields[i] and fields[i + 1].startswith(prefix)]
        commits.append((commit, date[:10], subject, files))
    return commits


def _file_blobs(folder: Path) -> dict[str, str]:
    """Git's blob hash of every file under ``folder`` (relative paths with '/'), ``.git`` left out."""
    found = {}
    for root, dirs, names in os.walk(folder):
        dirs[:] = [d for d in dirs if d != ".git"]
        for name in names:
            path = Path(root) / name
            if path.is_file() and not path.is_symlink():
                found[path.relative_to(folder).as_posix()] = blob_hash(path.read_bytes())
    return found


def _committed_blobs(top: Path, tree: str) -> dict[str, str]:
    out = _git(top, "ls-tree", "-r", "-z", tree).decode("utf-8", "replace")
    found = {}
    for item in out.split("\0"):
        if "\t" in item:
            meta, path = item.split("\t", 1)
            found[path] = meta.split(" ")[2]
    return found


def changes_between(kb: KnowledgeBase, top: Path, tree: str) -> tuple[list[EntryChange], list[tuple[str, str]]]:
    """What changed from the committed tree ``tree`` of the data folder to the files ``kb`` was loaded from."""
    data_dir = Path(kb.root)
    before, now = _committed_blobs(top, tree), _file_blobs(data_dir)
    files = [("A", p) for p in now if p not in before] + [("D", p) for p in before if p not in now]
    files += [("M", p) for p in now if p in before and before[p] != now[p]]
    old = _batch(top, [before[p] for letter, p in files if letter != "A" and _parsed(letter, p, kb)])

    def read_new(path: str) -> dict[str, Any] | None:
        try:
            return _read((data_dir / path).read_bytes())
        except OSError:
            return None

    return _changes(files, lambda p: _read(old.get(before.get(p, ""))), read_new, kb)


def changes_since(kb: KnowledgeBase, wanted: str) -> tuple[Version, list[EntryChange], list[tuple[str, str]]]:
    """The version named ``wanted`` and what changed from it to the folder ``kb`` was loaded from, now.

    Raises :class:`HouserulesError` with the versions there are when ``wanted`` names none, and
    when there is no git history to look it up in.
    """
    history = load_history(kb)
    version = history.find(wanted)
    if version is history.versions[0]:
        raise HouserulesError(f"nothing changed since {version.version}: it is the current data version")
    top, _ = _checkout(Path(kb.root))  # found: so the folder is in a checkout
    entries, others = changes_between(kb, top, version.version.tree)
    return version, entries, others


def today() -> str:
    """The build's day: today, or the day of ``SOURCE_DATE_EPOCH`` for reproducible builds."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    day = datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc).date() if epoch else datetime.date.today()
    return day.isoformat()


def load_history(kb: KnowledgeBase) -> History:
    """Every version of the folder ``kb`` was loaded from, newest (the current files) first."""
    assert kb.root is not None, "a knowledge base loaded from a folder"
    data_dir = Path(kb.root)
    current = DataVersion(tree_hash(data_dir), newest_date(kb))
    alone = Version(current, None, today())
    try:
        top, prefix = _checkout(data_dir)
        commits = _log(top, prefix)
        if not commits:
            return History([alone], f"no commit holds {display_path(data_dir)} yet")
        # One batch: each commit's tree of the data folder, then of each game folder (a game's PDF prints its own).
        games = sorted(kb.games)
        game_names = [f"{c}:{prefix}{g}" for c, *_ in commits for g in games]
        all_trees = _trees(top, [f"{c}:{prefix}" if prefix else f"{c}^{{tree}}" for c, *_ in commits] + game_names)
        trees = all_trees[:len(commits)]
        game_trees: dict[str, dict[str, str]] = {c: {} for c, *_ in commits}
        for name, tree in zip(game_names, all_trees[len(commits):]):
            commit, _, path = name.partition(":")
            if tree:
                game_trees[commit][path.removeprefix(prefix)] = tree
        names = []
        for (commit, _, _, files) in commits:
            for letter, path in files:
                if _parsed(letter, path, kb):
                    if letter != "A":
                        names.append(f"{commit}^:{prefix}{path}")
                    if letter != "D":
                        names.append(f"{commit}:{prefix}{path}")
        blobs = _batch(top, names)
        versions = []
        for (commit, date, subject, files), tree in zip(commits, trees):
            entries, others = _changes(files, lambda p, c=commit: _read(blobs.get(f"{c}^:{prefix}{p}")),
                                       lambda p, c=commit: _read(blobs.get(f"{c}:{prefix}{p}")), kb)
            version = DataVersion(tree or "0" * 40)
            versions.append(Version(version, commit, date, subject, entries, others))
        if versions[0].version.tree != current.tree:  # uncommitted changes: the build's version comes first
            entries, others = changes_between(kb, top, versions[0].version.tree)
            versions.insert(0, Version(current, None, today(), "", entries, others))
            return History(versions, game_trees=game_trees)
        else:
            versions[0].version = current  # the committed state is the one being built: it has its date
        return History(versions, game_trees=game_trees)
    except _NoGit as exc:
        return History([alone], str(exc))


def aspect_names(change: EntryChange) -> list[dict[str, str]]:
    """What changed in words, Chinese and English: ``常见问题（+2 ~1）`` for questions with their counts."""
    names = []
    for aspect in change.aspects:
        name = dict(vocab.CHANGE_ASPECTS[aspect])
        if aspect == "questions" and change.questions:
            marks = [f"{sign}{change.questions[k]}" for k, sign in (("added", "+"), ("removed", "−"), ("changed", "~"))
                     if change.questions.get(k)]
            if marks:
                name = {lang: f"{text} ({' '.join(marks)})" for lang, text in name.items()}
        names.append(name)
    return names


__all__ = ["EntryChange", "History", "SHORT", "Version", "aspect_names", "changes_between", "changes_since",
           "entry_change", "load_history"]
