"""The site's search box ranks like ``houserules search``: the same index, the same analysis.

Browser tests type into the built site's search box in headless Chromium (through
``houserules search-eval --site``, or directly), and compare the worker's stemming and
ranking with the Python code's on the same inputs: a few queries through the box, which
shows what the worker code ranks, and the bulk (every judged query, every title and code)
through that code in the page, all in one call. The analysis of the long corpus
(``_corpus``) is compared under Node only (tests/test_search_parity.py: the same inputs
and assertions). The real data (``built_site``) has the judged queries; the search
fixture (``tests/fixtures/search/``) has questions.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import random
import re
from pathlib import Path
from urllib.parse import quote, urlsplit

import pytest
from test_a11y import ANIMATIONS_DONE

from conftest import DATA, ROOT, load_kb, run_process
from houserules.adapter import searchhandoff
from houserules.data.reading.load import load
from houserules.search import analysis as searchtext
from houserules.search import index as search
from houserules.search import shards, siteindex
from sitecheck import NO_OFFLINE_APP, serve, typed_results

pytestmark = pytest.mark.browser

SEARCH_DATA = Path(__file__).parent / "fixtures" / "search" / "data"
JUDGEMENTS = ROOT / "tests" / "search_judgements.yaml"


@pytest.fixture(scope="module")
def cache() -> Path:
    """The run's cache (tests/conftest.py ``_session_cache``): the real data's index is made once for every module
    and every command of the run that reads it, here read only."""
    return Path(os.environ["HOUSERULES_CACHE"])


@pytest.fixture(scope="module")
def index():
    with search.open_index(DATA) as opened:
        yield opened


@pytest.fixture(scope="module")
def question_site(tmp_path_factory) -> Path:
    """The search fixture (two games, questions) built as a site: its pages, without the PDFs no test here opens."""
    from houserules.build import build_site, site_step

    target = tmp_path_factory.mktemp("question-site") / "site"
    return build_site(load_kb(SEARCH_DATA), SEARCH_DATA, target, steps=[site_step])


def eval_site(site: Path, judgements: Path, cache: Path) -> dict:
    result = run_process(
        "search-eval",
        "--json",
        "--site",
        str(site),
        "--judgements",
        str(judgements),
        "--data",
        str(DATA),
        env={"HOUSERULES_CACHE": str(cache)},
        timeout=900,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


# -- the index files ---------------------------------------------------------------------


def test_material_index_is_empty_and_ours_is_there(built_site):
    for name in ("search_index.json", "search_index.js"):
        text = (built_site / "search" / name).read_text(encoding="utf-8")
        index = json.loads(text.removeprefix("var __index = "))
        assert index["docs"] == []
        assert index["config"]["houserules"]["path"] == "search/hr"
    head = (built_site / "search/hr/head.js").read_text(encoding="utf-8")
    assert head.startswith('hrSearch.put("head",')


def test_every_index_file_is_a_script_that_registers_itself(built_site):
    files = sorted((built_site / "search/hr").rglob("*.js"))
    assert len(files) > 5
    for path in files:
        name = path.relative_to(built_site / "search/hr").with_suffix("").as_posix()
        text = path.read_text(encoding="utf-8")
        prefix = f"hrSearch.put({json.dumps(name)},"
        assert text.startswith(prefix) and text.endswith(");\n")
        json.loads(text[len(prefix) : -3])


def test_result_texts_name_their_references(built_site):
    """Answers in the results read as text: a reference shows its target's title and code, not ``[[game:id]]``."""
    chunks = "".join(p.read_text(encoding="utf-8") for p in sorted((built_site / "search/hr/r").glob("*.js")))
    assert re.findall(r"\[\[[a-z0-9-]+:[a-z0-9-]+\]\]", chunks) == []
    sealed = load_kb(DATA).entries["betrayal:sealed-floor"]
    for lang in ("zh", "en"):
        assert json.dumps(f"{sealed.title[lang]} ({sealed.code})", ensure_ascii=False)[1:-1] in chunks


@pytest.mark.parametrize("text, shard", [("魔梯", 2342325636), ("elev", 2961780095), ("", 0x811C9DC5)])
def test_shard_hash(text, shard):
    assert shards.fnv1a(text) == shard


# -- the same analysis in JavaScript ---------------------------------------------------------


@pytest.fixture(scope="module")
def worker_page(browser, built_site):
    """A page of the built site with the search worker's code loaded in it (not as a worker)."""
    with serve(built_site) as base:
        page = browser.new_page(**NO_OFFLINE_APP)
        page.goto(f"{base}/index.html")
        page.add_script_tag(url=f"{base}/assets/javascripts/hr-search-worker.js")
        config = json.loads((built_site / "search/search_index.json").read_text(encoding="utf-8"))["config"]
        page.evaluate("config => hrSearch.setup(config)", config)
        yield page
        page.close()


