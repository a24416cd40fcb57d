"""Schema validation of a data file's document, with messages a contributor can act on.

Valid documents pass a compiled fast check; any other is validated again by
jsonschema, whose errors :func:`describe` turns into a problem and its fix.
:func:`has_visible_text` tells a text that shows nothing (spaces, zero-width characters).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...errors import Problem, display_path
from . import acceptor
from . import schema as schemas
from . import schemaparts as patterns
from .visibletext import has_visible_text as has_visible_text  # part of this module's interface
from .yamlload import Document

if TYPE_CHECKING:  # imported where a file fails the fast check: a valid knowledge base loads without it
    import jsonschema

#: What the patterns of the schema mean, for messages people can act on.
FORMS = {
    patterns.SLUG: ("an id", "use lowercase letters, digits and single hyphens, e.g. mystic-elevator"),
    patterns.REF: (
        "a reference game:id",
        "write game:id in lowercase letters, digits and hyphens, e.g. betrayal:vault",
    ),
    patterns.OVERRIDE: (
        "an entry or question game:id or game:id/question-id",
        "write game:id (its one-line answer) or game:id/question-id in lowercase letters, digits and hyphens, "
        "e.g. betrayal:mystic-elevator-ruling/crash",
    ),
    patterns.CODE: ("a code", "write the game's prefix, a hyphen and capital letters or digits, e.g. BH-A13"),
    patterns.CODE_PREFIX: ("a code prefix", "write 2 to 4 capital letters, e.g. BH"),
    patterns.DATE: ("a date", "write the date as YYYY-MM-DD, e.g. 2026-11-30"),
    patterns.HASH: ("a source hash", "run 'houserules stamp game:id' to write it"),
    patterns.DOC_ID: ("a document id", "use letters, digits, '.', '_' and '-', e.g. rulebook-2e.pdf"),
    patterns.URL: ("an https:// address", "write one https:// address, without spaces or line breaks"),
}

#: A character no line of text holds (:data:`~.schemaparts.LINE`), and what people call it.
_LINE_BREAK = re.compile(f"[{patterns.LINE_BREAKS}]")
_BREAK_NAMES = {
    "\n": "a line break",
    "\r": "a carriage return",
    "\t": "a tab",
    "\v": "a vertical tab",
    "\f": "a form feed",
    "\x85": "a next-line character",
    "\u2028": "a line separator",
    "\u2029": "a paragraph separator",
}


def line_break_problem(where: str, text: str) -> tuple[str, str] | None:
    r"""The problem and fix of a text that should be one line and holds a line break (None when it does not).

    >>> print(line_break_problem("title.en", "Tower\u2028Ignore the rules")[0])
    field 'title.en' holds a line separator (U+2028), but it is one line of text: 'Tower\u2028Ignore the rules'
    """
    found = _LINE_BREAK.search(text)
    if found is None:
        return None
    char = found.group()
    what = f"{_BREAK_NAMES.get(char, 'a control character')} (U+{ord(char):04X})"
    return (
        f"field '{where}' holds {what}, but it is one line of text: '{_escaped(text)}'",
        f"write '{where}' on one line: remove the U+{ord(char):04X} (in YAML a '|' or '>' block, a blank line "
        "inside quotes or an escape such as \\n or \\u2028 writes one)",
    )


def _escaped(text: str) -> str:
    """``text`` with line breaks and control characters as escapes, the rest as written."""
    return _LINE_BREAK.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


@cache
def _validator(name: str) -> jsonschema.protocols.Validator:
    import jsonschema

    schema = schemas.SCHEMAS[name]()
    cls = jsonschema.validators.validator_for(schema)
    # Each "$ref" costs a registry lookup on every use (half of a large check's
    # validation time): the definitions written in place validate the same, faster.
    return cls(inline_refs(schema, schema.get("$defs", {})))


def inline_refs(node: Any, defs: dict[str, Any], within: tuple[str, ...] = ()) -> Any:
    """``node`` with each ``{"$ref": "#/$defs/NAME"}`` replaced by that definition.

    Other keywords beside a ``$ref`` apply too (``allOf``); a definition that
    refers to itself keeps its ``$ref``, which still resolves (``$defs`` stays).

    >>> inline_refs({"items": {"$ref": "#/$defs/id"}}, {"id": {"type": "string"}})
    {'items': {'type': 'string'}}
    """
    if isinstance(node, list):
        return [inline_refs(item, defs, within) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref", "")
    name = ref.removeprefix("#/$defs/")
    if ref.startswith("#/$defs/") and name in defs and name not in within:
        target = inline_refs(defs[name], defs, within + (name,))
        rest = {key: value for key, value in node.items() if key != "$ref"}
        return {"allOf": [target, inline_refs(rest, defs, within)]} if rest else target
    return {key: value if key == "$defs" else inline_refs(value, defs, within) for key, value in node.items()}


def field_name(path: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in path) or "(top level)"


def describe(error: jsonschema.ValidationError) -> tuple[tuple[Any, ...], str, str]:
    """A schema error as (data path, problem, fix) in words a contributor can act on."""
    path = tuple(error.absolute_path)
    where = field_name(path)
    kind = error.validator
    # Typed as "unset" until the error is reported: here it always is.
    schema: Any = error.schema
    instance: Any = error.instance
    value: Any = error.validator_value
    if kind == "required":
        missing = error.message.split("'")[1]
        owner = f" in {where}" if path else ""
        return path, f"missing required field '{missing}'{owner}", f"add '{missing}:' (see CONTRIBUTING.md)"
    if kind == "additionalProperties":
        allowed = sorted(schema.get("properties", {}))
        extra = sorted(set(instance) - set(allowed))
        name = extra[0] if extra else "?"
        return (
            path + (name,),
            f"unknown field '{field_name(path + (name,))}'",
            f"remove it or use one of: {', '.join(allowed)}",
        )
    if kind == "type":
        expected = error.validator_value
        got = type(error.instance).__name__
        return (
            path,
            f"field '{where}' must be {_article(expected)}, not {got}",
            f"write '{where}' as {_article(expected)}",
        )
    if kind == "enum":
        return (
            path,
            f"field '{where}' has {error.instance!r}, which is not allowed",
            f"use one of: {', '.join(map(str, value))}",
        )
    if kind == "pattern" and error.validator_value == patterns.LINE:
        found = line_break_problem(where, instance)
        if found is not None:
            return path, *found
    if kind == "pattern" and error.validator_value in FORMS:
        form, fix = FORMS[error.validator_value]
        return path, f"field '{where}' value {error.instance!r} is not {form}", fix
    if kind == "pattern":
        return (
            path,
            f"field '{where}' value {error.instance!r} has the wrong form",
            f"match the pattern {error.validator_value}",
        )
    if kind in {"minLength", "minItems", "minProperties"}:
        return path, f"field '{where}' is empty", f"fill in '{where}' or remove it"
    if kind == "maxLength":
        return path, f"field '{where}' is longer than {error.validator_value} characters", "shorten it"
    if kind == "uniqueItems":
        return path, f"field '{where}' lists the same item twice", "remove the repeat"
    if kind == "propertyNames":
        return path, f"field '{where}' has a key that is not allowed", error.message
    return path, f"field '{where}': {error.message}", "fix the value (see the JSON Schema)"


def _article(expected: Any) -> str:
    names = {
        "string": "a text",
        "object": "a mapping",
        "array": "a list",
        "integer": "a whole number",
        "boolean": "true or false",
        "number": "a number",
        "null": "empty",
    }
    if isinstance(expected, list):
        return " or ".join(str(names.get(e, e)) for e in expected)
    return str(names.get(expected, expected))


@cache
def _fast_validator(name: str) -> Callable[[Any], bool]:
    """Whether a document is valid, answered fast: the schema compiled by :mod:`.acceptor` to a few
    small functions (a twentieth of jsonschema's time on a valid entry, two thirds of fastjsonschema's).

    Used only to let valid documents through; any document it refuses is validated again by
    jsonschema, whose errors become the messages. A schema with a keyword the acceptor does not
    read is left to jsonschema alone (tests/test_schema.py fails if one of ours is).
    """
    try:
        return acceptor.compile_schema(schemas.SCHEMAS[name]())
    except acceptor.Unsupported:
        return _validator(name).is_valid


def is_valid_fast(data: Any, schema_name: str) -> bool:
    return _fast_validator(schema_name)(data)


def validate(doc: Document, schema_name: str, path: Path, label: str) -> list[Problem]:
    """Schema problems of one document, in file order."""
    if is_valid_fast(doc.data, schema_name):
        return []
    problems = []
    for error in _validator(schema_name).iter_errors(doc.data):
        data_path, problem, fix = describe(error)
        problems.append(Problem(display_path(path), doc.line(data_path), label, problem, fix))
    return sorted(set(problems))
