"""The live preview's incremental rebuilds: what a change re-reads, which pages it makes again, and that the
result is the site a full build makes."""

from __future__ import annotations

import filecmp
import gzip
import logging
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import FIXTURES
from houserules.check import run as run_check
from houserules.data.reading import readfile as readfile_module
from houserules.data.reading.readfile import ReadCache
from houserules.data.versions.savediff import diff
from houserules.site.context import SiteContext
from houserules.site.incremental import SiteState, plan
from houserules.site.pages import site_pages

#: Two games; the second refers to the first ([[demo:tower]] in a one-line answer, [[demo:tower-crossing]] in a body).
TWO_GAMES = FIXTURES / "two-games"


def _edit(path: str, old: str, new: str) -> Callable[[Path], None]:
    def edit(data: Path) -> None:
        file = data / path
        text = file.read_text(encoding="utf-8")
        assert old in text, (path, old)
        file.write_text(text.replace(old, new, 1), encoding="utf-8")

    return edit


def _steps(*steps: Callable[[Path], None]) -> Callable[[Path], None]:
    def edit(data: Path) -> None:
        for step in steps:
            step(data)

    return edit


def _add(path: str, text: str) -> Callable[[Path], None]:
    def edit(data: Path) -> None:
        (data / path).write_text(text, encoding="utf-8")

    return edit


def _remove(path: str) -> Callable[[Path], None]:
    def edit(data: Path) -> None:
        (data / path).unlink()

    return edit


NEW_RULING = """id: third-floor
code: OT-A2
kind: ruling
title: {zh: 第三层, en: The third floor}
summary: {zh: 第三层要等下一回合。, en: The third floor waits for the next turn.}
applies_to: [other:tower-rule]
authority: clarification
confidence: confirmed
sources:
  - {doc: rulebook, ref: p.3}
"""

#: Each change, applied to a copy of TWO_GAMES.
CHANGES: dict[str, Callable[[Path], None]] = {
    # the title of an entry that the other game refers to
    "cross-game title": _edit("demo/entries/tower.yaml", "title: {zh: 塔楼,", "title: {zh: 高塔楼,"),
    # a body only its own page shows
    "body": _edit(
        "other/entries/floor-ruling.yaml", "applies_to:", "body: {zh: 一层一层来。, en: One at a time.}\napplies_to:"
    ),
    # an erratum: shown by its holder, its component and the entries applying to the component
    "erratum": _edit("demo/entries/tower-errata.yaml", "corrected: 肉体能力上升1级", "corrected: 肉体能力上升2级"),
    # the kind: the entry moves from one tag page to another
    "kind": _edit("other/entries/floor-ruling.yaml", "kind: ruling", "kind: rule"),
    # a new entry, referred to by an existing one
    "new entry": _steps(
        _add("other/entries/third-floor.yaml", NEW_RULING),
        _edit("other/entries/tower-rule.yaml", "authority:", "see_also: [other:third-floor]\nauthority:"),
    ),
    # an entry removed (with its place in the game's contents): a game changed, so every page is made again
    "removed entry": _steps(
        _remove("other/entries/floor-ruling.yaml"),
        _edit("other/game.yaml", "[other:tower-rule, other:floor-ruling]", "[other:tower-rule]"),
    ),
}


@pytest.fixture
def data(tmp_path) -> Path:
    copy = tmp_path / "data"
    shutil.copytree(TWO_GAMES, copy)
    return copy


def _kb(data: Path, cache: ReadCache | None = None):
    report = run_check(data, cache)
    assert report.errors == [], report.errors
    return report.kb


# -- the check reads again only what changed ---------------------------------------------------------------------


def test_a_second_check_reads_only_the_changed_file(data, monkeypatch):
    cache = ReadCache()
    first = _kb(data, cache)
    read: list[str] = []
    real = readfile_module.read_document
    monkeypatch.setattr(
        readfile_module, "read_document", lambda path, *args: read.append(path.name) or real(path, *args)
    )
    CHANGES["body"](data)
    second = _kb(data, cache)
    assert read == ["floor-ruling.yaml"]
    # unchanged entries are the very same objects (what they computed stays computed)
    assert all(second.entries[ref] is first.entries[ref] for ref in first.entries if ref != "other:floor-ruling")
    assert second.entries["other:floor-ruling"].body == {"zh": "一层一层来。", "en": "One at a time."}


def test_a_cached_check_reports_what_a_fresh_one_does(data):
    cache = ReadCache()
    _kb(data, cache)
    _edit("demo/entries/tower.yaml", "code: DM-R01", "code: DM-A1")(data)  # a duplicate code
    assert run_check(data, cache).problems == run_check(data).problems != []


# -- which pages a change makes again --------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(CHANGES))
def test_incremental_pages_are_a_full_builds_and_exactly_the_changed_ones_are_new(data, name):
    cache = ReadCache()
    before = SiteContext(_kb(data, cache))
    last = SiteState(before, site_pages(before))
    CHANGES[name](data)
    after = SiteContext(_kb(data, cache))
    result = plan(after, last)
    full = site_pages(after)
    assert result.pages == full
    assert list(result.pages) == list(full)  # the same order: MkDocs builds and indexes pages in it
    assert result.modified == {src for src, markdown in full.items() if last.pages.get(src) != markdown}
    assert result.removed == set(last.pages) - set(full)


