"""What several commands share: the data loaded and checked once, its output written to stdout or a file."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import HouserulesError

if TYPE_CHECKING:
    from ..check import Report


def checked(data: Path) -> Report:
    """Load and check the data once, as ``houserules build`` does; print its problems; stop on errors."""
    from ..check import run as run_check

    report = run_check(data)
    for problem in report.problems:
        print(problem, file=sys.stderr)
    if report.errors:
        raise HouserulesError(f"the data has {len(report.errors)} problems; fix them first ({report.summary()})")
    return report


def exportable(data: Path) -> Report | None:
    """The checked data to export from, or None (its errors printed) when it has errors: nothing is exported."""
    from ..check import run as run_check

    report = run_check(data)
    for problem in report.errors:
        print(problem, file=sys.stderr)
    if report.errors:
        print(f"not exported: {report.summary()}", file=sys.stderr)
        return None
    return report


def emit(data: bytes, output: Path | None, done: str) -> None:
    """``data`` to stdout, or to ``output`` by the output-path rules, then ``wrote FILE (done)``."""
    from ..export import write_output

    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        write_output(output, data)
        print(f"wrote {output} ({done})")