def _corpus(kb) -> list[str]:
    from houserules.search.evaluate import read_judgements

    texts = [j.query for j in read_judgements(JUDGEMENTS)]
    for entry in kb.entries.values():
        texts += [entry.code, *entry.title.values(), *entry.aliases, *entry.summary.values()]
        for question in entry.questions:
            texts += [*question.q.values(), *question.variants]
    texts += [
        "ＢＨ－Ａ１３",
        "魔梯can I move?",
        "電梯墜毀怎麼辦",
        "what's a d20 roll",
        "mystic eleva",
        "2e",
        "Ⅻ ﬁve",
        "𠀀𠀁 astral",
        "yelling years",
        "elevatr",
        "a13b",
        "  spaced   out  ",
        'AND ( * " :',
        # longer than the analysis reads (searchtext.MAX_QUERY): both sides read the same first characters
        "魔梯 elevator " * 100,
        "𠀀" * 150 + "塔楼" * 100,
        "x" * 199 + "塔楼",
        "mystic " + "[" * 10_000,
        "开鬼之后掉血了",  # synonyms: the rules' words are added
        "the lift crashed, a lifted curse",
        "叛徒能坐魔梯吗",  # a glossary variant
        "my friend fell through and got caught",  # irregular past forms, never corrected
        # wrong homophones (a pinyin input method): corrected alike (search.homophones)
        "魔题",
        "魔替",
        "兽兰",
        "煤到槽",
        "陵幕",
        "墓圆",
        "豁勉",
        "奸图",
        "魔题怎么用",
        "煤到槽 elevatr",
        "陵幕魔题兽兰",
        # words split as heard: joined back when the joined word is indexed (searchtext.joined)
        "zombies in the cat a combs",
        "the dumb waiter and a mouse trap",
        "cat a combs2 pent a gram",
        "mouse  trap, dumb-waiter",
        "my tinkerer steped on a mouse trap",
        # words spelt as they sound, corrected into a word that sounds alike (SearchIndex.sounds_like)
        "managery end turn damage",
        "the injerd condition",
        "hexcrall gymnaseum wendell",
        "phantasm chapple",
        # a Chinese synonym with an aspect particle after its first character (synonyms.ASPECT)
        "被砍了一刀扣了多少血",
        "开过鬼之后掉了血",
    ]
    # random characters: bigrams the index lacks, with and without indexed homophones (seeded)
    rng = random.Random(20261201)
    texts += ["".join(chr(rng.randint(0x4E00, 0x9FFF)) for _ in range(rng.randint(2, 6))) for _ in range(40)]
    words = sorted({t for e in kb.entries.values() for t in searchtext.TOKEN.findall(e.title["zh"]) if len(t) >= 2})
    texts += [rng.choice(words) + chr(rng.randint(0x4E00, 0x9FFF)) + rng.choice(words) for _ in range(20)]
    # titles with one character swapped for a random homophone of it
    from houserules.search import homophones

    same: dict[str, list[str]] = collections.defaultdict(list)
    for char, syllable in homophones.readings().items():
        same[syllable].append(char)
    for word in rng.sample(words, min(40, len(words))):
        at = rng.randrange(len(word))
        syllable = homophones.readings().get(word[at])
        if syllable:
            texts.append(word[:at] + rng.choice(same[syllable]) + word[at + 1 :])
    return texts


def test_every_indexed_word_stems_alike(worker_page, index):
    words = sorted(index.postings.terms("words"))
    words += sorted({t for t in searchtext.TOKEN.findall(" ".join(_corpus(load(DATA).kb)).lower()) if t.isascii()})
    from whoosh.lang.porter import stem

    assert len(words) > 1000
    assert worker_page.evaluate("words => hrSearch.stem(words)", words) == [stem(w) for w in words]


RANK_ALL = """async texts => {
    const out = [];
    for (const text of texts) {
        const found = await hrSearch.rank(text);
        out.push({hits: found.hits, links: found.items.map(item => item[0].location)});
    }
    return out;
}"""


def rank_in_page(page, texts: list[str]) -> list[dict]:
    """``hrSearch.rank`` of each text, in one call: its hits, and the first link of each result in the
    order the search box shows them (the box shows the items the same code renders)."""
    return page.evaluate(RANK_ALL, texts)


@pytest.fixture(scope="module")
def judgements():
    from houserules.search.evaluate import read_judgements

    return read_judgements(JUDGEMENTS)