@pytest.mark.parametrize(
    "name, shown, modified",
    [
        (
            "cross-game title",
            {"demo:tower", "demo:tower-crossing", "demo:tower-errata", "other:tower-rule"},
            {
                "demo/tower.md",
                "demo/tower-crossing.md",
                "demo/tower-errata.md",
                "other/tower-rule.md",
                "demo/index.md",
                "demo/faq.md",
                "demo/errata.md",
                "errata.md",
                "other/index.md",
                "tags/game-demo.md",
                "tags/kind-component.md",
                "tags/authority-official.md",
                "tags/game-other.md",
                "tags/kind-rule.md",
                "changes.md",
            },
        ),
        # The changes page shows the data version, so every change touches it.
        ("body", {"other:floor-ruling", "other:tower-rule"}, {"other/floor-ruling.md", "changes.md"}),
        (
            "erratum",
            {"demo:tower-errata", "demo:tower-crossing", "demo:tower"},
            {
                "demo/tower-errata.md",
                "demo/tower.md",
                "demo/tower-crossing.md",
                "demo/errata.md",
                "errata.md",
                "changes.md",
            },
        ),
    ],
)
def test_a_change_touches_the_entries_and_pages_that_show_it(data, name, shown, modified):
    cache = ReadCache()
    before = SiteContext(_kb(data, cache))
    last = SiteState(before, site_pages(before))
    CHANGES[name](data)
    after = SiteContext(_kb(data, cache))
    assert diff(before.kb, after.kb).shown == shown
    assert plan(after, last).modified == modified


# -- serve: the site on disk -----------------------------------------------------------------------------------

_LASTMOD = re.compile(rb"<lastmod>[^<]*</lastmod>")


def _site_differences(one: Path, other: Path) -> list[str]:
    """Files that differ between two built sites; the sitemap's dates may (they are the day of the build)."""
    found = []
    compared = filecmp.dircmp(one, other)
    found += [f"only in one: {name}" for name in compared.left_only + compared.right_only]
    for name in compared.common_files:
        a, b = (one / name).read_bytes(), (other / name).read_bytes()
        if name.endswith(".gz"):
            a, b = gzip.decompress(a), gzip.decompress(b)
        if name.startswith("sitemap.xml"):
            a, b = _LASTMOD.sub(b"", a), _LASTMOD.sub(b"", b)
        if a != b:
            found.append(name)
    for name in compared.common_dirs:
        found += [f"{name}/{item}" for item in _site_differences(one / name, other / name)]
    return found


@pytest.fixture
def quiet_dirty_builds():
    from houserules.adapter.runner import not_the_dirty_warning

    logger = logging.getLogger("mkdocs.commands.build")
    logger.addFilter(not_the_dirty_warning)
    yield
    logger.removeFilter(not_the_dirty_warning)


@pytest.mark.slow
def test_serve_rebuilds_incrementally_into_the_site_a_full_build_makes(data, tmp_path, quiet_dirty_builds):
    from houserules.serve import Session

    served = Session(data, tmp_path / "served")
    assert served.build()
    plugin = served.plugin
    assert plugin is not None and plugin.preview is not None
    assert not plugin.preview.dirty  # the first build is a full one
    steps = ("cross-game title", "erratum", "kind", "new entry", "removed entry")
    dirty = {}
    for number, name in enumerate(steps):
        CHANGES[name](data)
        assert served.build(), name
        assert served.plugin is plugin  # MkDocs kept the plugin, and the plugin its preview
        assert plugin.preview is not None and plugin.preview.site_dir == served.site_dir
        dirty[name] = plugin.preview.dirty
        plugin.preview.search.wait()  # the search index is rebuilt in the background
        shutil.copytree(served.site_dir, tmp_path / f"served-{number}")
        shutil.copytree(data, tmp_path / f"data-{number}")
    served.close()
    assert plugin.preview is None
    # Every change was a dirty build (the navigation lists games, not entries). The full builds to compare
    # with come after the preview's: a build into another folder would have made its next one a full one.
    assert dirty == dict.fromkeys(steps, True)
    for number, name in enumerate(steps):
        shutil.rmtree(data)  # each step's data back in its folder (the changes page names it)
        shutil.copytree(tmp_path / f"data-{number}", data)
        fresh = Session(data, tmp_path / f"fresh-{number}")
        assert fresh.build()
        assert _site_differences(tmp_path / f"served-{number}", fresh.site_dir) == [], name
        fresh.close()
    assert "高塔楼" in (served.site_dir / "other/tower-rule.html").read_text(encoding="utf-8")
    assert not (served.site_dir / "other/floor-ruling.html").exists()


@pytest.mark.slow
def test_serve_keeps_the_last_good_pages_and_logs_each_problem(data, tmp_path, caplog, quiet_dirty_builds):
    from houserules.serve import Session

    served = Session(data, tmp_path / "served")
    assert served.build()
    page = served.site_dir / "other/floor-ruling.html"
    before = page.read_bytes()
    _edit("other/entries/floor-ruling.yaml", "kind: ruling", "kind: rulling")(data)
    with caplog.at_level(logging.ERROR, logger="mkdocs.houserules"):
        assert not served.build()
    errors = [r.getMessage() for r in caplog.records if r.name == "mkdocs.houserules"]
    assert [e.split(": ", 1)[1] for e in errors[:2]] == [
        "other:floor-ruling: field 'kind' has 'rulling', which is not allowed — use one of: ruling, rule, component, "
        "term, house-rule",
        "other: contents list 'other:floor-ruling', which does not exist — fix the reference or create the entry",
    ]
    assert errors[2:] == ["not rebuilt: the data has 2 problems; the last good pages stay served"]
    assert page.read_bytes() == before
    _edit("other/entries/floor-ruling.yaml", "kind: rulling", "kind: rule")(data)
    assert served.build()
    assert "kind-rule.html" in page.read_text(encoding="utf-8")
    served.close()
