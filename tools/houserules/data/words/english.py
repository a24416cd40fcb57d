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


def is_common(word: str) -> bool:
    """Whether ``word`` (folded, lowercase) is a common English word.

    >>> is_common("shaft"), is_common("elevatr")
    (True, False)
    """
    return word in common_words()
