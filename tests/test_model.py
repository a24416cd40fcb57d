"""The typed model: records built once from the validated data, one definition with the JSON Schemas,
and the fast paths of the reader and the checks agreeing with the plain ones."""

from __future__ import annotations

import dataclasses
import json
import os
import types
import typing
from collections.abc import Mapping

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import FIXTURES, ROOT
from houserules.data.reading import yamlload
from houserules.data.reading.load import load
from houserules.data.reading.model import FILE_RECORDS, Entry, Question, Text
from houserules.data.reading.records import RECORDS, data_fields, is_required, key_of
from houserules.data.reading.schema import SCHEMA_DIR
from houserules.data.reading.textpolicy import markdown_shape_problem, markdown_shape_suspects

SCHEMAS = ROOT / "tools" / "houserules" / SCHEMA_DIR
GOOD = FIXTURES / "good"


# -- one definition: the records' fields are the committed schemas' properties ----------------------


def _record_of(tp: object) -> type | None:
    """The record class a field's type holds (in a tuple, a mapping or optional), if any."""
    while typing.get_origin(tp) in (typing.Union, types.UnionType, tuple, Mapping):
        inner = [a for a in typing.get_args(tp) if a not in (type(None), Ellipsis, str)]
        if not inner:
            return None
        tp = inner[-1]
    return tp if isinstance(tp, type) and dataclasses.is_dataclass(tp) and tp is not Text else None


def _object(node: dict, defs: dict) -> dict:
    """The schema object a property's schema leads to: through a reference, a list's items, a mapping's values."""
    while True:
        if "$ref" in node:
            node = defs[node["$ref"].removeprefix("#/$defs/")]
        elif node.get("type") == "array":
            node = node["items"]
        elif "properties" not in node and isinstance(node.get("additionalProperties"), dict):
            node = node["additionalProperties"]
        else:
            return node


def disagreements(cls: type, schema: dict, defs: dict, where: str) -> list[str]:
    """Where record ``cls`` and its schema object differ: properties, required fields, nested records."""
    fields = data_fields(cls)
    found = []
    keys, properties = {key_of(f) for f in fields}, set(schema.get("properties", {}))
    found += [f"{where}: schema property '{p}' has no field in {cls.__name__}" for p in sorted(properties - keys)]
    found += [f"{where}: field '{k}' of {cls.__name__} is no schema property" for k in sorted(keys - properties)]
    required = [key_of(f) for f in fields if is_required(f)]
    if required != schema.get("required", []):
        found.append(f"{where}: required {schema.get('required', [])}, but {cls.__name__} requires {required}")
    if schema.get("additionalProperties") is not False:
        found.append(f"{where}: the schema of {cls.__name__} is not closed")
    hints = typing.get_type_hints(cls)
    for f in fields:
        nested = _record_of(hints[f.name])
        if nested is not None and key_of(f) in properties:
            inner = _object(schema["properties"][key_of(f)], defs)
            found += disagreements(nested, inner, defs, f"{where}.{key_of(f)}")
    return found


@pytest.mark.parametrize("name", sorted(FILE_RECORDS))
def test_each_record_has_exactly_the_fields_of_its_committed_schema(name):
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
    assert disagreements(FILE_RECORDS[name], schema, schema["$defs"], name) == []


def test_every_record_is_checked_against_a_schema():
    seen: set[type] = set()

    def walk(cls: type) -> None:
        seen.add(cls)
        hints = typing.get_type_hints(cls)
        for f in data_fields(cls):
            if (nested := _record_of(hints[f.name])) is not None and nested not in seen:
                walk(nested)

    for cls in FILE_RECORDS.values():
        walk(cls)
    assert set(RECORDS) <= seen


def test_a_schema_property_without_a_field_is_found():
    """The comparison fails on drift either way: an added property, a dropped field, a changed requirement."""
    schema = json.loads((SCHEMAS / "entry.schema.json").read_text(encoding="utf-8"))
    defs = schema["$defs"]
    defs["question"]["properties"]["hint"] = {"type": "string"}
    del schema["properties"]["history"]
    schema["required"] = [*schema["required"], "status"]
    assert disagreements(Entry, schema, defs, "entry") == [
        "entry: field 'history' of Entry is no schema property",
        "entry: required ['id', 'code', 'kind', 'title', 'summary', 'authority', 'confidence', 'sources', 'status'], "
        "but Entry requires ['id', 'code', 'kind', 'title', 'summary', 'authority', 'confidence', 'sources']",
        "entry.questions: schema property 'hint' has no field in Question",
    ]


