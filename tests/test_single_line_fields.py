"""Every text that is one line (a title, a question, an alias, a variant, a label, a glossary term, a
name, a source's place...) refuses a line break and every other line or paragraph separator.

Shown on one line everywhere, such a text with a line break forged a line of its own in the
terminal (``houserules search`` prints titles and questions one a line) and ``check`` let it
through. The fields are found here from the committed JSON Schemas, not listed: every text
field of every schema either refuses a line break (its pattern, ``schemaparts.LINE`` for plain
text) or is one of the few that hold several lines (:data:`MULTI_LINE`: Markdown, a card's printed
and corrected text, a quoted passage), and a new text field fails
:func:`test_every_text_field_is_one_line_or_known_to_hold_lines` until it is one or the other.
Each one-line field is then given each separator in a real data file, and ``check`` refuses it
with the field's path, its line and the character.
"""

from __future__ import annotations

import copy
import json
import re
import shutil
from pathlib import Path

import pytest

from conftest import DATA, FIXTURES, GOOD, ROOT, run_cli
from houserules.data.reading import schemaparts
from houserules.data.reading.validate import validate
from houserules.data.reading.yamlload import load as load_yaml

SCHEMAS = ROOT / "tools/houserules/schema"
#: The separators and controls a one-line text refuses (schemaparts.LINE_BREAKS), each as a YAML
#: double-quoted escape: LF, CR, VT, FF, NEL, LS, PS, tab, and a C0 and a C1 control.
SEPARATORS = {
    "\n": "\\n",
    "\r": "\\r",
    "\v": "\\v",
    "\f": "\\f",
    "\x85": "\\N",
    "\u2028": "\\L",
    "\u2029": "\\P",
    "\t": "\\t",
    "\x1e": "\\x1e",
    "\x9b": "\\x9b",
}
#: The text fields that hold several lines: Markdown (``$defs/markdown``, whichever field uses it),
#: an erratum's printed, corrected and original text (shown with their line breaks) and a
#: translator note's quoted passage and suggestion.
MULTI_LINE = {
    ("entry", "errata", "*", "printed"),
    ("entry", "errata", "*", "corrected"),
    ("entry", "errata", "*", "source_en"),
    ("entry", "translator_notes", "*", "quote"),
    ("entry", "translator_notes", "*", "suggestion"),
}
#: The data files read for an example of each field, by schema.
TRANSLATORS = FIXTURES / "translators/data"
FILES = {
    "entry": [
        *DATA.glob("*/entries/*.yaml"),
        *GOOD.glob("*/entries/*.yaml"),
        *TRANSLATORS.glob("*/entries/*.yaml"),
        *(ROOT / "examples").rglob("entries/*/*.yaml"),
    ],
    "game": [*DATA.glob("*/game.yaml"), *GOOD.glob("*/game.yaml")],
    "glossary": [*DATA.glob("*/glossary.yaml"), *GOOD.glob("*/glossary.yaml")],
    "synonyms": [*DATA.rglob("synonyms.yaml")],
    "profile": [*(ROOT / "examples").rglob("profile.yaml"), FIXTURES / "single-line/profile.yaml"],
}


def text_fields(name: str) -> dict[tuple, dict]:
    """Every text field of schema ``name``: its path (``*`` for any item or key) → its schema, with
    ``markdown`` set when it is the Markdown definition."""
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
    defs = schema.get("$defs", {})
    found: dict[tuple, dict] = {}

    def walk(node: dict, path: tuple, markdown: bool = False) -> None:
        ref = node.get("$ref", "")
        if ref:
            target = ref.removeprefix("#/$defs/")
            walk(defs[target], path, markdown or target == "markdown")
        for part in node.get("allOf", []):
            walk(part, path, markdown)
        for key, child in node.get("properties", {}).items():
            walk(child, path + (key,))
        if isinstance(node.get("items"), dict):
            walk(node["items"], path + ("*",))
        if isinstance(node.get("additionalProperties"), dict):
            walk(node["additionalProperties"], path + ("*",))
        if node.get("type") == "string":
            found[path] = {**node, "markdown": markdown}

    walk(schema, (name,))
    return found


def refuses_line_breaks(field: dict) -> bool:
    pattern = field.get("pattern")
    return pattern is not None and all(re.search(pattern, f"a{sep}b") is None for sep in SEPARATORS)


ALL_FIELDS = {path: field for name in FILES for path, field in text_fields(name).items()}
ONE_LINE = sorted(path for path, field in ALL_FIELDS.items() if refuses_line_breaks(field))


