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
CODE = whole(r"[A-Z]{2,4}-[A-Z0-9]{1,8}(-[A-Z0-9]{1,8})?")
CODE_PREFIX = whole(r"[A-Z]{2,4}")
DATE = whole(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
HASH = whole(r"[0-9a-f]{12}")
DOC_ID = whole(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


def enum_of(values: Any) -> dict[str, Any]:
    return {"enum": list(values)}


def text_field(**extra: Any) -> dict[str, Any]:
    return {"type": "string", "minLength": 1, **extra}


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
