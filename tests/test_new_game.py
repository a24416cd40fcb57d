"""``houserules new-game``: a group's own game, written whole or not at all, checked, on the site, searchable.

The game's folder appears in one step (a temporary folder beside the data, renamed); every refusal and
every failure leaves the data folder as it was. The new game passes ``check`` with a warning per
placeholder, builds (its page says it has no entries yet), is on the home page and in the navigation,
takes entries from ``houserules new`` into its sections, and ``publish --check`` refuses its placeholders.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import DATA, GOOD, run_cli
from houserules.data.reading import vocab
from houserules.data.reading.load import load


@pytest.fixture
def data(tmp_path) -> Path:
    """A copy of the known-good fixture (game demo, code letters DM) as a group's data folder."""
    shutil.copytree(GOOD, tmp_path / "rules_data")
    return tmp_path / "rules_data"


def run(data: Path, *args: str):
    return run_cli(*args, "--data", str(data), cwd=data.parent)


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file and folder under ``folder``'s parent (so a temporary folder left beside it shows too)."""
    return {
        str(p.relative_to(folder.parent)): (p.read_bytes() if p.is_file() else b"<dir>")
        for p in sorted(folder.parent.rglob("*"))
    }


NEW = ["new-game", "nine-mens-morris", "--zh", "九子棋", "--en", "Nine Men's Morris", "--code", "NM"]


def test_the_new_game_passes_check_with_a_warning_per_placeholder_and_says_what_to_fill_in(data):
    made = run(data, *NEW)
    assert made.returncode == 0, made.stderr
    folder = data / "nine-mens-morris"
    assert sorted(p.name for p in folder.iterdir()) == ["game.yaml", "glossary.yaml", "synonyms.yaml"]
    assert made.stdout.splitlines()[0] == (
        f"wrote {folder}/: game.yaml (nine-mens-morris, code letters NM, contents sections rules "
        "and rulings), an empty glossary.yaml and synonyms.yaml"
    )
    checked = run(data, "check")
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.splitlines()[-1] == "ok: 3 entries, 3 references, 2 games, 7 warnings"
    warnings = checked.stdout.splitlines()[:-1]
    where = "rules_data/nine-mens-morris/game.yaml"
    assert [w.split(": warning: ")[1].split(" is still")[0] for w in warnings] == [
        "field 'description.zh'",
        "field 'description.en'",
        "field 'licence.name'",
        "field 'licence.attribution.zh'",
        "field 'licence.attribution.en'",
        "field 'sources.0.title.en'",
        "field 'sources.0.title.zh'",
    ]
    assert warnings[2] == (
        f"{where}:12: nine-mens-morris: warning: field 'licence.name' is still a placeholder (TODO…) — name the "
        "licence of the game's rules (CC BY 4.0, Public domain...), or 'All rights reserved' (then the entries "
        "paraphrase and credit)"
    )
    lines = folder.joinpath("game.yaml").read_text(encoding="utf-8").splitlines()
    for warning in warnings:  # each warning names the line its placeholder is on
        line = int(warning.split(":")[1])
        assert "TODO" in lines[line - 1], warning
    # new-game printed the same list (in the file it wrote, named absolutely), so the group sees it at once;
    # --warnings-as-errors fails on it
    shown = [
        w.replace(": nine-mens-morris: warning", "").removeprefix("rules_data/nine-mens-morris/") for w in warnings
    ]
    assert all(f"  {folder}/{line}\n" in made.stdout for line in shown)
    assert run(data, "check", "--warnings-as-errors").returncode == 1
    game = load(data).kb.games["nine-mens-morris"]
    assert (game.code_prefix, game.name["zh"], game.name["en"], [s.id for s in game.contents]) == (
        "NM",
        "九子棋",
        "Nine Men's Morris",
        ["rules", "rulings"],
    )
    schema = lines[0].removeprefix("# yaml-language-server: $schema=")
    assert (folder / schema).resolve().name == "game.schema.json" and (folder / schema).is_file()


def test_filled_in_the_game_checks_clean_and_new_entries_go_to_its_sections(data):
    filled_in_game(data)