@pytest.fixture(scope="module")
def judged_in_page(worker_page, judgements) -> list[dict]:
    """Every judged query ranked by the site's worker code in Chromium."""
    return rank_in_page(worker_page, [j.query for j in judgements])


def test_the_site_ranks_like_the_cli(judged_in_page, judgements, index):
    for judgement, found in zip(judgements, judged_in_page, strict=True):
        hits = found["hits"]
        cli = index.search(judgement.query, limit=len(hits) + 1)
        # The browser adds scores in hundredths of a point: documents within 0.05 of each other
        # (a near tie, as at rank 10 of a long question) may come in either order.
        for site_hit, cli_hit in zip(hits, cli):
            near = {h.record["id"]: h.record["url"] for h in cli if abs(h.score - cli_hit.score) < 0.05}
            assert site_hit["id"] in near and site_hit["url"] == near[site_hit["id"]], judgement.query
            assert site_hit["score"] == pytest.approx(cli_hit.score, abs=0.05), judgement.query
        assert len(hits) == min(10, len(cli)), judgement.query


def test_glossary_terms_come_after_the_entries(worker_page):
    """Translators find a glossary term (also by a variant) after the entries, linked to its row."""
    for query in ("叛徒", "traitor"):
        found = worker_page.evaluate("text => hrSearch.rank(text)", query)
        links = [item[-1]["location"] for item in found["items"]]
        assert "betrayal/glossary.html#term-traitor" in links, query
        entries = len(found["hits"])
        assert all("glossary.html" not in link for link in links[:entries])
        assert all("glossary.html" in link for link in links[entries:])


# -- the search box, as a reader uses it ----------------------------------------------------------


def _typed_in_the_box(judgements) -> list[int]:
    """The judged queries typed into the box: the first of each group, and the first that names a game."""
    chosen: dict[str, int] = {}
    for number, judgement in enumerate(judgements):
        chosen.setdefault(judgement.group, number)
    with_game = next(n for n, j in enumerate(judgements) if j.game)
    return sorted({*chosen.values(), with_game})


@pytest.mark.slow
def test_judged_queries_through_the_search_box(built_site, cache, tmp_path, judgements, judged_in_page, index):
    """``houserules search-eval --site`` types queries into the box (one of each group): the box ranks each
    as the site's search code ranks it in the page (every judged query, below), and the command line's
    scores are the CLI's."""
    from houserules.search.evaluate import evaluate, scores, site_outcome

    numbers = _typed_in_the_box(judgements)
    lines = ["queries:"]
    for judgement in (judgements[n] for n in numbers):
        game = f", game: {judgement.game}" if judgement.game else ""
        lines.append(
            f"  - {{group: {judgement.group}, q: {json.dumps(judgement.query, ensure_ascii=False)}, "
            f"expect: {json.dumps(list(judgement.expect))}{game}}}"
        )
    typed = tmp_path / "typed.yaml"
    typed.write_text("\n".join(lines) + "\n", encoding="utf-8")
    both = eval_site(built_site, typed, cache)
    refs = index.refs()
    in_page = [site_outcome(judgements[n], judged_in_page[n]["links"], refs) for n in numbers]
    assert both["site"] == scores(in_page)
    assert both["cli"] == scores(evaluate(index, [judgements[n] for n in numbers]))


def test_judged_queries_rank_in_the_site_as_in_the_cli(judgements, judged_in_page, index):
    """Every judged query ranked by the site's search code in Chromium (what the box shows, above): each
    group's hit@1 within 0.02 of the CLI's, overall hit@3 ≥ 0.95."""
    from houserules.search.evaluate import evaluate, scores, site_outcome

    refs = index.refs()
    site = scores([site_outcome(j, found["links"], refs) for j, found in zip(judgements, judged_in_page, strict=True)])
    cli = scores(evaluate(index, judgements))
    assert set(site) == set(cli)
    for group, row in cli.items():
        assert site[group]["hit@1"] >= row["hit@1"] - 0.02, group
    assert site["overall"]["hit@3"] >= 0.95


