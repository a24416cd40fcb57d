"""Accessibility in use: touch, the keyboard, input methods, the size of targets and a phone's layout.

The pages' axe checks are in tests/test_a11y.py (a module of their own, so the two run side by side on
two workers); the pages, viewports and the served site come from there.
"""

from __future__ import annotations

import re

import pytest
from test_a11y import ANIMATIONS_DONE, DESKTOP, PAGES, PHONE, VIEWPORTS, base_url, settle

from sitecheck import NO_OFFLINE_APP, typed_results

pytestmark = pytest.mark.browser

__all__ = ["base_url"]  # the served site, a fixture of this module too


COUNT_QUERIES = """
(() => {
  window.hrQueries = [];
  const send = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    if (message && message.type === 2) window.hrQueries.push(message.data);
    return send.call(this, message, ...rest);
  };
})();
"""


@pytest.fixture
def phone(browser, base_url):
    context = browser.new_context(**PHONE, **NO_OFFLINE_APP)
    context.add_init_script(COUNT_QUERIES)
    page = context.new_page()
    page.goto(f"{base_url}/index.html")
    settle(page)
    yield page
    context.close()


def open_search(page) -> None:
    page.locator(".hr-search-cta").tap()
    assert page.evaluate("() => document.activeElement.matches('input.md-search__input')")
    assert page.evaluate("() => document.getElementById('__search').checked")


def first_result(page, text: str) -> str:
    page.wait_for_function(
        "t => [...document.querySelectorAll('.md-search-result__item h1')].some(h => h.textContent.includes(t))",
        arg=text,
        timeout=15000,
    )
    return page.locator(".md-search-result__item h1").first.inner_text()


def queries(page, text: str) -> list[str]:
    return [q for q in page.evaluate("() => window.hrQueries") if q == text]


def test_one_tap_on_the_home_search_box_focuses_the_input(phone):
    open_search(phone)  # asserts the input has the focus after one tap


def test_insert_text_without_key_events_searches_once(phone):
    open_search(phone)
    cdp = phone.context.new_cdp_session(phone)
    cdp.send("Input.insertText", {"text": "保险库"})  # dictation, autofill: text, no key events
    assert "保险库" in first_result(phone, "保险库")
    assert queries(phone, "保险库") == ["保险库"]


def test_ime_composition_searches_when_committed(phone):
    open_search(phone)
    # The dialog's opening transition ends first: Material acts on the box when it does, and on a
    # loaded machine that could land between the two steps of the composition below.
    phone.evaluate(ANIMATIONS_DONE)
    cdp = phone.context.new_cdp_session(phone)
    cdp.send("Input.imeSetComposition", {"text": "baoxian", "selectionStart": 7, "selectionEnd": 7})
    cdp.send("Input.imeSetComposition", {"text": "保险", "selectionStart": 2, "selectionEnd": 2})
    phone.wait_for_timeout(300)
    sent = phone.evaluate("() => window.hrQueries")
    assert "baoxian" not in sent and "保险" not in sent  # nothing runs while the IME is composing
    cdp.send("Input.insertText", {"text": "保险库"})  # choosing the candidate commits the composition
    assert "保险库" in first_result(phone, "保险库")
    assert queries(phone, "保险库") == ["保险库"]


def test_paste_searches(phone):
    phone.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_search(phone)
    phone.evaluate("() => navigator.clipboard.writeText('Mystic Elevator')")
    cdp = phone.context.new_cdp_session(phone)
    # Ctrl+V as the editing command alone: a paste with no keyup, as from a phone's paste menu.
    cdp.send(
        "Input.dispatchKeyEvent",
        {
            "type": "rawKeyDown",
            "key": "v",
            "code": "KeyV",
            "modifiers": 2,
            "windowsVirtualKeyCode": 86,
            "commands": ["paste"],
        },
    )
    assert phone.locator("input.md-search__input").input_value() == "Mystic Elevator"
    assert "魔梯" in first_result(phone, "魔梯")
    assert queries(phone, "Mystic Elevator") == ["Mystic Elevator"]


def test_typing_searches_once_per_change(phone):
    open_search(phone)
    phone.keyboard.type("vault", delay=30)
    first_result(phone, "保险库")
    sent = [q for q in phone.evaluate("() => window.hrQueries") if q]
    assert sent[-1] == "vault"
    assert len(sent) == len(set(sent)) <= len("vault")  # each value once, never twice for one key


