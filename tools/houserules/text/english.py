"""Common English words (``english.txt``): a word listed there is a real word, so the search's
spelling correction never turns it into another ("shaft" is not a misspelt "shift", nor "shooting"
a misspelt "showing"). Read once, and only when a correction is about to replace a word."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

WORDS_FILE = Path(__file__).with_name("english.txt")


@lru_cache(maxsize=1)
def common_words() -> frozenset[str]:
    """The listed words (lowercase ASCII letters, four or more)."""
    lines = WORDS_FILE.read_text(encoding="utf-8").splitlines()
    return frozenset(line for line in lines if line and not line.startswith("#"))


@lru_cache(maxsize=1)
def _listing() -> str:
    """The file as text (one word a line, newline-ended), each line between newlines."""
    return "\n" + WORDS_FILE.read_text(encoding="utf-8")


def is_common(word: str) -> bool:
    """Whether ``word`` (folded, lowercase) is a common English word: a line of the file, not a comment.

    The file is searched as text: a correction asks about a word or two, and making the set of
    :func:`common_words` costs a cold search 9 ms.

    >>> is_common("shaft"), is_common("elevatr"), is_common("shaf"), is_common("")
    (True, False, False, False)
    """
    return bool(word) and "\n" not in word and not word.startswith("#") and f"\n{word}\n" in _listing()