# -- records built once, with the lines of the file ----------------------------------------------------


@pytest.fixture(scope="module")
def kb():
    loaded = load(GOOD)
    assert loaded.problems == []
    return loaded.kb


def test_records_are_typed_frozen_and_point_at_their_lines(kb):
    entry = next(e for e in kb.entries.values() if e.questions)
    question = entry.questions[0]
    assert isinstance(question, Question) and isinstance(question.q, Text)
    raw = entry.path.read_text(encoding="utf-8").splitlines()
    assert question.q.zh in raw[entry.line("questions", 0, "q", "zh") - 1]
    assert question.id in raw[entry.line("questions", 0, "id") - 1]
    assert entry.data["questions"][0]["q"]["zh"] == question.q.zh  # the file's data stays readable
    with pytest.raises(dataclasses.FrozenInstanceError):
        question.id = "other"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        entry.title = Text("x")  # type: ignore[misc]


def test_a_text_reads_as_attributes_and_as_its_mapping():
    both, chinese = Text("塔楼", "Tower"), Text("塔楼")
    assert (both.zh, both.en, both.get("en"), both["en"], "en" in both) == ("塔楼", "Tower", "Tower", "Tower", True)
    assert (chinese.get("en"), chinese.get("en", "塔楼"), "en" in chinese, chinese.as_dict()) == (
        "",
        "塔楼",
        False,
        {"zh": "塔楼"},
    )
    with pytest.raises(KeyError):
        chinese["en"]


def test_absent_optional_fields_take_their_defaults(kb):
    entry = next(e for e in kb.entries.values() if "body" not in e.data)
    assert not entry.body and entry.body.get("zh") == ""
    plain = [e for e in kb.entries.values() if "questions" not in e.data]
    assert plain and all(e.questions == () for e in plain)


# -- fast paths agree with the plain ones --------------------------------------------------------------

YAML_PIECES = st.sampled_from(
    ["a: ", "b:", "- ", "? ", "[", "]", "{", "}", ", ", "x", "y?", "?", " ", "\n", "\n  ", ": ", "&a ", "*a", "!!str ",
     "!x ", "'q?'", '"d?"', "|\n  ", "#c?", "[[r:s]]", "1", "true", "~", "<<: ", "--- ", "...", "\t", "\\x07", "塔楼"]
)  # fmt: skip


@given(st.lists(YAML_PIECES, max_size=16).map("".join))
def test_the_fast_reader_reads_what_the_strict_reader_reads(text):
    fast = yamlload._parse_fast(text)
    if fast is None or not isinstance(fast.data, dict):
        return  # the strict reader decides; a file that holds no mapping is refused (at line 1) either way
    strict = yamlload._parse_strict(text)
    assert (fast.data, fast.lines, fast.literal_starts, fast.found_texts) == (
        strict.data,
        strict.lines,
        strict.literal_starts,
        strict.found_texts,
    )


@given(
    st.lists(
        st.sampled_from(["a: ", "[", "{", "?", "x", " ", "\n", "-", ",", "\t", "\x85", "\ufeff"]), max_size=20
    ).map("".join)
)
def test_the_split_screen_finds_what_the_one_pattern_finds(text):
    assert yamlload._python_only(text) == bool(yamlload._PYTHON_ONLY.search(text))


@given(
    st.lists(
        st.lists(st.sampled_from(["- ", "> ", "  ", "\t", "1. ", "[", "x", "\n", "2026-11-30", "* "]), max_size=40).map(
            "".join
        ),
        max_size=4,
    )
)
def test_the_markdown_screen_passes_no_text_with_a_problem(texts):
    suspects = {key for key, _ in markdown_shape_suspects(list(enumerate(texts)), "\n\n".join(texts))}
    assert {i for i, text in enumerate(texts) if markdown_shape_problem(text) is not None} <= suspects