def filled_in_game(data: Path) -> Path:
    """new-game, its placeholders written, two entries made with new and written: the data folder."""
    assert run(data, *NEW).returncode == 0
    path = data / "nine-mens-morris/game.yaml"
    text = path.read_text(encoding="utf-8")
    for placeholder, written in {
        "TODO 待填写：一两句话介绍这款游戏，以及本站收录哪些规则": "传统棋类游戏。",
        "TODO: the game in a sentence or two, and which of its rules this covers": "A traditional board game.",
        "TODO 待填写：授权，如 CC BY 4.0、公有领域 · the licence, e.g. CC BY 4.0, Public domain": "Public domain",
        "TODO 待填写：署名（作者、出版方）与使用条件": "传统游戏。",
        "TODO: the attribution the rights holder asks for, and the terms": "A traditional game.",
        "TODO 待填写：资料名称": "规则",
        "TODO: the document's title": "Rules",
    }.items():
        assert placeholder in text
        text = text.replace(placeholder, written)
    path.write_text(text, encoding="utf-8")
    assert run(data, "check", "--warnings-as-errors").returncode == 0
    rule = run(data, "new", "nine-mens-morris", "rule", "--zh", "摆子", "--en", "Placing")
    ruling = run(data, "new", "nine-mens-morris", "ruling", "--zh", "吃子", "--en", "Removing")
    assert "code NM-R1 (rule), listed in contents section 'rules'" in rule.stdout, rule.stderr
    assert "code NM-A1 (ruling), listed in contents section 'rulings'" in ruling.stdout, ruling.stderr
    component = run(data, "new", "nine-mens-morris", "component", "--zh", "棋盘", "--en", "Board")
    assert component.returncode == 1  # no section named for it: the group chooses
    assert "lists a component yet — choose one with --section ID (one of: rules, rulings)" in component.stderr
    fill_in_entry(
        data / "nine-mens-morris/entries/removing.yaml",
        "成三后移除对方一枚棋子。",
        "A mill removes one opposing piece.",
    )
    fill_in_entry(data / "nine-mens-morris/entries/placing.yaml", "先轮流摆子，再轮流走子。", "Place, then move.")
    assert run(data, "check", "--warnings-as-errors").returncode == 0
    hits = json.loads(run(data, "search", "成三以后能吃掉对方的棋子吗", "--json").stdout)
    assert hits[0]["code"] == "NM-A1", hits  # searchable at once
    # a small knowledge base has no "common" words: each word of a one-line answer finds its entry
    for word in ("mill", "opposing", "移除"):
        hits = json.loads(run(data, "search", word, "--json").stdout)
        assert hits and hits[0]["code"] == "NM-A1", (word, hits)
    return data


def fill_in_entry(path: Path, zh: str, en: str) -> None:
    """What a group writes next into an entry of ``houserules new``: the answer and where it comes from."""
    text = path.read_text(encoding="utf-8")
    text = text.replace('"TODO 待填写：一句话答案"', zh).replace('"TODO: the one-line answer"', en)
    text = text.replace(
        '{doc: TODO, ref: "TODO 待填写：条款、章节或页码 · ruling, section or page"}', "{doc: rulebook, ref: 规则}"
    )
    path.write_text(text, encoding="utf-8")


