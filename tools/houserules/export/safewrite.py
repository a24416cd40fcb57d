"""The bytes of an export as files: CSV that spreadsheets open safely, and writes that are whole or nothing."""

from __future__ import annotations

import contextlib
import csv
import errno
import io
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from ..errors import HouserulesError, is_write_failure, read_only_disk, visible, write_failure, write_fix

Row = dict[str, str]

#: What makes a spreadsheet read a cell as a formula (OWASP's list, and the full-width forms
#: that spreadsheets with a Chinese or Japanese input method may convert): first in the cell,
#: or first after spaces; a tab or a carriage return first.
_FORMULA_START = re.compile(r"\s*[=+\-@\uff1d\uff0b\uff0d\uff20]|[\t\r]")


def spreadsheet_safe(value: str) -> str:
    """``value`` as a CSV cell that no spreadsheet runs as a formula (OWASP's CSV injection advice).

    A cell that could start a formula gets a leading apostrophe, which spreadsheets show
    or hide but never run. The trade-off: such a cell reads ``'-1 hp`` rather than
    ``-1 hp``, which keeps its meaning for a person; a program that needs the exact
    text reads the JSON export, which carries it unchanged.

    >>> spreadsheet_safe("=1+1"), spreadsheet_safe(" @SUM(A1)"), spreadsheet_safe("-1 hp"), spreadsheet_safe("塔楼 -1")
    ("'=1+1", "' @SUM(A1)", "'-1 hp", '塔楼 -1')
    """
    return f"'{value}" if _FORMULA_START.match(value) else value


def to_csv(columns: tuple[str, ...], records: list[Row]) -> bytes:
    """CSV that spreadsheet programs open with the Chinese intact: UTF-8 with a byte-order mark, CRLF rows.

    Every cell passes through :func:`spreadsheet_safe`: data text never runs as a formula.
    """
    buffer = io.StringIO(newline="")
    writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\r\n")
    writer.writeheader()
    writer.writerows({name: spreadsheet_safe(value) for name, value in record.items()} for record in records)
    return ("\ufeff" + buffer.getvalue()).encode("utf-8")


#: The option of the command line that names an output file, for the messages of a refused path.
OUTPUT_OPTION = "-o FILE"


def write_output(path: Path, data: bytes, example: str = "export.csv", option: str | None = None) -> None:
    """Write ``data`` to ``path`` by the rules of :func:`open_output`; :class:`HouserulesError` otherwise."""
    with open_output(path, example, option) as out:
        out.write(data)


def copy_output(source: Path, path: Path, example: str = "faq.pdf", option: str | None = None) -> None:
    """Copy the file ``source`` to ``path`` by the rules of :func:`open_output`."""
    with open_output(path, example, option) as out, open(source, "rb") as src:
        shutil.copyfileobj(src, out)


@contextlib.contextmanager
def open_output(path: Path, example: str = "export.csv", option: str | None = None) -> Iterator[BinaryIO]:
    """A binary file to write the output ``path`` into; every ``-o FILE`` of the CLI goes through here.

    - A regular file, or a missing one, is written whole or not at all: the bytes go to a
      new file made by :func:`tempfile.mkstemp` beside ``path`` (an unpredictable name,
      created exclusively, so nothing placed there beforehand is followed) and renamed over
      ``path`` only once everything is written. It gets the old file's permissions, or the
      usual ones (umask) for a new file.
    - A character device (``/dev/null``, a terminal) or a named pipe is written into, as a
      shell's ``>`` would: it stays what it is. A pipe that no program reads is refused
      at once rather than waited on.
    - A symbolic link is refused, whatever it points to: replacing it would lose the link,
      and following it silently could write somewhere the user did not name.
    - A folder, a socket, a block device or a path whose folder is missing is refused.

    Every refusal or failed write is a :class:`HouserulesError` naming ``path`` and leaves
    what was there untouched. It names ``option`` (:data:`OUTPUT_OPTION`: the command's ``-o FILE``)
    as the way to choose another path only when given: a command that writes its own files (the
    import of a translator's file into the data) has no such option to offer.
    """
    info = check_output(path, example, option)
    if info is not None and not stat.S_ISREG(info.st_mode):
        with _write_into(path, info, option) as out:
            yield out
        return
    folder = path.parent
    mode = stat.S_IMODE(info.st_mode) if info is not None else 0o666 & ~_umask()
    temp = None
    try:
        handle, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
        with os.fdopen(handle, "wb") as out:
            yield out
            out.flush()
            os.fchmod(out.fileno(), mode)
        os.replace(temp, path)
    except BaseException as exc:
        if temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(temp)
        if isinstance(exc, OSError):
            raise _cannot_write(path, exc, option) from None
        raise


