"""The data folder's files on disk: read safely, list, and reported when they cannot be opened.

Every file of ``rules_data/`` is read through :func:`read_bytes`: only a regular file of
at most :data:`MAX_BYTES` is read, so a named pipe, a device or a huge file is a problem
with a fix, never a hang or a full memory. :class:`YamlError` is the error of a file
that cannot be read as data (the strict reader of :mod:`houserules.data.yamlload` raises
it too, and re-exports it).
"""

from __future__ import annotations

import errno
import os
import re
import stat
from pathlib import Path

from ..errors import Problem, display_path

MAX_BYTES = 256 * 1024


class YamlError(Exception):
    """A file that cannot be read as data; ``line`` is 1-based."""

    def __init__(self, line: int, problem: str, fix: str):
        super().__init__(problem)
        self.line = line
        self.problem = problem
        self.fix = fix


_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
)


def file_kind(mode: int) -> str:
    """What a file of ``mode`` is, in words: ``a folder``, ``a named pipe (FIFO)``..."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def _not_regular(mode: int) -> YamlError:
    return YamlError(
        1,
        f"this is {file_kind(mode)}, not a regular file",
        "replace it by a regular YAML file; only regular files are read",
    )


def _too_big(size: int) -> YamlError:
    return YamlError(1, f"file is {size} bytes, over the {MAX_BYTES}-byte limit", "split the entry or shorten it")


def read_bytes(path: Path) -> bytes:
    """The bytes of a regular file of at most MAX_BYTES; :class:`YamlError` for anything else.

    The size and kind are checked before reading, and never more than MAX_BYTES + 1
    bytes are read: a named pipe would block for ever, and a huge (or sparse) file
    would fill the memory. Raises :class:`OSError` when the file cannot be opened.
    """
    info = os.stat(path)
    if not stat.S_ISREG(info.st_mode):
        raise _not_regular(info.st_mode)
    if info.st_size > MAX_BYTES:
        raise _too_big(info.st_size)
    # Non-blocking: a file swapped for a pipe after the stat must not block the open.
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise _not_regular(info.st_mode)
        raw = handle.read(MAX_BYTES + 1)
    if len(raw) > MAX_BYTES:  # the file grew since the stat
        raise _too_big(max(info.st_size, len(raw)))
    return raw


def read_text(path: Path) -> str:
    """The file's text: UTF-8 (a byte-order mark is dropped), at most MAX_BYTES."""
    raw = read_bytes(path)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise YamlError(
            line, f"not valid UTF-8 (byte 0x{raw[exc.start]:02x} at offset {exc.start})", "save the file as UTF-8"
        ) from None
    return text.replace("\r\n", "\n")


def unreadable(path: Path, label: str, exc: OSError, folder: bool = False) -> Problem:
    """A file or folder that cannot be opened, as a problem with its remedy."""
    what = "folder" if folder else "file"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return Problem(
            display_path(path),
            1,
            label,
            f"cannot read the {what}: permission denied",
            f"make it readable (chmod {'u+rx' if folder else 'u+r'} {display_path(path)})",
        )
    return Problem(
        display_path(path), 1, label, f"cannot read the {what}: {exc.strerror or exc}", f"check the {what} and the disk"
    )


def folder_children(folder: Path, label: str, problems: list[Problem]) -> list[tuple[Path, int]] | None:
    """The sorted entries of ``folder`` with their ``lstat`` modes; None (and a problem) when unreadable.

    Hidden names (``.git``, editor files) are left out; an entry that vanished meanwhile too.
    """
    try:
        paths = sorted(folder.iterdir())
    except OSError as exc:
        problems.append(unreadable(folder, label, exc, folder=True))
        return None
    found = []
    for path in paths:
        if path.name.startswith("."):
            continue
        try:
            found.append((path, os.lstat(path).st_mode))
        except FileNotFoundError:
            continue
        except OSError as exc:  # listed but not searchable (chmod a-x): nothing inside can be read
            problems.append(unreadable(folder, label, exc, folder=True))
            return None
    return found


#: Code points no output can carry: NUL (a C string's end, raw in a CSV cell), lone
#: surrogates (UTF-8 cannot encode them) and the non-characters U+FFFE and U+FFFF (XML 1.0
#: cannot carry them). The file itself cannot hold them (the reader refuses them as control
#: characters); a double-quoted escape (\0, \uD800, \uFFFE) can, and is refused here.
_UNCARRIABLE = re.compile("[\x00\ud800-\udfff\ufffe\uffff]")


def carriable(text: str, line: int) -> None:
    """Refuse ``text`` holding a code point of :data:`_UNCARRIABLE`, naming it and the line."""
    found = _UNCARRIABLE.search(text)
    if found is None:
        return
    code = ord(found.group())
    what = "NUL" if code == 0 else "a lone surrogate" if 0xD800 <= code <= 0xDFFF else "a non-character"
    raise YamlError(
        line,
        f"the text holds U+{code:04X} ({what}), which no page, feed or export can carry",
        "remove the escape (\\0, \\uD800-\\uDFFF, \\uFFFE, \\uFFFF) from the double-quoted text",
    )
