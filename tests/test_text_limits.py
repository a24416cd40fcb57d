"""Text that ``check`` accepts is text every later step can write and render in time.

- Code points no output can carry (C0 controls but tab, LF and CR; DEL and the C1 controls;
  lone surrogates; U+FFFE, U+FFFF), written as double-quoted YAML escapes or raw in the file,
  are refused with the line, the code point and its escape; every XML writer (TBX, the feed,
  the XLIFF export) drops them all the same when handed them.
- Markdown the renderer chokes on (lists nested hundreds deep, thousands of '[') is refused
  with the line; the renderer shows such text as plain paragraphs, in linear time.
- The deprecated-form check is linear in the number of uses (the timing is in
  benchmarks/text_bench.py; here its answers are compared with the plain definition).
"""

from __future__ import annotations

import dataclasses
import shutil
import xml.etree.ElementTree as etree
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import ENTRY_TEMPLATE, GOOD, load_kb, run_cli
from houserules.check import run as run_check
from houserules.check.glossary import _deprecated_uses
from houserules.data.reading.model import Glossary, KnowledgeBase, Term
from houserules.data.reading.records import build
from houserules.data.reading.textpolicy import MAX_BRACKET_WORK, MAX_MARKDOWN_NESTING, markdown_shape_problem
from houserules.data.reading.yamlload import Document
from houserules.export import export
from houserules.export.tbx import glossary_tbx
from houserules.render.text import Linker, markdown_html, xml_text
from houserules.site.changelog import changes_feed

KB_FOR_WRITERS = load_kb(GOOD)

E = "data/demo/entries"


def refused(char: str) -> bool:
    """What check refuses in text, by its definition (written out here, not imported)."""
    code = ord(char)
    return (
        (code < 0x20 and char not in "\t\n\r")
        or 0x7F <= code <= 0x9F
        or 0xD800 <= code <= 0xDFFF
        or code in (0xFFFE, 0xFFFF)
    )


def make_data(tmp_path: Path, extra: str) -> Path:
    shutil.copytree(GOOD, tmp_path / "data")
    text = ENTRY_TEMPLATE.format(id="extra", code="DM-X1") + extra
    (tmp_path / E / "extra.yaml").write_text(text, encoding="utf-8")
    return tmp_path / "data"


def yaml_escape(text: str) -> str:
    """``text`` as a double-quoted YAML scalar, every non-ASCII or control character escaped."""
    out = []
    for c in text:
        code = ord(c)
        if c in '"\\':
            out.append("\\" + c)
        elif 0x20 <= code < 0x7F:
            out.append(c)
        elif code <= 0xFFFF:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    return '"' + "".join(out) + '"'


# -- code points no output can carry -------------------------------------------------------------------


@pytest.mark.parametrize(
    "escape, shown",
    [
        ("\\0", "the control character U+0000 — remove the control character U+0000 (written \\0 or \\x00"),
        ("\\x00", "the control character U+0000 — remove the control character U+0000 (written \\0 or \\x00"),
        ("\\e", "the control character U+001B — remove the control character U+001B (written \\e or \\x1b"),
        ("\\x1b", "the control character U+001B — remove the control character U+001B (written \\e or \\x1b"),
        ("\\a", "the control character U+0007 — remove the control character U+0007 (written \\a or \\x07"),
        ("\\b", "the control character U+0008 — remove the control character U+0008 (written \\b or \\x08"),
        ("\\v", "the control character U+000B — remove the control character U+000B (written \\v or \\x0b"),
        ("\\x1f", "the control character U+001F — remove the control character U+001F (written \\x1f"),
        ("\\x7f", "the control character U+007F — remove the control character U+007F (written \\x7f"),
        ("\\N", "the control character U+0085 — remove the control character U+0085 (written \\N or \\x85"),
        ("\\x9b", "the control character U+009B — remove the control character U+009B (written \\x9b"),
        ("\\ud800", "the lone surrogate U+D800 — remove the lone surrogate U+D800 (written \\ud800"),
        ("\\udfff", "the lone surrogate U+DFFF — remove the lone surrogate U+DFFF (written \\udfff"),
        ("\\ufffe", "the non-character U+FFFE — remove the non-character U+FFFE (written \\ufffe"),
        ("\\uffff", "the non-character U+FFFF — remove the non-character U+FFFF (written \\uffff"),
    ],
)
@pytest.mark.parametrize(
    "extra, line",
    [
        ('body: {{zh: "正文{e}"}}\n', 11),
        ('aliases: [ok, "别名{e}"]\n', 11),
        ('questions:\n  - {{id: q1, q: {{zh: "问{e}"}}, a: {{zh: 答。}}}}\n', 12),
        ('"key{e}": 1\n', 11),
    ],
    ids=["body", "alias", "question", "key"],
)
def test_a_code_point_no_output_can_carry_is_refused_with_its_line(tmp_path, escape, shown, extra, line):
    data = make_data(tmp_path, extra.format(e=escape))
    result = run_cli("check", "--data", "data", cwd=tmp_path)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    what, fix = shown.split(" — ")
    assert (
        f"data/demo/entries/extra.yaml:{line}: demo:extra: the text holds {what}, "
        f"which no page, feed or export can carry — {fix} in the double-quoted text)"
    ) in result.stderr.splitlines()
    export_run = run_cli("export", "--data", str(data), "--format", "csv", cwd=tmp_path)
    assert export_run.returncode == 1 and export_run.stdout == "" and "Traceback" not in export_run.stderr


