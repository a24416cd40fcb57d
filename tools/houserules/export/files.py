"""The bytes of an export as files: CSV that spreadsheets open safely, and writes that are whole or nothing."""

from __future__ import annotations

import contextlib
import csv
import io
import os
import re
import secrets
from pathlib import Path

from ..errors import HouserulesError

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


def write_output(path: Path, data: bytes) -> None:
    """Write ``data`` to the file ``path`` whole or not at all; :class:`HouserulesError` otherwise.

    The bytes go to a new file beside ``path`` that is renamed over it, so a failed
    write never leaves half an export (nor an empty file where a good one was).
    """
    if path.is_dir():
        raise HouserulesError(f"cannot write {path}: it is a folder; give a file name, e.g. -o {path / 'export.csv'}")
    folder = path.parent
    if not folder.is_dir():
        problem = (
            f"{folder} is not a folder" if folder.exists() else f"the folder {folder} does not exist; create it first"
        )
        raise HouserulesError(f"cannot write {path}: {problem} or choose another path with -o FILE")
    temp = folder / f".{path.name}.{secrets.token_hex(4)}.tmp"
    try:
        with open(temp, "xb") as out:  # created with the usual permissions (umask), unlike mkstemp's 0600
            out.write(data)
        os.replace(temp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            temp.unlink()
        if isinstance(exc, OSError):
            raise HouserulesError(
                f"cannot write {path}: {exc.strerror or exc}; choose another path with -o FILE"
            ) from None
        raise
