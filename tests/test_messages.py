"""Messages that mislead, by class: each says what is wrong, and names only what exists.

- A query that shows nothing (zero-width spaces and joiners, a byte-order mark, a word joiner, a
  Hangul filler, any run of invisible characters) is an empty query, not one "no entries match";
  a query of punctuation or symbols only has nothing to search for; an entry reference that
  shows nothing is an empty reference (``show``, ``stamp``), not an unknown entry.
- A refused or failed write names only options the command has: ``export``, ``pdf`` and
  ``l10n export`` offer ``-o FILE``; what ``l10n import`` writes (the data files) goes through the
  same rules and offers none. Every option a message names is compared with the command's parser.
- A build that cannot write its folder says so, not that the lock should be removed
  (tests/test_disk_full.py).
"""

from __future__ import annotations

import argparse
import errno
import re
import socket
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import FIXTURES, GOOD, run_cli
from houserules.cli import build_parser, main
from houserules.cli.lookup import _not_blank
from houserules.errors import HouserulesError
from houserules.export import safewrite, write_output

INVISIBLE = [
    "\u200b",
    "\u200c",
    "\u200d",
    "\ufeff",
    "\u2060",
    "\u2061",
    "\u2064",
    "\u00ad",
    "\u180e",
    "\u034f",
    "\u3164",
    "\uffa0",
    "\u2800",
    "\ufe0f",
    "\u202e",
    "\u2066",
    "\U000e0020",
    "\u3000",
    "\u2003",
    " ",
]
invisible_runs = st.lists(st.sampled_from(INVISIBLE), min_size=1, max_size=30).map("".join)


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("HOUSERULES_CACHE", str(tmp_path / "cache"))


@pytest.mark.parametrize(
    "query", ["\u200b", "\u200b" * 40, "\u200c\u200d\ufeff\u2060", "\u3164 \u2800", "\U000e0020\ufe0f"]
)
def test_a_query_of_invisible_characters_is_an_empty_query(cache, capsys, query):
    assert main(["search", "--data", str(GOOD), query]) == 1
    err = capsys.readouterr().err
    assert err.startswith("houserules search: empty query: it holds only invisible characters (U+")
    assert err.endswith("— type a word, a title, a code or a question, e.g. houserules search 魔梯\n")
    assert "no entries match" not in err


@given(invisible_runs)
def test_any_run_of_invisible_characters_is_an_empty_query(query):
    with pytest.raises(HouserulesError, match="^empty query"):
        _not_blank(query.strip())


@pytest.mark.parametrize("query", ["？？！", "...", "——", "、、。", "（）", "!!! ???", "※★"])
def test_a_query_of_punctuation_has_nothing_to_search_for(cache, capsys, query):
    assert main(["search", "--data", str(GOOD), query]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"houserules search: nothing to search for in {query!r}: it holds no word, name or code")
    assert "no entries match" not in err


def test_a_query_no_entry_matches_still_says_so(cache, capsys):
    """In both languages, the query's first: an English query reads English first, a Traditional one Traditional."""
    assert main(["search", "--data", str(GOOD), "zzyzx"]) == 0
    assert capsys.readouterr().err == "no entries match 'zzyzx' · 没有匹配的条目：'zzyzx'\n"
    assert main(["search", "--data", str(GOOD), "沒有這種東西嗎"]) == 0
    assert capsys.readouterr().err == "沒有符合的條目：'沒有這種東西嗎' · no entries match '沒有這種東西嗎'\n"


@pytest.mark.parametrize("command", ["show", "stamp"])
@pytest.mark.parametrize("ref", ["\u200b", "\u2060\u200d", " \ufeff "])
def test_an_entry_reference_of_invisible_characters_is_an_empty_reference(capsys, command, ref):
    assert main([command, "--data", str(GOOD), ref]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"houserules {command}: empty entry reference (it holds only U+")
    assert err.endswith("— give an entry as game:id or its code, e.g. betrayal:vault or BH-R06\n")


# -- every option a message names exists --------------------------------------------------------------