# -- keyboard --------------------------------------------------------------------------------------
VISIBLE_FOCUS = """() => {
  let node = document.activeElement;
  if (node.matches('input.md-option')) node = node.nextElementSibling;  // the palette switch's label
  const box = node.getBoundingClientRect();
  if (box.width < 1 || box.height < 1) return 'no size: ' + node.outerHTML.slice(0, 120);
  for (let n = node; n && n.nodeType === 1; n = n.parentElement) {
    const s = getComputedStyle(n);
    if (s.visibility === 'hidden' || s.display === 'none' || Number(s.opacity) < 0.1)
      return 'hidden: ' + node.outerHTML.slice(0, 120);
  }
  if (box.bottom < 0 || box.right < 0 || box.top > innerHeight || box.left > innerWidth)
    return 'off screen: ' + node.outerHTML.slice(0, 120);
  return '';
}"""


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_every_tab_stop_is_visible(browser, base_url, viewport):
    context = browser.new_context(**VIEWPORTS[viewport], **NO_OFFLINE_APP)
    page = context.new_page()
    page.goto(f"{base_url}/{PAGES['entry']}")
    settle(page)
    problems = []
    for _ in range(20):
        page.keyboard.press("Tab")
        page.evaluate(ANIMATIONS_DONE)  # the skip link slides in; a phone's search box opens when it gets the focus
        problem = page.evaluate(VISIBLE_FOCUS)
        if problem:
            problems.append(problem)
    context.close()
    assert problems == []


def test_tab_from_the_search_box_reaches_the_results_and_escape_returns(browser, base_url):
    context = browser.new_context(**DESKTOP, **NO_OFFLINE_APP)
    page = context.new_page()
    page.goto(f"{base_url}/index.html")
    settle(page)
    page.locator(".hr-search-cta").focus()
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.matches('input.md-search__input')")
    # One input event (as an input method commits a word): typed key by key, the results of "eleva" could show
    # first and be redrawn by the last query's while the test tabs into them (typing: test_typing_searches_…).
    page.keyboard.insert_text("elevator")
    first_result(page, "魔梯")
    page.keyboard.press("Tab")
    first = page.evaluate("() => document.querySelector('.md-search-result__item a').href")
    assert page.evaluate("() => document.activeElement.href") == first
    assert page.evaluate("() => document.getElementById('__search').checked")  # still open
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.closest('.md-search-result__list') !== null")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("() => document.activeElement.matches('input.md-search__input')")
    page.keyboard.press("Escape")
    assert not page.evaluate("() => document.getElementById('__search').checked")
    assert page.evaluate("() => document.activeElement.matches('.hr-search-cta')")  # back where it was
    context.close()


def test_the_result_count_is_announced(browser, base_url):
    page = browser.new_page(**NO_OFFLINE_APP)
    page.goto(f"{base_url}/index.html?q=elevator")
    settle(page, results=True)
    meta = page.locator(".md-search-result__meta")
    assert meta.get_attribute("role") == "status" and meta.get_attribute("aria-live") == "polite"
    assert any(ch.isdigit() for ch in meta.inner_text())
    # said in both languages, the query's first (an English query here), the number in each
    assert re.fullmatch(r"(\d+) results? · \1 个符合条件的结果", meta.inner_text())
    assert page.locator(".md-search[role=dialog]").get_attribute("aria-label")
    page.fill(".md-search__input", "")
    page.wait_for_function(
        "() => document.querySelector('.md-search-result__meta').textContent.includes('Type to search')"
    )
    assert meta.inner_text().strip() == "键入以开始搜索 · Type to search"
    page.close()


# -- thumbs and a phone's screen -------------------------------------------------------------------
TARGETS = """() => {
  const inText = a => {  // a link inside a sentence is exempt (WCAG 2.5.5 "inline")
    if (a.matches('.hr-translators > a, table.hr-entries td > a:first-child, table.hr-glossary td > a')) return false;
    const block = a.parentElement.closest('p, li, td, th, dd, dt, h1, h2, h3, h4, figcaption, .hr-cite');
    return block && block.textContent.trim().length > a.textContent.trim().length;
  };
  const visible = n => {
    const r = n.getBoundingClientRect();
    if (r.width < 1 || r.height < 1 || r.right <= 0 || r.left >= innerWidth) return false;
    for (let e = n; e && e.nodeType === 1; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.visibility === 'hidden' || s.display === 'none' || Number(s.opacity) < 0.1) return false;
    }
    return true;
  };
  const controls = document.querySelectorAll(
    'a[href], button, input:not([type=hidden]):not(.md-toggle):not(.md-option), select, textarea, summary, ' +
    'label[for]:not(.md-overlay):not(.md-search__overlay), [role=button], [tabindex]:not([tabindex="-1"])');
  return [...controls].filter(visible).filter(n => !(n.matches('a') && inText(n))).map(n => {
    const r = n.getBoundingClientRect();
    return {what: n.outerHTML.slice(0, 100), width: Math.round(r.width), height: Math.round(r.height)};
  });
}"""


