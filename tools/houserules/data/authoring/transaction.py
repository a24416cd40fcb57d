"""Writing data files all or none, also across ``kill -9`` and power loss, one writer at a time.

Every command that writes into a data folder (``l10n import``, ``stamp``, ``new``) works the
same way:

1. It takes the folder's **lock** (:func:`folder_lock`, exclusive; ``build`` holds it shared
   while it reads the data), so two writers never interleave and none reads a half-written
   folder. The lock is ``.<folder>.lock`` beside the folder, opened without following a link and
   never truncated on opening; a second writer waits up to :data:`LOCK_WAIT` seconds, then
   stops with a message naming the command that holds it.
2. It plans every new text and checks it (the import checks a copy of the data holding the new
   texts) before anything of the folder changes.
3. :func:`commit` writes the files:

   - the **journal** ``.<folder>.journal`` (beside the folder, written to a temporary file, synced and
     renamed in) lists the files and the SHA-256 of each new content, in state ``prepared``;
   - each new content is written beside its file (``.<name>.houserules-new``) and synced, and so
     are the folders holding them;
   - the journal is rewritten in state ``committed``: **the commit point**;
   - each file is renamed into place (a file with other hard links, another owner or in a
     folder the user may not write is rewritten in place instead, from a copy beside the
     journal), the folders are synced, and the journal is removed.

   An interrupt (Ctrl-C, SIGTERM) before the commit point removes what was written, and the data
   is as it was; from the commit point on, interrupts wait until every file is in place.
4. The next command of any kind on the folder (:func:`recover`, which ``houserules`` runs first)
   finds a journal left by a writer that was killed or lost its power: ``prepared``, it removes
   the new files (rolled back: the data is as before); ``committed``, it puts every remaining
   new file in place (rolled forward: the data is all new). Either way it says so in one line.

Setting ``HOUSERULES_TEST_PAUSE_AT=N`` makes a writer say each step on stderr and stop for a while
before step ``N``: the fault tests kill or interrupt it there (only :func:`fault_point` reads it).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import re
import signal
import stat
import sys
import threading
import time
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from ...errors import HouserulesError, display_path, is_write_failure, write_failure, write_fix, written_path

#: How long a writer waits for another command to release the data folder (seconds).
LOCK_WAIT = 20.0
#: After this long waiting, the writer says whom it waits for (seconds).
_SAY_WAITING = 1.0
JOURNAL_VERSION = 1
_NEW_SUFFIX = ".houserules-new"
#: The most a journal may hold (a few hundred bytes a file); anything larger is not ours.
_MAX_JOURNAL = 4 * 1024 * 1024


class Interrupted(BaseException):
    """SIGTERM arrived while a command held the data folder: unwound like Ctrl-C, then exit 143."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


# -- the lock --------------------------------------------------------------------------------------


def _identity(folder: Path) -> Path:
    """The folder as one path whatever link or relative path names it (its lock and journal are beside it)."""
    return Path(os.path.realpath(folder))


def lock_path(folder: Path) -> Path:
    return folder.parent / f".{folder.name}.lock"


def journal_path(folder: Path) -> Path:
    return folder.parent / f".{folder.name}.journal"


#: The data folders this process holds the lock of: whether each hold is shared.
_HELD: dict[Path, list[bool]] = {}


@dataclass(frozen=True)
class LockWords:
    """How a lock's messages name it and what to do about them."""

    name: str = "the lock"
    again: str = "run the command again"
    #: When the lock's folder cannot be written (a full disk, a read-only folder): what goes there with the
    #: lock, and another way out (a build: ``or choose another -o DIR``).
    goes_there: str = ""
    elsewhere: str = ""

    def unwritable(self, exc: OSError, folder: Path, verb: str, lock: Path) -> str:
        """The folder of the lock cannot be written: say so, never "remove the lock"."""
        what = (
            f" ({self.name} {lock.name} and {self.goes_there} go there)"
            if self.goes_there
            else f" ({self.name} {lock.name} goes there)"
        )
        if verb == "create":
            what = ""
        tail = f", {self.elsewhere}" if self.elsewhere else ""
        return f"{write_failure(exc, folder, verb)}{what} — {write_fix(exc)}{tail}"

    def busy(self, folder: Path, holder: str) -> str:
        who = holder or "another houserules command"
        return f"{display_path(folder)} is in use by {who}; wait for it to finish and {self.again}"


def holds_lock(folder: Path) -> bool:
    """Whether this process holds the exclusive lock of ``folder``."""
    return False in _HELD.get(_identity(folder), [])


