"""One error type for the project and one shape for every problem it reports."""

from __future__ import annotations

import errno
import os
import unicodedata
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, order=True)
class Problem:
    """A located problem in the data: ``path:line: entry: problem — fix``.

    >>> str(Problem("rules_data/x/entries/a.yaml", 3, "x:a", "unknown field 'foo'", "remove it"))
    "rules_data/x/entries/a.yaml:3: x:a: unknown field 'foo' — remove it"
    """

    path: str
    line: int
    entry: str
    problem: str
    fix: str
    severity: str = "error"

    def __str__(self) -> str:
        prefix = "warning: " if self.severity == "warning" else ""
        return visible(f"{self.path}:{self.line}: {self.entry}: {prefix}{self.problem} — {self.fix}")


def visible(text: str) -> str:
    r"""``text`` with control and format characters written as escapes, safe for a terminal.

    Messages quote data (field names, values, file names); an escape sequence in the
    data must show as text, not act on the terminal.

    >>> visible("unknown field '\x1b[2J'")
    "unknown field '\\x1b[2J'"
    """
    return "".join(
        c
        if unicodedata.category(c) not in {"Cc", "Cf", "Cs", "Co", "Zl", "Zp"}
        else (f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}")
        for c in text
    )


class HouserulesError(Exception):
    """A user-facing failure: printed as its message, never as a traceback."""

    def __init__(self, message: str, problems: list[Problem] | None = None):
        super().__init__(message)
        self.problems = problems or []


def display_path(path: Path) -> str:
    """A path as people should read it: relative to the working folder when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def written_path(path: Path | str) -> str:
    """A file or folder a command wrote, as its message names it: the absolute path, which opens from any folder (the
    command may have run in another one than the reader's: ``make -C``, a script, CI's log); symbolic links stay as
    they were given.

    >>> written_path("/srv/kb/site/../faq.pdf")
    '/srv/kb/faq.pdf'
    """
    return os.path.abspath(path)


#: Why a file or folder cannot be written, by ``errno``, in words a person can act on: what is wrong
#: and what to do. A full disk or a read-only folder is no fault of the data, and no traceback.
WRITE_FAILURES = {
    errno.ENOSPC: ("the disk is full (no space left on device)", "free some space"),
    errno.EDQUOT: ("the disk quota is used up", "free some space or raise the quota"),
    errno.EFBIG: ("the file is larger than the file system allows", "write it to another disk"),
    errno.EROFS: ("the folder is on a read-only file system", "mount it writable"),
    errno.EACCES: ("permission denied", "make the folder writable (chmod u+w)"),
    errno.EPERM: ("the system does not permit it", "ask for the right to write there"),
}


def is_write_failure(exc: BaseException) -> bool:
    """Whether ``exc`` says a write failed for a reason of the disk or the folder (:data:`WRITE_FAILURES`)."""
    return isinstance(exc, OSError) and exc.errno in WRITE_FAILURES


def write_failure(exc: OSError, path: Path | str | None = None, verb: str = "write") -> str:
    """What a failed write means: ``cannot write PATH: the disk is full (no space left on device)``;
    the path is the one the system names when none is given (of a copy or a rename, the second: where it went).

    >>> write_failure(OSError(errno.ENOSPC, "No space left on device", "site/x.html"))
    'cannot write site/x.html: the disk is full (no space left on device)'
    >>> write_failure(OSError(errno.EROFS, "Read-only file system"), "faq.pdf")
    'cannot write faq.pdf: the folder is on a read-only file system'
    """
    where = path if path is not None else (exc.filename2 or exc.filename)
    what = WRITE_FAILURES[exc.errno][0] if exc.errno in WRITE_FAILURES else (exc.strerror or str(exc))
    return visible(f"cannot {verb} {where}: {what}" if where is not None else f"cannot {verb}: {what}")


def write_fix(exc: OSError) -> str:
    """What to do about a failed write (:data:`WRITE_FAILURES`): ``free some space``."""
    return WRITE_FAILURES[exc.errno][1] if exc.errno in WRITE_FAILURES else "check the disk and the folder"


def read_only_disk(path: Path) -> bool:
    """Whether ``path`` is on a file system mounted read-only (where even root writes nothing)."""
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except OSError:
        return False