@given(st.text(st.characters(codec=None, exclude_categories=()), max_size=20))
def test_any_title_either_is_refused_or_every_writer_writes_it(tmp_path_factory, text):
    folder = tmp_path_factory.mktemp("text")
    make_data(folder, f"body: {{zh: {yaml_escape('正文 ' + text)}}}\n")
    entry = folder / E / "extra.yaml"
    entry.write_text(
        entry.read_text(encoding="utf-8").replace("title: {zh: 标题,", f"title: {{zh: {yaml_escape('标题' + text)},"),
        encoding="utf-8",
    )
    glossary = folder / "data/demo/glossary.yaml"
    glossary.write_text(
        f"terms:\n  - {{id: extra, en: Extra, zh: {yaml_escape('额外' + text)}, note: {{zh: {yaml_escape(text or 'x')}}}}}\n",
        encoding="utf-8",
    )
    report = run_check(folder / "data")
    bad = [c for c in text if refused(c)]
    messages = [p.problem for p in report.errors]
    if bad:
        assert any("which no page, feed or export can carry" in m for m in messages), messages
        return
    assert not any("can carry" in m for m in messages)
    kb = report.kb
    if "demo:extra" not in kb.entries:
        return  # refused for another reason (a blank title): nothing to write
    for what in ("entries", "faq", "glossary"):
        for fmt in ("json", "csv"):
            data = export(kb, what, fmt)
            data.decode("utf-8")
            assert b"\x00" not in data
    etree.fromstring(glossary_tbx(kb))
    etree.fromstring(changes_feed(kb, None, "标题" + text, None).encode("utf-8"))
    markdown_html("正文 " + text, Linker(kb))


@pytest.mark.parametrize(
    "char, line",
    [("\x1b", 5), ("\x07", 5), ("\x7f", 5), ("\x9b", 5), ("\x80", 5), ("\ufffe", 5), ("\x0c", 5)],
    ids=repr,
)
def test_a_raw_control_character_in_the_file_is_refused_with_its_line(tmp_path, char, line):
    data = make_data(tmp_path, "")
    entry = data / "demo/entries/extra.yaml"
    entry.write_text(entry.read_text(encoding="utf-8").replace("一句话。", f"一句{char}话。"), encoding="utf-8")
    result = run_cli("check", "--data", "data", cwd=tmp_path)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    code = f"U+{ord(char):04X}"
    what = "the non-character" if ord(char) > 0xFF else "the control character"
    assert (
        f"data/demo/entries/extra.yaml:{line}: demo:extra: the file holds {what} {code}, "
        f"which no page, feed or export can carry — remove {what} {code} from the file"
    ) in result.stderr.splitlines()


