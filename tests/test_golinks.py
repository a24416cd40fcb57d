"""Links by code: go.html#BH-A13 opens the entry, go.html#BH-A13/<question> the answer, from file:// and http."""

from __future__ import annotations

import json
import re

import pytest

from conftest import real_check
from houserules.search.analysis import MAX_QUERY
from sitecheck import NO_OFFLINE_APP, parse, serve

pytestmark = pytest.mark.slow  # every test reads the real data's built site

KB = real_check().kb  # the real data, clean (tests/test_content.py)
ENTRY_TARGETS = {e.code: f"{e.game}/{e.id}.html" for e in KB.entries.values()}
QUESTION_TARGETS = {
    f"{e.code}/{q.id}": f"{e.game}/{e.id}.html#{q.id}" for e in KB.entries.values() for q in e.questions
}


def shard_data(site) -> dict[str, dict]:
    """The codes each go/<prefix>.js script hands to the go page."""
    found = {}
    for script in sorted((site / "go").glob("*.js")):
        match = re.search(r"window\.houserulesGoShard\(\"([A-Z]+)\",(\{.*\})\);", script.read_text(encoding="utf-8"))
        found[match.group(1)] = json.loads(match.group(2))
    return found


def test_the_scripts_of_the_go_page_hold_every_code_and_question(built_site):
    shards = shard_data(built_site)
    assert sorted(shards) == sorted({g.code_prefix for g in KB.games.values()})
    entries = {f"{prefix}-{suffix}": item for prefix, codes in shards.items() for suffix, item in codes.items()}
    assert {code: item[0] for code, item in entries.items()} == ENTRY_TARGETS
    questions = {f"{code}/{q}": f"{item[0]}#{q}" for code, item in entries.items() for q in item[2]}
    assert questions == QUESTION_TARGETS
    for target in QUESTION_TARGETS.values():  # every target page and anchor exists
        page, _, anchor = target.partition("#")
        assert anchor in parse(built_site / page).ids, target


def test_no_page_but_the_go_page_carries_the_prefixes_and_none_carries_the_codes(built_site):
    for page in built_site.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        assert ('class="hr-go-prefixes"' in html) == (page.name == "go.html" and page.parent == built_site)
        assert "houserulesGoShard(" not in html
    go = (built_site / "go.html").read_text(encoding="utf-8")
    assert len(go) < 40_000  # the list of prefixes only, whatever the number of entries


@pytest.fixture(scope="module", params=["file", "http"])
def base_url(request, built_site):
    if request.param == "file":
        yield built_site.as_uri()
    else:
        with serve(built_site) as url:
            yield url


@pytest.fixture(scope="module")
def _page(browser, base_url):
    context = browser.new_context(**NO_OFFLINE_APP)
    yield context.new_page()
    context.close()


@pytest.fixture
def tab(_page):
    """A blank page, in which the test opens its own documents: one page per address for all the tests (a new
    one for each would start its processes again, half of such a test's time), each from a new document."""
    _page.goto("about:blank")
    return _page


@pytest.fixture(scope="module")
def go_page(browser, base_url):
    """The go page, loaded once per address for the tests that ask its resolver (each test its own codes)."""
    context = browser.new_context(**NO_OFFLINE_APP)
    page = context.new_page()
    page.goto(f"{base_url}/go.html")
    yield page
    context.close()


def resolve(page, codes: list[str]) -> list[dict]:
    """What the go page's resolver makes of each of ``codes``, as the page does for its hash or its box."""
    return page.evaluate("codes => Promise.all(codes.map(c => window.houserulesGo.resolve(c)))", codes)


def resolve_all(tab, base_url: str, codes: list[str]) -> list[dict]:
    tab.goto(f"{base_url}/go.html")
    return resolve(tab, codes)


@pytest.mark.browser
def test_every_code_and_question_of_the_real_data_resolves(tab, base_url):
    wanted = {**ENTRY_TARGETS, **QUESTION_TARGETS}
    results = resolve_all(tab, base_url, list(wanted))
    assert len(results) == len(wanted) > 400
    assert {code: r.get("url") for code, r in zip(wanted, results)} == wanted
    assert {r["status"] for r in results} == {"found"}


# as typed at the table, and where it must land
FORMS = [
    ("bh-a13", "betrayal/mystic-elevator-ruling.html"),  # case
    ("bh a13", "betrayal/mystic-elevator-ruling.html"),  # a space for the hyphen
    ("  BH  A13 ", "betrayal/mystic-elevator-ruling.html"),  # more spaces
    ("bha13", "betrayal/mystic-elevator-ruling.html"),  # no hyphen
    ("ＢＨ－Ａ１３", "betrayal/mystic-elevator-ruling.html"),  # full-width, from a Chinese input method
    ("BH-A013", "betrayal/mystic-elevator-ruling.html"),  # zero-padded
    ("bh-r1", "betrayal/menagerie.html"),  # not zero-padded (BH-R01)
    ("BH-A13/Must Move", "betrayal/mystic-elevator-ruling.html#must-move"),  # a question, as typed
    ("bh a13/must-run", "betrayal/mystic-elevator-ruling.html#must-move"),  # the clause a question answers
]


@pytest.mark.browser
@pytest.mark.parametrize("typed, target", FORMS, ids=[t for t, _ in FORMS])
def test_codes_as_people_type_them(go_page, typed, target):
    assert resolve(go_page, [typed])[0]["url"] == target


