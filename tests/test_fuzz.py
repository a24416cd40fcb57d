"""Property-based tests: the loader, the checker, the renderer and the search never raise on any input.

The default profile keeps the suite quick; ``HYPOTHESIS_PROFILE=long`` (``make fuzz``) runs many more
examples. Any input either loads or yields problems that name a file and a line; any text renders
without live markup; any query answers within a second with at most ``limit`` hits.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st
from test_hardening import LiveMarkup

from conftest import GOOD, load_kb
from houserules.check import run as run_check
from houserules.data.reading import yamlload
from houserules.errors import Problem
from houserules.render import text as textrender
from houserules.render.terminal import clean
from houserules.render.text import Linker, markdown_html
from test_output_paths import make_target

#: Pieces that matter to YAML, Markdown, HTML and terminals, mixed into random text.
TOKENS = [
    "\n",
    "  ",
    "\t",
    ":",
    "- ",
    "[",
    "]",
    "{",
    "}",
    "'",
    '"',
    "&a",
    "*a",
    "<<",
    "!!str ",
    "!!python/name:os.system ",
    "---\n",
    "...\n",
    "#",
    "|\n",
    ">\n",
    "%YAML 1.1\n",
    "\ufeff",
    "\r\n",
    "\x1b[2J",
    "\x00",
    "\u202e",
    "<script>",
    "[[demo:tower]]",
    "[[../x]]",
    "javascript:",
    "{: onclick=x}",
    "<img src=x onerror=alert(1)>",
    "id",
    "code",
    "title",
    "zh",
    "en",
    "demo:tower",
    "2026-11-30",
    "0x1F",
    "1e9",
    "~",
    "null",
    "yes",
    "塔楼",
    "🎲",
]
fuzz_text = st.lists(st.one_of(st.sampled_from(TOKENS), st.text(max_size=8)), max_size=40).map("".join)
ENTRY_KEYS = [
    "id",
    "code",
    "kind",
    "title",
    "summary",
    "body",
    "aliases",
    "see_also",
    "applies_to",
    "sources",
    "authority",
    "confidence",
    "scope",
    "errata",
    "facts",
    "history",
    "status",
    "x",
]
scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), fuzz_text)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.sampled_from(ENTRY_KEYS + ["zh", "en", "doc", "ref"]), inner, max_size=4),
    ),
    max_leaves=20,
)
entries = st.dictionaries(st.sampled_from(ENTRY_KEYS), values, max_size=12).map(
    lambda d: yaml.safe_dump(d, allow_unicode=True, sort_keys=False)
)
#: Good entries, slightly broken: a line dropped, doubled or cut.
GOOD_TEXT = (GOOD / "demo/entries/tower-errata.yaml").read_text(encoding="utf-8")


@st.composite
def mutated(draw) -> str:
    lines = GOOD_TEXT.splitlines(keepends=True)
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(["drop", "double", "cut", "insert"]))
        if action == "drop" and len(lines) > 1:
            lines.pop(at)
        elif action == "double":
            lines.insert(at, lines[at])
        elif action == "cut":
            lines[at] = lines[at][: draw(st.integers(0, len(lines[at])))]
        else:
            lines.insert(at, draw(fuzz_text) + "\n")
    return "".join(lines)


file_contents = st.one_of(fuzz_text, entries, mutated(), st.binary(max_size=200).map(lambda b: b.decode("latin-1")))


@given(file_contents)
def test_the_strict_reader_parses_or_names_a_line(text):
    try:
        doc = yamlload.parse(text)
    except yamlload.YamlError as exc:
        assert 1 <= exc.line <= text.count("\n") + text.count("\r") + 2
        assert exc.problem and exc.fix
    else:
        assert doc.line(()) >= 1


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("fuzz") / "data"
    shutil.copytree(GOOD, folder)
    return folder


@given(
    content=st.one_of(file_contents.map(lambda t: t.encode("utf-8", "surrogatepass")), st.binary(max_size=300)),
    name=st.sampled_from(["fuzz", "Fuzz", "fuzz entry", "tower", "a..b"]),
)
def test_any_entry_file_loads_or_yields_located_problems(data_dir, content, name):
    path = data_dir / "demo/entries" / f"{name}.yaml"
    path.write_bytes(content)
    try:
        report = run_check(data_dir)
    finally:
        path.unlink()
        if name == "tower":
            shutil.copy(GOOD / "demo/entries/tower.yaml", path)
    for problem in report.problems:
        assert isinstance(problem, Problem) and problem.line >= 1 and problem.path
        assert "\x1b" not in str(problem)


class _Linker(Linker):
    def href(self, target):
        return "t.html"


LINKER = _Linker(load_kb(GOOD))
RENDERER = textrender.MarkdownRenderer()


@given(fuzz_text)
def test_any_text_renders_without_live_markup(text):
    rendered = markdown_html(text, LINKER)
    parser = LiveMarkup("text")
    parser.feed(rendered)
    assert parser.found == []
    assert "<script" not in rendered.lower()


@given(st.one_of(fuzz_text, st.text(alphabet="ab 1.。，-+*#()\"'%:", max_size=30)))
def test_plain_text_shortcut_renders_like_markdown(text):
    """One-line answers skip Markdown when they hold no syntax; the HTML is the same."""
    if textrender._PLAIN.fullmatch(text):
        full = textrender.INVISIBLE.sub("", text)  # what the renderer hands Markdown (a lone U+202E: nothing)
        assert RENDERER.html(text, LINKER) == textrender.clean(RENDERER.convert(full, LINKER))


@given(fuzz_text)
def test_terminal_text_has_no_control_characters(text):
    assert not any(ord(c) < 32 and c != "\n" for c in clean(text))
    assert "\x1b" not in clean(text) and "\u202e" not in clean(text)


@pytest.fixture(scope="module")
def search_index():
    from houserules.search.index import open_index

    with open_index(GOOD) as index:  # in the session's cache folder (conftest)
        yield index


@given(
    query=st.one_of(fuzz_text, st.text(max_size=200), st.text(min_size=5000, max_size=10000)), limit=st.integers(1, 20)
)
def test_any_query_answers_within_bounds(search_index, query, limit):
    hits = search_index.search(query, limit=limit)
    assert len(hits) <= limit
    assert all(hit.score > 0 and hit.record["id"].startswith("demo:") for hit in hits)


# -- the hardened classes: git history, uncarriable text, Markdown shape, long queries, output paths ------

#: Every control character, the old log separators, line and paragraph separators, non-characters.
HOSTILE_CHARS = st.sampled_from(
    [chr(c) for c in range(0x20)] + ["\x7f", "\x85", "\u2028", "\u2029", "\ufffe", "\uffff", "\u202e", "\ud800"]
)
hostile_text = st.lists(st.one_of(HOSTILE_CHARS, st.text(max_size=4)), max_size=40).map("".join)


@given(st.binary(max_size=400))
def test_any_commit_message_gives_a_subject_that_every_output_carries(message):
    import xml.etree.ElementTree as etree

    from houserules.data.versions.git import subject

    shown = subject(b"tree 0\nauthor a <a> 0 +0000\n\n" + message)
    assert "\n" not in shown and shown == shown.strip()
    element = etree.Element("t")
    element.text = shown
    etree.fromstring(etree.tostring(element))  # well-formed XML
    assert not any(unicodedata_category(c) in ("Cc", "Cs", "Zl", "Zp") for c in shown)


def unicodedata_category(char: str) -> str:
    import unicodedata

    return unicodedata.category(char)


@given(hostile_text)
def test_any_double_quoted_escape_is_refused_or_carried_by_every_output(text):
    import json
    import xml.etree.ElementTree as etree

    from houserules.render.text import xml_text

    source = "t: " + json.dumps(text, ensure_ascii=True).replace("\\/", "/") + "\n"
    try:
        value = yamlload.parse(source).data["t"]
    except yamlload.YamlError as exc:
        assert "which no page, feed or export can carry" in exc.problem, exc.problem
        return
    value.encode("utf-8")  # no lone surrogate
    assert "\x00" not in value and "\ufffe" not in value and "\uffff" not in value
    element = etree.Element("t")
    element.text = xml_text(value)
    etree.fromstring(etree.tostring(element))


@given(st.lists(st.sampled_from(["[", "[[", "](", "- ", "  ", "> ", "1. ", "\n", "\n\n", "x", "*"]), max_size=4000))
def test_any_markdown_renders_without_recursion_and_refused_text_as_plain_paragraphs(pieces):
    from houserules.data.reading.model import KnowledgeBase
    from houserules.data.reading.textpolicy import markdown_shape_problem

    text = "".join(pieces)
    html = markdown_html(text, Linker(KnowledgeBase()))
    if markdown_shape_problem(text) is not None:
        assert "<ul>" not in html and "<a " not in html


@given(st.text(min_size=200, max_size=20_000))
def test_any_long_query_answers_within_bounds(search_index, query):
    """A long query is answered from its first MAX_QUERY characters (what it costs is a benchmark's, not a test's)."""
    from houserules.search.analysis import bounded

    assert [h.record["id"] for h in search_index.search(query)] == [
        h.record["id"] for h in search_index.search(bounded(query))
    ]


@given(st.sampled_from(["regular", "missing", "folder", "link-to-missing", "fifo-unread"]), st.binary(max_size=5000))
def test_any_output_target_is_written_or_refused_unchanged(tmp_path_factory, kind, data):
    from houserules.errors import HouserulesError
    from houserules.export import write_output

    folder = tmp_path_factory.mktemp("out")
    target = make_target(folder, kind)  # a pipe nobody reads: refused at once, never waited on
    try:
        write_output(target, data)
    except HouserulesError:
        assert kind in ("folder", "link-to-missing", "fifo-unread")
        assert not (folder / "nothing-yet.csv").exists()
        return
    assert kind in ("regular", "missing") and target.read_bytes() == data
    assert [p.name for p in folder.iterdir()] == ["out.csv"]
