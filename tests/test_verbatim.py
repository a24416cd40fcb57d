"""The one-line HTML blocks of generated pages pass through Markdown as Python-Markdown's own parser would pass them."""

from __future__ import annotations

import markdown
import pytest
from mkdocs.config import load_config
from mkdocs.utils import meta

from conftest import DATA, FIXTURES, GOOD, ROOT
from houserules.check import run as run_check
from houserules.site.context import SiteContext
from houserules.site.pages import home_cards, site_pages
from houserules.site.verbatim import VerbatimBlocks

CONFIG = load_config(str(ROOT / "mkdocs.yml"))


def _html(text: str, verbatim: bool) -> str:
    extensions = list(CONFIG.markdown_extensions) + ([VerbatimBlocks()] if verbatim else [])
    return markdown.Markdown(extensions=extensions, extension_configs=CONFIG.mdx_configs).convert(text)


@pytest.mark.parametrize("data", [DATA, GOOD, FIXTURES / "two-games", FIXTURES / "hostile"], ids=lambda p: p.name)
def test_every_generated_page_renders_the_same_with_and_without_verbatim_blocks(data):
    report = run_check(data)
    ctx = SiteContext(report.kb)
    pages = {**site_pages(ctx), "cards": home_cards(ctx)}
    stored = 0
    for src, page in pages.items():
        text, _ = meta.get_data(page)
        assert _html(text, True) == _html(text, False), src
        stored += sum(1 for line in text.splitlines() if line.startswith('<table class="hr-entries"'))
    assert stored  # the tables of entries, the blocks that matter, are among them


@pytest.mark.parametrize(
    "line, expected",
    [
        ('<table class="hr-entries"><tr><td><p>a</p></td></tr></table>', True),
        ('<p class="x">a<br>b</p>', True),
        ("<div><p>a</p></div><p>b</p>", False),  # two elements
        ("<span>a</span>", False),  # not a block
        ("<div><p>a</p>", False),  # not closed
        ("<div>a</div> tail", False),
        ("<hr>", False),
        ("<div><!-- x --></div>", False),
        ('<div title="a>b"><p>x</p></div>', True),
    ],
)
def test_one_element(line, expected):
    from houserules.site.verbatim import one_element

    assert one_element(line, markdown.Markdown().is_block_level) is expected