def test_every_text_field_is_one_line_or_known_to_hold_lines():
    several = {path for path, field in ALL_FIELDS.items() if not refuses_line_breaks(field) and not field["markdown"]}
    assert several == MULTI_LINE
    # The ones this is about, among them: found by the schemas, so none is left out.
    for path in [
        ("entry", "title", "zh"),
        ("entry", "questions", "*", "q", "en"),
        ("entry", "aliases", "*"),
        ("entry", "questions", "*", "variants", "*"),
        ("entry", "facts", "*", "label", "zh"),
        ("glossary", "terms", "*", "zh"),
        ("glossary", "terms", "*", "deprecated", "*"),
        ("game", "contents", "*", "title", "en"),
        ("synonyms", "synonyms", "*", "say", "*"),
        ("profile", "name", "zh"),
    ]:
        assert path in ONE_LINE, path


def _concrete(data, pattern: tuple) -> list[tuple]:
    """The paths in ``data`` that match ``pattern`` (``*``: any list item or mapping key)."""
    if not pattern:
        return [()] if isinstance(data, str) else []
    head, rest = pattern[0], pattern[1:]
    if head == "*":
        keys = range(len(data)) if isinstance(data, list) else list(data) if isinstance(data, dict) else []
    else:
        keys = [head] if isinstance(data, dict) and head in data else []
    return [(key, *tail) for key in keys for tail in _concrete(data[key], rest)]


def _example(path: tuple) -> tuple[Path, object, tuple]:
    """A data file that holds field ``path``, its document and the field's path in it."""
    name, pattern = path[0], path[1:]
    for file in sorted(FILES[name]):
        doc = load_yaml(file)
        found = _concrete(doc.data, pattern)
        if found:
            return file, doc, found[0]
    pytest.fail(f"no data file holds {'.'.join(map(str, path))}: add one to tests/fixtures/good")


def _set(data, path: tuple, value: str) -> None:
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


@pytest.mark.parametrize("path", ONE_LINE, ids=lambda path: ".".join(path))
def test_each_one_line_field_refuses_each_separator(path):
    file, doc, where = _example(path)
    name = "entry" if path[0] == "entry" else path[0]
    assert validate(doc, name, file, "x") == []
    original = _value(doc.data, where)
    field = ".".join(map(str, where))
    for char in SEPARATORS:
        data = copy.deepcopy(doc.data)
        _set(data, where, f"{original[:1]}{char}forged line")
        problems = validate(type(doc)(data, doc.lines), name, file, "x")
        assert [p for p in problems if f"field '{field}'" in p.problem], (field, repr(char), problems)
        if ALL_FIELDS[path]["pattern"] == schemaparts.LINE:
            (problem,) = [p for p in problems if f"field '{field}'" in p.problem]
            assert "holds " in problem.problem and f"(U+{ord(char):04X}), but it is one line of text" in problem.problem
            assert problem.fix.startswith(f"write '{field}' on one line: remove the U+{ord(char):04X}")
            assert problem.line == doc.line(where)


def _value(data, path: tuple) -> str:
    for key in path:
        data = data[key]
    return data


def test_check_refuses_forged_lines_in_a_title_an_alias_a_question_and_a_variant(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(GOOD, data)
    entry = data / "demo/entries/tower-crossing.yaml"
    text = entry.read_text(encoding="utf-8")
    for old, new in [
        (
            "title: {zh: 穿过塔楼, en: Crossing the Tower}",
            'title: {zh: "穿过塔楼\\L伪造一行", en: "Crossing\\nthe Tower"}',
        ),
        ("aliases: [过塔]", 'aliases: ["过塔\\r伪造"]'),
        ('en: "Can I go back the way I came after entering the Tower?"}', 'en: "Can I go back\\tthe way I came?"}'),
        ("variants: [塔楼能退回去吗]", 'variants: ["塔楼能退回去吗\\P伪造"]'),
    ]:
        assert old in text
        text = text.replace(old, new)
    entry.write_text(text, encoding="utf-8")
    result = run_cli("check", "--data", str(data))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    messages = result.stderr.replace(str(tmp_path) + "/", "")
    where = "data/demo/entries/tower-crossing.yaml"
    for line, field, code, name, shown in [
        (4, "title.zh", "2028", "a line separator", "穿过塔楼\\u2028伪造一行"),
        (4, "title.en", "000A", "a line break", "Crossing\\nthe Tower"),
        (5, "aliases.0", "000D", "a carriage return", "过塔\\r伪造"),
        (18, "questions.0.q.en", "0009", "a tab", "Can I go back\\tthe way I came?"),
        (19, "questions.0.variants.0", "2029", "a paragraph separator", "塔楼能退回去吗\\u2029伪造"),
    ]:
        assert (
            f"{where}:{line}: demo:tower-crossing: field '{field}' holds {name} (U+{code}), but it is one line of "
            f"text: '{shown}' — write '{field}' on one line: remove the U+{code} (in YAML a '|' or '>' block, a "
            "blank line inside quotes or an escape such as \\n or \\u2028 writes one)"
        ) in messages.splitlines()
