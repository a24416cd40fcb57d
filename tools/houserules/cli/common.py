"""What several commands share: the data loaded and checked once, its output written to stdout or a file."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import HouserulesError, written_path

if TYPE_CHECKING:
    from ..check import Report
    from ..check.profile import Profile
    from ..data.reading.model import KnowledgeBase


@contextlib.contextmanager
def reading(data: Path, command: str) -> Iterator[None]:
    """Hold the data folder's lock shared while ``command`` reads it (a build): no import, stamp or
    ``new`` writes into it meanwhile (they wait, then stop with a message naming this command)."""
    from ..data.authoring.transaction import LOCK_WAIT, LockWords, folder_lock

    if not data.is_dir():  # the check says the folder is missing; no lock file is left beside the name
        yield
        return
    words = LockWords(f"the lock of {data}", f"run 'houserules {command}' again")
    with folder_lock(data, shared=True, wait=LOCK_WAIT, holder=f"houserules {command}", words=words):
        yield


def checked(data: Path) -> Report:
    """Load and check the data once, as ``houserules build`` does; print its problems; stop on errors."""
    from ..check import run as run_check

    report = run_check(data)
    for problem in report.problems:
        print(problem, file=sys.stderr)
    if report.errors:
        raise HouserulesError(f"the data has {len(report.errors)} problems; fix them first ({report.summary()})")
    return report


def profiled(report: Report, profile: Path | None) -> tuple[KnowledgeBase, Profile | None]:
    """The checked data with a group's house rules (``--profile FILE``), as ``houserules pdf --profile`` prints them."""
    if profile is None:
        return report.kb, None
    from ..check.profile import load_profile

    found, kb = load_profile(profile, report.kb)
    return kb, found


NO_PRECOMPRESS_HELP = (
    "write no .gz and .br copies of the text files (they serve a host that sends them, as GitLab Pages, nginx and "
    "Caddy can; GitHub Pages compresses by itself)"
)
PROFILE_HELP = (
    "a group's profile: its house rules on the site and in the PDFs, and every official ruling they "
    "change says so (see examples/house-rules/)"
)


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
    from ..export import OUTPUT_OPTION, write_output

    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        write_output(output, data, option=OUTPUT_OPTION)
        print(f"wrote {written_path(output)} ({done})")
