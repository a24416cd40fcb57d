"""The editor that writes imported texts and stamps into the data files (``data/authoring/yamledit.py``).

Every edited value reads back as the very text under YAML 1.1 (PyYAML, the checker's reader) and
YAML 1.2 (ruamel.yaml, as editors and the yaml-language-server read it); every comment stays, in
order, also inside block lists; no line that holds no edited value changes. Hypothesis generates the
values and where the comments stand.
"""

from __future__ import annotations

import difflib
import io
import re

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st
from ruamel.yaml import YAML

from houserules.data.authoring.yamledit import EditError, edit_values
from houserules.data.reading.yamlload import parse

#: Texts that some YAML reader takes for something else when written plain.
NOT_TEXT = [
    "1e3", "0o17", "0x1f", "0b101", "017", "2026-01-01", "2026-1-1 12:00", "yes", "no", "No", "ON", "off", "y",
    "n", "true", "False", "null", "~", "Null", ".inf", "-.inf", ".NaN", "-.5", "+1", "1_000", "12:30", "1:20:30",
    "3.14", "1.5e-3", "=", "<<", "0", "-0",
]  # fmt: skip


def yaml12(text: str):
    return YAML(typ="safe", pure=True).load(io.StringIO(text))


def yaml11(text: str):
    return yaml.safe_load(text)


@pytest.mark.parametrize("value", NOT_TEXT)
@pytest.mark.parametrize(
    "text, path",
    [("a: {zh: 甲, en: A}\n", ("a", "en")), ("a:\n  en: A  # c\n", ("a", "en")), ("l: [x, A]\n", ("l",))],
    ids=["flow", "block", "flow-list"],
)
def test_a_value_yaml_reads_as_no_text_is_quoted(value, text, path):
    new_value = ["x", value] if path == ("l",) else value
    new, data = edit_values(text, {path: new_value})
    for reader in (yaml11, yaml12, lambda t: parse(t).data):
        node = reader(new)
        for key in path:
            node = node[key]
        assert node == new_value, (reader, new)
    assert f'"{value}"' in new


def test_comments_inside_block_lists_stay():
    text = (
        "aliases:\n"
        "  # the names players use\n"
        "  - 塔楼\n"
        "  - tower room  # the tile's name\n"
        "  # older printings\n"
        "  - old tower  # gone in 2e\n"
        "  - 高塔\n"
        "next: 1\n"
    )
    new, _ = edit_values(text, {("aliases",): ["塔楼", "the tower", "tower room", "高塔", "Tower"]})
    assert new == (
        "aliases:\n"
        "  # the names players use\n"
        "  - 塔楼\n"
        "  - the tower\n"
        "  - tower room  # the tile's name\n"
        "  # older printings\n"
        "  # gone in 2e\n"
        "  - 高塔\n"
        "  - Tower\n"
        "next: 1\n"
    )


@pytest.mark.parametrize(
    "text, expected",
    [
        ('a: ["塔楼", "Tower"]\n', 'a: ["塔楼", "Tower", "the tower"]\n'),
        ("a:\n  - '塔楼'\n  - 'Tower'\n", "a:\n  - '塔楼'\n  - 'Tower'\n  - 'the tower'\n"),
        ('a: [塔楼, "Tower"]\n', 'a: [塔楼, "Tower", the tower]\n'),
    ],
    ids=["double", "single", "mixed"],
)
def test_a_new_name_is_quoted_as_the_list_quotes_every_name(text, expected):
    assert edit_values(text, {("a",): ["塔楼", "Tower", "the tower"]})[0] == expected


@pytest.mark.parametrize(
    "text, value, expected",
    [
        ("a: {zh: 甲}  # c\n", "A", "a: {zh: 甲, en: A}  # c\n"),
        ("a:\n  zh: 甲  # c\nb: 1\n", "1e3", 'a:\n  zh: 甲  # c\n  en: "1e3"\nb: 1\n'),
        ("a:\n  zh: |\n    甲\n\nb: 1\n", "x\n\ny\n", "a:\n  zh: |\n    甲\n\n  en: |\n    x\n\n    y\nb: 1\n"),
        ("a:\n  zh: {x: 1}\n  # c\nb: 1\n", "B", "a:\n  zh: {x: 1}\n  en: B\n  # c\nb: 1\n"),
    ],
    ids=["flow", "block", "block-literal", "after-a-mapping"],
)
def test_a_text_not_written_yet_gets_its_key(text, value, expected):
    """A unit translated for the first time: ``en:`` is added beside ``zh:``, the rest kept."""
    assert edit_values(text, {("a", "en"): value})[0] == expected


