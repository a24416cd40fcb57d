"""The committed JSON Schemas are the ones the loader uses, and editors are pointed at them."""

from __future__ import annotations

import json

import pytest

from conftest import DATA, ROOT
from houserules.data.reading import schema, vocab
from houserules.data.reading.schemaparts import LINE


@pytest.mark.parametrize("name", sorted(schema.SCHEMAS))
def test_committed_schema_is_current(name):
    committed = ROOT / "tools/houserules/schema" / f"{name}.schema.json"
    assert committed.read_text(encoding="utf-8") == schema.schema_text(name), (
        "run 'houserules schema --write' and commit the result"
    )


def test_schema_enums_come_from_the_vocabularies():
    entry = json.loads(schema.schema_text("entry"))
    assert entry["properties"]["kind"]["enum"] == list(vocab.KINDS)
    assert entry["properties"]["authority"]["enum"] == list(vocab.AUTHORITIES)
    assert entry["additionalProperties"] is False


def test_editor_settings_map_data_files_to_schemas():
    settings = json.loads((ROOT / ".vscode/settings.json").read_text(encoding="utf-8"))
    mapping = settings["yaml.schemas"]
    assert mapping["tools/houserules/schema/entry.schema.json"][0] == "rules_data/*/entries/*.yaml"
    assert "examples/house-rules/profile.yaml" in mapping["tools/houserules/schema/profile.schema.json"]
    assert mapping["tools/houserules/schema/game.schema.json"] == ["rules_data/*/game.yaml"]
    assert mapping["tools/houserules/schema/glossary.schema.json"] == ["rules_data/*/glossary.yaml"]


@pytest.mark.parametrize("path", sorted(DATA.glob("*/entries/*.yaml"))[:1] + sorted(DATA.glob("*/game.yaml"))[:1])
def test_data_files_carry_a_schema_modeline(path):
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# yaml-language-server: $schema=")
    target = (path.parent / first.split("=", 1)[1]).resolve()
    assert target.is_file(), target


# -- the fast paths agree with the strict ones ---------------------------------------------------

from houserules.data.reading import acceptor, validate, yamlload  # noqa: E402
from houserules.data.reading import safefile as files  # noqa: E402

ENTRY_FILES = sorted(DATA.glob("*/entries/*.yaml"))


def _mutations(data: dict):
    """The entry itself and small breakages of it: a missing, unknown or mistyped field."""
    yield data
    for key in list(data):
        yield {k: v for k, v in data.items() if k != key}
        yield {**data, key: 12345}
    yield {**data, "colour": "red"}
    yield {**data, "confidence": "uncertain"}
    yield {**data, "aliases": ["x", "x"]}
    yield {**data, "code": "bh-a1"}


@pytest.mark.parametrize("path", ENTRY_FILES[::7], ids=lambda p: p.stem)
def test_fast_schema_check_agrees_with_jsonschema(path):
    data = yamlload.load(path).data
    for variant in _mutations(data):
        strict = not list(validate._validator("entry").iter_errors(variant))
        assert validate.is_valid_fast(variant, "entry") == strict, variant


#: Values put in place of any value of a document: each breaks some schema somewhere.
_ODD_VALUES = [
    12345,
    1.5,
    True,
    None,
    "",
    " ",
    "x" * 20001,
    "BH-A13",
    "betrayal:vault",
    "2026-11-30",
    [],
    {},
    ["x"],
    {"zh": "字"},
]


def _deep_mutations(data, depth=0):
    """Every value of ``data`` in turn replaced, removed or added to: the broken documents a hand
    can write, at every depth (fewer odd values deeper down, where most values are texts)."""
    odd_values = _ODD_VALUES if depth < 1 else _ODD_VALUES[::3]
    yield data
    if isinstance(data, dict):
        yield {**data, "colour": "red"}
        for key, value in data.items():
            yield {k: v for k, v in data.items() if k != key}
            for odd in odd_values:
                yield {**data, key: odd}
            for variant in _deep_mutations(value, depth + 1):
                if variant is not value:
                    yield {**data, key: variant}
    elif isinstance(data, list):
        yield []
        if data:
            yield data + data[:1]  # an item twice
        for index, value in enumerate(data):
            for odd in odd_values[:6]:
                yield data[:index] + [odd] + data[index + 1 :]
            for variant in _deep_mutations(value, depth + 1):
                if variant is not value:
                    yield data[:index] + [variant] + data[index + 1 :]


_SAMPLES = (
    [(path, "entry") for path in ENTRY_FILES[::40]]
    + [(path, "game") for path in sorted(DATA.glob("*/game.yaml"))[:1]]
    + [(path, "glossary") for path in sorted(DATA.glob("*/glossary.yaml"))[:1]]
    + [(path, "synonyms") for path in sorted(DATA.glob("*/synonyms.yaml"))[:1]]
)


def _trimmed(data):
    """``data`` with every list cut to its first two items (a game's contents, a glossary's terms)."""
    if isinstance(data, dict):
        return {key: _trimmed(value) for key, value in data.items()}
    if isinstance(data, list):
        return [_trimmed(value) for value in data[:2]]
    return data


@pytest.mark.parametrize(("path", "name"), _SAMPLES, ids=lambda v: getattr(v, "stem", v))
def test_the_acceptor_answers_as_jsonschema_at_every_depth(path, name):
    accept = validate._fast_validator(name)
    strict = validate._validator(name)
    count = 0
    for variant in _deep_mutations(_trimmed(yamlload.load(path).data)):
        assert accept(variant) == strict.is_valid(variant), variant
        count += 1
    assert count > 50


