"""The translators' workflow: errata with diffs, the enforced glossary, translation freshness, notes.

The data is ``tests/fixtures/translators/data`` (a small game with a glossary,
errata in Chinese and English, stamped translations and translator notes).
Each folder of ``tests/fixtures/translators/bad/`` holds files that replace
those of the data to break one thing; the check must report exactly the
expected lines. The rendered translators' pages are compared with the golden
files in ``tests/fixtures/translators/golden/``; after a deliberate change of
the rendering, refresh them with::

    UPDATE_GOLDEN=1 .venv/bin/pytest tests/test_translators.py -k golden

and review the diff before committing.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from conftest import FIXTURES, assert_golden, run_cli
from houserules.check import glossary
from houserules.data.authoring import stamp
from houserules.data.reading.load import load
from houserules.data.reading.yamlload import parse
from houserules.data.versions import sourcehash as freshness
from houserules.data.versions.sourcehash import field_hashes
from houserules.render.diff import diff_html
from houserules.site.context import SiteContext
from houserules.site.pages import site_pages

TRANSLATORS = FIXTURES / "translators"
DATA = TRANSLATORS / "data"
BAD = TRANSLATORS / "bad"
GOLDEN = TRANSLATORS / "golden"
E = "data/demo/entries"


def make_data(tmp_path: Path, case: str | None = None) -> Path:
    """The translators' fixture copied to ``tmp_path/data``, with the files of ``bad/<case>`` laid over it."""
    target = tmp_path / "data"
    shutil.copytree(DATA, target)
    if case:
        shutil.copytree(BAD / case, target, dirs_exist_ok=True)
    return target


def pages_for(data: Path) -> dict[str, str]:
    loaded = load(data)
    assert loaded.problems == []
    return site_pages(SiteContext(loaded.kb))


# -- errata: the diff --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "printed, corrected, lang, expected",
    [
        # Chinese: character by character
        (
            "受到1点肉体损伤",
            "肉体能力上升1级",
            "zh-CN",
            ("<del>受到1点</del>肉体<del>损伤</del>", "肉体<ins>能力上升1级</ins>"),
        ),
        ("高塔", "塔楼", "zh-TW", ("<del>高</del>塔", "塔<ins>楼</ins>")),
        # English: word by word, never inside a word
        (
            "take 1 damage",
            "gain 1 trait",
            "en",
            ("<del>take</del> 1 <del>damage</del>", "<ins>gain</ins> 1 <ins>trait</ins>"),
        ),
        (
            "physical/metal trait",
            "physical/mental trait",
            "en",
            ("physical/<del>metal</del> trait", "physical/<ins>mental</ins> trait"),
        ),
        # everything escaped, line breaks kept
        (
            '<b>"x"</b> & y',
            "<b>z</b> & y",
            "en",
            ("&lt;b&gt;<del>&quot;x&quot;</del>&lt;/b&gt; &amp; y", "&lt;b&gt;<ins>z</ins>&lt;/b&gt; &amp; y"),
        ),
        ("第一行\n第二行", "第一行\n第三行", "zh-CN", ("第一行<br>第<del>二</del>行", "第一行<br>第<ins>三</ins>行")),
        # no difference, nothing marked
        ("同样", "同样", "zh-CN", ("同样", "同样")),
    ],
)
def test_diff_html(printed, corrected, lang, expected):
    assert diff_html(printed, corrected, lang) == expected