@pytest.mark.slow
def test_exact_titles_and_codes_come_first(worker_page, index):
    """Each entry's Chinese title, English title and code, ranked by the site's search code in Chromium
    and by the CLI, finds it first."""
    from houserules.search.evaluate import Judgement, evaluate, scores, site_outcome

    kb = load(DATA).kb
    by_key: dict[str, list[str]] = {}
    for entry in kb.entries.values():
        for text in (entry.code, *entry.title.values()):
            by_key.setdefault(searchtext.exact_key(text), []).append(entry.ref)
    judged = [
        Judgement(group, text, tuple(by_key[searchtext.exact_key(text)]), None, 0)
        for entry in kb.entries.values()
        for group, text in (("title-zh", entry.title["zh"]), ("title-en", entry.title["en"]), ("code", entry.code))
    ]
    refs = index.refs()
    found = rank_in_page(worker_page, [j.query for j in judged])
    site = [site_outcome(j, one["links"], refs) for j, one in zip(judged, found, strict=True)]
    for side, outcomes in (("cli", evaluate(index, judged)), ("site", site)):
        assert {g: row["hit@1"] for g, row in scores(outcomes).items()} == {
            "title-zh": 1.0,
            "title-en": 1.0,
            "code": 1.0,
            "overall": 1.0,
        }, side


def _type(page, query: str) -> None:
    box = page.locator("input.md-search__input")
    box.fill(query)
    box.press("End")
    page.wait_for_selector(".md-search-result__item", timeout=15000)


@pytest.fixture(scope="module", params=["http", "file"])
def _question_tab(request, browser, question_site):
    context = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True, **NO_OFFLINE_APP)
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda req: requests.append(req.url))
    with contextlib.ExitStack() as stack:
        base = question_site.as_uri() if request.param == "file" else stack.enter_context(serve(question_site))
        yield page, base, requests
    context.close()


@pytest.fixture
def question_tab(_question_tab):
    """A phone's page and the address of the search fixture's site, served or on the disk, in which the test
    opens its own documents; the page asks for nothing from anywhere else. One page per address for all the
    tests (a new one for each would start its processes again, half of such a test's time)."""
    page, base, requests = _question_tab
    page.goto("about:blank")
    requests.clear()
    yield page, base
    scheme = urlsplit(base).scheme
    assert [u for u in requests if urlsplit(u).scheme not in {scheme, "data", "blob", "about"}] == []


@pytest.fixture
def question_page(question_tab):
    """The same with the site's home page open, for the tests that use its search box."""
    page, base = question_tab
    page.goto(f"{base}/index.html")
    return page, base


def test_a_question_result_shows_the_answer_and_links_its_anchor(question_tab):
    page, base = question_tab
    page.goto(f"{base}/index.html?q={quote('留在电梯里会怎样')}")
    page.wait_for_selector(".md-search-result__item", timeout=15000)
    first = page.locator(".md-search-result__item").first
    assert first.locator("h1").inner_text().startswith("DM-A02 ")
    question = first.locator("h2")
    assert "留在电梯里不出来会怎样？" in question.inner_text()
    assert "回合结束时掷骰决定电梯去向。" in first.inner_text()  # the answer itself
    links = first.locator("a.md-search-result__link")
    assert urlsplit(links.nth(1).get_attribute("href")).fragment == "stay-inside"
    assert page.locator(".md-search-result__terms").count() == 0  # no "missing" words


@pytest.mark.parametrize(
    "query, code",
    [
        ("DM-A02", "DM-A02"),
        ("dm a02", "DM-A02"),  # codes
        ("塔楼", "DM-R01"),
        ("Tower", "DM-R01"),  # exact titles
        ("eleva", "DM-A02"),
        ("towe", "DM-R01"),  # search as you type
        ("elevatr crash", "DM-A02"),
        ("塔樓", "DM-R01"),  # a typo, traditional characters
    ],
)
def test_the_box_puts_the_entry_first(_question_tab, query, code):
    """Typed one after another into the search box of one page (a link with ?q= opens the search: the tests
    around this one)."""
    page, base, requests = _question_tab
    requests.clear()
    results = typed_results(page, f"{base}/index.html", query)
    assert results and results[0].startswith(f"{code} "), results[:3]
    scheme = urlsplit(base).scheme
    assert [u for u in requests if urlsplit(u).scheme not in {scheme, "data", "blob", "about"}] == []


def test_no_missing_lines_for_words_that_match_nothing(question_tab):
    page, base = question_tab
    page.goto(f"{base}/index.html?q={quote('塔楼 zzzqqq 乾坤')}")
    page.wait_for_selector(".md-search-result__item", timeout=15000)
    assert page.locator(".md-search-result__terms").count() == 0
    assert "缺少" not in page.locator(".md-search-result").inner_text()


def test_keyboard_opens_and_walks_the_results(question_page):
    page, base = question_page
    page.locator("label.md-header__button[for=__search]").first.click()
    _type(page, "留在电梯里会怎样")
    page.keyboard.press("ArrowDown")
    focused = page.evaluate("document.activeElement.getAttribute('href')")
    assert focused and "demo/elevator.html" in focused
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")  # Enter in the box opens the best result
    page.wait_for_url(re.compile(r".*/demo/elevator\.html.*"), timeout=15000)


