"""The knowledge base itself: clean, covering every section of the seeds, linked where it names things."""

from __future__ import annotations

import re

import pytest

from conftest import real_check, run_cli
from houserules.data.reading.model import text_fields
from houserules.data.reading.seeds import sections

KB = real_check().kb
SEED_SOURCES = [
    (game.id, source) for game in KB.games.values() for source in game.data["sources"] if source["kind"] == "seed"
]


def test_real_data_is_clean():
    result = run_cli("check")
    assert result.returncode == 0, result.stderr
    assert re.fullmatch(
        r"ok: \d+ entries, \d+ references, 3 games(, \d+ warnings?)?", result.stdout.strip().splitlines()[-1]
    )


def test_every_seed_has_a_game(seeds):
    declared = {source["id"] for _, source in SEED_SOURCES}
    assert {path.name for path in seeds.glob("*.txt")} == declared


@pytest.mark.parametrize("game, source", SEED_SOURCES, ids=[s["id"] for _, s in SEED_SOURCES])
def test_declared_sections_are_the_seed_sections(seeds, game, source):
    """The game's list of sections is exactly what the parser finds in the seed."""
    assert source["sections"] == sections(seeds / source["id"])


@pytest.mark.parametrize("game, source", SEED_SOURCES, ids=[s["id"] for _, s in SEED_SOURCES])
def test_every_seed_section_is_cited(seeds, game, source):
    cited = {s.ref for e in KB.game_entries(game) for _, s in e.citations() if s.doc == source["id"]}
    missing = [section for section in sections(seeds / source["id"]) if section not in cited]
    assert missing == []


def _texts(entry, lang: str) -> str:
    skip = {"printed", "quote", "corrected", "source_en"}
    return "\n".join(
        text for path, text in text_fields(entry.data) if path and path[-1] == lang and not skip & set(map(str, path))
    )


def _names(entry, lang: str) -> list[str]:
    return [entry.title[lang]]


RULINGS = [e for e in KB.entries.values() if e.kind in {"ruling", "rule"}]


@pytest.mark.parametrize("entry", RULINGS, ids=[e.ref for e in RULINGS])
def test_named_entries_are_linked(entry):
    """A ruling or rule that names another entry's title links to it."""
    refs = set(entry.all_refs())
    zh, en = _texts(entry, "zh"), _texts(entry, "en")
    unlinked = []
    for other in KB.game_entries(entry.game):
        if other.ref == entry.ref or other.ref in refs:
            continue
        name_zh, name_en = other.title["zh"], other.title["en"]
        if len(name_zh) >= 2 and name_zh in zh:
            unlinked.append(f"{other.ref} ({name_zh})")
        elif len(name_en) >= 4 and re.search(rf"\b{re.escape(name_en)}\b", en, re.IGNORECASE):
            unlinked.append(f"{other.ref} ({name_en})")
    assert unlinked == []


def test_every_room_reaches_its_rulings():
    """Every Betrayal room named by a ruling lists that ruling on its page (applies_to)."""
    rooms = [e for e in KB.game_entries("betrayal") if e.kind == "component"]
    applying = {room.ref: [e.ref for e in KB.entries.values() if room.ref in e.applies_to] for room in rooms}
    for ruling in (e for e in KB.game_entries("betrayal") if e.kind == "ruling"):
        for ref in ruling.applies_to:
            assert ref not in applying or ruling.ref in applying[ref]
    unreached = [ref for ref, rulings in applying.items() if not rulings and not KB.entries[ref].see_also]
    assert unreached == []


def test_menagerie_and_study_errata():
    ruling = next(e for e in KB.game_entries("betrayal") if any(s.ref == "【2】" for _, s in e.citations()))
    errata = {e.component: e for e in ruling.errata}
    assert {"betrayal:menagerie", "betrayal:study"} <= set(errata)
    for record in (errata["betrayal:menagerie"], errata["betrayal:study"]):
        assert record.lang == "zh-CN" and record.printed != record.corrected and record.source_en


def test_cut_off_ruling_is_completed_apart_from_the_seed():
    ruling = next(e for e in KB.game_entries("betrayal") if any(s.ref == "【14】" for _, s in e.citations()))
    assert ruling.data["completion"]["sources"][0]["doc"] != "002_912163b109a9ba77.txt"


def test_mausritter_levels_table_is_completed_from_the_srd():
    levels = next(e for e in KB.game_entries("mausritter") if any(s.ref == "等级" for _, s in e.citations()))
    completion = levels.data["completion"]
    assert {s["doc"] for s in completion["sources"]} == {"srd"}
    for row in ("1000", "3000", "6000", "5000"):
        assert row in completion["text"]["zh"]


def test_mausritter_carries_the_cc_by_attribution():
    licence = KB.games["mausritter"].data["licence"]
    assert licence["name"] == "CC BY 4.0" and licence["url"] == "https://creativecommons.org/licenses/by/4.0/"
    assert licence["attribution"]["en"].startswith(
        "This work is based on Mausritter (https://mausritter.com), a product of Losing Games and Isaac Williams"
    )


def test_pages_the_seed_cites_but_lacks_are_stubs():
    stubs = {e.id for e in KB.game_entries("mice-and-mystics") if e.data.get("status") == "stub"}
    assert len(stubs) >= 3
    for ref in (f"mice-and-mystics:{i}" for i in stubs):
        assert KB.entries[ref].data["confidence"] == "uncertain"
