"""Data text to HTML: what a contributor writes and what a reader gets, case by case."""

from __future__ import annotations

import pytest

from houserules.textrender import escape_md, inline_html, markdown_html, relative_url


def resolve(ref: str):
    return {"demo:tower": ("塔楼", "tower.html")}.get(ref)


CASES = [
    # plain one-line answers
    ("进入就必须运行。", "<p>进入就必须运行。</p>"),
    ('It moves "once".', '<p>It moves "once".</p>'),
    # Markdown that data may use
    ("**粗体** and *em*", "<p><strong>粗体</strong> and <em>em</em></p>"),
    ("- 一\n- 二", "<ul>\n<li>一</li>\n<li>二</li>\n</ul>"),
    ("见 [[demo:tower]]。", '<p>见 <a href="tower.html" class="hr-ref">塔楼</a>。</p>'),
    ("[[demo:nowhere]]", "<p>[[demo:nowhere]]</p>"),
    # raw HTML and unsafe links are text or dropped
    ("<script>x</script>", "<p>&lt;script&gt;x&lt;/script&gt;</p>"),
    ("[a](javascript:alert(1))", "<p><a>a</a></p>"),
    # invisible characters from YAML escapes never reach the page or the PDF
    ("a\x1b[2Jb", "<p>a[2Jb</p>"),
    ("\u202etower", "<p>tower</p>"),
]


@pytest.mark.parametrize("text, expected", CASES, ids=[repr(c[0])[:30] for c in CASES])
def test_markdown_html(text, expected):
    assert markdown_html(text, resolve) == expected


@pytest.mark.parametrize("text, expected", [
    ("<b>&", "&lt;b&gt;&amp;"),
    ('"x"\u202e\x07', "&quot;x&quot;"),
])
def test_inline_html(text, expected):
    assert inline_html(text) == expected


def test_escape_md_neutralises_markdown_and_attribute_lists():
    assert escape_md("*a* {: onclick=x}") == "&#42;a&#42; &#123;: onclick=x&#125;"


@pytest.mark.parametrize("target, page, expected", [
    ("betrayal/vault.html", "betrayal/index.html", "vault.html"),
    ("mausritter/saves.html", "betrayal/vault.html", "../mausritter/saves.html"),
    ("tags/x.html", "index.html", "tags/x.html"),
])
def test_relative_url(target, page, expected):
    assert relative_url(target, page) == expected