def _loaded_for(browser, site: Path, query: str) -> tuple[list[str], list[str], str]:
    """The index files a query loads from file://, every URL asked for, and the first result's text."""
    page = browser.new_page()
    loaded: list[str] = []
    page.on("request", lambda req: loaded.append(req.url))
    page.goto(f"{site.as_uri()}/index.html?q={quote(query)}")
    page.wait_for_selector(".md-search-result__item", timeout=15000)
    first = page.locator(".md-search-result__item").first.inner_text()
    page.close()
    parts = sorted(re.sub(r"\?.*", "", u.split("/search/hr/")[1]) for u in loaded if "/search/hr/" in u)
    return parts, loaded, first


def _first_result(page, query: str, base: str) -> str:
    """The text of the first result of ``query``, opened by address (?q=)."""
    page.goto(f"{base}/index.html?q={quote(query)}")
    page.wait_for_selector(".md-search-result__item", timeout=15000)
    return page.locator(".md-search-result__item").first.inner_text()


def test_a_corrected_word_is_highlighted_as_searched_on_the_page_opened(question_tab):
    """Typed unfinished or misspelt, the word the search corrected it to is what the page opened highlights."""
    page, base = question_tab
    for typed in ("eleva", "elevatr crash"):
        _first_result(page, typed, base)
        href = page.locator(".md-search-result__item a").first.get_attribute("href")
        assert "h=elevator" in href, (typed, href)


def test_an_english_question_reads_english_first(question_tab):
    page, base = question_tab
    text = _first_result(page, "what if I stay inside the elevator", base)
    question = page.locator(".md-search-result__item").first.locator("h2").inner_text()
    assert question.index("What if I stay inside the elevator?") < question.index("留在电梯里不出来会怎样？")
    assert text.index("You roll for the elevator's floor") < text.index("回合结束时掷骰决定电梯去向")


def test_a_chinese_question_reads_chinese_first(question_tab):
    page, base = question_tab
    text = _first_result(page, "留在电梯里会怎样", base)
    assert text.index("回合结束时掷骰决定电梯去向") < text.index("You roll for the elevator's floor")


def test_a_traditional_question_reads_traditional(question_tab):
    """Its titles, the question's answer and the entry's one-line answer in Traditional characters (OpenCC's
    Taiwan standard), the Simplified text nowhere."""
    page, base = question_tab
    text = _first_result(page, "留在電梯裡會怎樣", base)
    assert "回合結束時擲骰決定電梯去向" in text and "電梯墜毀" in text
    assert "回合结束时掷骰决定电梯去向" not in text and "电梯坠毁" not in text


def test_a_result_opens_its_questions_answer(question_tab):
    """The result's title and its question both link the question's anchor; Tab from the box, then Enter, opens
    it; on a phone the answer is highlighted and shows below the sticky header."""
    page, base = question_tab
    _first_result(page, "留在电梯里会怎样", base)
    first = page.locator(".md-search-result__item").first
    links = [urlsplit(a.get_attribute("href")) for a in first.locator("a.md-search-result__link").all()]
    assert links and all(link.path.endswith("demo/elevator.html") and link.fragment == "stay-inside" for link in links)
    page.focus("input.md-search__input")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r".*/demo/elevator\.html.*#stay-inside$"), timeout=15000)
    page.wait_for_function("() => document.querySelector(':target')")
    shown = page.evaluate(
        """() => {
        const target = document.querySelector(':target'), header = document.querySelector('.md-header');
        const box = target.getBoundingClientRect();
        return {id: target.id, top: box.top, bottom: box.bottom, header: header.getBoundingClientRect().bottom,
                height: innerHeight, background: getComputedStyle(target).backgroundColor,
                page: getComputedStyle(document.body).backgroundColor,
                answer: getComputedStyle(target.nextElementSibling).backgroundColor};
    }"""
    )
    assert shown["id"] == "stay-inside"
    assert shown["header"] <= shown["top"] and shown["bottom"] <= shown["height"]
    assert shown["background"] not in ("rgba(0, 0, 0, 0)", shown["page"]) and shown["answer"] == shown["background"]


#: Each result's heading as laid out: its text, the game's label, and the boxes of the code, the label and the title.
RESULT_HEADINGS = """() => Array.from(document.querySelectorAll('.md-search-result__item')).map(item => {
    const heading = item.querySelector('.md-search-result__article h1');
    const box = (selector) => { const b = heading.querySelector(selector).getBoundingClientRect();
                                return {top: b.top, bottom: b.bottom, left: b.left, right: b.right}; };
    return {text: heading.innerText.replace(/\u200b/g, ''), game: heading.querySelector('.hr-game').innerText,
            code: box('.hr-code'), label: box('.hr-game'), title: box('.hr-title')};
})"""