@pytest.mark.slow
def test_the_new_game_prints(data, tmp_path):
    filled = filled_in_game(data)
    out = tmp_path / "nine-mens-morris.pdf"
    result = run(filled, "pdf", "--game", "nine-mens-morris", "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"wrote {out} (2 entries, ")
    text = subprocess.run(["pdftotext", "-layout", str(out), "-"], capture_output=True, text=True, check=True).stdout
    assert "九子棋" in text and "NM-A1" in text and "成三后移除对方一枚棋子。" in text


@pytest.mark.parametrize(
    "slug, options, message",
    [
        ("Nine_Mens", {}, "'Nine_Mens' is not a game id — use lowercase letters, digits and single hyphens"),
        ("x" * 65, {}, "is not a game id"),
        ("go", {}, "'go' is the name of a folder of the site — choose another game id (reserved: api, assets, go, "),
        ("demo", {}, "rules_data/demo already exists — choose another game id, or edit that game's game.yaml"),
        (
            "morris",
            {"--code": "DM"},
            "--code DM is taken by game 'demo' — choose letters no other game uses (taken: DM)",
        ),
        ("morris", {"--code": "DMX"}, "--code DMX and DM (game 'demo') begin alike: a code typed without its hyphen"),
        ("morris", {"--code": "D"}, "--code 'D' is not code letters — use 2 to 4 letters A–Z"),
        ("morris", {"--code": "N1"}, "--code 'N1' is not code letters"),
        ("morris", {"--code": "NMXYZ"}, "--code 'NMXYZ' is not code letters"),
        ("morris", {"--zh": "演示游戏"}, "--zh '演示游戏' is a name of game 'demo' (演示游戏 Demo Game) — a search"),
        ("morris", {"--en": "demo game"}, "--en 'demo game' is a name of game 'demo'"),
        ("morris", {"--zh": "演示"}, "--zh '演示' is a name of game 'demo'"),  # its alias
        ("morris", {"--en": "TODO later"}, "--en 'TODO later' reads as a placeholder (it starts with TODO) — give"),
        ("morris", {"--zh": "九子\n棋"}, "--zh must be a one-line title: '九子\\n棋' holds U+000A, a line break"),
        ("morris", {"--zh": "  "}, "--zh must be a one-line title, not '  '"),
        ("morris", {"--source": "missing.txt"}, "--source missing.txt: No such file or directory — give a document"),
        ("morris", {"--source": "."}, "--source . is not a file — give the document the entries will cite"),
    ],
)
def test_refusals_are_clear_and_leave_the_data_folder_as_it_was(data, slug, options, message):
    given = {"--zh": "九子棋", "--en": "Nine Men's Morris", "--code": "NM", **options}
    before = snapshot(data)
    result = run(data, "new-game", slug, *(x for pair in given.items() for x in pair))
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.startswith("houserules new-game: ") and message in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1  # one line, no traceback
    assert snapshot(data) == before


def test_a_game_folder_that_differs_only_in_case_is_refused(data):
    (data / "Nine-Mens-Morris").mkdir()
    before = snapshot(data)
    result = run(data, *NEW)
    assert result.returncode == 1
    assert "rules_data/Nine-Mens-Morris already exists" in result.stderr
    assert snapshot(data) == before


def test_letters_held_by_a_game_that_does_not_load_are_taken_too(data):
    broken = data / "broken"
    broken.mkdir()
    (broken / "game.yaml").write_text("id: broken\ncode_prefix: NM\nname: [\n", encoding="utf-8")
    result = run(data, *NEW)
    assert result.returncode == 1
    assert "--code NM is taken by game 'broken'" in result.stderr


def test_lower_case_code_letters_are_taken_as_capitals(data):
    result = run(data, "new-game", "morris", "--zh", "九子棋", "--en", "Morris", "--code", "nm")
    assert result.returncode == 0, result.stderr
    assert load(data).kb.games["morris"].code_prefix == "NM"


@pytest.mark.parametrize("failing", ["rename", "write"])
def test_a_failure_part_way_leaves_nothing_behind(data, monkeypatch, failing):
    from houserules.data.authoring import newgame

    before = snapshot(data)
    if failing == "rename":

        def rename(src, dst):
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(newgame.os, "rename", rename)
    else:  # the second file cannot be written: the first is already in the temporary folder
        written = []
        real = Path.write_text

        def write_text(self, *args, **kwargs):
            written.append(self)
            if len(written) == 2:
                raise OSError(28, "No space left on device")
            return real(self, *args, **kwargs)

        monkeypatch.setattr(Path, "write_text", write_text)
    result = run(data, *NEW)
    assert result.returncode == 1
    assert snapshot(data) == before  # no game folder, no temporary folder beside the data
    where = "move the new game into rules_data" if failing == "rename" else "write the new game beside rules_data"
    assert result.stderr == f"houserules new-game: cannot {where}: No space left on device; nothing was written\n"


def test_a_name_with_no_visible_text_is_caught_when_read_back_and_nothing_is_written(data):
    before = snapshot(data)
    result = run(data, "new-game", "ghost", "--zh", "\u200b", "--en", "Ghost", "--code", "GH")
    assert result.returncode == 1
    assert "rules_data/ghost/game.yaml:" in result.stderr and "field 'name.zh' has no visible text" in result.stderr
    assert "the new game would not load (1 problems); nothing was written" in result.stderr
    assert snapshot(data) == before


def test_a_source_is_declared_by_its_name_and_first_line_never_its_text(data, tmp_path):
    source = tmp_path / "九子棋规则.txt"
    source.write_text("\n  # 九子棋 玩法说明  \n第一段：双方各有九枚棋子。秘密句子。\n", encoding="utf-8")
    result = run(data, *NEW, "--source", str(source))
    assert result.returncode == 0, result.stderr
    text = (data / "nine-mens-morris/game.yaml").read_text(encoding="utf-8")
    assert "秘密句子" not in text and "第一段" not in text
    game = load(data).kb.games["nine-mens-morris"]
    (declared,) = game.sources
    assert (declared.id, declared.kind, declared.lang) == ("source", "seed", "zh")  # a name of no ASCII: "source"
    assert (declared.title["zh"], declared.title["en"]) == ("九子棋 玩法说明", "TODO: the document's title in English")
    assert "the source's title was taken from" in result.stdout
    # the file name is a production word: no shown text may use it
    assert run(data, "check").returncode == 0


def test_a_source_whose_name_is_no_id_gets_one_and_an_english_title(data, tmp_path):
    source = tmp_path / "Nine Men's Morris (rules).md"
    source.write_text("Nine Men's Morris — the rules\n\nBody text.\n", encoding="utf-8")
    assert run(data, *NEW, "--source", str(source)).returncode == 0
    (declared,) = load(data).kb.games["nine-mens-morris"].sources
    assert (declared.id, declared.lang, declared.title["en"]) == (
        "nine-men-s-morris-rules",
        "en",
        "Nine Men's Morris — the rules",
    )
    assert declared.title["zh"].startswith("TODO")


def test_a_pdf_source_gives_its_own_title_and_a_binary_one_none(data, tmp_path):
    from pypdf import PdfWriter

    pdf = tmp_path / "rules.pdf"
    writer = PdfWriter()
    writer.add_blank_page(width=200, height=200)
    writer.add_metadata({"/Title": "Nine Men's Morris rulebook"})
    with open(pdf, "wb") as out:
        writer.write(out)
    assert run(data, *NEW, "--source", str(pdf)).returncode == 0
    (declared,) = load(data).kb.games["nine-mens-morris"].sources
    assert (declared.id, declared.title["en"]) == ("rules.pdf", "Nine Men's Morris rulebook")
    binary = tmp_path / "scan.png"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
    assert (
        run(
            data, "new-game", "other", "--zh", "别的", "--en", "Other", "--code", "OT", "--source", str(binary)
        ).returncode
        == 0
    )
    (declared,) = load(data).kb.games["other"].sources
    assert (
        declared.id == "scan.png"
        and declared.title["zh"].startswith("TODO")
        and declared.title["en"].startswith("TODO")
    )


def test_publish_check_refuses_the_placeholders_and_builds_nothing(data):
    assert run(data, *NEW).returncode == 0
    result = run(data, "publish", "--check", "-o", str(data.parent / "site"))
    assert result.returncode == 1
    assert result.stderr.splitlines()[-1] == (
        "houserules publish: 7 placeholders (TODO…) are still in the games' game.yaml (listed above), and the site "
        "would show them; fill them in, then publish"
    )
    assert not (data.parent / "site").exists()


# -- the check refuses the same classes of game a hand-written game.yaml could hold ---------------------------------


def _second_game(data: Path, game_id: str, prefix: str) -> None:
    folder = data / game_id
    folder.mkdir()
    text = (data / "demo/game.yaml").read_text(encoding="utf-8")
    text = text.replace("id: demo", f"id: {game_id}").replace("code_prefix: DM", f"code_prefix: {prefix}")
    text = text.replace("演示游戏", f"演示{prefix}").replace("Demo Game", f"Demo {prefix}").replace("[演示]", "[]")
    (folder / "game.yaml").write_text(text.split("contents:")[0] + "contents: []\n", encoding="utf-8")


@pytest.mark.parametrize(
    "game_id, prefix, problem",
    [
        ("assets", "AS", "game id 'assets' is the name of a folder of the site"),
        ("other", "DM", "code letters DM are also those of game"),
        ("other", "DMX", "code letters DMX begin alike with those of game 'demo' (DM)"),
    ],
)
def test_check_refuses_a_reserved_game_id_and_shared_or_nested_code_letters(data, game_id, prefix, problem):
    _second_game(data, game_id, prefix)
    result = run(data, "check")
    assert result.returncode == 1
    assert problem in result.stderr, result.stderr


def test_every_top_level_folder_of_a_site_is_reserved(built_fixture_site):
    """A game's pages are in a folder named by its id: no id may be a folder the build writes for itself."""
    games = set(load(GOOD).kb.games)
    folders = {p.name for p in built_fixture_site.iterdir() if p.is_dir()}
    assert folders - games <= vocab.RESERVED_GAME_IDS, folders - games - vocab.RESERVED_GAME_IDS


# -- the site: the game in the navigation and on the home page, its page says it has no entries yet -----------------


@pytest.fixture(scope="module")
def site_with_a_new_game(tmp_path_factory) -> Path:
    """The fixture's data with a new, empty game, its pages built (no PDFs)."""
    from houserules.build import build_site, site_step

    folder = tmp_path_factory.mktemp("new-game-site")
    data = folder / "rules_data"
    shutil.copytree(GOOD, data)
    assert run(data, *NEW).returncode == 0
    kb = load(data).kb
    return build_site(kb, data, folder / "site", steps=[site_step])


def test_the_new_game_is_in_the_nav_and_on_the_home_page(site_with_a_new_game):
    home = (site_with_a_new_game / "index.html").read_text(encoding="utf-8")
    assert 'href="nine-mens-morris/index.html" class="md-nav__link"' in home  # the navigation
    assert '<a class="hr-card" href="nine-mens-morris/index.html">' in home  # the games on the home page
    assert '<span class="hr-card-en" lang="en">Nine Men&#x27;s Morris</span>' in home


def test_the_empty_game_page_says_it_has_no_entries_yet(site_with_a_new_game):
    page = (site_with_a_new_game / "nine-mens-morris/index.html").read_text(encoding="utf-8")
    assert "这款游戏还没有条目。" in page and "No entries yet." in page
    assert '<table class="hr-entries">' not in page  # no empty tables
    other = (site_with_a_new_game / "demo/index.html").read_text(encoding="utf-8")
    assert "还没有条目" not in other and '<table class="hr-entries">' in other


def test_the_package_theme_is_in_a_site_without_its_own(tmp_path):
    """A knowledge base of houserules init has no custom_dir: the plugin adds the package's theme."""
    from mkdocs.config import load_config

    from houserules.adapter.plugin import THEME_DIR, with_package_theme

    config_file = tmp_path / "mkdocs.yml"
    (tmp_path / "docs").mkdir()
    config_file.write_text("site_name: x\ntheme: {name: material}\n", encoding="utf-8")
    config = load_config(str(config_file))
    assert with_package_theme(config) is True
    assert config.theme.dirs[0] == str(THEME_DIR.resolve())
    assert with_package_theme(config) is False  # once
    own = tmp_path / "overrides"
    own.mkdir()
    config_file.write_text("site_name: x\ntheme: {name: material, custom_dir: overrides}\n", encoding="utf-8")
    config = load_config(str(config_file))
    with_package_theme(config)
    assert config.theme.dirs[:2] == [str(own), str(THEME_DIR.resolve())]  # the group's own first
    checkout = load_config(str(DATA.parent / "mkdocs.yml"))
    assert with_package_theme(checkout) is False  # this checkout's custom_dir is the package's theme


def test_the_site_configuration_is_the_one_beside_the_data_folder(tmp_path):
    from houserules.build import MKDOCS_YML, site_config

    data = tmp_path / "rules_data"
    data.mkdir()
    assert site_config(data) == MKDOCS_YML  # none beside it: the checkout's
    (tmp_path / "mkdocs.yml").write_text("site_name: x\n", encoding="utf-8")
    assert site_config(data) == tmp_path / "mkdocs.yml"
    assert site_config(DATA) == MKDOCS_YML
    os.chdir(tmp_path)
    try:
        assert site_config(Path("rules_data")) == tmp_path / "mkdocs.yml"
    finally:
        os.chdir(DATA.parent)


def test_the_new_game_page_golden(data):
    """The page of a game just made, as Markdown: its names, the placeholders still to fill in, one line saying it has
    no entries yet (refresh: UPDATE_GOLDEN=1, CONTRIBUTING.md)."""
    from conftest import FIXTURES, assert_golden
    from houserules.site.context import SiteContext
    from houserules.site.pages import site_pages

    assert run(data, *NEW).returncode == 0
    pages = site_pages(SiteContext(load(data).kb))
    assert_golden(FIXTURES / "golden" / "site" / "new-game--index.md", pages["nine-mens-morris/index.md"])


def test_a_named_pipe_as_source_is_refused_not_read(data, tmp_path):
    pipe = tmp_path / "rules.txt"
    os.mkfifo(pipe)
    before = snapshot(data)
    result = run(data, *NEW, "--source", str(pipe))  # would block for ever if it were read
    assert result.returncode == 1 and "is not a file — give the document the entries will cite" in result.stderr
    assert snapshot(data) == before