def test_erratum_renders_with_its_diff_on_every_page_that_concerns_the_component():
    printed = (
        '<td class="hr-printed" data-label="印刷文本 Printed" lang="zh"><del>高</del>塔：<del>受到1点</del>肉体'
        "<del>损伤</del></td>"
    )
    corrected = '<td class="hr-corrected" data-label="更正 Corrected" lang="zh">塔<ins>楼</ins>：肉体<ins>能力上升1级</ins></td>'
    english = (
        '<td class="hr-printed" data-label="印刷文本 Printed" lang="en"><del>Take</del> 1 mental <del>damage</del> '
        "<del>&lt;</del>here<del>&gt;</del>.</td>"
    )
    pages = pages_for(DATA)
    # The entry holding it, the component, and another ruling that applies to the component.
    for src in ("demo/tower-errata.md", "demo/tower.md", "demo/tower-crossing.md", "demo/errata.md", "errata.md"):
        assert printed in pages[src] and corrected in pages[src], src
    assert english in pages["demo/library.md"] and english in pages["demo/errata.md"]
    assert english not in pages["demo/tower.md"] and english not in pages["demo/tower-crossing.md"]
    # On another entry's page the erratum points back at the ruling that records it.
    assert '见 <a href="tower-errata.html">DM-A2</a>' in pages["demo/tower-crossing.md"]


@pytest.mark.parametrize(
    "src, golden",
    [
        ("demo/errata.md", "demo-errata.md"),
        ("errata.md", "all-errata.md"),
        ("demo/glossary.md", "demo-glossary.md"),
        ("demo/notes.md", "demo-notes.md"),
    ],
)
def test_golden_translator_pages(src, golden):
    assert_golden(GOLDEN / golden, pages_for(DATA)[src])


def test_game_page_links_the_translator_pages():
    page = pages_for(DATA)["demo/index.md"]
    for href in ('href="glossary.html"', 'href="errata.html"', 'href="notes.html"'):
        assert href in page


# -- houserules check: glossary and freshness -------------------------------------------------------
def test_translators_fixture_is_clean():
    result = run_cli("check", "--data", str(DATA))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().splitlines() == ["ok: 4 entries, 4 references, 1 game"]


CASES = [
    # A deprecated translation in the text; inside a '|' block the line is the line of the word.
    # 塔 (also deprecated) is not reported inside 塔楼 (preferred) nor inside 高塔 (reported).
    (
        "deprecated-term",
        [
            f"{E}/library.yaml:5: demo:library: summary.zh uses '高塔', a deprecated translation of 'Tower' "
            "(term 'tower') — write '塔楼' instead",
            f"{E}/library.yaml:9: demo:library: body.zh uses '特质', a deprecated translation of 'trait' "
            "(term 'trait') — write '能力' instead",
        ],
    ),
    # The English title names a term (in any case); the Chinese title is not the term's.
    (
        "title-disagrees",
        [
            f"{E}/library.yaml:4: demo:library: title '书库' disagrees with the glossary: 'Library' is translated "
            "'图书室' (term 'library') — write title.zh: 图书室, or change data/demo/glossary.yaml",
        ],
    ),
    (
        "bad-glossary",
        [
            "data/demo/glossary.yaml:6: demo: term 'tower' deprecates its own preferred form '塔楼' — "
            "remove '塔楼' from deprecated, or choose another zh",
            "data/demo/glossary.yaml:6: demo: term 'tower' lists '塔樓' both as a variant and as deprecated — "
            "keep it in one of the two lists",
            "data/demo/glossary.yaml:7: demo: term 'tower' links entry 'demo:towers', which does not exist — "
            "fix the reference or create the entry",
            "data/demo/glossary.yaml:8: demo: duplicate term id 'tower' (first on line 2) — give each term an id of its own",
        ],
    ),
]