# -- the property --------------------------------------------------------------------------------------

_CHARS = st.characters(blacklist_categories=("Cc", "Cs", "Co", "Cn"), blacklist_characters="\ufffe\uffff")
TEXTS = st.one_of(
    st.sampled_from(NOT_TEXT),
    st.text(
        st.one_of(_CHARS, st.sampled_from(list(" \n\t:#-[]{},'\"!&*?|>%@`~塔楼\u2028\u2029\ufeff"))),
        min_size=1,
        max_size=24,
    ),
    st.builds(lambda a, b: f"{a}: {b}", st.sampled_from(["Note", "注"]), st.sampled_from(NOT_TEXT)),
)
NAMES = st.one_of(st.sampled_from(NOT_TEXT + ["塔楼", "tower room", "高塔"]), st.text(_CHARS, min_size=1, max_size=12))
STYLES = st.sampled_from(["plain", "single", "double"])


def scalar(text: str, style: str) -> str:
    return {"plain": text, "single": f"'{text}'", "double": f'"{text}"'}[style]


@st.composite
def documents(draw):
    """A data file laid out with comments where the draw puts them, and the edits to make in it."""
    comment = {name: draw(st.booleans()) for name in ("head", "flow", "block", "first", "item", "between", "last")}
    lines = []
    if comment["head"]:
        lines.append("# a comment at the top")
    lines.append(
        f"title: {{zh: 塔楼, en: {scalar('Tower', draw(STYLES))}}}" + ("  # on a flow line" if comment["flow"] else "")
    )
    lines += ["summary:", "  zh: 一句话。" + ("  # after a value" if comment["block"] else "")]
    if draw(st.booleans()):  # else the English summary is not written yet: an edit adds it
        lines.append(f"  en: {scalar('One line', draw(STYLES))}")
    lines += ["body:", "  en: |", "    Line one.", "", "    Line two."]
    lines.append("aliases:")
    if comment["first"]:
        lines.append("  # before the first name")
    lines.append("  - 塔楼")
    lines.append("  - tower room" + ("  # on a name" if comment["item"] else ""))
    if comment["between"]:
        lines.append("  # between names")
    lines.append("  - 高塔")
    if comment["last"]:
        lines.append("# after the list")
    lines.append("tail: [a, b]")
    text = "\n".join(lines) + "\n"
    edits = {}
    for path in (("title", "en"), ("summary", "en"), ("body", "en")):
        if draw(st.booleans()):
            edits[path] = draw(TEXTS)
    if draw(st.booleans()):
        edits[("aliases",)] = draw(st.lists(NAMES, min_size=1, max_size=5, unique=True))
    if draw(st.booleans()):
        edits[("tail",)] = draw(st.lists(NAMES, min_size=1, max_size=3, unique=True))
    return text, edits


COMMENTS = re.compile(
    r"# (?:a comment at the top|on a flow line|after a value|before the first name|on a name|between names|after "
    r"the list)$",
    re.M,
)


def comments(text: str) -> list[str]:
    return COMMENTS.findall(text)


def edited_lines(text: str, paths) -> set[int]:
    """The lines (0-based) that hold an edited value: a scalar's, or a whole list's."""
    root = yaml.compose(text, Loader=yaml.SafeLoader)
    lines: set[int] = set()
    for path in paths:
        node = root
        for key in path:
            found = [v for k, v in node.value if k.value == key]
            if not found:  # a key to add: its mapping is what changes
                break
            node = found[0]
        end = node.end_mark.line - (1 if node.end_mark.column == 0 else 0)
        lines.update(range(node.start_mark.line, max(end, node.start_mark.line) + 1))
    return lines


@given(documents())
def test_every_edit_reads_back_as_text_in_yaml_1_1_and_1_2_and_keeps_every_comment_and_line(document):
    text, edits = document
    try:
        new, data = edit_values(text, edits)
    except EditError as exc:  # pragma: no cover - the property says it does not happen
        raise AssertionError(f"refused: {exc}") from None
    for read in (yaml11, yaml12, lambda t: parse(t).data):
        reread = read(new)
        for path, value in edits.items():
            node = reread
            for key in path:
                node = node[key]
            assert node == value and all(isinstance(v, str) for v in (node if isinstance(node, list) else [node]))
    assert comments(new) == comments(text)
    touched = edited_lines(text, edits)
    old = text.splitlines()
    for op, i1, i2, _, _ in difflib.SequenceMatcher(None, old, new.splitlines(), autojunk=False).get_opcodes():
        if op in ("replace", "delete"):
            assert set(range(i1, i2)) <= touched, (old[i1:i2], new)
