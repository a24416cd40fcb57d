"""Terminal output at any width: lines fit by display width, Chinese line breaking, links whole,
and ``houserules show`` takes every form of a code that the site's go page takes."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from conftest import DATA, FIXTURES, GOOD, load_kb, run_cli
from houserules.data.reading.codes import find_code, parse_code
from houserules.render.entrytext import TerminalLinker, format_entry
from houserules.render.linebreak import CLOSING, JOINER, OPENING, fit, is_link, width, wrap
from houserules.render.terminal import terminal_columns
from houserules.render.text import plain_text

SEARCH_DATA = FIXTURES / "search" / "data"
KB = load_kb(SEARCH_DATA)

# Chinese, English words, full-width and ASCII punctuation, spaces, wide and narrow.
_ALPHABET = st.sampled_from(
    list("魔梯进入就必须运行每名探索者回合")
    + list("，。；：！？）」』】、（「《")
    + list("abc xyz ,.;:()")
    + [" ", " "]
)
TEXT = st.lists(
    st.one_of(_ALPHABET, st.sampled_from(["elevator", "Discovering", "BH-A13", "——", "……"])), max_size=80
).map("".join)


def starts_with_closing(line: str) -> bool:
    return line.lstrip(" ")[:1] in CLOSING


def marks_fit(text: str, columns: int) -> bool:
    """Whether every run of closing marks (spaces between them too) with the character before it, and of
    opening marks with the one after it, fits in a line: otherwise no break keeps a mark off a line's
    start or end ("魔，，，，" at 8 columns: a word may be cut, a character not), and the wrap keeps the
    width instead."""
    closing, opening = (re.escape("".join(marks)) for marks in (CLOSING, OPENING))
    runs = [m.group(0) for m in re.finditer(rf"[^\s]?\s*[{closing}](?:\s*[{closing}])*", text)]
    runs += [m.group(0) for m in re.finditer(rf"[{opening}](?:\s*[{opening}])*\s*[^\s]?", text)]
    return all(width(run) <= columns for run in runs)


@given(TEXT, st.integers(min_value=8, max_value=120))
def test_no_wrapped_line_is_too_wide_or_starts_with_a_closing_mark(text, columns):
    lines = wrap(text, columns)
    # Only a link (a page, an address, a game:id such as "elevator:a") is never cut: alone on its line, it may be wider.
    assert all(width(line) <= columns or is_link(line.strip()) for line in lines), lines
    assume(marks_fit(text, columns))
    # A paragraph may itself start with a mark; every line a break made must not.
    assert not any(starts_with_closing(line) for line in lines[1:] if line), lines
    assert not any(line.rstrip()[-1:] in OPENING for line in lines[:-1] if line.strip()), lines


@given(TEXT, st.integers(min_value=20, max_value=120), st.sampled_from(["", "  ", " 1. ", "    → "]))
def test_fit_keeps_every_line_within_the_width(text, columns, lead):
    out = fit(lead + text.replace("\n", " "), columns).split("\n")
    assert all(width(line) <= columns for line in out), out
    assume(marks_fit(text, columns))
    assert not any(starts_with_closing(line) for line in out[1:] if line.strip()), out


@given(st.integers(min_value=20, max_value=60))
def test_a_link_is_never_broken(columns):
    link = "mice-and-mystics/a-very-long-page-name-for-a-room-in-the-game.html"
    out = fit(f"    → {link}  (mice-and-mystics:a-very-long-page-name)", columns).split("\n")
    assert any(link in line for line in out), out
    assert all(width(line) <= columns or is_link(line.split()[-1]) for line in out), out


def test_wrap_keeps_closing_marks_with_the_text_before_them():
    assert wrap("进入魔梯，就必须运行", 8) == ["进入魔", "梯，就必", "须运行"]
    assert wrap("（探索者）必须运行", 6) == ["（探索", "者）必", "须运行"]


def test_english_breaks_between_words():
    assert wrap("Discovering rooms and the elevator", 12) == ["Discovering", "rooms and", "the elevator"]


@pytest.mark.parametrize("env, expected", [({"COLUMNS": "60"}, 60), ({"COLUMNS": "200"}, 120), ({}, 80)])
def test_the_width_is_columns_else_the_terminal_else_80(monkeypatch, env, expected):
    monkeypatch.delenv("COLUMNS", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert terminal_columns() == expected  # pytest's output is not a terminal: 80 without COLUMNS


# -- codes as the go page takes them ------------------------------------------------------------------
FORMS = [
    "DM-A01",
    "dm-a01",
    "dm a01",
    "dma01",
    "DMA1",
    "dm-a1",
    "dm_a01",
    "dm.a01",
    "DM–A01",
    "ｄｍ－ａ０１",
    "#dm-a01",
    "%23DM-A01",
]


@pytest.mark.parametrize("typed", FORMS)
def test_every_go_page_form_finds_the_entry(typed):
    entry, question = find_code(KB, typed)
    assert entry is not None and entry.code == "DM-A01", typed
    assert question == ""


def test_a_question_after_the_code():
    for typed in ("dm-a02/who-is-hurt", "DM A02 / WHO IS HURT", "dma2#who-is-hurt"):
        found, question = find_code(KB, typed)
        assert (found.code, question) == ("DM-A02", "who-is-hurt"), typed


def test_a_question_by_the_clause_it_answers():
    good = load_kb(GOOD)
    found, question = find_code(good, "dm a01/fail stop")  # DM-A1: A01 and A1 are one code
    assert (found.code, question) == ("DM-A1", "failed-roll")


def test_parse_code_matches_the_go_page_examples():
    assert parse_code("bh a13 / Must Run", {"BH"}) == parse_code("BH-A13/must-run", {"BH"})
    assert parse_code("bha13", {"B", "BH"}).code == "BH-A13"


@pytest.mark.parametrize("typed", ["dm a01", "dma01", "DM-A01"])
def test_show_takes_the_go_page_forms(tmp_path, typed):
    result = run_cli(
        "show", typed, "--data", str(SEARCH_DATA), env={"HOUSERULES_CACHE": str(tmp_path), "COLUMNS": "60"}
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("DM-A01  ")


def test_show_names_the_questions_when_the_question_is_unknown(tmp_path):
    result = run_cli("show", "dm-a02/nope", "--data", str(SEARCH_DATA), env={"HOUSERULES_CACHE": str(tmp_path)})
    assert result.returncode == 1
    assert "DM-A02 has no question 'nope'" in result.stderr and "Traceback" not in result.stderr


# -- the real data at every width from 40 to 120 -----------------------------------------------------------------
REAL = load_kb(DATA)


def _broken_references(lines: list[str], kb) -> list[tuple[str, str]]:
    """Consecutive lines that part a reference's title ("楼层封 / 闭 (BH-T06)"): the first ends with the title's
    head, the next starts with its tail and the code."""
    broken = []
    for line, after in zip(lines, lines[1:]):
        head, tail = line.rstrip(), after.lstrip()
        for target in kb.entries.values():
            for title in {target.title["zh"], target.title["en"]}:
                for cut in range(1, len(title)):
                    if (
                        title[cut - 1] != " "
                        and title[cut] != " "
                        and head.endswith(title[:cut])
                        and tail.startswith(f"{title[cut:]} ({target.code})")
                    ):
                        broken.append((line, after))
    return broken


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(REAL.entries)), st.integers(min_value=40, max_value=120))
def test_show_never_parts_a_title_or_starts_a_line_with_a_closing_mark(ref, columns):
    """``houserules show`` of any entry of the real data at any width from 40 to 120: lines fit, no line a
    break made starts with a closing mark, and no reference's title is broken inside the word."""
    entry = REAL.entries[ref]
    lines = fit(format_entry(entry, REAL, f"{entry.game}/{entry.id}.html", columns), columns).split("\n")
    assert all(width(line) <= columns or is_link(line.split()[-1]) for line in lines), lines
    assert [line for line in lines if starts_with_closing(line)] == []
    assert _broken_references(lines, REAL) == []
    assert not any(JOINER in line for line in lines)


def test_a_reference_title_stays_whole_where_it_used_to_break():
    """The case found at 80 columns: a title followed by its code, the line full just before it."""
    target = next(e for e in REAL.entries.values() if len(e.title["zh"]) >= 3)
    text = f"{'进' * 30}[[{target.ref}]]。"
    for columns in range(40, 121):
        lines = fit(plain_text(text, TerminalLinker(REAL), "zh"), columns).split("\n")
        assert any(f"{target.title['zh']} ({target.code})" in line for line in lines), (columns, lines)
        assert _broken_references(lines, REAL) == [], (columns, lines)


def test_the_terminal_templates_print_no_control_or_format_character():
    """The terminal's autoescape: whatever a template of ``templates/terminal/`` prints is cleaned, data or not."""
    from houserules.render.entrytext import _templates

    assert _templates().from_string("{{ v }}|{{ n }}").render(v="a\x1b[31mb\u202ec\u2060d", n=3) == "a[31mbcd|3"