@pytest.fixture(scope="module")
def _phone_tab(browser, base_url):
    context = browser.new_context(**PHONE, **NO_OFFLINE_APP)
    yield context.new_page()
    context.close()


@pytest.fixture
def phone_tab(_phone_tab):
    """A phone's blank page, in which the test opens its own documents: one page for the tests that each load
    a page and measure it (a new one for each would start its processes again, half of such a test's time)."""
    _phone_tab.goto("about:blank")
    return _phone_tab


@pytest.mark.parametrize(
    "path",
    [PAGES[k] for k in ("entry", "home", "game", "go", "glossary", "guide")] + ["betrayal/mystic-elevator-ruling.html"],
)
def test_every_control_is_a_44px_target_on_a_phone(phone_tab, base_url, path):
    page = phone_tab
    page.goto(f"{base_url}/{path}")
    settle(page)
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    page.wait_for_timeout(300)
    targets = page.evaluate(TARGETS)
    assert len(targets) >= 3  # at least the header's buttons
    small = [t for t in targets if t["width"] < 44 or t["height"] < 44]
    assert small == []


def test_copy_link_buttons_are_44px(phone_tab, base_url):
    phone_tab.goto(f"{base_url}/{PAGES['entry']}")
    sizes = phone_tab.locator("button.hr-copy").evaluate_all("bs => bs.map(b => [b.offsetWidth, b.offsetHeight])")
    assert sizes and all(w >= 44 and h >= 44 for w, h in sizes), sizes


#: The lines each language's text of the answer box takes (its height over its line height).
ANSWER_LINES = """() => [...document.querySelectorAll('.hr-answer .hr-lang p')].map(p =>
    [p.closest('[lang]').lang, Math.round(p.getBoundingClientRect().height / parseFloat(getComputedStyle(p).lineHeight))])"""


#: Each entry's article laid into the page loaded (fetched, parsed, put in place of the article shown), then where
#: its answer box ends and how many lines each language takes (``lines``: ANSWER_LINES's source).
ARTICLES_IN_PLACE = """async ({paths, lines}) => {
  const measure = new Function('return (' + lines + ')()');
  const out = [];
  for (const path of paths) {
    const html = await (await fetch(path)).text();
    const page = new DOMParser().parseFromString(html, 'text/html');
    document.querySelector('article.md-content__inner')
      .replaceWith(document.importNode(page.querySelector('article.md-content__inner'), true));
    const box = document.querySelector('.hr-answer').getBoundingClientRect();
    out.push([path, Math.round(box.y + box.height), measure()]);
  }
  return out;
}"""


def test_every_answer_is_above_the_fold_on_a_phone(browser, base_url, built_site):
    """On a 375×667 phone the whole one-line answer of every entry shows without scrolling, and each of its
    languages takes two lines at most (the limit ``houserules check`` counts, DESIGN.md "The one-line answer").

    What is above an entry's article (the header, the tabs) is the same on every entry page, so one entry page is
    loaded and each entry's article is laid into it in turn: measured so, all 126 entries ended where loading each
    page put them (one page load instead of 126). The first is measured both ways here."""
    pages = sorted(
        "/" + p.relative_to(built_site).as_posix()
        for p in built_site.glob("*/*.html")
        if 'class="hr-answer"' in p.read_text(encoding="utf-8")
    )
    assert len(pages) >= 50
    context = browser.new_context(**PHONE, **NO_OFFLINE_APP)
    page = context.new_page()
    page.goto(f"{base_url}{pages[-1]}")
    box = page.locator(".hr-answer").first.bounding_box()
    loaded = [pages[-1], round(box["y"] + box["height"]), page.evaluate(ANSWER_LINES)]
    measured = page.evaluate(ARTICLES_IN_PLACE, {"paths": pages, "lines": ANSWER_LINES})
    context.close()
    assert measured[-1] == loaded  # laid in place as loaded
    below = [(path, bottom) for path, bottom, _ in measured if bottom > PHONE["viewport"]["height"]]
    long = [(path, lang, lines) for path, _, counted in measured for lang, lines in counted if lines > 2]
    assert below == []
    assert long == []


ENGLISH_WORDS_SPLIT = """() => {
  const split = [];
  for (const holder of document.querySelectorAll('table.hr-entries [lang=en]')) {
    const walk = document.createTreeWalker(holder, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      for (const m of node.textContent.matchAll(/[A-Za-z][A-Za-z'’-]+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
        if (tops.size > 1) split.push(m[0]);
      }
    }
  }
  return split;
}"""