def _results_name_their_games(page, phone: bool) -> None:
    """The tower of two games (the search fixture): each result says whose it is beside its code, in the reader's
    language first; on a phone the code and the game make the first line and the title starts below them, on a
    desktop the title follows on the same line; nothing sticks out of the page."""
    for query, names in (
        ("塔楼", {"DM": "演示游戏 Demo Game", "OT": "另一个游戏 Other Game"}),
        ("Tower", {"DM": "Demo Game 演示游戏", "OT": "Other Game 另一个游戏"}),
        ("塔樓", {"DM": "演示遊戲 Demo Game", "OT": "另一個遊戲 Other Game"}),
    ):
        typed_results(page, page.url, query)
        page.evaluate(ANIMATIONS_DONE)  # the dialog's opening transition widens the page for a moment
        headings = page.evaluate(RESULT_HEADINGS)
        assert {h["text"][:2] for h in headings} == {"DM", "OT"}, (query, headings)
        for heading in headings:
            code, label, title = heading["code"], heading["label"], heading["title"]
            assert heading["game"] == names[heading["text"][:2]], (query, heading)
            assert heading["text"].startswith(heading["text"].split(" ")[0] + " " + heading["game"]), heading
            assert (
                code["right"] <= label["left"] and code["top"] < (label["top"] + label["bottom"]) / 2 < code["bottom"]
            )
            if phone:
                assert title["top"] >= code["bottom"] - 1, (query, heading)
            else:
                assert title["top"] < code["bottom"] and title["left"] >= label["right"], (query, heading)
        width = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert width[0] <= width[1], (query, width)


def test_each_result_names_its_game_on_a_phone(question_page):
    page, _ = question_page
    _results_name_their_games(page, phone=True)


def test_each_result_names_its_game_on_a_desktop(browser, question_site):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, **NO_OFFLINE_APP)
    try:
        page = context.new_page()
        with serve(question_site) as base:
            page.goto(f"{base}/index.html")
            _results_name_their_games(page, phone=False)
    finally:
        context.close()


def test_nothing_answers_says_so_above_the_closest_entries(question_tab):
    page, base = question_tab
    _first_result(page, "塔楼里能买东西吗", base)
    page.wait_for_selector(".hr-search-nothing", timeout=5000)
    line = page.locator(".hr-search-nothing").inner_text()
    assert (
        line.startswith("不确定有条目正好回答这个问题 — 最接近的条目：")
        and "Not sure any ruling answers this exactly — closest entries:" in line
    )
    above = page.evaluate(
        "() => document.querySelector('.hr-search-say').compareDocumentPosition("
        "document.querySelector('.md-search-result__list')) & Node.DOCUMENT_POSITION_FOLLOWING"
    )
    assert above
    # the count above the list says what it is: the closest entries, not results that answer
    assert re.fullmatch(
        r"最接近的 (\d+) 个条目 · \1 closest entr(y|ies)", page.locator(".md-search-result__meta").inner_text()
    )
    _first_result(page, "塔樓裡能買東西嗎", base)  # in Traditional characters, the count too
    page.wait_for_selector(".hr-search-nothing", timeout=5000)
    assert re.fullmatch(
        r"最接近的 (\d+) 個條目 · \1 closest entr(y|ies)", page.locator(".md-search-result__meta").inner_text()
    )
    _first_result(page, "留在电梯里会怎样", base)
    assert page.locator(".hr-search-nothing").count() == 0
    assert re.fullmatch(r"(\d+) 个符合条件的结果 · \1 results?", page.locator(".md-search-result__meta").inner_text())


def test_a_question_about_another_game_says_it_is_not_covered(question_tab):
    """What the question names that no entry answers (here another game) is said above the not-sure line, in both
    languages, the reader's first."""
    page, base = question_tab
    _first_result(page, "In Gloomhaven, can I cross the tower?", base)
    page.wait_for_selector(".hr-search-outside", timeout=5000)
    assert page.locator(".hr-search-outside").inner_text() == (
        "Not covered by the rules here: 幽港迷城 · Gloomhaven · 这里的规则没有收录：幽港迷城 · Gloomhaven"
    )
    assert page.locator(".hr-search-nothing").count() == 1
    _first_result(page, "can I cross the tower?", base)
    assert page.locator(".hr-search-outside").count() == 0


