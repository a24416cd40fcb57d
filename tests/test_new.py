"""``houserules new``: a new entry file that ``check`` explains until it is written, run as a user would."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from conftest import DATA, GOOD, run_cli
from houserules.data.reading.load import load


@pytest.fixture
def demo(tmp_path) -> Path:
    shutil.copytree(GOOD, tmp_path / "data")
    return tmp_path / "data"


def new(data: Path, *args: str):
    return run_cli("new", "--data", str(data), *args, cwd=data.parent)


def check(data: Path):
    return run_cli("check", "--data", str(data), cwd=data.parent)


def fill_in(path: Path, doc: str = "seed.txt", ref: str = "【2】") -> None:
    """What a contributor does next: write the answer and the source."""
    text = path.read_text(encoding="utf-8")
    text = text.replace('"TODO 待填写：一句话答案"', "只能向前走。").replace(
        '"TODO: the one-line answer"', "Forward only."
    )
    text = text.replace(
        '{doc: TODO, ref: "TODO 待填写：条款、章节或页码 · ruling, section or page"}', f'{{doc: {doc}, ref: "{ref}"}}'
    )
    path.write_text(text, encoding="utf-8")


def test_the_new_file_fails_check_with_each_placeholder_then_passes_once_written(demo):
    result = new(demo, "demo", "ruling", "--zh", "能否后退", "--en", "Moving back: allowed?")
    assert result.returncode == 0, result.stderr
    path = demo / "demo/entries/moving-back-allowed.yaml"
    assert result.stdout.startswith(  # named absolutely: the path opens from any folder
        f"wrote {path}: demo:moving-back-allowed, "
        f"code DM-A3 (ruling), listed in contents section 'rulings' of {demo / 'demo/game.yaml'}\n"
    )
    text = path.read_text(encoding="utf-8")
    schema = text.splitlines()[0].removeprefix("# yaml-language-server: $schema=")
    assert (path.parent / schema).resolve().name == "entry.schema.json" and (path.parent / schema).is_file()
    assert 'title: {zh: "能否后退", en: "Moving back: allowed?"}' in text
    checked = check(demo)
    assert checked.returncode == 1
    where = "data/demo/entries/moving-back-allowed.yaml"
    assert checked.stderr.splitlines() == [
        f"{where}:7: demo:moving-back-allowed: field 'summary.zh' is still a placeholder (TODO…) — write the one-line "
        "answer a player needs mid-game, in Chinese",
        f"{where}:8: demo:moving-back-allowed: field 'summary.en' is still a placeholder (TODO…) — write the one-line "
        "answer a player needs mid-game, in English (or remove the line)",
        f"{where}:12: demo:moving-back-allowed: field 'sources.0.doc' is still a placeholder (TODO…) — write the id of "
        "the source document the entry is based on, one of: rulebook, seed.txt",
        f"{where}:12: demo:moving-back-allowed: field 'sources.0.ref' is still a placeholder (TODO…) — write where in "
        "that source: a ruling number, a section heading or a page, e.g. 【13】 or p. 12",
    ]
    # `new` printed the same list, so the contributor sees it at once
    assert all(line.split(": demo:moving-back-allowed: ")[1] in result.stdout for line in checked.stderr.splitlines())
    fill_in(path)
    passed = check(demo)
    assert passed.returncode == 0, passed.stderr
    assert passed.stdout.strip() == "ok: 4 entries, 3 references, 1 game"


def test_the_first_line_names_the_schema_like_the_games_other_entries(tmp_path):
    data = tmp_path / "rules_data"
    shutil.copytree(DATA, data)
    assert new(data, "betrayal", "term", "--zh", "暗门", "--en", "Secret door").returncode == 0
    first = (data / "betrayal/entries/secret-door.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=../../../tools/houserules/schema/entry.schema.json"


def test_codes_follow_the_games_letters_and_padding_and_never_collide(tmp_path):
    data = tmp_path / "rules_data"
    shutil.copytree(DATA, data)
    # an entry file that does not load still holds its code: BH-A15 is taken
    (data / "betrayal/entries/broken.yaml").write_text("id: broken\ncode: BH-A15\nkind: [\n", encoding="utf-8")
    made = []
    for kind, en in [("ruling", "First"), ("ruling", "Second"), ("component", "Secret room"), ("term", "Omen token")]:
        result = new(data, "betrayal", kind, "--zh", "新条目", "--en", en)
        assert result.returncode == 0, result.stderr
        made.append(re.search(r"code (\S+) ", result.stdout).group(1))
    assert made == ["BH-A16", "BH-A17", "BH-R27", "BH-T07"]  # A unpadded, R and T two digits
    result = new(data, "mausritter", "ruling", "--zh", "新裁定", "--en", "New ruling", "--section", "saves")
    assert (
        re.search(r"code (\S+) ", result.stdout).group(1) == "MR-A01"
    )  # a kind new to the game: a free letter, padded
    kb = load(data).kb
    codes = [e.code for e in kb.entries.values()]
    assert len(codes) == len(set(codes))


def test_the_id_is_the_next_free_slug_of_the_english_title(demo):
    for expected in ("crossing-the-tower", "crossing-the-tower-2"):
        result = new(demo, "demo", "ruling", "--zh", "穿过塔楼", "--en", "Crossing the Tower")
        assert result.returncode == 0 and f"demo:{expected}," in result.stdout
    result = new(demo, "demo", "ruling", "--zh", "索引", "--en", "Index")
    assert "demo:index-2," in result.stdout  # 'index' is a page of the game


# how game.yaml lists a section's entries, and the one line the new entry changes there
LAYOUTS = [
    (
        "flow",
        "    entries: [demo:tower-crossing, demo:tower-errata]  # keep\n",
        "    entries: [demo:tower-crossing, demo:tower-errata, demo:new-one]  # keep\n",
    ),
    (
        "flow over lines",
        "    entries: [\n      demo:tower-crossing,\n      demo:tower-errata\n    ]\n",
        "    entries: [\n      demo:tower-crossing,\n      demo:tower-errata, demo:new-one\n    ]\n",
    ),
    (
        "block",
        '    entries:\n      - demo:tower-crossing   # first\n      - "demo:tower-errata"  # second\n',
        '    entries:\n      - demo:tower-crossing   # first\n      - "demo:tower-errata"  # second\n'
        "      - demo:new-one\n",
    ),
    (
        "block at the key's indent",
        "    entries:\n    - demo:tower-crossing\n    - demo:tower-errata\n",
        "    entries:\n    - demo:tower-crossing\n    - demo:tower-errata\n    - demo:new-one\n",
    ),
]


@pytest.mark.parametrize("layout, before, after", LAYOUTS, ids=[name for name, _, _ in LAYOUTS])
def test_game_yaml_gains_the_entry_and_keeps_its_layout_and_comments(demo, layout, before, after):
    game = demo / "demo/game.yaml"
    text = game.read_text(encoding="utf-8").replace("    entries: [demo:tower-crossing, demo:tower-errata]\n", before)
    text = "# the demo game — comments stay\n" + text.replace("contents:\n", "contents:   # sections of the page\n")
    game.write_text(text, encoding="utf-8")
    assert check(demo).returncode == 0
    result = new(demo, "demo", "ruling", "--zh", "新条目", "--en", "New one")
    assert result.returncode == 0, result.stderr
    assert game.read_text(encoding="utf-8") == text.replace(before, after)
    fill_in(demo / "demo/entries/new-one.yaml")
    assert check(demo).returncode == 0


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["chess", "ruling"],
            "unknown game 'chess' — use one of: demo (a game whose game.yaml has problems is not "
            "loaded: run 'houserules check')",
        ),
        (["demo", "card"], "unknown kind 'card' — use one of: ruling, rule, component, term, house-rule"),
        (
            ["demo", "ruling", "--id", "tower"],
            "demo already has an entry 'tower' (data/demo/entries/tower.yaml) — choose "
            "another --id, or edit that entry",
        ),
        (
            ["demo", "ruling", "--id", "Tower_2"],
            "--id 'Tower_2' is not an id — use lowercase letters, digits and single hyphens, e.g. mystic-elevator",
        ),
        (
            ["demo", "ruling", "--id", "errata"],
            "--id 'errata' is reserved for a page of the game — choose another id "
            "(reserved: api, errata, glossary, index, notes, print, tags)",
        ),
        (
            ["demo", "component"],
            "no contents section of game 'demo' lists a component yet — choose one with --section ID (one of: rulings)",
        ),
        (["demo", "ruling", "--section", "rooms"], "game 'demo' has no contents section 'rooms' — use one of: rulings"),
    ],
)
def test_refusals_are_clear_and_write_nothing(demo, args, message):
    before = {p: p.read_bytes() for p in demo.rglob("*") if p.is_file()}
    result = new(demo, *args[:2], "--zh", "标题", "--en", "Title", *args[2:])
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr == f"houserules new: {message}\n"
    assert {p: p.read_bytes() for p in demo.rglob("*") if p.is_file()} == before


def test_a_read_only_game_yaml_leaves_no_new_file(demo, tmp_path):
    game = demo / "demo/game.yaml"
    game.chmod(0o444)
    result = new(demo, "demo", "ruling", "--zh", "标题", "--en", "Title")
    assert result.returncode == 1
    assert (
        "the file is read-only; make it writable (chmod u+w data/demo/game.yaml) and run 'houserules new' again"
        in result.stderr
    )
    assert sorted(p.name for p in (demo / "demo/entries").iterdir()) == [
        "tower-crossing.yaml",
        "tower-errata.yaml",
        "tower.yaml",
    ]
