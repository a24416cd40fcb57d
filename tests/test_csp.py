"""The Content-Security-Policy every page carries: present once, complete for the theme's own scripts, effective.

Data never reaches a page as markup (tests/test_hardening.py, tests/test_plaintext_fields.py);
the policy is the second wall: if markup ever slipped through, the browser would not run it.
"""

from __future__ import annotations

import contextlib
import re

import pytest

from sitecheck import serve

CSP = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">')


def test_every_page_carries_one_policy_first_in_its_head(built_fixture_site):
    pages = sorted(built_fixture_site.rglob("*.html"))
    assert len(pages) > 10
    for page in pages:
        html = page.read_text(encoding="utf-8")
        policies = CSP.findall(html)
        assert len(policies) == 1, page
        assert re.search(
            r"<head[^>]*>" + re.escape(f'<meta http-equiv="Content-Security-Policy" content="{policies[0]}">'), html
        )
        directives = dict(d.strip().split(" ", 1) for d in policies[0].split(";"))
        assert "'unsafe-inline'" not in directives["script-src"] and "'unsafe-eval'" not in directives["script-src"]
        assert directives["object-src"] == "'none'" and directives["default-src"] == "'self'"


@pytest.mark.browser
@pytest.mark.parametrize("scheme", ["file", "http"])
def test_the_policy_allows_the_site_and_blocks_injected_script(browser, built_fixture_site, scheme):
    with serve(built_fixture_site) as url, contextlib.closing(browser.new_context()) as context:
        base = (built_fixture_site.as_uri() if scheme == "file" else url.rstrip("/")) + "/"
        tab = context.new_page()
        violations: list[str] = []
        tab.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
        for page in ("index.html", "demo/tower-crossing.html", "demo/faq.html", "print/index.html"):
            tab.goto(base + page)
            tab.wait_for_load_state("load")
        # The theme's own scripts ran (its palette toggle and search box are live) …
        tab.fill("input.md-search__input", "tower")
        tab.press("input.md-search__input", "End")
        tab.wait_for_selector(".md-search-result__item", timeout=15000)
        assert violations == []
        # … while markup slipped into the page could not run: no inline handler, no inline script.
        tab.evaluate("""() => {
            document.body.insertAdjacentHTML('beforeend', '<img src=x onerror="window.__pwned = 1">');
            const s = document.createElement('script'); s.textContent = 'window.__pwned = 2'; document.body.append(s);
        }""")
        tab.wait_for_timeout(300)
        assert tab.evaluate("typeof window.__pwned") == "undefined"
        assert len(violations) == 2