def test_nothing_answers_offers_the_report_link(browser, question_site, tmp_path):
    """With a repository the line links a new issue holding the question (the worker's configuration, from the
    hand-off); the link is a target of its own, reached by Tab from the box."""
    import shutil

    site = tmp_path / "site"
    shutil.copytree(question_site, site)
    report = {"url": "https://github.com/o/hr/issues/new?title=HRQUERY", "mark": "HRQUERY"}
    for name in ("search_index.json", "search_index.js"):
        path = site / "search" / name
        if path.exists():
            text = path.read_text(encoding="utf-8")
            prefix = "var __index = " if name.endswith(".js") else ""
            data = json.loads(text.removeprefix(prefix))
            data["config"]["houserules"]["report"] = report
            path.write_text(prefix + json.dumps(data, ensure_ascii=False), encoding="utf-8")
    page = browser.new_page(**NO_OFFLINE_APP)
    try:
        with serve(site) as base:
            _first_result(page, "塔楼里能买东西吗", base)
            page.wait_for_selector("a.hr-search-report", timeout=5000)
            href = page.locator("a.hr-search-report").get_attribute("href")
            assert href == "https://github.com/o/hr/issues/new?title=" + quote("塔楼里能买东西吗", safe="")
            page.focus("input.md-search__input")
            page.keyboard.press("Tab")
            assert "hr-search-report" in page.evaluate("document.activeElement.className")
            assert page.locator("a.hr-search-report").bounding_box()["height"] >= 44
    finally:
        page.close()


def test_a_correction_says_so_and_searches_as_typed_on_request(question_tab):
    page, base = question_tab
    _first_result(page, "elevatr crash", base)
    page.wait_for_selector(".hr-search-corrected", timeout=5000)
    line = page.locator(".hr-search-corrected").inner_text()
    assert "Showing results for “elevator crash”" in line and "Search instead for “elevatr crash”" in line
    # The dialog opened by the address grows its backdrop for a moment, and a phone's layout widens with it:
    # a tap lands once the opening has finished, as a reader's does.
    page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
    page.click("button.hr-search-instead")
    page.wait_for_selector(".hr-search-corrected", state="detached", timeout=10000)
    assert page.input_value("input.md-search__input") == '"elevatr crash"'
    page.wait_for_selector(".md-search-result__item", timeout=15000)


def test_over_http_the_worker_loads_the_head_before_the_bundle_and_is_the_one_it_uses(browser, question_site):
    """Over http(s) the page starts the search worker as its head is read (main.html): the worker loads the index
    head while the theme's bundle, held back here, has not arrived; once it has, its search uses that worker (the
    worker's script is loaded once) and a query opened by address gets its results."""
    context = browser.new_context(**NO_OFFLINE_APP)
    page = context.new_page()
    held: list = []
    requested: list[str] = []
    page.on("request", lambda request: requested.append(urlsplit(request.url).path))
    page.route(re.compile(r".*/assets/javascripts/bundle\.[0-9a-f]+\.min\.js$"), lambda route: held.append(route))
    try:
        with serve(question_site) as base:
            # Without the early worker the head would wait for the bundle, which never comes: this times out.
            with page.expect_request(re.compile(r".*/search/hr/head\.js(\?.*)?$"), timeout=15000):
                page.goto(f"{base}/index.html?q={quote('塔楼')}", wait_until="commit")
            for _ in range(200):  # the bundle's request, held, until the page has asked for it
                if held:
                    break
                page.wait_for_timeout(50)
            held[0].continue_()
            page.wait_for_selector(".md-search-result__item", timeout=15000)
            assert "塔楼" in page.locator(".md-search-result__item").first.inner_text()
        assert len([p for p in requested if p.endswith("/hr-search-worker.js")]) == 1
    finally:
        context.close()


def test_search_is_offline_and_loads_only_what_a_query_needs(browser, question_site):
    """From file:// the index loads as scripts; a query loads the head, a few shards and one chunk."""
    parts, loaded, _ = _loaded_for(browser, question_site, "塔楼")
    assert parts[0] == "head.js" and any(p.startswith("t/") for p in parts) and any(p.startswith("r/") for p in parts)
    assert not [u for u in loaded if u.endswith("search_index.json")]
    # the pinyin tables load only for a Chinese bigram the index lacks (a wrong homophone: 塔搂)
    assert not [p for p in parts if p.startswith("py/")]
    parts, _, first = _loaded_for(browser, question_site, "塔搂")
    assert "py/chars.js" in parts and any(re.fullmatch(r"py/\d+\.js", p) for p in parts)
    assert "塔楼" in first


