"""Data text to HTML: what a contributor writes and what a reader gets, case by case."""

from __future__ import annotations

import pytest

from conftest import GOOD, load_kb
from houserules.render.text import Linker, escape_md, inline_html, markdown_html, plain_text
from houserules.render.urls import relative_url


class FixtureLinker(Linker):
    def href(self, target):
        return f"{target.id}.html"


LINKER = FixtureLinker(load_kb(GOOD))


CASES = [
    # plain one-line answers
    ("进入就必须运行。", "<p>进入就必须运行。</p>"),
    ('It moves "once".', '<p>It moves "once".</p>'),
    # Markdown that data may use
    ("**粗体** and *em*", "<p><strong>粗体</strong> and <em>em</em></p>"),
    ("- 一\n- 二", "<ul>\n<li>一</li>\n<li>二</li>\n</ul>"),
    ("见 [[demo:tower]]。", '<p>见 <a class="hr-ref" href="tower.html">塔楼</a>。</p>'),
    ("[[demo:nowhere]]", "<p>[[demo:nowhere]]</p>"),
    (
        "[[demo:tower]] is not [a link](x)",
        '<p><a class="hr-ref" href="tower.html">塔楼</a> is not <span>a link</span></p>',
    ),
    # raw HTML is text
    ("<script>x</script>", "<p>&lt;script&gt;x&lt;/script&gt;</p>"),
    ('<img src=x onerror="alert(1)">', '<p>&lt;img src=x onerror="alert(1)"&gt;</p>'),
    # links may only leave for the web or mail; anything else is its text (textpolicy.py)
    ("[a](javascript:alert(1))", "<p><span>a</span></p>"),
    ("[a](//evil.test/x)", "<p><span>a</span></p>"),
    ("[a](../../etc/passwd)", "<p><span>a</span></p>"),
    ("[a](file:///etc/passwd)", "<p><span>a</span></p>"),
    ("[a][r]\n\n[r]: ../../etc/passwd", "<p><span>a</span></p>"),
    ("[a](https://mausritter.com/)", '<p><a href="https://mausritter.com/">a</a></p>'),
    ("<https://example.org>", '<p><a href="https://example.org">https://example.org</a></p>'),
    # images are their text, attribute lists stay text
    ("![map](//evil.test/x.png)", "<p>map</p>"),
    ("**b**{: onmouseover=x}", "<p><strong>b</strong>{: onmouseover=x}</p>"),
    # invisible characters from YAML escapes never reach the page or the PDF
    ("a\x1b[2Jb", "<p>a[2Jb</p>"),
    ("\u202etower", "<p>tower</p>"),
]


@pytest.mark.parametrize("text, expected", CASES, ids=[repr(c[0])[:30] for c in CASES])
def test_markdown_html(text, expected):
    assert markdown_html(text, LINKER) == expected


def test_plain_text_names_references_for_a_terminal():
    # A terminal never prints [[: a reference that does not resolve is shown as its game:id.
    assert plain_text("见 [[demo:tower]]，[[demo:nowhere]]", LINKER) == "见 塔楼 (DM-R01)，demo:nowhere"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("<b>&", "&lt;b&gt;&amp;"),
        ('"x"\u202e\x07', "&quot;x&quot;"),
    ],
)
def test_inline_html(text, expected):
    assert inline_html(text) == expected


def test_escape_md_neutralises_markdown_and_attribute_lists():
    assert escape_md("*a* {: onclick=x}") == "&#42;a&#42; &#123;: onclick&#61;x&#125;"


@pytest.mark.parametrize(
    "target, page, expected",
    [
        ("betrayal/vault.html", "betrayal/index.html", "vault.html"),
        ("mausritter/saves.html", "betrayal/vault.html", "../mausritter/saves.html"),
        ("tags/x.html", "index.html", "tags/x.html"),
        ("betrayal/vault.html#open", "mausritter/faq.html", "../betrayal/vault.html#open"),
    ],
)
def test_relative_url(target, page, expected):
    assert relative_url(target, page) == expected