OPTION = re.compile(r"(?<![\w./-])(--?[a-z][a-z-]*)(?![\w-])")


def options_of(*command: str) -> set[str]:
    """The options the parser of ``houserules COMMAND [ACTION]`` takes."""
    parser, _ = build_parser(command[0])
    for name in command:
        (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        parser = sub.choices[name]
    return {s for action in parser._actions for s in action.option_strings}


def named_options(message: str) -> set[str]:
    """The options a message names (``-o FILE``, ``--game``), not words with hyphens or paths."""
    return set(OPTION.findall(message))


def test_named_options_are_read_from_messages():
    assert named_options("choose another path with -o FILE; or import one game at a time (--game)") == {"-o", "--game"}
    assert named_options("the .site-old-x folder of e.g. mystic-elevator in /tmp/-x") == set()


def _targets(tmp_path: Path) -> dict[str, Path]:
    folder = tmp_path / "targets"
    folder.mkdir()
    (folder / "a-folder").mkdir()
    with socket.socket(socket.AF_UNIX) as sock:  # the socket file stays when it is closed
        sock.bind(str(folder / "a-socket"))
    return {
        "folder": folder / "a-folder",
        "missing folder": folder / "no-such" / "out.file",
        "socket": folder / "a-socket",
        "not a folder": folder / "a-socket" / "out.file",
    }


@pytest.mark.parametrize(
    "command",
    [("export", "--format", "csv"), ("export", "--what", "glossary"), ("l10n", "export"), ("pdf",)],
    ids=" ".join,
)
def test_every_option_a_refused_output_names_is_one_the_command_has(tmp_path, command):
    data = FIXTURES / "translators" / "data"
    words = [c for c in command if not c.startswith("-") and c not in ("csv", "glossary")]
    for what, target in _targets(tmp_path).items():
        result = run_cli(*command, "--data", str(data), "-o", str(target), cwd=tmp_path)
        assert result.returncode == 1, (what, result.stderr)
        named = named_options(result.stderr)
        assert named and named <= options_of(*words), (what, result.stderr)


@pytest.mark.parametrize("fault", ["socket", "missing folder", "no space", "read-only"])
def test_what_the_import_writes_names_no_option(tmp_path, monkeypatch, fault):
    """``l10n import`` writes the data files through the output rules; it has no ``-o`` to offer."""
    targets = _targets(tmp_path)
    path = targets.get(fault, tmp_path / "data.yaml")
    if fault == "no space":
        monkeypatch.setattr(safewrite.os, "replace", lambda *a: (_ for _ in ()).throw(OSError(errno.ENOSPC, "")))
    if fault == "read-only":
        monkeypatch.setattr(safewrite.os, "access", lambda *a: False)
        monkeypatch.setattr(safewrite, "read_only_disk", lambda path: True)
    with pytest.raises(HouserulesError) as caught:
        write_output(path, b"x: 1\n")
    assert named_options(str(caught.value)) == set(), str(caught.value)


def test_an_import_that_meets_a_full_disk_names_no_option(tmp_path, monkeypatch, capsys):
    import shutil

    data = tmp_path / "data"
    shutil.copytree(FIXTURES / "translators" / "data", data)
    exported = tmp_path / "out.po"
    assert main(["l10n", "export", "--data", str(data), "--format", "po", "-o", str(exported)]) == 0
    text = exported.read_text(encoding="utf-8")
    text = re.sub(r'(msgctxt "demo:tower-crossing/title"\nmsgid "[^"]*"\nmsgstr ")[^"]*"', r'\1Going through"', text)
    exported.write_text(text, encoding="utf-8")
    capsys.readouterr()
    monkeypatch.setattr(safewrite.os, "replace", lambda *a: (_ for _ in ()).throw(OSError(errno.ENOSPC, "")))
    assert main(["l10n", "import", "--data", str(data), str(exported)]) == 1
    err = capsys.readouterr().err
    assert "the disk is full" in err, err
    assert named_options(err) <= options_of("l10n", "import"), err


# -- what a command wrote is named by a path that opens from anywhere --------------------------------------------
#: "wrote PATH", "built PATH", "checked PATH", and the lines under ``new`` that point into the file it wrote.
_NAMED = re.compile(r"^(?:wrote|built|checked) (.+?)(?:/?: | \()|^  (/\S+?|\.\.?/\S+?|[^\s/]\S*?):\d+: ", re.M)


def _written(stdout: str) -> list[str]:
    """Every path ``stdout`` names as written, in order."""
    return [a or b for a, b in _NAMED.findall(stdout)]


@pytest.fixture
def elsewhere(tmp_path, monkeypatch):
    """A copy of the known-good data in ``kb/data`` and an empty folder ``elsewhere`` beside it, to run from."""
    import shutil

    monkeypatch.setenv("HOUSERULES_CACHE", str(tmp_path / "cache"))
    shutil.copytree(GOOD, tmp_path / "kb" / "data")
    (tmp_path / "elsewhere" / "out").mkdir(parents=True)
    return tmp_path / "elsewhere"


@pytest.mark.parametrize(
    "command, written",
    [
        (
            ["new", "demo", "ruling", "--zh", "能否后退", "--en", "Moving back"],
            ["kb/data/demo/entries/moving-back.yaml"],
        ),
        (["new-game", "chess", "--zh", "象棋", "--en", "Chess", "--code", "CH"], ["kb/data/chess"]),
        (["export", "--what", "glossary", "--format", "csv", "-o", "out/glossary.csv"], ["elsewhere/out/glossary.csv"]),
        (["l10n", "export", "--game", "demo", "-o", "out/demo.xlf"], ["elsewhere/out/demo.xlf"]),
    ],
    ids=["new", "new-game", "export", "l10n-export"],
)
def test_a_written_file_is_named_by_its_absolute_path(elsewhere, command, written):
    """Run from another folder, with the data and the output given relative to it (as ``make -C``, a script or CI
    runs a command), every file or folder a message says was written is named absolutely: it opens from anywhere,
    and it is the file that was written."""
    where = command[:2] if command[0] == "l10n" else command[:1]
    result = run_cli(*where, "--data", "../kb/data", *command[len(where) :], cwd=elsewhere)
    assert result.returncode == 0, result.stderr
    named = _written(result.stdout)
    assert named, result.stdout
    assert all(Path(path).is_absolute() and Path(path).exists() for path in named), named
    root = elsewhere.parent.resolve()
    assert named[0] == str(root / written[0]), result.stdout
    if command[0] == "new":  # the file it wrote, the game's contents it listed it in, and each placeholder's line
        assert f" of {root / 'kb/data/demo/game.yaml'}\n" in result.stdout
        assert len(named) > 1 and set(named[1:]) == {named[0]}, named


def test_init_names_the_new_folder_absolutely(tmp_path):
    result = run_cli("init", "groups/friday", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    folder = tmp_path.resolve() / "groups" / "friday"
    assert result.stdout.startswith(f"wrote {folder}/ (friday): ")
    assert f"\n  cd {folder}\n" in result.stdout  # the next step works from any folder


@pytest.mark.slow
def test_build_pdf_and_publish_name_what_they_wrote_absolutely(elsewhere):
    """The same for a built site, the link check of it and a printed FAQ (a PDF laid out: slow)."""
    site = elsewhere.resolve() / "site"
    built = run_cli("build", "--data", "../kb/data", "-o", "site", cwd=elsewhere)
    assert built.returncode == 0, built.stderr
    assert built.stdout.startswith(f"built {site} (")
    checked = run_cli("publish", "--check", "--no-build", "--data", "../kb/data", "-o", "site", cwd=elsewhere)
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.startswith(f"checked {site}: ")
    printed = run_cli("pdf", "--data", "../kb/data", "-o", "out/faq.pdf", cwd=elsewhere)
    assert printed.returncode == 0, printed.stderr
    assert printed.stdout.startswith(f"wrote {elsewhere.resolve() / 'out/faq.pdf'} (")