# -- the index is built beside MkDocs, from the knowledge base in memory ---------------------------------


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_prepared_index_is_made_from_the_knowledge_base_in_memory(tmp_path):
    """The forked copy indexes the knowledge base the build holds: the data folder, gone once it was
    loaded, is not read again, and the result is the index built here, file for file."""
    import shutil

    data = tmp_path / "data"
    shutil.copytree(SEARCH_DATA, data)
    kb = load(data).kb
    shutil.rmtree(data)
    prepared = siteindex.Prepared(kb)
    assert prepared.forked
    fresh = searchhandoff.write_site_index(kb, tmp_path / "fresh")
    assert searchhandoff.write_site_index(kb, tmp_path / "prepared", prepared) == fresh
    assert _files(tmp_path / "prepared") == _files(tmp_path / "fresh") != {}
    assert not prepared.staging.exists()


def test_a_failed_prepared_index_is_built_again_here(tmp_path, monkeypatch):
    kb = load(SEARCH_DATA).kb
    fresh = searchhandoff.write_site_index(kb, tmp_path / "fresh")

    def broken(kb, target):
        raise RuntimeError("the copy fails")

    monkeypatch.setattr(siteindex, "build_index", broken)  # the forked copy's; the hand-off has its own name
    prepared = siteindex.Prepared(kb)
    assert not prepared.finished()
    assert searchhandoff.write_site_index(kb, tmp_path / "again", prepared) == fresh
    assert _files(tmp_path / "again") == _files(tmp_path / "fresh")


def test_a_discarded_index_leaves_nothing_behind(tmp_path, monkeypatch):
    """A failed build (MkDocs' on_build_error) stops the forked copy and removes its files, its own
    temporary files among them."""
    import tempfile
    import time

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    prepared = siteindex.Prepared(load(SEARCH_DATA).kb)
    assert list(tmp_path.glob("houserules-siteindex-*"))
    time.sleep(0.2)  # the copy is indexing, in its own temporary folder inside the staging folder
    prepared.discard()
    assert prepared.process is not None and not prepared.process.is_alive()
    assert list(tmp_path.iterdir()) == []


def test_a_prepared_index_dropped_midway_leaves_nothing_behind():
    """A build interrupted before it took or discarded its index: the copy is stopped and its folder removed
    once the object is gone (at the latest as the process exits)."""
    import gc

    prepared = siteindex.Prepared(load(SEARCH_DATA).kb)
    staging, process = prepared.staging, prepared.process
    assert staging.is_dir() and process is not None
    del prepared
    gc.collect()
    assert not staging.exists() and not process.is_alive()


def test_the_forked_copy_holds_no_socket_of_the_building_process(monkeypatch):
    """A live preview's port is free as soon as it stops, even while a copy still indexes."""
    import os
    import socket
    import time

    real = siteindex.build_index

    def slow(kb, target):
        time.sleep(3)
        return real(kb, target)

    monkeypatch.setattr(siteindex, "build_index", slow)
    with socket.create_server(("127.0.0.1", 0)) as listening:
        ours = os.readlink(f"/proc/self/fd/{listening.fileno()}")
        prepared = siteindex.Prepared(load(SEARCH_DATA).kb)
        try:
            time.sleep(1)  # the copy is in its own code, sleeping
            assert prepared.process is not None and prepared.process.is_alive()
            fds = Path(f"/proc/{prepared.process.pid}/fd")
            held = {os.readlink(fd) for fd in fds.iterdir() if fd.name.isdigit()}
            assert ours.startswith("socket:[") and ours not in held
            assert not [link for link in held if link.startswith("socket:")]
        finally:
            prepared.discard()


def test_a_query_past_the_bound_shows_a_notice(question_page):
    page, _ = question_page
    _type(page, "电梯 " + "x" * 400)
    page.wait_for_selector(".hr-search-notice", timeout=15000)
    assert page.locator(".hr-search-notice").inner_text() == (
        "只搜索前 300 个字符，其余 103 个已忽略。 Only the first 300 characters are searched; the other 103 are ignored."
    )
    _type(page, "电梯")
    page.wait_for_selector(".hr-search-notice", state="detached", timeout=5000)


def test_the_static_server_reports_no_error_when_a_browser_drops_a_connection(tmp_path, capfd):
    import socket
    import struct
    import time

    from houserules.search.evaluate import serve_static

    (tmp_path / "big.bin").write_bytes(b"x" * 8_000_000)
    with serve_static(tmp_path) as base:
        port = int(base.rsplit(":", 1)[1])
        for _ in range(3):  # a page left mid-download: the connection is reset while the file is sent
            with socket.create_connection(("127.0.0.1", port)) as conn:
                conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                conn.sendall(b"GET /big.bin HTTP/1.1\r\nHost: x\r\n\r\n")
                conn.recv(1024)
        time.sleep(0.5)
    err = capfd.readouterr().err
    assert "Traceback" not in err and "Exception occurred" not in err
