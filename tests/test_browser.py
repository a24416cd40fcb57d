"""The built site in headless Chromium, served on 127.0.0.1 and opened from file://, as a reader uses it."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest

from sitecheck import NO_OFFLINE_APP, serve, typed_results

pytestmark = pytest.mark.browser


# query, the entry whose page must come first — one group per way of asking
SEARCHES = [
    # Chinese title
    ("魔梯", "BH-R20"),
    ("豁免", "MR-R04"),
    ("捕鼠夹", "MM-R18"),
    # English title / words
    ("Mystic Elevator", "BH-R20"),
    ("Coal Chute", "BH-R15"),
    ("grit", "MR-R17"),
    ("knocked down", "MM-R24"),
    # English prefix
    ("eleva", "BH-R20"),
    # alias (traditional characters, synonyms)
    ("電梯", "BH-R20"),
    ("电梯", "BH-R20"),
    # code
    ("BH-A13", "BH-A13"),
    ("bh-r20", "BH-R20"),
]


@pytest.fixture(scope="module", params=["http", "file"])
def base_url(request, built_site):
    if request.param == "file":
        yield built_site.as_uri()
    else:
        with serve(built_site) as url:
            yield url


def _outside(requests: list[str], base_url: str) -> list[str]:
    """The requests that went anywhere but the site's own scheme (and, served, its own host)."""
    allowed = urlsplit(base_url).scheme
    return [
        u
        for u in requests
        if urlsplit(u).scheme not in {allowed, "data", "blob"}
        or (allowed == "http" and not urlsplit(u).netloc.startswith("127.0.0.1"))
    ]


@pytest.fixture(scope="module")
def _page(browser, base_url):
    context = browser.new_context(**NO_OFFLINE_APP)
    tab = context.new_page()
    tab.requests = []
    tab.on("request", lambda req: tab.requests.append(req.url))
    yield tab
    context.close()


@pytest.fixture
def page(_page, base_url):
    """A blank page, in which the test opens its own documents, and whose requests in this test went nowhere
    but the site: one page per base URL for all the tests (a new one for each would start its processes again,
    half of such a test's time), each from a new document."""
    _page.goto("about:blank")
    _page.requests.clear()
    yield _page
    assert _outside(_page.requests, base_url) == [], "the site loaded something from outside"


@pytest.mark.parametrize("query, code", SEARCHES, ids=[q for q, _ in SEARCHES])
def test_search_puts_the_expected_entry_first(_page, base_url, query, code):
    """Typed one after another into the home page's search box (the module's page, loaded again only after
    another test's document)."""
    _page.requests.clear()
    results = typed_results(_page, f"{base_url}/index.html", query)
    assert results and results[0].startswith(f"{code} "), results[:3]
    assert _outside(_page.requests, base_url) == [], "the site loaded something from outside"


def test_search_box_typing_works(page, base_url):
    """Typing into the search box (keyup) shows results, as a reader would do it."""
    page.goto(f"{base_url}/index.html")
    page.locator(".hr-search-cta").click()
    box = page.locator("input.md-search__input")
    box.fill("保险库")
    box.press("End")
    page.wait_for_selector(".md-search-result__item", timeout=15000)
    first = page.locator(".md-search-result__item .md-search-result__article h1").first.inner_text()
    assert "保险库" in first.replace("\u200b", "")


def test_glossary_results_name_their_game(page, base_url):
    """Typed on a glossary page, a term's result says which game's glossary holds it (the games' glossaries share
    words: a traitor, a turn), after the entries' results, each of which names its game too; the term it opens
    stands out in its glossary."""
    typed_results(page, f"{base_url}/betrayal/glossary.html", "traitor")
    page.wait_for_function(
        """() => { const box = document.querySelector('.md-search__scrollwrap');
                   box.scrollTop = box.scrollHeight;
                   return document.querySelector('.md-search-result__item a[href*="#term-"]'); }""",
        timeout=15000,
    )
    headings = page.locator(".md-search-result__item").evaluate_all(
        """items => items.map(item => [item.querySelector('a').getAttribute('href'),
                                       item.querySelector('h1').innerText.replace(/\u200b/g, '')])"""
    )
    terms = [text for href, text in headings if "glossary.html" in href]
    entries = [text for href, text in headings if "glossary.html" not in href]
    assert terms and all(t.startswith("术语表 Glossary Betrayal at House on the Hill 山屋惊魂") for t in terms), terms
    assert entries and all("Betrayal at House on the Hill 山屋惊魂" in t for t in entries), entries
    # the term followed stands out in the glossary, as an answer opened does
    page.locator('.md-search-result__item a[href*="#term-traitor"]').first.click()
    page.wait_for_url(re.compile(r".*/betrayal/glossary\.html.*#term-traitor$"))
    shown = page.evaluate(
        """() => [getComputedStyle(document.querySelector(':target')).backgroundColor,
                  getComputedStyle(document.querySelector('#term-explorer')).backgroundColor]"""
    )
    assert shown[0] != shown[1], shown


def test_entry_page_shows_answer_and_backlinks(page, base_url):
    page.goto(f"{base_url}/betrayal/collapsed-room.html")
    answer = page.locator(".hr-answer")
    assert answer.is_visible()
    assert answer.inner_text().strip() != ""
    page.goto(f"{base_url}/betrayal/basement-landing.html")
    backlinks = page.locator("#referenced-by + ul.hr-links a")
    assert backlinks.count() >= 2
    backlinks.first.click()
    page.wait_for_load_state()
    assert page.locator(".hr-answer").is_visible()