@pytest.mark.parametrize("name", sorted(schema.SCHEMAS))
def test_every_schema_compiles_to_an_acceptor(name):
    # Not left to jsonschema alone: a keyword the acceptor cannot read would make every check slow.
    assert acceptor.compile_schema(schema.SCHEMAS[name]())({}) is False


def test_true_false_and_null_are_only_themselves_in_an_enum():
    accept = acceptor.compile_schema({"enum": ["a", True, None]})
    assert [accept(v) for v in ("a", True, None, 1, 0, False, "b", ["a"], {})] == [True, True, True] + [False] * 6


@pytest.mark.parametrize(
    "part",
    [
        {"type": "integer"},
        {"type": ["string", "null"]},
        {"format": "date"},
        {"enum": [1, 2]},
        {"items": [{}]},
        {"$ref": "#/$defs/none"},
    ],
)
def test_an_unread_keyword_is_refused_when_compiling(part):
    with pytest.raises(acceptor.Unsupported):
        acceptor.compile_schema({"type": "object", "properties": {"a": part}})


def test_an_if_is_answered_exactly_or_not_compiled():
    both = {"if": {"required": ["a"]}, "then": {"required": ["b"]}, "else": {"required": ["c"]}}
    accept = acceptor.compile_schema(both)
    assert [accept({"a": 1, "b": 2}), accept({"a": 1}), accept({"c": 1}), accept({})] == [True, False, True, False]
    with pytest.raises(acceptor.Unsupported):  # its "maybe" would be read as "no"
        acceptor.compile_schema({"if": {"uniqueItems": True}, "then": {}})
    with pytest.raises(acceptor.Unsupported):  # a definition may have been compiled with a "maybe"
        acceptor.compile_schema({"if": {"$ref": "#/$defs/d"}, "then": {}, "$defs": {"d": {"uniqueItems": True}}})


def test_libyaml_events_read_like_the_python_events():
    """Every data file parses to the same values, lines, literal starts and texts from either parser's events.

    (Text the two parsers might read differently, such as a '?' in a flow collection, is left to the Python one.)"""
    paths = sorted(DATA.rglob("*.yaml"))
    fast_count = 0
    for path in paths:
        text = files.read_text(path)
        fast = yamlload._parse_fast(text)
        if fast is None:
            continue
        fast_count += 1
        strict = yamlload._parse_strict(text)
        assert (fast.data, fast.lines, fast.literal_starts, fast.found_texts) == (
            strict.data,
            strict.lines,
            strict.literal_starts,
            strict.found_texts,
        ), path
        assert list(fast.texts()) == list(yamlload.text_fields(fast.data)), path
    assert fast_count > len(paths) * 0.8


# -- patterns match whole strings, in Python and in editors' JavaScript ---------------------------


def _patterns(node) -> set[str]:
    if isinstance(node, dict):
        found = {node["pattern"]} if isinstance(node.get("pattern"), str) else set()
        return found.union(*(_patterns(value) for value in node.values()))
    if isinstance(node, list):
        return set().union(*(_patterns(value) for value in node))
    return set()


PATTERNS = sorted(set().union(*(_patterns(json.loads(schema.schema_text(name))) for name in schema.SCHEMAS)))
#: A value each pattern accepts, and what an impostor adds to it.
GOOD_VALUES = ["alpha", "demo:alpha", "TG-A1", "TG", "2026-11-30", "0123456789ab", "seed.txt", "https://x"]
IMPOSTORS = ["{}\n", "{}\r\n", "{}\n\n", "\n{}", "{}\u2028", "{} "]


def _javascript() -> str | None:
    import shutil

    found = shutil.which("node")
    if found:
        return found
    try:  # Playwright (a test dependency) carries a Node.js of its own
        from playwright._impl._driver import compute_driver_executable

        return compute_driver_executable()[0]
    except Exception:
        return None


def test_every_pattern_is_anchored_at_both_ends_or_a_prefix():
    assert PATTERNS
    for pattern in PATTERNS:
        assert pattern.startswith("^"), pattern
        assert pattern.endswith("$(?![\\s\\S])") or pattern == "^https://", pattern


def test_python_rejects_impostor_values():
    import re

    anchored = [p for p in PATTERNS if p.endswith("$(?![\\s\\S])")]
    assert len(anchored) >= 6  # slug, reference, code, prefix, date, hash, document id
    for pattern in anchored:
        accepted = [v for v in GOOD_VALUES if re.search(pattern, v)]
        assert accepted, pattern
        # A line of text may end in a space; it may not hold a line break.
        impostors = [i for i in IMPOSTORS if i != "{} "] if pattern == LINE else IMPOSTORS
        for value in accepted:
            for impostor in impostors:
                assert not re.search(pattern, impostor.format(value)), (pattern, impostor.format(value))


def test_javascript_reads_every_pattern_as_python_does():
    """What editors (the YAML language server, in JavaScript) accept is what the checker accepts."""
    import re
    import subprocess

    node = _javascript()
    if node is None:
        pytest.skip("no JavaScript engine (node) to compare with")
    values = [impostor.format(v) for v in GOOD_VALUES for impostor in ["{}", *IMPOSTORS]]
    script = (
        "const [patterns, values] = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "console.log(JSON.stringify(patterns.map(p => [new RegExp(p, 'u'), new RegExp(p)].map("
        "r => values.map(v => r.test(v))))));"
    )
    result = subprocess.run(
        [node, "-e", script],
        input=json.dumps([PATTERNS, values]),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    javascript = json.loads(result.stdout)
    python = [[re.search(p, v) is not None for v in values] for p in PATTERNS]
    for pattern, (with_u, without_u), expected in zip(PATTERNS, javascript, python):
        assert with_u == expected and without_u == expected, pattern
    assert any(any(row) for row in python)  # some values match: the comparison is not vacuous