@pytest.mark.parametrize("case, expected", CASES, ids=[c[0] for c in CASES])
def test_glossary_problems_are_reported_exactly(tmp_path, case, expected):
    make_data(tmp_path, case)
    result = run_cli("check", "--data", "data", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.splitlines() == expected
    count = "1 problem" if len(expected) == 1 else f"{len(expected)} problems"
    assert result.stdout.strip() == f"4 entries, 4 references, 1 game: {count}"


def test_quoted_wrong_text_and_aliases_are_not_glossary_problems():
    """The fixture's erratum ``printed``, note ``quote`` and an alias all use 高塔 on purpose."""
    kb = load(DATA).kb
    uses = [
        kb.entries["demo:tower-errata"].errata[0].printed,
        kb.entries["demo:tower-errata"].data["translator_notes"][0]["quote"],
        *kb.entries["demo:tower"].aliases,
    ]
    assert sum("高塔" in text for text in uses) == 3
    assert list(glossary.check_deprecated(kb)) == []


STALE = (
    f"{E}/tower.yaml:12: demo:tower: warning: the en translation may be out of date: the zh text changed "
    "since it was stamped — update the en title, summary and body, then run 'houserules stamp demo:tower'"
)


def test_stale_translation_is_a_warning_with_a_count(tmp_path):
    make_data(tmp_path, "stale-translation")
    result = run_cli("check", "--data", "data", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [STALE, "ok: 4 entries, 4 references, 1 game, 1 warning"]
    strict = run_cli("check", "--warnings-as-errors", "--data", "data", cwd=tmp_path)
    assert strict.returncode == 1


def test_stale_translation_shows_on_the_entry_page(tmp_path):
    notice = "译文可能已过时"
    assert notice not in pages_for(DATA)["demo/tower.md"]
    pages = pages_for(make_data(tmp_path, "stale-translation"))
    assert notice in pages["demo/tower.md"]
    assert notice not in pages["demo/tower-crossing.md"]


@pytest.mark.parametrize(
    "before, after",
    [
        # whitespace and line breaks do not make a translation stale ...
        ("有障碍的房间，穿过需要力量考验。", "有障碍的房间，\n穿过需要力量考验。  "),
        ("有障碍的房间，穿过需要力量考验。", " 有障碍的房间，穿过需要力量考验。"),
        ("进入 [[demo:tower]] 后", "进入[[demo:tower]]后"),
        ("Crossing the  Tower\n takes a roll.", "Crossing the Tower takes a roll."),
    ],
)
def test_source_hash_ignores_layout(before, after):
    assert freshness.source_hash({"summary": {"zh": before}}, "zh") == freshness.source_hash(
        {"summary": {"zh": after}}, "zh"
    )


@pytest.mark.parametrize("field", ["title", "summary", "body"])
def test_source_hash_covers_each_field_and_only_the_source_language(field):
    data = {"title": {"zh": "塔楼", "en": "Tower"}, "summary": {"zh": "一句话。"}, "body": {"zh": "正文。"}}
    changed = json.loads(json.dumps(data))
    changed[field]["zh"] += "改"
    assert freshness.source_hash(changed, "zh") != freshness.source_hash(data, "zh")
    changed = json.loads(json.dumps(data))
    changed[field]["en"] = "changed"
    assert freshness.source_hash(changed, "zh") == freshness.source_hash(data, "zh")


# -- houserules stamp --------------------------------------------------------------------------------
def test_stamp_rewrites_only_the_hash_and_clears_the_warning(tmp_path):
    data = make_data(tmp_path, "stale-translation")
    path = data / "demo/entries/tower.yaml"
    before = path.read_text(encoding="utf-8").splitlines(keepends=True)
    result = run_cli("stamp", "--data", "data", "demo:tower", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    hashes = field_hashes(load(data).kb.entries["demo:tower"].data, "zh")
    stamp_text = f"{{title: {hashes['title']}, summary: {hashes['summary']}, body: {hashes['body']}}}"
    assert result.stdout == f"stamped demo:tower: translations.en.source_hash = {stamp_text}\n"
    after = path.read_text(encoding="utf-8").splitlines(keepends=True)
    changed = [(old, new) for old, new in zip(before, after) if old != new]
    assert len(after) == len(before)
    # The old one-hash stamp becomes the stamp of each field.
    assert changed == [(before[11], before[11].replace("c927fa25171d", stamp_text))]
    check = run_cli("check", "--data", "data", cwd=tmp_path)
    assert check.stdout.strip().splitlines() == ["ok: 4 entries, 4 references, 1 game"]


def test_stamp_keeps_crlf_quotes_and_comments(tmp_path):
    data = make_data(tmp_path)
    path = data / "demo/entries/tower.yaml"
    text = path.read_text(encoding="utf-8").replace(
        "source_hash: c927fa25171d}", "source_hash: '000000000000'}  # stamped by hand"
    )
    path.write_bytes(text.replace("\n", "\r\n").encode("utf-8"))
    result = run_cli("stamp", "--data", "data", "DM-R01", "--lang", "en", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    hashes = ", ".join(f"{k}: {v}" for k, v in field_hashes(load(data).kb.entries["demo:tower"].data, "zh").items())
    assert path.read_bytes() == text.replace("'000000000000'", f"{{{hashes}}}").replace("\n", "\r\n").encode("utf-8")
    # Stamped again: a hash of the mapping that is quoted keeps its quotes.
    title = field_hashes(load(data).kb.entries["demo:tower"].data, "zh")["title"]
    quoted = path.read_bytes().replace(f"{{title: {title},".encode(), b"{title: 'aaaaaaaaaaaa',")
    path.write_bytes(quoted)
    assert run_cli("stamp", "--data", "data", "DM-R01", cwd=tmp_path).returncode == 0
    assert path.read_bytes() == quoted.replace(b"'aaaaaaaaaaaa'", f"'{title}'".encode())


def test_stamp_adds_a_translation_record_to_an_entry_without_one(tmp_path):
    data = make_data(tmp_path)
    path = data / "demo/entries/library.yaml"
    before = path.read_text(encoding="utf-8")
    result = run_cli("stamp", "--data", "data", "demo:library", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    hashes = ", ".join(f"{k}: {v}" for k, v in field_hashes(load(data).kb.entries["demo:library"].data, "zh").items())
    assert (
        path.read_text(encoding="utf-8") == before + f"translations:\n  en: {{from: zh, source_hash: {{{hashes}}}}}\n"
    )


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["demo:nowhere"],
            "houserules stamp: no entry 'demo:nowhere' loaded from data; "
            "run 'houserules check' if its file has problems",
        ),
        (
            ["demo:tower", "--lang", "zh"],
            "houserules stamp: data/demo/entries/tower.yaml: demo:tower has no translation "
            "record for zh; add 'zh: {from: zh, source_hash: \"000000000000\"}' under "
            "'translations:' and stamp again",
        ),
    ],
)
def test_stamp_failures_are_clear(tmp_path, args, message):
    make_data(tmp_path)
    result = run_cli("stamp", "--data", "data", *args, cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.strip() == message
    assert result.stdout == ""


@pytest.mark.parametrize("name", ["tower", "library"])
def test_a_language_given_twice_is_stamped_once(tmp_path, name):
    """With a record (tower) or without one (library, which gets one added), ``--lang en --lang en``."""
    data = make_data(tmp_path)
    result = run_cli("stamp", "--data", "data", f"demo:{name}", "--lang", "en", "--lang", "en", cwd=tmp_path)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.count("stamped ") == 1
    translations = load(data).kb.lookup(f"demo:{name}").data["translations"]
    assert list(translations) == ["en"]


def test_the_advised_placeholder_reads_as_text(tmp_path):
    """The record the message above advises, pasted in, loads: YAML would read 000000000000 as the number 0."""
    data = make_data(tmp_path)
    path = data / "demo/entries/tower.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace("translations:\n", 'translations:\n  zh: {from: zh, source_hash: "000000000000"}\n'),
        encoding="utf-8",
    )
    assert load(data).kb.entries["demo:tower"].data["translations"]["zh"]["source_hash"] == "000000000000"


@pytest.mark.parametrize(
    "value, written",
    [
        ("3f2a9c0d41b7", "3f2a9c0d41b7"),
        ("000000000000", '"000000000000"'),  # an integer to YAML
        ("123e45678901", '"123e45678901"'),  # a float to YAML 1.2, as editors read it
        ("0b1010101010", '"0b1010101010"'),  # a binary integer to YAML 1.1
    ],
)
def test_stamped_hashes_are_quoted_when_yaml_would_read_a_number(value, written):
    assert stamp._scalar(value) == written
    assert parse(f"h: {written}\n").data["h"] == value


def test_stamp_refuses_a_read_only_file(tmp_path):
    data = make_data(tmp_path, "stale-translation")
    path = data / "demo/entries/tower.yaml"
    before = path.read_bytes()
    path.chmod(0o444)
    result = run_cli("stamp", "--data", "data", "demo:tower", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr == (
        "houserules stamp: data/demo/entries/tower.yaml: the file is read-only; make it writable "
        "(chmod u+w data/demo/entries/tower.yaml) and stamp again, or leave it as it is\n"
    )
    assert path.read_bytes() == before and path.stat().st_mode & 0o777 == 0o444


def test_stamp_keeps_the_file_mode(tmp_path):
    data = make_data(tmp_path, "stale-translation")
    path = data / "demo/entries/tower.yaml"
    path.chmod(0o640)
    result = run_cli("stamp", "--data", "data", "demo:tower", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert path.stat().st_mode & 0o7777 == 0o640
    assert freshness.stale_translations(load(data).kb.entries["demo:tower"]) == []


def test_stamp_keeps_hard_links(tmp_path):
    data = make_data(tmp_path, "stale-translation")
    path = data / "demo/entries/tower.yaml"
    link = tmp_path / "tower-link.yaml"
    os.link(path, link)
    result = run_cli("stamp", "--data", "data", "demo:tower", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert os.path.samefile(path, link) and path.stat().st_nlink == 2
    assert link.read_bytes() == path.read_bytes()
    assert freshness.stale_translations(load(data).kb.entries["demo:tower"]) == []


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to another user")
def test_stamp_by_root_keeps_the_owner(tmp_path):
    data = make_data(tmp_path, "stale-translation")
    path = data / "demo/entries/tower.yaml"
    os.chown(path, 4321, 4321)
    inode = path.stat().st_ino
    result = run_cli("stamp", "--data", "data", "demo:tower", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (path.stat().st_uid, path.stat().st_gid, path.stat().st_ino) == (4321, 4321, inode)
    assert freshness.stale_translations(load(data).kb.entries["demo:tower"]) == []


# -- the real data, built: the Menagerie / Study erratum of ruling 【2】 --------------------------------
ROOMS = {"menagerie": ("受到1点肉体损伤", "肉体"), "study": ("受到1点精神损伤", "精神")}


def _printed_cell(html: str, kept: str) -> str:
    cells = re.findall(r'<td class="hr-printed"[^>]* lang="zh">(.*?)</td>', html)
    return next(cell for cell in cells if f"</del>{kept}<del>" in cell)


@pytest.mark.slow
@pytest.mark.parametrize("room", sorted(ROOMS))
def test_menagerie_and_study_errata_in_the_built_site(built_site, room):
    printed, kept = ROOMS[room]
    room_page = (built_site / f"betrayal/{room}.html").read_text(encoding="utf-8")
    cell = _printed_cell(room_page, kept)
    assert re.sub(r"</?del>", "", cell) == printed
    for page in ("betrayal/errata.html", "errata.html", "betrayal/menagerie-study-translation.html"):
        assert cell in (built_site / page).read_text(encoding="utf-8"), page


@pytest.mark.slow
def test_translator_pages_are_in_the_nav_and_the_search_index(built_site):
    home = (built_site / "index.html").read_text(encoding="utf-8")
    for href in ("errata.html", "betrayal/glossary.html", "betrayal/errata.html", "betrayal/notes.html"):
        assert f'href="{href}"' in home
    # The site search (search/hr/, tests/test_site_search.py) shows glossary terms after the entries.
    glossary_text = " ".join(p.read_text(encoding="utf-8") for p in (built_site / "search/hr/g").glob("*.js"))
    assert '"奸徒","traitor"' in glossary_text and '"betrayal/glossary.html#term-traitor"' in glossary_text
    notes = (built_site / "betrayal/notes.html").read_text(encoding="utf-8")
    assert "gain 1 physical/metal trait" in notes