def test_xml_text_keeps_what_xml_carries_and_drops_the_rest():
    carried = "\t\n\r 塔楼 \xa0 \ud7ff \ue000 \ufffd \U0001f600 \U0010ffff \u202e \u2028"
    assert xml_text(carried) == carried
    dropped = "".join(chr(c) for c in [*range(0x20), *range(0x7F, 0xA0)] if chr(c) not in "\t\n\r")
    assert xml_text("a" + dropped + "\ud800\udfff\ufffe\uffff" + "b") == "ab"


#: Every code point check refuses, the odd ones it accepts (bidirectional overrides, separators,
#: a byte-order mark, the last code points of the planes) and any other text.
ODD = st.sampled_from(
    [chr(c) for c in [*range(0x20), *range(0x7F, 0xA1)]]
    + ["\ud800", "\udfff", "\ufffe", "\uffff", "\ufffd", "\ufeff", "\u202e", "\u2028", "\u2029", "\U0010ffff"]
)
odd_text = st.lists(
    st.one_of(ODD, st.text(st.characters(codec=None, exclude_characters="[]"), max_size=3)), max_size=30
)


def _xml_read(text: str) -> str:
    """``text`` as an XML parser reads it back: line ends normalised to LF."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


@given(odd_text.map("".join))
def test_every_xml_writer_drops_exactly_what_check_refuses(text):
    """TBX, the feed and XLIFF write well-formed UTF-8 XML holding the text less the code points check refuses."""
    from houserules.export.l10n import Unit
    from houserules.export.l10n_write import to_xliff

    kept = _xml_read("".join(c for c in text if not refused(c)))
    assert xml_text(text) == "".join(c for c in text if not refused(c))
    kb = KB_FOR_WRITERS
    game = kb.games["demo"]
    doc = Document({"terms": [{"id": "t", "en": "Term", "zh": "术语" + text}]})
    glossary = build(Glossary, doc.data, path=Path("glossary.yaml"), doc=doc, game="demo")
    kb.games["demo"] = dataclasses.replace(game, glossary=glossary)
    try:
        tbx = glossary_tbx(kb)
    finally:
        kb.games["demo"] = game
    feed = changes_feed(kb, None, "站点" + text, None).encode("utf-8")
    unit = Unit(id="demo:tower/title", path=Path("x.yaml"), target_path=("title", "en"), source="源" + text, target="")
    xliff = to_xliff([unit], "zh")
    for written in (tbx, feed, xliff):
        assert not any(refused(c) for c in written.decode("utf-8"))
    assert "术语" + kept in [t.text for t in etree.fromstring(tbx).iter("term")]
    assert (
        etree.fromstring(feed).findtext("{http://www.w3.org/2005/Atom}title") == f"站点{kept} · 更新记录 What changed"
    )
    sources = [e for e in etree.fromstring(xliff).iter() if e.tag.endswith("}source")]
    assert ["".join(e.itertext()) for e in sources] == ["源" + kept]


# -- Markdown the renderer would choke on ----------------------------------------------------------------


def nested_list(depth: int) -> str:
    return "".join("  " * i + "- x\n" for i in range(depth))


@pytest.mark.parametrize(
    "body, problem, line",
    [
        (
            nested_list(MAX_MARKDOWN_NESTING + 1),
            f"body.zh: lists or quotes nest {MAX_MARKDOWN_NESTING + 1} levels deep (at most {MAX_MARKDOWN_NESTING})"
            " — flatten the list, or indent less",
            13 + MAX_MARKDOWN_NESTING,
        ),
        (
            "- " * 500 + "x\n",
            f"body.zh: lists or quotes nest 500 levels deep (at most {MAX_MARKDOWN_NESTING})"
            " — flatten the list, or indent less",
            13,
        ),
        ("> " * 40 + "x\n", "body.zh: lists or quotes nest 40 levels deep", 13),
        (
            "ok\n\n" + "[" * 5000 + "\n",
            "body.zh: holds 5000 '[' in long paragraphs ('[' times paragraph length 25,010,000, at most "
            f"{MAX_BRACKET_WORK:,}), which Markdown renders slowly — split long paragraphs with a blank line, "
            "or write fewer '['",
            15,
        ),
        ("[a" * 2000 + "\n", "body.zh: holds 2000 '['", 13),
    ],
    ids=["indented", "compact", "quotes", "bracket-run", "bracket-pairs"],
)
def test_markdown_that_would_choke_the_renderer_is_refused_with_its_line(tmp_path, body, problem, line):
    block = "".join("    " + row + "\n" for row in body.rstrip("\n").split("\n"))
    make_data(tmp_path, f"body:\n  zh: |\n{block}")
    result = run_cli("check", "--data", "data", cwd=tmp_path)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    rows = [r for r in result.stderr.splitlines() if r.startswith(f"data/demo/entries/extra.yaml:{line}: demo:extra: ")]
    assert any(problem in r for r in rows), result.stderr[-2000:]


def test_markdown_at_the_limits_is_accepted_and_renders():
    kb = KnowledgeBase()
    assert markdown_shape_problem(nested_list(MAX_MARKDOWN_NESTING)) is None
    assert markdown_shape_problem("[" * 707) is None  # 707 '[' in 707 characters: 499,849
    assert markdown_shape_problem("[" * 708) is not None
    assert markdown_shape_problem("\n\n".join(["[" * 100 + "x" * 900] * 4)) is None  # 4 × 100 × 1,000
    assert markdown_shape_problem("\n\n".join(["[" * 100 + "x" * 900] * 6)) is not None
    assert "<ul>" in markdown_html(nested_list(MAX_MARKDOWN_NESTING), Linker(kb))


WORST = st.sampled_from(["[", "[[", "](", "- ", "  ", "> ", "* ", "1. ", "\n", "x", "`", "*", "_", "<", "![", "\\"])


@given(st.lists(WORST, max_size=3000).map("".join))
def test_any_text_renders_without_recursion_or_traceback(text):
    html = markdown_html(text, Linker(KnowledgeBase()))
    assert isinstance(html, str)
    assert "<script" not in html


@given(st.integers(1, 20_000), st.sampled_from(["- ", "> ", "[", "[a", "[x](", "  - x\n"]))
def test_generated_worst_cases_render(repeat, piece):
    text = piece * repeat
    html = markdown_html(text, Linker(KnowledgeBase()))
    if markdown_shape_problem(text) is not None:
        assert html.startswith("<p>") and "<ul>" not in html  # shown as plain text


# -- deprecated forms: linear, and the same answers ----------------------------------------------------


def deprecated_uses_by_definition(text: str, glossary: list[dict]) -> list[tuple[str, int]]:
    """The plain definition, comparing every use with every other (quadratic)."""
    import re

    def find(form):
        pattern = rf"(?<!\w){re.escape(form)}(?!\w)" if form.isascii() else re.escape(form)
        return [m.span() for m in re.finditer(pattern, text, re.IGNORECASE if form.isascii() else 0)]

    found = [(s, e, t, f) for t in glossary for f in t.deprecated for s, e in find(f)]
    accepted = [span for t in glossary for f in (t.zh, *t.variants) for span in find(f)]
    hits = [(s, e, t, f) for s, e, t, f in found if not any(a <= s and e <= b for a, b in accepted)]
    out, seen = [], set()
    for s, e, t, f in sorted(hits, key=lambda h: h[0]):
        if not any(a <= s and e <= b and b - a > e - s for a, b, _, _ in hits) and (t.id, f) not in seen:
            seen.add((t.id, f))
            out.append((f, s))
    return out


GLOSSARY = [
    Term(id="tower", en="Tower", zh="塔楼", deprecated=("高塔", "塔"), variants=("塔樓",)),
    Term(id="high", en="High", zh="高", deprecated=("高塔楼",)),
    Term(id="omen", en="Omen", zh="预兆", deprecated=("征兆", "兆")),
]


@given(st.lists(st.sampled_from(["塔", "楼", "樓", "高", "征", "兆", "预", "，", "x"]), max_size=60).map("".join))
def test_deprecated_uses_match_their_definition(text):
    assert [(f, s) for _, f, s in _deprecated_uses(text, GLOSSARY)] == deprecated_uses_by_definition(text, GLOSSARY)


def test_many_uses_of_a_deprecated_form_are_reported_once():
    text = "高塔塔楼塔，" * 19_000
    assert [(f, s) for _, f, s in _deprecated_uses(text, GLOSSARY)] == [("高塔", 0), ("塔", 4)]
