"""``houserules build`` into a folder holding an earlier build: only what a change touches is made again,
and the site is the same, byte for byte, as a build of the same data into an empty folder."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from conftest import FIXTURES
from houserules.build import build_site
from houserules.check import run as run_check

pytestmark = pytest.mark.slow
TWO_GAMES = FIXTURES / "two-games"


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _inodes(folder: Path) -> dict[str, int]:
    return {p.relative_to(folder).as_posix(): p.stat().st_ino for p in folder.rglob("*.html")}


def _build(data: Path, site: Path, cache: Path, monkeypatch) -> None:
    monkeypatch.setenv("HOUSERULES_CACHE", str(cache))
    build_site(run_check(data).kb, data, site)


@pytest.fixture
def built(tmp_path, monkeypatch) -> tuple[Path, Path, Path, dict[str, int]]:
    """A copy of the two-games data built once: the data, the site, its cache and the site's pages' inodes."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764460800")
    data = tmp_path / "data"
    shutil.copytree(TWO_GAMES, data)
    site, cache = tmp_path / "site", tmp_path / "cache"
    _build(data, site, cache, monkeypatch)
    return data, site, cache, _inodes(site)


def test_a_rebuild_after_one_change_is_a_cold_build_made_of_less(built, tmp_path, monkeypatch):
    data, site, cache, first = built
    entry = data / "other" / "entries" / "floor-ruling.yaml"
    entry.write_text(
        entry.read_text(encoding="utf-8").replace(
            "applies_to:", "body: {zh: 一层一层来。, en: One at a time.}\napplies_to:"
        ),
        encoding="utf-8",
    )
    _build(data, site, cache, monkeypatch)
    cold = tmp_path / "cold"
    _build(data, cold, tmp_path / "cold-cache", monkeypatch)
    assert _files(site) == _files(cold)
    # The pages the change does not show are the previous build's files; the changed entry's is new.
    kept = {path for path, inode in _inodes(site).items() if first.get(path) == inode}
    assert {"demo/tower.html", "demo/tower-crossing.html", "other/tower-rule.html"} <= kept
    assert "other/floor-ruling.html" not in kept and "index.html" not in kept
    # The printed FAQ of the game that did not change came from the cache: one game laid out again.
    assert sorted(_laid_out_games(cache)) == ["demo", "other", "other"]


def _laid_out_games(cache: Path) -> list[str]:
    found = (json.loads(p.read_text(encoding="utf-8")).get("game") for p in (cache / "pdf").glob("*.json"))
    return [game for game in found if game]


def test_a_rebuild_renders_every_page_again_when_what_they_share_changes(built, tmp_path, monkeypatch):
    """A new game changes the navigation Material renders into every page: no page is taken over."""
    data, site, cache, first = built
    game = data / "other" / "game.yaml"
    text = game.read_text(encoding="utf-8")
    assert "name: {zh: " in text
    game.write_text(text.replace("name: {zh: ", "name: {zh: 新", 1), encoding="utf-8")
    os.utime(game)
    _build(data, site, cache, monkeypatch)
    assert not {path for path, inode in _inodes(site).items() if first.get(path) == inode}
    cold = tmp_path / "cold"
    _build(data, cold, tmp_path / "cold-cache", monkeypatch)
    assert _files(site) == _files(cold)
