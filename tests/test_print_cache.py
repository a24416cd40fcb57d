"""The printed FAQ's cache: a change lays out again exactly the games whose PDFs print it, and a cached PDF is the
one a fresh layout writes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from test_serve import CHANGES

from conftest import FIXTURES
from houserules.check import run as run_check
from houserules.print.pdfcache import PdfCache
from houserules.print.plan import PrintOptions

pytestmark = pytest.mark.slow
TWO_GAMES = FIXTURES / "two-games"


@pytest.fixture
def data(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764460800")
    copy = tmp_path / "data"
    shutil.copytree(TWO_GAMES, copy)
    return copy


def _print(data: Path, cache: PdfCache):
    kb = run_check(data).kb
    parts = cache.games(kb, list(kb.games), PrintOptions(), "a4")
    return parts, cache.combined(kb, parts, PrintOptions(), "a4")


@pytest.mark.parametrize(
    "change, laid_out",
    [
        ("cross-game title", ["demo", "other"]),  # other prints the title of demo:tower, which it refers to
        ("body", ["other"]),
        ("erratum", ["demo"]),
    ],
)
def test_a_change_lays_out_again_exactly_the_games_that_print_it(data, tmp_path, change, laid_out):
    cache = PdfCache(tmp_path / "cache", jobs=2)
    _print(data, cache)
    assert cache.laid_out == ["demo", "other"]
    _print(data, cache)
    assert cache.laid_out == []
    CHANGES[change](data)
    _print(data, cache)
    assert cache.laid_out == laid_out


def test_a_cached_pdf_is_byte_identical_to_a_fresh_one(data, tmp_path):
    first = PdfCache(tmp_path / "one", jobs=1)
    parts, combined = _print(data, first)
    _print(data, first)  # from the cache
    fresh_parts, fresh_combined = _print(data, PdfCache(tmp_path / "two", jobs=2))
    assert [p.path.read_bytes() for p in parts] == [p.path.read_bytes() for p in fresh_parts]
    assert combined.read_bytes() == fresh_combined.read_bytes()
    assert [p.pages for p in parts] == [p.pages for p in fresh_parts]


def test_contents_laid_out_in_chunks_number_on_and_point_at_the_entries(data, tmp_path, monkeypatch):
    from test_pdf import contents, folio, pdf_pages, start_folio

    from houserules.print import pdfcache as cache_module

    monkeypatch.setattr(cache_module, "FRONT_ENTRIES", 2)  # a chunk per game
    kb = run_check(data).kb
    _, combined = _print(data, PdfCache(tmp_path / "cache", jobs=1))
    pages = pdf_pages(combined)
    listed = contents(pages)
    assert sorted(listed) == sorted(e.code for e in kb.entries.values())
    assert all(listed[e.code] == start_folio(pages, e.code, e.title["zh"]) for e in kb.entries.values())
    front = [page for page in pages if "目录 · Contents" in page]
    assert len(front) >= 2 and pages.index(front[0]) == 1  # the contents go on over pages, after the cover
    assert [folio(page) for page in front] == [str(n) for n in range(2, len(front) + 2)]  # numbered on


def test_an_insert_of_several_games_lists_only_what_it_prints(data):
    """The shared contents of an all-games insert name the added and changed entries, nothing else
    (they once listed every entry, those not printed with page 0)."""
    from houserules.print.plan import Since, printed_groups

    kb = run_check(data).kb
    changed = [next(iter(kb.game_entries(game))).ref for game in kb.games][:2]
    since = Since("2026-12-01 · 0123abcd", {ref: None for ref in changed}, [])  # type: ignore[misc]
    listed = {
        ref
        for game in kb.games.values()
        for _, _, refs in printed_groups(kb, game, PrintOptions(since=since))
        for ref in refs
    }
    assert listed == set(changed)
    everything = {r for g in kb.games.values() for _, _, refs in printed_groups(kb, g, PrintOptions()) for r in refs}
    assert listed < everything