def test_a_deep_list_and_a_bracket_run_are_suspects():
    deep, brackets, fine = "- " * 20 + "x", "[" * 800, "- a\n  - b\n[[x:y]]"
    found = [key for key, _ in markdown_shape_suspects([(0, fine), (1, brackets)], f"{fine}\n\n{brackets}")]
    assert found == [1]
    assert [key for key, _ in markdown_shape_suspects([(0, fine), (1, deep)], f"{fine}\n\n{deep}")] == [0, 1]


def test_the_checks_report_the_same_with_and_without_their_screens(monkeypatch):
    """Each screened check (a whole entry's text first) reports what the text-by-text look reports."""
    from houserules import check
    from houserules.data.reading import textpolicy

    screened = {name: sorted(set(check.run(FIXTURES / name).problems)) for name in ("hostile", "good")}
    monkeypatch.setattr(textpolicy, "_maybe_deep", lambda text: True)
    monkeypatch.setattr(Entry, "all_text", property(lambda self: "TODO ](  < ]: [[ " + "种子 seed " * 3))
    plain = {name: sorted(set(check.run(FIXTURES / name).problems)) for name in ("hostile", "good")}
    assert screened == plain and screened["hostile"]


def test_the_schema_files_are_what_the_records_make():
    from houserules.data.reading.schema import SCHEMAS as MAKERS
    from houserules.data.reading.schema import schema_text

    for name in MAKERS:
        assert (SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8") == schema_text(name), name


def test_what_a_load_made_is_kept_by_the_oldest_generation_unscanned():
    """After a load the collector runs again, and what the load made waits in its oldest generation
    (the next full collection sees it) rather than in the youngest, whose next pass would scan it all."""
    import gc

    from houserules.data.reading.load import collector_paused

    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        made = [[index] for index in range(1000)]
        assert gc.get_count()[0] >= 1000  # all in the youngest generation, waiting for a pass
    assert gc.isenabled()
    assert gc.get_count()[0] < 1000
    oldest = {id(found) for found in gc.get_objects(generation=2)}
    assert id(made) in oldest and id(made[-1]) in oldest
    assert gc.get_freeze_count() == 0  # nothing is left out of collection for good


def test_without_libyaml_the_data_reads_as_with_it(tmp_path):
    """PyYAML built without libyaml (no ``yaml._yaml``): every file is read by the pure-Python reader, with the
    same result; the fast path's names were bound only when libyaml imported."""
    import subprocess
    import sys

    script = (
        "import sys\n"
        "if sys.argv[1] == 'none': sys.modules['yaml._yaml'] = None\n"
        "import yaml\n"
        "from houserules.cli import main\n"
        "print('libyaml', yaml.__with_libyaml__)\n"
        "code = main(['check'])\n"
        "code |= main(['show', 'BH-R20/roll-table'])\n"
        "sys.exit(code)\n"
    )
    env = {**os.environ, "HOUSERULES_CACHE": str(tmp_path / "cache"), "COLUMNS": "80"}
    runs = {
        way: subprocess.run(
            [sys.executable, "-c", script, way], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
        )
        for way in ("none", "libyaml")
    }
    assert runs["none"].returncode == 0, runs["none"].stderr
    assert runs["none"].stdout.startswith("libyaml False\n") and runs["libyaml"].stdout.startswith("libyaml True\n")
    assert runs["none"].stdout.split("\n", 1)[1] == runs["libyaml"].stdout.split("\n", 1)[1]
    assert "ok: " in runs["none"].stdout


def test_the_first_problem_in_the_file_is_the_one_reported():
    """The composer refuses at the event that holds a problem, so of two the earlier line is named, with
    libyaml's events and with the Python parser's alike."""
    text = "a: 1\na: 2\nb: &x [1]\nc: *x\n"
    for parse in (yamlload.parse, yamlload._parse_strict):
        with pytest.raises(yamlload.YamlError) as caught:
            parse(text)
        assert caught.value.line == 2 and "duplicate key 'a'" in str(caught.value)
    with pytest.raises(yamlload.YamlError) as caught:
        yamlload.parse("a: [1, !!str 2]\nb: {c: 1, c: 2}\n")
    assert caught.value.line == 1 and "tag" in str(caught.value)
