"""Everyone can use the site: axe-core (WCAG 2.1 A/AA and best practices) on every page kind in
both palettes and on a phone (a desktop: tests/test_a11y_desktop.py), and with the search dialog open over
the page kinds that differ around it. Thumbs, keyboards,
screen readers and text that arrives without keys (IME, dictation, paste): tests/test_a11y_use.py.

axe-core is the npm package pinned in package.json (``npm ci``, run by ``make setup``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from axecheck import axe_version, describe, violations
from sitecheck import NO_OFFLINE_APP, serve, typed_results

pytestmark = pytest.mark.browser

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "a11y" / "known-violations.html"

#: One page of each kind.
PAGES = {
    "home": "index.html",
    "game": "betrayal/index.html",
    "entry": "betrayal/collapsed-room.html",
    "faq": "betrayal/faq.html",
    "glossary": "betrayal/glossary.html",
    "errata": "betrayal/errata.html",
    "all-errata": "errata.html",
    "notes": "betrayal/notes.html",
    "changes": "changes.html",
    "go": "go.html",
    "print": "print/index.html",
    "licences": "about.html",
    "404": "404.html",
    "guide": "guide.html",
    "tags": "tags/index.html",
    "tag": "tags/kind-ruling.html",
}
PHONE = {"viewport": {"width": 375, "height": 667}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
VIEWPORTS = {"phone": PHONE, "desktop": DESKTOP}


@pytest.fixture(scope="module")
def base_url(built_site):
    with serve(built_site) as url:
        yield url


#: Material's name of each palette (``data-md-color-scheme``).
SCHEMES = {"light": "default", "dark": "slate"}


def matrix_tab(browser, viewport: dict):
    """One page of ``viewport`` for the whole matrix; ``tab.loaded`` is the address it shows and ``tab.searching``
    whether its search is open."""
    context = browser.new_context(color_scheme="light", **viewport)
    page = context.new_page()
    page.loaded, page.searching = None, False
    yield page
    context.close()


@pytest.fixture(scope="module")
def tab(browser):
    """The matrix on a phone here; on a desktop in tests/test_a11y_desktop.py (two modules, which two workers
    run side by side)."""
    yield from matrix_tab(browser, PHONE)


#: Resolves once no transition or animation of the page is running (results fading in, header shadows):
#: two frames for Material to start them, then each to its end; never later than the fixed 600 ms
#: Material's transitions take at most.
ANIMATIONS_DONE = """async () => {
    const frame = () => new Promise(resolve => requestAnimationFrame(() => resolve()));
    const deadline = performance.now() + 600;
    const running = () => document.getAnimations().filter(a => a.playState === "running"
        && a.effect && a.effect.getComputedTiming().iterations !== Infinity);
    await frame();
    await frame();
    while (running().length && performance.now() < deadline) {
        const left = new Promise(resolve => setTimeout(resolve, deadline - performance.now()));
        await Promise.race([Promise.all(running().map(a => a.finished.catch(() => null))), left]);
        await frame();
    }
}"""


def settle(page, results: bool = False) -> None:
    """Wait for the page (and the search results) to finish loading and animating."""
    page.wait_for_load_state("load")
    if results:
        page.wait_for_selector(".md-search-result__item", timeout=15000)
    page.evaluate(ANIMATIONS_DONE)


#: The page kinds checked again with the search open. The dialog and its results are the same on every page; these
#: are the page kinds that differ around it: the home page's own search button, an entry (the dialog over an
#: article), the short-link page's box and the 404 page's own template.
SEARCH_OPEN_ON = ("home", "entry", "go", "404")


def _matrix(search_open_on: tuple[str, ...] = SEARCH_OPEN_ON) -> list:
    """Every page kind with the search closed (and the kinds of SEARCH_OPEN_ON open too), in both palettes: the
    second palette of a page right after the first (each pair starts in the palette the previous one ended in, which
    a new page keeps)."""
    cases = []
    states = ((k, s) for k in PAGES for s in ((False, True) if k in search_open_on else (False,)))
    for number, (kind, search) in enumerate(states):
        for scheme in ("light", "dark") if number % 2 == 0 else ("dark", "light"):
            cases.append(
                pytest.param(kind, search, scheme, id=f"{scheme}-{kind}-{'search-open' if search else 'closed'}")
            )
    return cases


#: Switches the palette as its toggle does (a click on the palette's input: Material's change event).
SWITCH_PALETTE = """scheme => document.querySelector(`input.md-option[data-md-color-scheme="${scheme}"]`).click()"""


@pytest.mark.parametrize("kind, search, scheme", _matrix())
def test_axe_finds_no_violation(tab, base_url, kind, search, scheme):
    check_page(tab, base_url, kind, search, scheme)


def check_page(tab, base_url: str, kind: str, search: bool, scheme: str) -> None:
    """axe on a page of ``kind`` in ``scheme``. The page is loaded once for its four states: the second palette is
    switched to in place, the browser's preferred colour scheme with it, so the page is as a reader with that
    preference gets it; then the search is opened on it and a query typed, as a reader does."""
    url = f"{base_url}/{PAGES[kind]}"
    tab.emulate_media(color_scheme=scheme)
    if tab.loaded != url or (tab.searching and not search):
        tab.loaded = None
        tab.goto(url)
        settle(tab)
        tab.loaded, tab.searching = url, False
    if search and not tab.searching:
        tab.loaded = None  # a page left half-way is loaded again
        typed_results(tab, url, "betrayal")  # on the page already loaded
        settle(tab, results=True)
        tab.loaded, tab.searching = url, True
    if tab.evaluate("() => document.body.getAttribute('data-md-color-scheme')") != SCHEMES[scheme]:
        tab.evaluate(SWITCH_PALETTE, SCHEMES[scheme])
        settle(tab, results=search)
    assert tab.evaluate("() => document.body.getAttribute('data-md-color-scheme')") == SCHEMES[scheme]
    assert tab.evaluate("() => matchMedia('(prefers-color-scheme: dark)').matches") == (scheme == "dark")
    assert tab.evaluate("() => document.getElementById('__search').checked") == search
    found = violations(tab)
    assert found == [], describe(found)


@pytest.mark.parametrize("scheme", SCHEMES)
def test_a_first_visit_takes_the_preferred_palette(browser, base_url, scheme):
    """The matrix above switches the second palette of a page in place; a reader's first page comes in the
    palette of the colour scheme the browser prefers."""
    context = browser.new_context(color_scheme=scheme, **NO_OFFLINE_APP)
    page = context.new_page()
    page.goto(f"{base_url}/{PAGES['entry']}")
    shown = page.evaluate("() => document.body.getAttribute('data-md-color-scheme')")
    context.close()
    assert shown == SCHEMES[scheme]


def test_axe_is_the_pinned_version(browser, base_url):
    import json

    pinned = json.loads((Path(__file__).resolve().parents[1] / "package.json").read_text())["devDependencies"]
    page = browser.new_page(**NO_OFFLINE_APP)
    page.goto(f"{base_url}/index.html")
    assert axe_version(page) == pinned["axe-core"]
    page.close()


def test_the_check_finds_known_violations(browser):
    """A page with known faults: the same check reports each (so a passing run means something)."""
    page = browser.new_page(**NO_OFFLINE_APP)
    page.goto(FIXTURE.as_uri())
    found = {v["id"] for v in violations(page)}
    page.close()
    assert {"color-contrast", "image-alt", "link-in-text-block", "aria-dialog-name"} <= found, found


def test_the_check_finds_a_fault_put_into_a_real_page(browser, base_url):
    page = browser.new_page(**NO_OFFLINE_APP)
    page.goto(f"{base_url}/{PAGES['entry']}")
    settle(page)
    assert violations(page) == []
    page.evaluate(
        """() => {
        document.querySelector('.md-search').removeAttribute('aria-label');
        document.querySelector('.hr-title-en').style.color = '#bbb';
    }"""
    )
    assert {v["id"] for v in violations(page)} == {"aria-dialog-name", "color-contrast"}
    page.close()


# -- text that arrives without keys ----------------------------------------------------------------
