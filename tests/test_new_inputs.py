"""``houserules new`` with hostile input: odd files among the entries and titles that are not one line."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import GOOD, run_cli
from houserules.data.authoring.scaffold import new_entry
from houserules.data.reading.load import load
from houserules.errors import HouserulesError


@pytest.fixture
def demo(tmp_path) -> Path:
    shutil.copytree(GOOD, tmp_path / "data")
    return tmp_path / "data"


def new(data: Path, *args: str, timeout: float = 60):
    return run_cli("new", "--data", str(data), *args, cwd=data.parent, timeout=timeout)


@pytest.mark.parametrize("odd", ["fifo", "sparse"])
def test_an_odd_file_among_the_entries_is_skipped_not_read(demo, odd):
    tower = demo / "demo/entries/tower.yaml"
    tower.write_text(
        "# yaml-language-server: $schema=mine.json\n" + tower.read_text(encoding="utf-8"), encoding="utf-8"
    )
    path = demo / "demo/entries/aaa-odd.yaml"  # sorted first: the schema line is looked for in it first
    if odd == "fifo":
        os.mkfifo(path)
    else:
        with open(path, "wb") as handle:
            handle.truncate(1 << 30)  # 1 GB, no byte written
    result = new(demo, "demo", "ruling", "--zh", "能否后退", "--en", "Moving back", timeout=30)
    assert result.returncode == 0, result.stderr
    wrote = demo.resolve() / "demo/entries/moving-back.yaml"
    assert result.stdout.startswith(f"wrote {wrote}: demo:moving-back, code DM-A3")
    first = (demo / "demo/entries/moving-back.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=mine.json"


BREAKS = {
    "\n": "a line break",
    "\r": "a line break",
    "\x0b": "a line break",
    "\x0c": "a line break",
    "\x85": "a line break",
    "\u2028": "a line break",
    "\u2029": "a line break",
    "\x1b": "a control character",
    "\x00": "a control character",
}


@pytest.mark.parametrize("char", [c for c in BREAKS if c != "\x00"], ids=lambda c: f"U+{ord(c):04X}")
@pytest.mark.parametrize("flag", ["--en", "--zh"])
def test_a_title_with_a_line_break_is_refused_and_nothing_written(demo, flag, char):
    titles = {"--zh": "能否后退", "--en": "Moving back"}
    titles[flag] = titles[flag][:3] + char + titles[flag][3:]
    before = (demo / "demo/game.yaml").read_bytes()
    result = new(demo, "demo", "ruling", "--zh", titles["--zh"], "--en", titles["--en"])
    assert (result.returncode, result.stdout) == (1, "")
    shown = repr(titles[flag])
    assert result.stderr == (
        f"houserules new: {flag} must be a one-line title: {shown} holds U+{ord(char):04X}, {BREAKS[char]}; "
        "write the title on one line without it\n"
    )
    assert "Traceback" not in result.stderr
    assert sorted(p.name for p in (demo / "demo/entries").iterdir()) == sorted(
        p.name for p in (GOOD / "demo/entries").iterdir()
    )
    assert (demo / "demo/game.yaml").read_bytes() == before


def test_undecodable_bytes_on_the_command_line_are_refused(demo):
    result = run_cli("new", "--data", str(demo), "demo", "ruling", "--zh", "能否", "--en", "Moving back")
    assert result.returncode == 0  # the baseline works
    kb = load(demo).kb
    with pytest.raises(HouserulesError, match=r"holds U\+DCFF, a character no file can carry"):
        new_entry(kb, "demo", "ruling", "标题", "Bad \udcff bytes")


@given(
    st.text(min_size=1, max_size=10),
    st.sampled_from(list(BREAKS) + ["\ud800", "\ufffe", "\x7f", "\x9b"]),
    st.integers(0, 10),
)
def test_any_title_holding_a_break_or_control_is_refused_before_anything_is_written(tmp_path_factory, text, char, at):
    data = tmp_path_factory.mktemp("new") / "data"
    shutil.copytree(GOOD, data)
    kb = load(data).kb
    title = text[:at] + char + text[at:]
    with pytest.raises(HouserulesError, match="must be a one-line title"):
        new_entry(kb, "demo", "ruling", "标题", title)
    with pytest.raises(HouserulesError, match="must be a one-line title"):
        new_entry(kb, "demo", "ruling", title, "Title")
    assert sorted(p.name for p in (data / "demo/entries").iterdir()) == sorted(
        p.name for p in (GOOD / "demo/entries").iterdir()
    )
