"""The data folder's files on disk: read safely, list, and reported when they cannot be opened.

Every file of ``rules_data/`` is read through :func:`read_bytes`: only a regular file of
at most :data:`MAX_BYTES` is read, so a named pipe, a device or a huge file is a problem
with a fix, never a hang or a full memory. :class:`YamlError` is the error of a file
that cannot be read as data (the strict reader of :mod:`houserules.data.reading.yamlload` raises
it too, and re-exports it).
"""

from __future__ import annotations

import errno
import os
import re
import stat
from pathlib import Path

from ...errors import Problem, display_path

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


#: Code points no output can carry: every C0 control but tab, line feed and carriage return
#: (XML 1.0 cannot carry them, NUL ends a C string and is raw in a CSV cell, ESC starts a
#: terminal escape sequence), DEL and the C1 controls U+0080-U+009F (XML 1.0 allows them but
#: discourages them, no text means them, and a terminal reads U+009B as an escape sequence),
#: lone surrogates (UTF-8 cannot encode them) and the non-characters U+FFFE and U+FFFF (XML
#: 1.0 cannot carry them). The file itself cannot hold most of them (the reader refuses them as
#: control characters); a double-quoted escape (\e, \0, \x9b, \uD800, \uFFFE) can, and is
#: refused here.
_UNCARRIABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
#: The YAML escapes with a name, for the fix of a message.
_NAMED_ESCAPES = {0x00: "\\0", 0x07: "\\a", 0x08: "\\b", 0x0B: "\\v", 0x0C: "\\f", 0x1B: "\\e", 0x85: "\\N"}


def uncarriable(code: int) -> tuple[str, str]:
    r"""What code point ``code`` is, and how it is written in double quotes.

    >>> print(*uncarriable(0x1B), "|", *uncarriable(0xD800), "|", *uncarriable(0x9B))
    the control character \e or \x1b | the lone surrogate \ud800 | the control character \x9b
    """
    if 0xD800 <= code <= 0xDFFF:
        return "the lone surrogate", f"\\u{code:04x}"
    if code > 0xFF:
        return "the non-character", f"\\u{code:04x}"
    written = f"\\x{code:02x}"
    named = _NAMED_ESCAPES.get(code)
    return "the control character", f"{named} or {written}" if named else written


def first_uncarriable(text: str) -> int | None:
    """The first code point of ``text`` that no output can carry (:data:`_UNCARRIABLE`), or None."""
    found = _UNCARRIABLE.search(text)
    return None if found is None else ord(found.group())


def carriable(text: str, line: int) -> None:
    """Refuse ``text`` holding a code point of :data:`_UNCARRIABLE`, naming it, its escape and the line."""
    code = first_uncarriable(text)
    if code is None:
        return
    what, written = uncarriable(code)
    raise YamlError(
        line,
        f"the text holds {what} U+{code:04X}, which no page, feed or export can carry",
        f"remove {what} U+{code:04X} (written {written} in the double-quoted text)",
    )
