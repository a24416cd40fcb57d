"""Whether a text shows anything: what the check calls blank, and what the command line calls an empty query.

Light on purpose (the standard library only): a search imports it without the data model.
"""

from __future__ import annotations

import re
import unicodedata

#: Characters that show nothing on their own besides spaces, controls and format characters
#: (zero-width space and joiners, bidi marks): the other default-ignorable code points
#: (Hangul fillers, variation selectors, tag characters) and the blank Braille pattern.
_INVISIBLE = re.compile(
    "[\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u2800\u3164\ufe00-\ufe0f\uffa0"
    "\U0001bca0-\U0001bca3\U000e0000-\U000e0fff]"
)
_INVISIBLE_CATEGORIES = {"Zs", "Zl", "Zp", "Cc", "Cf", "Cs"}


def has_visible_text(text: str) -> bool:
    """Whether ``text`` shows anything: not only spaces or invisible characters.

    >>> has_visible_text("\u200b \u3000"), has_visible_text("\u200d塔楼")
    (False, True)
    """
    first = text[:1]
    if "\u4e00" <= first <= "\u9fff" or first.isascii() and first.isalnum():
        return True  # most texts start with a letter, a digit or a Chinese character
    return any(
        not (c.isspace() or unicodedata.category(c) in _INVISIBLE_CATEGORIES or _INVISIBLE.match(c)) for c in text
    )
