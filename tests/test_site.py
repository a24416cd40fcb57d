"""The built site: a page per entry, links and anchors that resolve, nothing from the network, the JSON export."""

from __future__ import annotations

import json
import re

import pytest

from conftest import GOOD, real_check, run_cli, run_process
from houserules.render.urls import entry_url
from sitecheck import broken_links, external_resources

pytestmark = pytest.mark.slow  # the real data's built site, and full builds

KB = real_check().kb


def test_every_entry_has_a_page(built_site):
    missing = [ref for ref, entry in KB.entries.items() if not (built_site / entry_url(entry)).is_file()]
    assert missing == []
    page = (built_site / "betrayal/mystic-elevator-ruling.html").read_text(encoding="utf-8")
    assert "BH-A13" in page and "hr-answer" in page


def test_every_game_has_a_page_linked_from_home(built_site):
    home = (built_site / "index.html").read_text(encoding="utf-8")
    for game in KB.games.values():
        assert (built_site / game.id / "index.html").is_file()
        assert f'href="{game.id}/index.html"' in home


def test_internal_links_and_anchors_resolve(built_site):
    assert broken_links(built_site) == []


def test_the_real_site_passes_the_publish_link_check(built_site):
    """What CI runs before it publishes (links, anchors, offline files), on the real data's site; a fork's
    build with its own addresses passes it in tests/test_publishing.py."""
    result = run_cli("publish", "--check", "--no-build", "-o", str(built_site))
    assert result.returncode == 0, result.stderr
    assert re.fullmatch(r"checked .*: \d+ pages, \d+ internal links, ready to publish\n", result.stdout)


def test_nothing_is_loaded_from_the_network(built_site):
    assert external_resources(built_site) == []
    assert (built_site / "assets/javascripts/iframe-worker-shim.js").is_file()
    assert (built_site / "search/search_index.js").is_file()  # inlined index for file://


def test_component_pages_list_the_rulings_that_apply(built_site):
    page = (built_site / "betrayal/catacombs.html").read_text(encoding="utf-8")
    rulings = [e for e in KB.entries.values() if "betrayal:catacombs" in e.applies_to]
    assert len(rulings) >= 3
    for ruling in rulings:
        assert f'href="{ruling.id}.html"' in page
    assert 'id="rulings"' in page


def test_json_export_round_trips(built_site):
    payload = json.loads((built_site / "api/entries.json").read_text(encoding="utf-8"))
    exported = {record["id"]: record for record in payload["entries"]}
    assert set(exported) == set(KB.entries)
    for ref, entry in KB.entries.items():
        record = exported[ref]
        assert record["code"] == entry.code
        assert record["title"] == {lang: entry.title[lang] for lang in entry.title.langs()}
        assert record["summary"] == {lang: entry.summary[lang] for lang in entry.summary.langs()}
        assert record["body"] == {lang: entry.body[lang] for lang in entry.body.langs()}
        assert record["aliases"] == list(entry.aliases)
        assert [r["id"] for r in record["see_also"]] == list(entry.see_also)
        assert (built_site / record["url"]).is_file()
    backlinks = KB.backlinks()
    assert all([b["id"] for b in exported[ref]["backlinks"]] == backlinks[ref] for ref in KB.entries)


def test_mausritter_attribution_is_on_its_pages(built_site):
    for page in ("mausritter/index.html", "about.html"):
        text = (built_site / page).read_text(encoding="utf-8")
        assert "This work is based on Mausritter" in text
        assert "https://creativecommons.org/licenses/by/4.0/" in text


def test_material_search_index_is_left_empty(built_site):
    # The site search has its own index (tests/test_site_search.py); Material keeps only its config.
    index = json.loads((built_site / "search/search_index.json").read_text(encoding="utf-8"))
    assert index["docs"] == [] and index["config"]["lang"] == ["zh", "en"]


def test_failed_build_leaves_the_previous_site(tmp_path):
    out = tmp_path / "site"
    assert run_cli("build", "--data", str(GOOD), "-o", str(out)).returncode == 0
    before = sorted(p.relative_to(out) for p in out.rglob("*"))
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "demo").mkdir()
    (bad / "demo/game.yaml").write_text("id: demo\n", encoding="utf-8")
    result = run_cli("build", "--data", str(bad), "-o", str(out))
    assert result.returncode == 1
    assert "missing required field" in result.stderr
    assert sorted(p.relative_to(out) for p in out.rglob("*")) == before
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".site-new-")]


def test_strict_build_has_no_warnings(tmp_path):
    result = run_process("build", "--data", str(GOOD), "-o", str(tmp_path / "site"))  # end to end
    assert result.returncode == 0
    assert "WARNING" not in result.stderr, result.stderr


def test_page_descriptions_are_plain_text(built_site):
    """Link previews and search engines read a page's description: references are named, never ``[[…]]``."""
    import re

    descriptions = {
        page.relative_to(built_site).as_posix(): match.group(1)
        for page in built_site.rglob("*.html")
        for match in re.finditer(r'<meta name="description" content="([^"]*)"', page.read_text(encoding="utf-8"))
    }
    assert len(descriptions) > 100
    assert {page: text for page, text in descriptions.items() if "[[" in text or "]]" in text} == {}
    water = descriptions["mice-and-mystics/water-movement.html"]
    assert re.search(r"\((MM-[A-Z]\d+)\)", water), water  # a reference as its title and code
