"""Entry codes as people type them: the forms the site's go page (go.html) accepts.

The go page's script (site_overrides/assets/javascripts/houserules.js, ``parseCode`` and
``loose``) and :func:`find_code` accept the same forms, so ``houserules show`` takes whatever
a link by code takes: any case, spaces, underscores, dots, colons or dashes of any kind between
prefix and number, full-width characters, a missing separator, a leading ``#``, percent-escapes,
zero-padded or split numbers (A13 = A013 = A-13), a question after ``/`` or ``#``, and a whole
copied link (``https://…/go.html#BH-A13``)::

    BH-A13   bh-a13   bh a13   BH_A13   bha13   ｂｈ－ａ１３   #BH-A13   BH-A013
    bh-a13/must-run   BH-A13#must-move   bh a13 / Must Run
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import unquote

if TYPE_CHECKING:
    from .model import Entry, KnowledgeBase

_SEPARATORS = re.compile(r"[\s_.·:\-\u2010-\u2015]+")
_QUESTION_SPACE = re.compile(r"[\s_]+")


@dataclass(frozen=True)
class TypedCode:
    code: str  # upper case, prefix and number joined by one "-" where a known prefix allows
    question: str  # "" or the question part, lower case, spaces as "-"


def parse_code(text: str, prefixes: set[str] | frozenset[str] = frozenset()) -> TypedCode:
    """``text`` read as a code and an optional question, as the go page reads it.

    >>> parse_code("bh a13 / Must Run", {"BH"})
    TypedCode(code='BH-A13', question='must-run')
    >>> parse_code("ｂｈａ１３", {"B", "BH"}).code
    'BH-A13'
    >>> parse_code("%23bh%E2%80%94a13").code
    'BH-A13'
    >>> parse_code("https://example.org/hr/go.html#BH-A13/must-run")
    TypedCode(code='BH-A13', question='must-run')
    """
    value = text.strip()
    if "go.html#" in value:  # a copied link by code: https://…/go.html#BH-A13/must-run
        value = value.split("go.html#", 1)[1]
    value = unquote(value).lstrip("#") if "%" in value else value.lstrip("#")
    value = unicodedata.normalize("NFKC", value).strip()
    cut = re.search(r"[/#]", value)
    code, question = (value[: cut.start()], value[cut.start() + 1 :]) if cut else (value, "")
    code = _SEPARATORS.sub("-", code.upper()).strip("-")
    if "-" not in code:  # "BHA13": split after the longest known prefix
        best = max((p for p in prefixes if code.startswith(p) and len(code) > len(p)), key=len, default="")
        if best:
            code = f"{best}-{code[len(best) :]}"
    question = _QUESTION_SPACE.sub("-", question.strip().lower()).strip("-")
    return TypedCode(code, question)


def loose(suffix: str) -> str:
    """A13, A013 and A-13 are one code.

    >>> loose("A-013") == loose("A13")
    True
    """
    return re.sub(r"([A-Z])0+(?=[0-9])", r"\1", suffix.replace("-", ""))


def find_code(kb: KnowledgeBase, text: str) -> tuple[Entry | None, str]:
    """The entry a typed code names and the question id asked for ("" for none or not found).

    A question may be named by its id or by the clause of the ruling it answers, as on the go page.
    """
    prefixes = {game.code_prefix for game in kb.games.values()}
    typed = parse_code(text, prefixes)
    if not typed.code:
        return None, ""
    codes = {entry.code: entry for entry in kb.entries.values()}
    entry = codes.get(typed.code)
    if entry is None:
        prefix, _, suffix = typed.code.partition("-")
        same = [
            e for c, e in codes.items() if c.partition("-")[0] == prefix and loose(c.partition("-")[2]) == loose(suffix)
        ]
        entry = same[0] if len(same) == 1 else None
    if entry is None or not typed.question:
        return entry, ""
    ids = [q.id for q in entry.questions]
    if typed.question in ids:
        return entry, typed.question
    for question in entry.questions:
        if question.source.clause == typed.question:
            return entry, question.id
    return entry, ""