@pytest.fixture(scope="module")
def _phone_tab(browser, base_url):
    context = browser.new_context(
        viewport={"width": 375, "height": 740}, device_scale_factor=2, is_mobile=True, **NO_OFFLINE_APP
    )
    yield context.new_page()
    context.close()


@pytest.fixture
def phone_tab(_phone_tab):
    """A phone's blank page, in which the test opens its own document (as :func:`page`, one per base URL)."""
    _phone_tab.goto("about:blank")
    return _phone_tab


@pytest.mark.parametrize(
    "path",
    [
        "index.html",
        "betrayal/index.html",
        "betrayal/mystic-elevator-ruling.html",
        "mausritter/levels.html",
        "betrayal/errata.html",
    ],
)
def test_no_horizontal_overflow_on_a_phone(phone_tab, base_url, path):
    phone_tab.goto(f"{base_url}/{path}")
    width = phone_tab.evaluate("document.documentElement.scrollWidth")
    assert width <= 375


#: The changes page as a phone shows it: each data version (id, open, its heading's first line and its heights), the
#: versions faq.pdf printed (its table, folded rows too), the page's size.
CHANGES = """() => ({
  versions: [...document.querySelectorAll('details.hr-version')].map(d => ({id: d.id, open: d.open,
    heading: d.querySelector('summary').innerText.split('\\n')[0],
    line: d.querySelector('summary').getBoundingClientRect().height, height: d.getBoundingClientRect().height})),
  printed: [...document.querySelectorAll('#pdf-faq tr[data-find] code')].map(c => c.textContent),
  page: [document.documentElement.scrollWidth, document.documentElement.scrollHeight]})"""


def test_the_changes_page_reads_from_the_top_on_a_phone(phone_tab, base_url):
    """The real history on a phone: the newest versions open, every older one folded under one heading line that
    names it as faq.pdf's cover prints it (so a group finds the version on its printout), the page a fraction of
    its old 37,700 px, nothing wider than the screen."""
    from houserules.site.changelog import OPEN_VERSIONS

    phone_tab.goto(f"{base_url}/changes.html")
    shown = phone_tab.evaluate(CHANGES)
    versions = shown["versions"]
    assert len(versions) > OPEN_VERSIONS
    assert [v["open"] for v in versions] == [n < OPEN_VERSIONS for n in range(len(versions))]
    assert versions[0]["heading"].endswith("（当前 · current）")
    headings = set()
    for version in versions:
        printed = re.match(r"(\d{4}-\d{2}-\d{2}) · ([0-9a-f]{8})", version["heading"])
        assert printed and version["id"] == f"v-{printed.group(2)}", version
        headings.add(printed.group(0))
    assert shown["printed"] and set(shown["printed"]) <= headings  # every version faq.pdf printed heads a version
    folded = versions[OPEN_VERSIONS:]
    assert all(44 <= v["line"] <= 90 and v["height"] <= v["line"] + 4 for v in folded), folded
    assert shown["page"][0] <= 375
    assert shown["page"][1] < 20_000 + sum(v["height"] for v in versions[:OPEN_VERSIONS]), shown["page"]


def test_dark_scheme_is_available(page, base_url):
    page.goto(f"{base_url}/index.html")
    assert page.locator("[data-md-color-scheme]").count() >= 1
    assert page.locator("label[for='__palette_1']").count() == 1


def test_a_search_in_traditional_characters_opens_pages_in_traditional_characters(page, base_url):
    """A reader who searches in Traditional characters reads the page a result opens, and the next pages, in
    Traditional characters (the title as the search's Traditional results write it); 简 in the header goes back to
    the pages as written, and 繁 converts again. The header's control is a 44 px button."""
    from conftest import DATA, load_kb
    from houserules.text.chinese import to_traditional

    kb = load_kb(DATA)
    terms = kb.traditional_terms()
    try:
        typed_results(page, f"{base_url}/index.html", "陵墓塔樓過不去怎麼辦")
        page.locator(".md-search-result__list a[href]").first.click()
        page.wait_for_function("() => document.documentElement.lang === 'zh-Hant'", timeout=15000)
        opened = urlsplit(page.url).path
        entry = next(e for e in kb.entries.values() if opened.endswith(f"/{e.game}/{e.id}.html"))
        heading = page.locator("article h1").first.inner_text()
        assert to_traditional(entry.title["zh"], terms) in heading, heading
        assert to_traditional(entry.title["zh"], terms) != entry.title["zh"], (
            "choose a query whose entry's title changes"
        )
        button = page.locator(".md-header__button.hr-script")
        box = button.bounding_box()
        assert button.inner_text() == "简" and box["width"] >= 44 and box["height"] >= 44
        page.goto(f"{base_url}/betrayal/index.html")  # the choice stays
        page.wait_for_function("() => document.documentElement.lang === 'zh-Hant'", timeout=15000)
        page.goto(f"{base_url}/{entry.game}/{entry.id}.html")
        page.wait_for_function("() => document.documentElement.lang === 'zh-Hant'", timeout=15000)
        with page.expect_navigation():
            page.locator(".md-header__button.hr-script").click()
        assert entry.title["zh"] in page.locator("article h1").first.inner_text()
        assert page.evaluate("() => document.documentElement.lang") != "zh-Hant"
        page.locator(".md-header__button.hr-script").click()  # 繁: converted in place
        page.wait_for_function("() => document.documentElement.lang === 'zh-Hant'", timeout=15000)
        assert to_traditional(entry.title["zh"], terms) in page.locator("article h1").first.inner_text()
    finally:
        page.evaluate("() => localStorage.removeItem('houserules script')")
