"""Golden files of every rendered output: an entry page, a game page and an FAQ page of the site,
the print document in both layouts, and ``houserules show`` (tests/test_search.py).

The inputs are the known-good fixture (tests/fixtures/good). After a deliberate change of
the rendering, refresh every golden file with ``UPDATE_GOLDEN=1 .venv/bin/pytest tests/test_golden.py``
and review the diff before committing (CONTRIBUTING.md).
"""

from __future__ import annotations

import re

import pytest

from conftest import FIXTURES, GOOD, assert_golden, load_kb
from houserules.print import document as print_document
from houserules.print.document import PrintDocument, PrintLinker
from houserules.print.plan import PrintOptions, print_groups
from houserules.render import blocks as B
from houserules.site import entry_page as site_entry_page
from houserules.site.context import SiteContext
from houserules.site.pages import site_pages

GOLDEN = FIXTURES / "golden"
KB = load_kb(GOOD)
_ARTICLE = re.compile(r'<article class="md-content__inner md-typeset">(.*?)</article>', re.S)


def article(html: str) -> str:
    """The page's own content, without the theme around it (header, nav, footer)."""
    return stable(_ARTICLE.search(html).group(1).strip() + "\n")


_VERSION = re.compile(r"\b\d{4}-\d{2}-\d{2} · [0-9a-f]{8}\b")


def stable(text: str) -> str:
    """``text`` with the fixture's data version (its tree hash, which every edit of a fixture file moves) named."""
    return _VERSION.sub("<data version>", text)


@pytest.mark.parametrize(
    "page",
    ["demo/tower-crossing.html", "demo/tower-errata.html", "demo/tower.html", "demo/index.html", "demo/faq.html"],
)
def test_site_pages(built_fixture_site, page):
    html = (built_fixture_site / page).read_text(encoding="utf-8")
    assert_golden(GOLDEN / "site" / page.replace("/", "--"), article(html))


def print_html(layout: str) -> str:
    game = KB.games["demo"]
    groups = print_groups(KB, game, None)
    printed = {r for _, _, refs in groups for r in refs}
    linker = PrintLinker(KB, printed, "https://example.org/hr", {"e-demo--tower": 3, "e-demo--tower-crossing": 3})
    return PrintDocument(KB, linker, PrintOptions(layout=layout, site_url="https://example.org/hr")).game_html(
        game, groups
    )


@pytest.mark.parametrize("layout", print_document.LAYOUTS)
def test_print_document(monkeypatch, layout):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764460800")  # 2025-11-30
    assert_golden(GOLDEN / "print" / f"demo-{layout}.html", print_html(layout).replace("><", ">\n<"))


# -- the golden files see every block ------------------------------------------------------------
ENTRY_BLOCKS = {kind for entry in KB.entries.values() for kind in (b.kind for b in B.EntryBlocks(KB).blocks(entry))}


def test_the_fixture_shows_every_block_but_the_warnings_it_cannot_have():
    # "overridden": only a group's house rules override a ruling (the golden files of a profile, below)
    assert set(B.ORDER) - ENTRY_BLOCKS == {"stale", "stub", "overridden"}


@pytest.mark.parametrize("kind", sorted(ENTRY_BLOCKS))
def test_every_block_of_an_entry_is_on_its_page(kind):
    pages = site_pages(SiteContext(KB))
    holders = [e for e in KB.entries.values() if any(b.kind == kind for b in B.EntryBlocks(KB).blocks(e))]
    for entry in holders:
        assert f'data-block="{kind}"' in pages[f"demo/{entry.id}.md"], (kind, entry.ref)


@pytest.mark.parametrize("kind", sorted(ENTRY_BLOCKS))
def test_dropping_a_block_from_the_site_changes_the_pages(monkeypatch, kind):
    before = site_pages(SiteContext(KB))
    monkeypatch.setattr(site_entry_page, "SITE_BLOCKS", tuple(k for k in B.ORDER if k != kind))
    after = site_pages(SiteContext(KB))
    assert any(before[src] != after[src] for src in before), kind


@pytest.mark.parametrize(
    "layout, kind",
    [(layout, kind) for layout, kinds in print_document.PRINT_BLOCKS.items() for kind in kinds if kind in ENTRY_BLOCKS],
)
def test_dropping_a_block_from_print_changes_the_document(monkeypatch, layout, kind):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764460800")
    before = print_html(layout)
    assert f'data-block="{kind}"' in before
    monkeypatch.setitem(
        print_document.PRINT_BLOCKS, layout, tuple(k for k in print_document.PRINT_BLOCKS[layout] if k != kind)
    )
    assert f'data-block="{kind}"' not in print_html(layout)


# -- the terminal at 60, 80 and 120 columns ---------------------------------------------------------
TERMINAL = [
    ("search", ["search", "塔楼"]),
    ("search-en", ["search", "tower crossing"]),
    ("show", ["show", "dm a01"]),
]


@pytest.mark.parametrize("columns", [60, 80, 120])
@pytest.mark.parametrize("name, args", TERMINAL, ids=[name for name, _ in TERMINAL])
def test_terminal_output(tmp_path_factory, name, args, columns):
    """``houserules search`` and ``show`` at a terminal's width: golden, and no line wider than it."""
    from conftest import run_cli
    from houserules.render.linebreak import CLOSING, is_link, width

    cache = tmp_path_factory.getbasetemp() / "terminal-cache"
    result = run_cli(
        *args,
        "--data",
        str(FIXTURES / "search" / "data"),
        env={"HOUSERULES_CACHE": str(cache), "COLUMNS": str(columns)},
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert [line for line in lines if width(line) > columns and not is_link(line.split()[-1])] == []
    assert [line for line in lines if line.strip()[:1] in CLOSING] == []
    assert_golden(GOLDEN / "terminal" / f"{name}-{columns}.txt", result.stdout)


# -- a group's profile: its house rules, and the official rulings they change saying so ------------------------
def profiled_kb():
    from houserules.check.profile import load_profile

    return load_profile(FIXTURES / "profile" / "group.yaml", KB)


@pytest.mark.parametrize("layout", print_document.LAYOUTS)
def test_print_document_with_a_profile(monkeypatch, layout):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764460800")
    profile, kb = profiled_kb()
    game = kb.games["demo"]
    groups = print_groups(kb, game, profile)
    printed = {r for _, _, refs in groups for r in refs}
    pages = {"e-demo--tower-shortcut": 3, "e-demo--tower": 3, "e-demo--tower-crossing": 4}
    linker = PrintLinker(kb, printed, "https://example.org/hr", pages)
    html = PrintDocument(kb, linker, PrintOptions(layout=layout, profile=profile)).game_html(game, groups)
    assert 'data-block="overridden-question"' in html
    assert_golden(GOLDEN / "print" / f"demo-profile-{layout}.html", html.replace("><", ">\n<"))


def test_site_page_of_a_ruling_a_house_rule_changes():
    profile, kb = profiled_kb()
    page = site_entry_page.entry_page(SiteContext(kb), kb.entries["demo:tower-crossing"])
    assert 'data-block="overridden-question"' in page
    assert_golden(GOLDEN / "site" / "demo-profile--tower-crossing.md", stable(page))
