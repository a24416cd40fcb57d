"""A JSON Schema compiled to one small Python function per schema object: whether a document is valid.

The check runs every file through its schema, and almost every file is valid: what is needed is
the fastest answer to "valid?", the messages only when it is not (jsonschema gives those, see
:mod:`houserules.data.reading.validate`). A general compiler (fastjsonschema) writes code that
counts, copies and reports at every value; the schemas here use a few keywords, each of which
becomes one test on the value (``isinstance(x, str)``, a length, a compiled pattern, a
``frozenset`` of allowed words, a table of the properties' functions by key).

The answer is exact for the values a reader gives (dicts, lists, str, int, float, bool, None):
True only when jsonschema finds no error, False when it finds one (or, for ``uniqueItems`` over
lists and mappings, when it may: jsonschema decides those). A keyword this compiler does not
know, or a form of one it does not read, raises :class:`Unsupported` when compiling, so a schema
that grows a new keyword is left to jsonschema rather than passed unchecked (tests/test_schema.py
compares the answers with jsonschema's on documents broken at every depth).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

#: Keywords that say nothing about validity.
_NOTES = frozenset({"$schema", "$id", "$defs", "$comment", "title", "description", "examples", "default"})
_TYPES = {"object": "dict", "array": "list", "string": "str"}


class Unsupported(ValueError):
    """The schema uses a keyword (or a form of one) this compiler does not read."""


class _Compiler:
    def __init__(self, root: dict[str, Any]):
        self.root = root
        self.lines: list[str] = []
        self.names: dict[str, Any] = {}
        self.defs: dict[str, str] = {}  # "#/$defs/x" -> its function's name
        self.aliases: dict[str, str] = {}  # a definition's name -> the function written for it
        self.count = 0
        self.exact = 0  # inside an "if": every answer must be exact (no False for "maybe")
        self.tables: list[str] = []  # the constants that are tables of properties' functions

    def constant(self, value: Any) -> str:
        name = f"_c{len(self.names)}"
        self.names[name] = value
        return name

    def function(self, schema: Any) -> str:
        """The name of a new function ``(x) -> bool`` for ``schema``."""
        if schema is True or schema == {}:
            return "_any"
        if not isinstance(schema, dict):
            raise Unsupported(f"schema {schema!r}")
        ref = schema.get("$ref")
        if ref is not None and set(schema) - _NOTES == {"$ref"}:
            return self.ref(ref)
        self.count += 1
        name = f"_s{self.count}"
        body = self.body(schema)
        self.lines += [f"def {name}(x):", *("    " + line for line in body), "    return True", ""]
        return name

    def ref(self, ref: str) -> str:
        if self.exact:  # a definition's function may answer False for "maybe" (see "if" in body)
            raise Unsupported(f"$ref {ref!r} inside an 'if'")
        if ref in self.defs:
            return self.defs[ref]
        if not ref.startswith("#/$defs/") or ref.removeprefix("#/$defs/") not in self.root.get("$defs", {}):
            raise Unsupported(f"$ref {ref!r}")
        # A name first, the function after: a definition may refer to itself.
        self.count += 1
        name = self.defs[ref] = f"_s{self.count}"
        self.aliases[name] = self.function(self.root["$defs"][ref.removeprefix("#/$defs/")])
        return name

    def body(self, schema: dict[str, Any]) -> list[str]:
        """Statements that ``return False`` when ``x`` breaks ``schema``."""
        unknown = set(schema) - _NOTES - _KNOWN
        if unknown:
            raise Unsupported(f"keywords {sorted(unknown)}")
        out: list[str] = []
        kind = schema.get("type")
        if kind is not None:
            if not isinstance(kind, str) or kind not in _TYPES:
                raise Unsupported(f"type {kind!r}")
            out.append(f"if not isinstance(x, {_TYPES[kind]}): return False")
        if "$ref" in schema:
            out.append(f"if not {self.ref(schema['$ref'])}(x): return False")
        if "enum" in schema or "const" in schema:
            allowed = schema["enum"] if "enum" in schema else [schema["const"]]
            if not isinstance(allowed, list) or not all(isinstance(v, str | bool) or v is None for v in allowed):
                raise Unsupported("enum or const of other values than texts, true, false and null")
            # A text equals a text only (and the value may be unhashable); true, false and null
            # are themselves only (jsonschema tells true from 1).
            words = self.constant(frozenset(v for v in allowed if isinstance(v, str)))
            tests = [f"isinstance(x, str) and x in {words}"] + [
                f"x is {v!r}" for v in allowed if not isinstance(v, str)
            ]
            out.append(f"if not ({' or '.join(tests)}): return False")
        out += self.string(schema, kind == "string")
        out += self.array(schema, kind == "array")
        out += self.object(schema, kind == "object")
        for part in schema.get("allOf", []):
            out.append(f"if not {self.function(part)}(x): return False")
        if "if" in schema:
            self.exact += 1
            test = self.function(schema["if"])
            self.exact -= 1
            if "then" in schema:
                out.append(f"if {test}(x) and not {self.function(schema['then'])}(x): return False")
            if "else" in schema:
                out.append(f"if not {test}(x) and not {self.function(schema['else'])}(x): return False")
        return out

    def string(self, schema: dict[str, Any], known: bool) -> list[str]:
        tests = _length_bounds(schema, "minLength", "maxLength")
        if "pattern" in schema:
            tests.append(f"not {self.constant(re.compile(schema['pattern']))}.search(x)")
        return _guarded(tests, known, "str")

    def array(self, schema: dict[str, Any], known: bool) -> list[str]:
        tests = _length_bounds(schema, "minItems", "maxItems")
        if schema.get("uniqueItems") is True and not self.exact:
            tests.append("not _unique(x)")
        elif schema.get("uniqueItems") not in (None, False):
            raise Unsupported("uniqueItems")
        if "items" in schema:
            if not isinstance(schema["items"], dict):
                raise Unsupported("items as a list")
            tests.append(f"not all(map({self.function(schema['items'])}, x))")
        return _guarded(tests, known, "list")

    def object(self, schema: dict[str, Any], known: bool) -> list[str]:
        tests = []
        required = schema.get("required", [])
        if required:
            tests.append(f"not {self.constant(frozenset(required))} <= x.keys()")
        if "minProperties" in schema:
            tests.append(f"len(x) < {int(schema['minProperties'])}")
        if "propertyNames" in schema:
            tests.append(f"not all(map({self.function(schema['propertyNames'])}, x))")
        properties = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        out = _guarded(tests, known, "dict")
        if properties or extra is not True:
            # A table of the properties' functions, by key: filled in once they all exist.
            table = self.constant({key: self.function(value) for key, value in properties.items()})
            self.tables.append(table)
            other = self.constant(None) if extra is False else self.function(extra)
            loop = [
                "for k, v in x.items():",
                f"    f = {table}.get(k, {other})",
                "    if f is None or not f(v): return False",
            ]
            out += loop if known else ["if isinstance(x, dict):", *("    " + line for line in loop)]
        return out

    def compile(self) -> Callable[[Any], bool]:
        top = self.function(self.root)
        namespace: dict[str, Any] = {"_any": lambda x: True, "_unique": _unique}
        exec("\n".join(self.lines), namespace)  # noqa: S102 - code written above from the schema
        for name, target in self.aliases.items():
            seen = {name}
            while target in self.aliases:  # a definition that is only a reference to another
                if target in seen:
                    raise Unsupported(f"a definition that refers only to itself ({name})")
                seen.add(target)
                target = self.aliases[target]
            namespace[name] = namespace[target]
        namespace.update(self.names)
        for table in self.tables:  # the functions of the properties, by their names
            namespace[table] = {key: namespace[f] for key, f in self.names[table].items()}
        accept: Callable[[Any], bool] = namespace[top]
        return accept


_KNOWN = frozenset(
    {
        "type", "$ref", "enum", "const", "minLength", "maxLength", "pattern", "minItems", "maxItems",
        "uniqueItems", "items", "required", "minProperties", "propertyNames", "properties",
        "additionalProperties", "allOf", "if", "then", "else",
    }
)  # fmt: skip


def _length_bounds(schema: dict[str, Any], least: str, most: str) -> list[str]:
    """The tests that refuse a length outside ``schema[least]``..``schema[most]`` (either may be absent)."""
    tests = []
    if least in schema:
        tests.append(f"len(x) < {int(schema[least])}")
    if most in schema:
        tests.append(f"len(x) > {int(schema[most])}")
    return tests


def _guarded(tests: list[str], known: bool, kind: str) -> list[str]:
    """``tests`` as one statement, applied only to a value of ``kind`` (as JSON Schema applies them)."""
    if not tests:
        return []
    test = " or ".join(tests)
    return [f"if {test}: return False" if known else f"if isinstance(x, {kind}) and ({test}): return False"]


def _unique(items: list[Any]) -> bool:
    """Whether the items differ. Items Python finds different jsonschema finds different too; a list
    or mapping among them, or two Python finds equal (jsonschema tells ``true`` from ``1``), is left
    to jsonschema (False)."""
    try:
        return len(set(items)) == len(items)
    except TypeError:  # an unhashable item
        return False


def compile_schema(schema: dict[str, Any]) -> Callable[[Any], bool]:
    """``schema`` as a function ``(document) -> bool``; :class:`Unsupported` when it cannot be read."""
    return _Compiler(schema).compile()
