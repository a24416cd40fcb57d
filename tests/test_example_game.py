"""The worked example of a group's own game (examples/nine-mens-morris): checked, searched, built and printed.

Three entries of a traditional public-domain game, written in our own words from a cited source. A player's
question in Chinese and in English (worded unlike the entries' own questions) finds each entry first, on the
command line and in the site's search box; the site passes axe in both palettes; the printed FAQ holds each.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT, run_cli
from houserules.data.reading.load import load

EXAMPLE = ROOT / "examples" / "nine-mens-morris"
DATA = EXAMPLE / "rules_data"
GAME = "nine-mens-morris"

#: Each entry, with a question a player asks in each language (none of them an entry's own question or variant).
ASKED = {
    "NM-R1": ("棋子还没摆完，能不能先挪一个？", "Am I allowed to move a piece while we're still placing them?"),
    "NM-A1": ("对方那三个连成一线的子，我能吃吗？", "my opponent has three in a row, can I take one of those pieces?"),
    "NM-A2": ("就剩三个子了，可以随便跳到哪都行吗", "only three pieces left, may I jump them anywhere?"),
}


def test_the_example_checks_clean_without_a_warning():
    result = run_cli("check", "--data", str(DATA), "--warnings-as-errors")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "ok: 3 entries, 4 references, 1 game"


def test_it_cites_its_source_keeps_the_licence_and_marks_what_is_uncertain():
    kb = load(DATA).kb
    game = kb.games[GAME]
    assert game.licence.name.startswith("Public domain") and "CC BY-SA 4.0" in game.licence.attribution["en"]
    (source,) = game.sources
    assert source.url == "https://en.wikipedia.org/wiki/Nine_men%27s_morris" and source.kind == "reference"
    entries = kb.game_entries(GAME)
    assert sorted(e.code for e in entries) == sorted(ASKED)
    for entry in entries:
        assert [s.doc for s in entry.sources] == ["wikipedia"]
        assert all(q.source.doc == "wikipedia" for q in entry.questions), entry.ref
    flying = kb.entries[f"{GAME}:flying-with-three-pieces"]
    assert flying.confidence == "uncertain" and flying.data["confidence_note"]["en"]
    assert "uncertain" in (EXAMPLE / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("code", sorted(ASKED))
def test_a_players_question_finds_each_entry_first(code, lang):
    query = ASKED[code][0 if lang == "zh" else 1]
    result = run_cli("search", query, "--data", str(DATA), "--json")
    assert result.returncode == 0, result.stderr
    hits = json.loads(result.stdout)
    assert hits and hits[0]["code"] == code, [h["code"] for h in hits]


@pytest.fixture(scope="module")
def example_site(tmp_path_factory) -> Path:
    """A knowledge base made by houserules init, with the example game and a second game just begun
    (new-game), built without PDFs."""
    from houserules.build import build_site, site_step

    kb = tmp_path_factory.mktemp("example") / "kb"
    assert run_cli("init", str(kb), "--name", "九子棋小组", cwd=kb.parent).returncode == 0
    shutil.copytree(DATA / GAME, kb / "rules_data" / GAME)
    begun = run_cli("new-game", "weiqi", "--zh", "围棋", "--en", "Go", "--code", "WQ", cwd=kb)
    assert begun.returncode == 0, begun.stderr
    data = kb / "rules_data"
    return build_site(load(data).kb, data, kb / "site", steps=[site_step])


def test_the_game_page_lists_its_entries_and_the_site_search_has_them(example_site):
    page = (example_site / GAME / "index.html").read_text(encoding="utf-8")
    for code in ASKED:
        assert f">{code}<" in page, code
    assert "还没有条目" not in page
    assert "还没有条目" in (example_site / "weiqi/index.html").read_text(encoding="utf-8")
    assert (example_site / "search/hr/head.js").is_file()
    licences = (example_site / "about.html").read_text(encoding="utf-8")
    assert "Public domain (traditional game)" in licences and "CC BY-SA 4.0" in licences


@pytest.mark.slow
def test_it_prints_every_entry(tmp_path):
    out = tmp_path / "nine-mens-morris.pdf"
    result = run_cli("pdf", "--data", str(DATA), "--game", GAME, "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"wrote {out} (3 entries, ")
    text = subprocess.run(["pdftotext", "-layout", str(out), "-"], capture_output=True, text=True, check=True).stdout
    for code, title in [("NM-R1", "摆子与走子"), ("NM-A1", "能不能吃成三的子"), ("NM-A2", "剩三子时飞子")]:
        assert code in text and title in text, code
    assert "九子棋" in text and "TODO" not in text


#: The example's pages of each kind, and the page of a game just begun.
PAGES = [
    "index.html",
    "about.html",
    "guide.html",
    f"{GAME}/index.html",
    f"{GAME}/flying-with-three-pieces.html",
    "weiqi/index.html",
]


@pytest.mark.browser
def test_its_pages_pass_axe_in_both_palettes_and_its_search_box_answers(browser, example_site):
    from axecheck import describe, violations
    from sitecheck import NO_OFFLINE_APP, serve, typed_results

    with serve(example_site) as base:
        context = browser.new_context(
            viewport={"width": 375, "height": 667}, is_mobile=True, has_touch=True, **NO_OFFLINE_APP
        )
        page = context.new_page()
        try:
            for path in PAGES:
                for scheme in ("light", "dark"):
                    page.emulate_media(color_scheme=scheme)
                    page.goto(f"{base}/{path}")
                    page.wait_for_load_state("load")
                    found = violations(page)
                    assert found == [], f"{path} ({scheme}): {describe(found)}"
            for code, (zh, en) in ASKED.items():
                for query in (zh, en):
                    titles = typed_results(page, f"{base}/index.html", query)
                    assert titles and titles[0].startswith(code), (query, titles)
        finally:
            context.close()
