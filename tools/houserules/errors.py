"""One error type for the project and one shape for every problem it reports."""

from __future__ import annotations

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