@pytest.mark.parametrize("path", ["betrayal/index.html", "mice-and-mystics/index.html", "mausritter/index.html"])
def test_tables_of_entries_wrap_english_at_words_and_fit_a_phone(phone_tab, base_url, path):
    page = phone_tab
    page.goto(f"{base_url}/{path}")
    settle(page)
    assert page.locator("table.hr-entries").count() >= 1
    assert page.evaluate(ENGLISH_WORDS_SPLIT) == []
    overflowing = page.locator("table.hr-entries").evaluate_all(
        "ts => ts.filter(t => t.scrollWidth > t.clientWidth + 1 || t.getBoundingClientRect().right > innerWidth).length"
    )
    assert overflowing == 0
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 375


#: A glossary as laid out: the page's and the table's widths, and each row's cells as shown (display, box, the text
#: of its column's heading and of the name shown above it, and whether it holds anything).
GLOSSARY_LAYOUT = """() => {
    const table = document.querySelector('table.hr-glossary');
    const heads = [...table.querySelectorAll('thead th')].map(th => th.textContent.trim());
    return {page: [document.documentElement.scrollWidth, innerWidth], table: [table.scrollWidth, table.clientWidth],
            head: getComputedStyle(table.querySelector('thead')).position,
            rows: [...table.querySelectorAll('tbody tr')].map(tr => [...tr.cells].map((td, i) => {
                const box = td.getBoundingClientRect(), label = getComputedStyle(td, '::before').content;
                return {display: getComputedStyle(td).display, left: box.left, right: box.right, top: box.top,
                        column: heads[i], label: label === 'none' ? null : label.replace(/^"|"$/g, ''),
                        empty: td.childNodes.length === 0};
            }))};
}"""


@pytest.mark.parametrize(
    "path", ["betrayal/glossary.html", "mausritter/glossary.html", "mice-and-mystics/glossary.html"]
)
def test_the_glossary_is_read_as_cards_on_a_phone(phone_tab, base_url, path):
    """At 375 px neither the page nor the table scrolls sideways: each term is a card, its English and Chinese
    side by side as its heading, every other cell that holds something under its column's name, and nothing
    outside the screen."""
    page = phone_tab
    page.goto(f"{base_url}/{path}")
    settle(page)
    layout = page.evaluate(GLOSSARY_LAYOUT)
    assert layout["page"][0] <= layout["page"][1] == 375
    assert layout["table"][0] <= layout["table"][1], "the table scrolls inside itself"
    assert layout["head"] == "absolute"  # the column names are read out, and shown on each cell
    assert len(layout["rows"]) >= 3
    for cells in layout["rows"]:
        english, chinese, *others = cells
        assert english["top"] == chinese["top"] and english["right"] <= chinese["left"], cells
        for cell in cells:
            assert 0 <= cell["left"] and cell["right"] <= 375, cell
        for cell in others:
            if cell["empty"]:
                assert cell["display"] == "none", cell
            else:
                assert cell["label"] == cell["column"] and cell["top"] > english["top"], cell
    assert page.evaluate(ENGLISH_WORDS_SPLIT.replace("table.hr-entries", "table.hr-glossary")) == []


def test_the_glossary_is_a_table_on_a_desktop(browser, base_url):
    """Wide enough, the glossary stays a table with its column heads, within the page."""
    context = browser.new_context(**DESKTOP, **NO_OFFLINE_APP)
    page = context.new_page()
    page.goto(f"{base_url}/mausritter/glossary.html")
    settle(page)
    layout = page.evaluate(GLOSSARY_LAYOUT)
    context.close()
    assert layout["head"] != "absolute" and layout["page"][0] <= layout["page"][1]
    assert layout["table"][0] <= layout["table"][1]
    for cells in layout["rows"]:
        assert all(cell["display"] == "table-cell" and cell["label"] is None for cell in cells), cells
        assert len({round(cell["top"]) for cell in cells}) == 1, cells


#: Where the text of the search box ends (its right edge less its padding) and where its clear button starts.
TEXT_END_AND_CLEAR = """() => {
    const box = document.querySelector('input.md-search__input');
    const clear = [...document.querySelectorAll('.md-search__options > button')].find(b => b.offsetWidth > 0);
    return [box.getBoundingClientRect().right - parseFloat(getComputedStyle(box).paddingRight),
            clear ? clear.getBoundingClientRect().left : null];
}"""


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_long_query_stops_before_the_clear_button(browser, base_url, viewport):
    """The clear button is enlarged to 44 px: the text of a long query must end before it, not run under it."""
    context = browser.new_context(**VIEWPORTS[viewport], **NO_OFFLINE_APP)
    page = context.new_page()
    typed_results(page, f"{base_url}/index.html", "someone already opened the vault is there anything left for me")
    settle(page, results=True)
    text_end, clear_left = page.evaluate(TEXT_END_AND_CLEAR)
    context.close()
    assert clear_left is not None, "the clear button shows once something is typed"
    assert text_end <= clear_left, (text_end, clear_left)
