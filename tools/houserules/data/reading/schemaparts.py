"""The building blocks of the JSON Schemas: whole-string patterns and small constructors.

The patterns are also what the checker and the loader match ids, codes and dates with.
"""

from __future__ import annotations

from typing import Any


def whole(pattern: str) -> str:
    r"""A pattern that matches whole strings only, alike in Python and in editors' JavaScript.

    JSON Schema tests a pattern with a search; a final ``$`` also matches before a
    trailing newline in Python, so ``^[a-z]+$`` would let ``"alpha\n"`` through. The
    lookahead after it (no character follows) means the same in both engines.

    >>> import re; bool(re.search(whole("[a-z]+"), "alpha\n"))
    False
    """
    return rf"^{pattern}$(?![\s\S])"


SLUG = whole(r"[a-z0-9]+(-[a-z0-9]+)*")
REF = whole(r"[a-z0-9]+(-[a-z0-9]+)*:[a-z0-9]+(-[a-z0-9]+)*")
#: What a house rule overrides: an entry (``game:id``) or one of its questions (``game:id/question-id``).
OVERRIDE = whole(r"[a-z0-9]+(-[a-z0-9]+)*:[a-z0-9]+(-[a-z0-9]+)*(/[a-z0-9]+(-[a-z0-9]+)*)?")
CODE = whole(r"[A-Z]{2,4}-[A-Z0-9]{1,8}(-[A-Z0-9]{1,8})?")
CODE_PREFIX = whole(r"[A-Z]{2,4}")
DATE = whole(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
HASH = whole(r"[0-9a-f]{12}")
DOC_ID = whole(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
#: What no line of text holds: a line break or another line or paragraph separator (LF, CR, VT, FF,
#: U+0085, U+2028, U+2029), a tab or any other control character (C0, DEL, C1).
LINE_BREAKS = r"\x00-\x1f\x7f-\x9f\u2028\u2029"
#: One line of text: what a title, a name, a label, an alias or a glossary term is, shown on one line
#: in every output (a terminal's too, where a line break in it would forge a line of its own).
LINE = whole(rf"[^{LINE_BREAKS}]*")
#: An https:// address, on one line and without spaces.
URL = whole(rf"https://[^ {LINE_BREAKS}]+")


def enum_of(values: Any) -> dict[str, Any]:
    return {"enum": list(values)}


def text_field(**extra: Any) -> dict[str, Any]:
    """A text of any number of lines (Markdown, a quoted passage, a card's printed text)."""
    return {"type": "string", "minLength": 1, **extra}


def line_field(**extra: Any) -> dict[str, Any]:
    """One line of text (:data:`LINE`)."""
    return text_field(pattern=LINE, **extra)


def closed_object(properties: dict[str, Any], required: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        schema["required"] = required
    schema.update(extra)
    return schema


def published(name: str, title: str, schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """A complete JSON Schema document with its identity and shared definitions."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://houserules.invalid/schema/{name}.schema.json",
        "title": title,
        **schema,
        "$defs": defs,
    }