@pytest.mark.browser
@pytest.mark.parametrize(
    "link, target",
    [
        ("BH-A13", "betrayal/mystic-elevator-ruling.html"),
        ("bh%20a13/must-move", "betrayal/mystic-elevator-ruling.html#must-move"),
        ("MR-R04", "mausritter/saves.html"),
    ],
)
def test_a_go_link_lands_on_the_page_and_the_answer(tab, base_url, link, target):
    tab.goto(f"{base_url}/go.html#{link}")
    tab.wait_for_url(f"{base_url}/{target}")
    if "#" in target:
        assert tab.evaluate("document.querySelector(':target').id") == target.split("#")[1]
    assert tab.locator(".hr-answer").is_visible()


@pytest.mark.browser
def test_an_unknown_code_shows_the_closest_codes_and_a_search_link(tab, base_url):
    tab.goto(f"{base_url}/go.html#BH-A99")
    tab.wait_for_selector(".hr-go-result li")
    assert tab.locator(".hr-go-status").inner_text() == "没有代码为 BH-A99 的条目。 No entry has the code BH-A99."
    closest = tab.locator(".hr-go-result li a").all_inner_texts()
    assert len(closest) == 5 and closest[0].startswith("BH-A9 · ")
    search = tab.locator("a.hr-go-search")
    assert search.get_attribute("href").endswith("index.html?q=BH-A99")
    closest_link = tab.locator(".hr-go-result li a").first
    closest_link.click()
    tab.wait_for_url(re.compile(r".*/betrayal/[a-z-]+\.html$"))
    assert tab.locator("h1").inner_text().startswith("BH-A9 · ")


@pytest.mark.browser
def test_an_unknown_prefix_lists_the_games_and_their_prefixes(tab, base_url):
    tab.goto(f"{base_url}/go.html#XX-1")
    tab.wait_for_selector(".hr-go-result li")
    items = tab.locator(".hr-go-result li").all_inner_texts()
    assert sorted(i.split(" ")[0] for i in items) == ["BH-…", "MM-…", "MR-…"]
    assert tab.locator("a.hr-go-search").count() == 1


@pytest.mark.browser
def test_an_unknown_question_lists_the_entrys_questions(tab, base_url):
    tab.goto(f"{base_url}/go.html#BH-A13/no-such-question")
    tab.wait_for_selector(".hr-go-result li")
    assert "BH-A13 has no question no-such-question." in tab.locator(".hr-go-status").inner_text()
    links = tab.locator(".hr-go-result li a").all_inner_texts()
    entry = KB.lookup("BH-A13")
    assert links == [f"BH-A13 · {entry.title['zh']}"] + [f"BH-A13/{q.id}" for q in entry.questions]


@pytest.mark.browser
def test_typing_a_code_into_the_go_page_opens_it(tab, base_url):
    tab.goto(f"{base_url}/go.html")
    tab.locator("input[name=code]").fill("mm r18")
    tab.locator(".hr-go-form button").click()
    tab.wait_for_url(f"{base_url}/mice-and-mystics/mousetraps.html")


@pytest.mark.browser
def test_copy_buttons_copy_the_link_by_code(tab, base_url):
    tab.goto(f"{base_url}/betrayal/mystic-elevator-ruling.html")
    tab.locator(".hr-badges button.hr-copy").click()
    assert tab.locator(".hr-badges button.hr-copy").get_attribute("data-copied") == f"{base_url}/go.html#BH-A13"
    question = tab.locator("#must-move + .hr-qa button.hr-copy")
    question.click()
    copied = question.get_attribute("data-copied")
    assert copied == f"{base_url}/go.html#BH-A13/must-move"
    tab.goto(copied)
    tab.wait_for_url(f"{base_url}/betrayal/mystic-elevator-ruling.html#must-move")


# -- hostile hashes --------------------------------------------------------------------------------

PROTOTYPE_NAMES = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"]


@pytest.mark.browser
@pytest.mark.parametrize("name", PROTOTYPE_NAMES)
def test_names_of_object_properties_are_no_codes_or_questions(go_page, name):
    entry = KB.lookup("BH-A10")
    typed = [f"BH-A10/{name}", f"BH-{name}", name, f"{name}-A1", f"BH-A10/{name.lower()}"]
    results = resolve(go_page, typed)
    assert results[0]["status"] == "question" and results[0]["entry"]["url"] == f"{entry.game}/{entry.id}.html"
    assert all(r["status"] in ("unknown", "question") for r in results), results
    assert "function" not in json.dumps(results)


@pytest.mark.browser
def test_a_prototype_name_in_the_hash_shows_the_entrys_questions(tab, base_url):
    tab.goto(f"{base_url}/go.html#BH-A10/constructor")
    tab.wait_for_selector(".hr-go-result li")
    assert "BH-A10 has no question constructor." in tab.locator(".hr-go-status").inner_text()
    assert "function" not in tab.locator(".hr-go-result").inner_text()


@pytest.mark.browser
def test_a_megabyte_hash_is_read_up_to_the_bound_with_a_notice(tab, base_url):
    tab.goto(f"{base_url}/go.html")
    tab.goto(f"{base_url}/go.html#BH-{'A' * 1_000_000}")
    tab.wait_for_selector(".hr-go-notice", timeout=5000)
    notice = tab.locator(".hr-go-notice").inner_text()
    assert notice == (
        f"只读了前 {MAX_QUERY} 个字符，其余 {1_000_003 - MAX_QUERY} 个已忽略。 "
        f"Only the first {MAX_QUERY} characters were read; the other {1_000_003 - MAX_QUERY} were ignored."
    )
    assert tab.locator("input[name=code]").input_value() == "BH-" + "A" * (MAX_QUERY - 3)