def _elsewhere(option: str | None, first: str = "") -> str:
    """The end of a refusal: ``; choose another path with -o FILE`` when the command has the option."""
    if option:
        return f"; {first}choose another path with {option}"
    return f"; {first.removesuffix(' or ')}" if first else ""


def check_output(path: Path, example: str = "export.csv", option: str | None = None) -> os.stat_result | None:
    """Refuse an output ``path`` that :func:`open_output` would refuse, before any work is done for it.

    Returns what ``path`` is now (None: nothing yet).
    """
    info = _lstat(path, option)
    kind = stat.S_IFMT(info.st_mode) if info is not None else None
    if kind == stat.S_IFDIR:
        name = f", e.g. {option.split()[0]} {path / example}" if option else ""
        raise HouserulesError(f"cannot write {path}: it is a folder; give a file name{name}")
    if kind == stat.S_IFLNK:
        raise HouserulesError(
            f"cannot write {path}: it is a symbolic link (to {_quoted_target(path)}); "
            "give the path of the file itself, or remove the link"
        )
    if kind in (stat.S_IFSOCK, stat.S_IFBLK):
        what = "a socket" if kind == stat.S_IFSOCK else "a block device"
        raise HouserulesError(f"cannot write {path}: it is {what}{_elsewhere(option)}")
    if kind is None or kind == stat.S_IFREG:
        folder = path.parent
        if not folder.is_dir():
            if folder.exists():
                raise HouserulesError(f"cannot write {path}: {folder} is not a folder{_elsewhere(option)}")
            raise HouserulesError(
                f"cannot write {path}: the folder {folder} does not exist{_elsewhere(option, 'create it first or ')}"
            )
        if not os.access(folder, os.W_OK):  # a read-only disk or folder: said before the work, not after
            code = errno.EROFS if read_only_disk(folder) else errno.EACCES
            raise _cannot_write(path, OSError(code, "", str(path)), option)
    return info


@contextlib.contextmanager
def _write_into(path: Path, info: os.stat_result, option: str | None) -> Iterator[BinaryIO]:
    """Write into the existing character device or named pipe ``path``."""
    kind = stat.S_IFMT(info.st_mode)
    flags = os.O_WRONLY | os.O_NOFOLLOW | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0)
    if kind == stat.S_IFIFO:
        flags |= os.O_NONBLOCK  # fails at once (ENXIO) when no program reads the pipe
    try:
        handle = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise HouserulesError(
                f"cannot write {path}: it is a named pipe and no program reads from it; start the reader first"
            ) from None
        raise _cannot_write(path, exc, option) from None
    try:
        if stat.S_IFMT(os.fstat(handle).st_mode) != kind:  # something else was put there meanwhile
            raise HouserulesError(f"cannot write {path}: it changed while being opened; try again")
        os.set_blocking(handle, True)
        with os.fdopen(handle, "wb", closefd=False) as out:
            yield out
            out.flush()
    except OSError as exc:
        raise _cannot_write(path, exc, option) from None
    finally:
        os.close(handle)


def _lstat(path: Path, option: str | None) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):  # the folder check names what is missing
        return None
    except OSError as exc:
        raise _cannot_write(path, exc, option) from None


def _quoted_target(path: Path) -> str:
    try:
        return visible(os.readlink(path))
    except OSError:
        return "?"


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _cannot_write(path: Path, exc: OSError, option: str | None) -> HouserulesError:
    """A write refused or failed: a full disk or a read-only folder said as such (nothing was written:
    :func:`open_output` removes its new file, and what was at ``path`` stays)."""
    if is_write_failure(exc):
        return HouserulesError(
            f"{write_failure(exc, path)}{_elsewhere(option, write_fix(exc) + ' or ')} (nothing was written)"
        )
    return HouserulesError(f"cannot write {path}: {exc.strerror or exc}{_elsewhere(option)}")