@contextlib.contextmanager
def folder_lock(
    folder: Path,
    *,
    shared: bool = False,
    wait: float = 0.0,
    holder: str = "",
    words: LockWords | None = None,
    busy: Callable[[str], str] | None = None,
    identity: bool = True,
) -> Iterator[None]:
    """Hold the lock of ``folder`` (``.<name>.lock`` beside it) while the block runs.

    - ``shared``: readers (a build) hold it together; a writer holds it alone.
    - ``wait``: how long to wait for another holder (0: fail at once), then a
      :class:`HouserulesError` (``busy``'s message, given the holder's words).
    - ``holder``: written into the lock file while held (``houserules l10n import (pid 42)``), so
      a waiting command can say whom it waits for. Without it the file is never written.

    The file is opened without following a symbolic link, without blocking and without
    truncating it: a link placed at the lock stops the command with a message, and no file it
    might point at is emptied; a file with other hard links is never written into. Taken twice in
    one process, it is two holders, as in two processes.
    """
    words = words or LockWords()
    folder = _identity(folder) if identity else Path(os.path.abspath(folder))
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        if not is_write_failure(exc):
            raise
        raise HouserulesError(words.unwritable(exc, folder.parent, "create", lock_path(folder))) from None
    path = lock_path(folder)
    fd = _open_lock(path, shared, words)
    if fd is None:  # a reader beside a folder nobody may write into: no lock to share
        yield
        return
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise HouserulesError(f"{words.name} {path} is not a regular file; remove it and {words.again}")
        _acquire(fd, shared, wait, folder, lambda: busy(_holder(fd)) if busy else words.busy(folder, _holder(fd)))
        if holder and info.st_nlink == 1:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)
                os.pwrite(fd, f"{holder} (pid {os.getpid()})\n".encode(), 0)
        holds = _HELD.setdefault(folder, [])
        holds.append(shared)
        try:
            yield
        finally:
            holds.remove(shared)
            if not holds:
                del _HELD[folder]
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _open_lock(path: Path, shared: bool, words: LockWords) -> int | None:
    """The lock file, opened without following a link, blocking or truncating; None for a reader
    where the file cannot be made (a read-only checkout: nobody writes there without it)."""
    flags = os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        return os.open(path, flags | os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        if os.path.islink(path):
            problem = "it is a symbolic link"
        elif shared and exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            try:
                return os.open(path, flags | os.O_RDONLY)
            except FileNotFoundError:
                return None
            except OSError as again:
                if is_write_failure(again):  # nobody can take the lock to write there either
                    return None
                problem = again.strerror or str(again)
        elif is_write_failure(exc) and not (os.path.lexists(path) and not os.path.isfile(path)):
            # The lock is not the problem: the folder it goes in cannot be written.
            raise HouserulesError(words.unwritable(exc, path.parent, "write in", path)) from None
        else:
            problem = exc.strerror or str(exc)
    raise HouserulesError(f"cannot open {words.name} {path}: {problem}; remove it and {words.again}")


def _acquire(fd: int, shared: bool, wait: float, folder: Path, busy: Callable[[], str]) -> None:
    mode = fcntl.LOCK_SH if shared else fcntl.LOCK_EX
    start = time.monotonic()
    deadline = start + wait
    said = False
    while True:
        try:
            fcntl.flock(fd, mode | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            pass
        now = time.monotonic()
        if now >= deadline:
            raise HouserulesError(busy())
        if not said and now >= start + _SAY_WAITING:
            who = _holder(fd) or "another houserules command"
            print(f"houserules: waiting for {who} to finish with {display_path(folder)}…", file=sys.stderr, flush=True)
            said = True
        time.sleep(min(0.05, max(deadline - now, 0)))


def _holder(fd: int) -> str:
    """Who holds the lock, as its holder wrote it (only while that process still runs)."""
    try:
        text = os.pread(fd, 200, 0).decode("utf-8", "replace").strip()
    except OSError:
        return ""
    found = re.fullmatch(r"(houserules [a-z0-9 -]+) \(pid (\d+)\)", text)
    if not found:
        return ""
    try:
        os.kill(int(found.group(2)), 0)
    except ProcessLookupError:
        return ""
    except PermissionError:
        pass
    return text


# -- interrupts -------------------------------------------------------------------------------------


@contextlib.contextmanager
def _terminate_unwinds() -> Iterator[None]:
    """While the block runs, SIGTERM raises :class:`Interrupted` (as Ctrl-C raises KeyboardInterrupt),
    so that what the command wrote so far is removed on the way out."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def raise_interrupted(signum: int, frame: object) -> None:
        raise Interrupted(signum)

    previous = signal.signal(signal.SIGTERM, raise_interrupted)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Ctrl-C and SIGTERM wait until the block is done (the files going into place after the commit point)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    blocked = {signal.SIGINT, signal.SIGTERM}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, blocked)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


@contextlib.contextmanager
def writing(data_dir: Path, command: str, wait: float | None = None) -> Iterator[None]:
    """Hold ``data_dir`` for writing: its lock (waiting up to :data:`LOCK_WAIT`), an interrupted
    commit finished first, SIGTERM unwinding as Ctrl-C does. A folder that is not there is not
    locked (no lock file is left beside a mistyped ``--data``): the command says it is missing."""
    if not os.path.isdir(data_dir):
        yield
        return
    with (
        folder_lock(
            data_dir,
            wait=LOCK_WAIT if wait is None else wait,
            holder=f"houserules {command}",
            words=LockWords(f"the lock of {display_path(Path(data_dir))}", f"run 'houserules {command}' again"),
        ),
        _terminate_unwinds(),
    ):
        recover(data_dir)
        yield


# -- the test hook ---------------------------------------------------------------------------------

_STEP = [0]


def fault_point(name: str) -> None:
    """A step of a writer. With ``HOUSERULES_TEST_PAUSE_AT=N`` (or ``N:SECONDS``; the fault tests), each
    step is said on stderr and the writer stops before step ``N`` for a minute (or ``SECONDS``), to be
    killed or interrupted there."""
    at = os.environ.get("HOUSERULES_TEST_PAUSE_AT")
    if not at:
        return
    step, _, seconds = at.partition(":")
    _STEP[0] += 1
    print(f"houserules-test: step {_STEP[0]} {name}", file=sys.stderr, flush=True)
    if str(_STEP[0]) == step:
        time.sleep(float(seconds or 60))


# -- committing ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Planned:
    path: Path  # where the file is (under the folder's real path)
    rel: str  # relative to the folder, with /
    mode: str  # replace | create | copy
    temp: Path  # where its new content is written first
    sha: str  # of the new content
    data: bytes = b""  # the new content (not kept in the journal)


def _temp_of(root: Path, rel: str, mode: str, index: int) -> Path:
    if mode == "copy":
        return root.parent / f".{root.name}{_NEW_SUFFIX}-{index}"
    path = root / rel
    return path.parent / f".{path.name}{_NEW_SUFFIX}"


def _relative(root: Path, path: Path) -> str:
    real = Path(os.path.realpath(path.parent)) / path.name
    try:
        rel = real.relative_to(root)
    except ValueError:
        raise HouserulesError(f"{display_path(path)} is not inside the data folder {display_path(root)}") from None
    return rel.as_posix()


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _sync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _write_file(path: Path, data: bytes, mode: int, gid: int | None = None) -> None:
    """``data`` into the new file ``path`` (never over anything there, never through a link), synced."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags, 0o600)
    except FileExistsError:
        os.unlink(path)  # a leftover of ours (a journal names every one), or something placed there
        fd = os.open(path, flags, 0o600)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fchmod(fd, mode)
        if gid is not None:
            with contextlib.suppress(OSError):  # only root or a member of the group may set it
                os.fchown(fd, -1, gid)
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_journal(root: Path, state: str, command: str, planned: list[_Planned]) -> None:
    journal = journal_path(root)
    record = {
        "houserules-journal": JOURNAL_VERSION,
        "state": state,
        "command": command,
        "files": [{"path": p.rel, "mode": p.mode, "sha256": p.sha} for p in planned],
    }
    temp = journal.with_name(journal.name + ".tmp")
    _write_file(temp, (json.dumps(record, ensure_ascii=False, indent=1) + "\n").encode("utf-8"), 0o644)
    os.replace(temp, journal)
    _sync_folder(journal.parent)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _plan(root: Path, files: Mapping[Path, bytes], create: Collection[Path], again: str) -> list[_Planned]:
    planned: list[_Planned] = []
    read_only: list[Path] = []
    for index, (path, data) in enumerate(files.items()):
        rel = _relative(root, path)
        real = root / rel
        if path in create:
            if os.path.lexists(real):
                raise HouserulesError(f"{display_path(path)} already exists; nothing was written")
            mode = "create"
        else:
            try:
                info = os.lstat(real)
            except OSError as exc:
                raise HouserulesError(f"{display_path(path)}: cannot read the file: {exc.strerror}") from None
            if not stat.S_ISREG(info.st_mode):
                raise HouserulesError(f"{display_path(path)} is not a regular file; nothing was written")
            if not info.st_mode & 0o222 or not os.access(real, os.W_OK):
                read_only.append(path)
            in_place = info.st_nlink > 1 or info.st_uid != os.geteuid() or not os.access(real.parent, os.W_OK)
            mode = "copy" if in_place else "replace"
        planned.append(_Planned(real, rel, mode, _temp_of(root, rel, mode, index), _sha(data), data))
    if read_only:
        names = ", ".join(display_path(p) for p in read_only)
        raise HouserulesError(
            f"{names}: the file is read-only; make it writable (chmod u+w {display_path(read_only[0])}) and {again}"
        )
    return planned


def commit(
    data_dir: Path,
    files: Mapping[Path, bytes],
    command: str,
    *,
    again: str = "run the command again",
    create: Collection[Path] = (),
) -> None:
    """Write every file of ``files`` (path → new bytes; ``create``: paths that must be new) or none.

    The caller holds the folder for writing (:func:`writing`). Refused before anything is
    written: a read-only file (``again`` says what to do after ``chmod``), a path outside the
    folder or one of ``create`` that exists. See the module's text for the steps.
    """
    root = _identity(data_dir)
    if not holds_lock(root):
        raise RuntimeError(f"commit into {root} without holding its lock")
    if not files:
        return
    planned = _plan(root, files, set(create), again)
    umask = _umask()
    committed = False
    current: Path = journal_path(root)
    try:
        fault_point("journal prepared")
        _write_journal(root, "prepared", command, planned)
        for item in planned:
            current = item.path
            fault_point(f"write {item.rel}")
            if item.mode == "create":
                _write_file(item.temp, item.data, 0o666 & ~umask)
            else:
                info = os.stat(item.path)
                _write_file(item.temp, item.data, stat.S_IMODE(info.st_mode), info.st_gid)
        current = root
        for folder in {item.temp.parent for item in planned}:
            _sync_folder(folder)
        with _signals_held():
            fault_point("journal committed")
            current = journal_path(root)
            _write_journal(root, "committed", command, planned)
            committed = True
            _apply(root, planned)
            fault_point("journal removed")
            os.unlink(journal_path(root))
            _sync_folder(root.parent)
    except BaseException as exc:
        if not committed:
            _roll_back(root, planned)
            if isinstance(exc, OSError):
                raise HouserulesError(_write_refused(exc, root, current, again)) from None
            raise
        if isinstance(exc, OSError):
            raise HouserulesError(
                f"the new files are committed but not all in place ({exc.strerror or exc}); the next "
                f"houserules command on {display_path(root)} finishes it"
            ) from None
        raise


def _write_refused(exc: OSError, root: Path, current: Path, again: str) -> str:
    """Why nothing was written: the file (or, for the journal, the folder) and the disk's reason, and what to do."""
    if not is_write_failure(exc):
        return f"{display_path(current)}: cannot write the file: {exc.strerror or exc}; nothing was written"
    if current == journal_path(root) or current == root:
        where, verb = display_path(root), "write in"
    else:
        where, verb = display_path(current), "write"
    said = "" if "nothing" in again else " (nothing was written)"
    return f"{write_failure(exc, where, verb)} — {write_fix(exc)} and {again}{said}"


def _apply(root: Path, planned: list[_Planned]) -> None:
    """Put every new file in place (the journal says ``committed``); again after a crash, it does no harm."""
    for item in planned:
        if not os.path.lexists(item.temp):
            continue  # put in place already
        fault_point(f"rename {item.rel}")
        if item.mode == "copy":
            with open(item.path, "r+b") as out:
                out.write(item.data)
                out.truncate()
                out.flush()
                os.fsync(out.fileno())
            os.unlink(item.temp)
        else:
            os.replace(item.temp, item.path)
    for folder in {item.path.parent for item in planned} | {item.temp.parent for item in planned}:
        _sync_folder(folder)


def _roll_back(root: Path, planned: list[_Planned]) -> None:
    for item in planned:
        with contextlib.suppress(FileNotFoundError, IsADirectoryError):  # a folder is not a file of ours
            os.unlink(item.temp)
    for name in (journal_path(root), journal_path(root).with_name(journal_path(root).name + ".tmp")):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(name)
    _sync_folder(root.parent)


# -- recovery ----------------------------------------------------------------------------------------


def _damaged(journal: Path, why: str) -> HouserulesError:
    return HouserulesError(
        f"{display_path(journal)}: {why}: not a journal houserules wrote; look at it, then remove it "
        "(the data folder beside it is as the last command left it)"
    )


def _read_journal(root: Path, journal: Path) -> tuple[str, str, list[_Planned]]:
    try:
        fd = os.open(journal, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise _damaged(journal, exc.strerror or str(exc)) from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):  # a folder: os.fdopen would refuse it
        os.close(fd)
        raise _damaged(journal, "it is not a regular file")
    with os.fdopen(fd, "rb") as handle:
        raw = handle.read(_MAX_JOURNAL + 1)
    try:
        record = json.loads(raw.decode("utf-8"))
        state, command, files = record["state"], record["command"], record["files"]
        if record["houserules-journal"] != JOURNAL_VERSION or state not in ("prepared", "committed"):
            raise ValueError(state)
        planned = []
        for index, item in enumerate(files):
            rel, mode, sha = item["path"], item["mode"], item["sha256"]
            parts = rel.split("/")
            if (
                not isinstance(rel, str)
                or rel.startswith("/")
                or any(part in ("", ".", "..") for part in parts)
                or mode not in ("replace", "create", "copy")
                or not re.fullmatch(r"[0-9a-f]{64}", sha)
            ):
                raise ValueError(rel)
            planned.append(_Planned(root / rel, rel, mode, _temp_of(root, rel, mode, index), sha))
    except (ValueError, KeyError, TypeError, UnicodeDecodeError, AttributeError, RecursionError):
        raise _damaged(journal, "it cannot be read") from None
    if not isinstance(command, str) or not re.fullmatch(r"[a-z0-9 -]{1,40}", command):
        raise _damaged(journal, "it names no houserules command")
    return state, command, planned


def _finish(root: Path, planned: list[_Planned]) -> list[str]:
    """Put in place what a committed journal lists; the files that are not as it says (then nothing is done)."""
    ready, wrong = [], []
    for item in planned:
        if not os.path.lexists(item.temp):
            continue  # put in place before the interruption
        try:
            if not stat.S_ISREG(os.lstat(item.temp).st_mode):
                raise OSError(f"{item.temp} is not a file")
            with open(item.temp, "rb") as handle:
                data = handle.read()
        except OSError:
            wrong.append(item.rel)
            continue
        if _sha(data) != item.sha:
            wrong.append(item.rel)
        ready.append(_Planned(item.path, item.rel, item.mode, item.temp, item.sha, data))
    if wrong:
        return wrong
    _apply(root, ready)
    for item in planned:
        try:
            with open(item.path, "rb") as handle:
                if _sha(handle.read()) != item.sha:
                    wrong.append(item.rel)
        except OSError:
            wrong.append(item.rel)
    return wrong


def recover(data_dir: Path) -> str:
    """Finish or undo a commit into ``data_dir`` that was interrupted; what was done, said on stderr ("" if nothing).

    Cheap when there is nothing to do (one ``lstat``), so every command runs it first.
    """
    root = _identity(data_dir)
    journal = journal_path(root)
    temp = journal.with_name(journal.name + ".tmp")
    if not os.path.lexists(journal) and not os.path.lexists(temp):
        return ""
    held = (
        contextlib.nullcontext()
        if holds_lock(root)
        else folder_lock(
            root, wait=LOCK_WAIT, words=LockWords(f"the lock of {display_path(root)}", "run the command again")
        )
    )
    with held:
        if os.path.isdir(temp) and not os.path.islink(temp):
            raise _damaged(temp, "it is not a regular file")
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)  # never renamed in: the journal it was to be is not there yet
        if not os.path.lexists(journal):
            return ""
        state, command, planned = _read_journal(root, journal)
        where = written_path(root)
        if state == "prepared":
            _roll_back(root, planned)
            said = f"rolled back an interrupted 'houserules {command}' in {where}: none of its changes were written"
        else:
            with _signals_held():
                wrong = _finish(root, planned)
                if wrong:
                    raise HouserulesError(
                        f"{display_path(journal)}: an interrupted 'houserules {command}' cannot be finished: "
                        f"{', '.join(wrong)} {'is' if len(wrong) == 1 else 'are'} not as it wrote "
                        f"{'it' if len(wrong) == 1 else 'them'}; look at "
                        f"{'it' if len(wrong) == 1 else 'them'} (git diff), then remove the journal"
                    )
                os.unlink(journal)
                _sync_folder(root.parent)
            count = len(planned)
            said = (
                f"finished an interrupted 'houserules {command}' in {where}: "
                f"{count} file{'s' if count != 1 else ''} put in place"
            )
    print(f"houserules: {said}", file=sys.stderr, flush=True)
    return said
