"""The site's "For translators" pages: the downloads ``houserules build`` writes, linked, and each one opens.

The data is ``tests/fixtures/translators/data`` (one game with a glossary and errata), built once.
The browser test clicks every download link of each translators' page in headless Chromium.
"""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as etree
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin

import polib
import pytest

from conftest import FIXTURES, build_once
from houserules.data.reading.load import load
from houserules.export.downloads import DOWNLOADS
from houserules.export.tables import TABLES
from houserules.site.context import SiteContext
from houserules.site.entry_page import entry_page

DATA = FIXTURES / "translators" / "data"
PAGES = ("translate/index.html", "translate/demo.html")


class Links(HTMLParser):
    """Every ``<a href>`` of a page, with whether it is a download link."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[tuple[str, bool]] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "a" and "href" in attributes:
            self.links.append((attributes["href"], "download" in attributes))


def links(page: Path) -> list[tuple[str, bool]]:
    parser = Links()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.links


def downloads_of(site: Path, page: str) -> list[Path]:
    base = f"http://x/{page}"
    return [
        site / urljoin(base, href).removeprefix("http://x/") for href, is_download in links(site / page) if is_download
    ]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return build_once(tmp_path_factory, DATA, "translators-site")


def opened(path: Path):
    """The file read as its format: CSV rows, TBX or XLIFF elements, PO entries."""
    data = path.read_bytes()
    if path.suffix == ".csv":
        return list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))
    if path.suffix == ".po":
        return list(polib.pofile(data.decode("utf-8")))
    return etree.fromstring(data)


@pytest.mark.slow  # the translators' site is built whole, PDFs included
def test_each_translators_page_links_every_download_and_each_opens(site):
    for page in PAGES:
        files = downloads_of(site, page)
        game = "houserules" if page.endswith("index.html") else "demo"
        assert [f.name for f in files] == [f"{game}-{d.name}" for d in DOWNLOADS]
        for path in files:
            content = opened(path)
            if path.suffix == ".csv":
                what = path.stem.split("-")[-1]
                assert content and list(content[0]) == list(TABLES[what][1])
            elif path.suffix == ".tbx":
                assert content.tag == "martif" and len(content.findall(".//termEntry")) == 3
            elif path.suffix == ".xlf":
                assert content.tag == "{urn:oasis:names:tc:xliff:document:2.0}xliff"
                assert content.get("srcLang") == path.stem.split("-")[-2]
                assert len(content.findall(".//{urn:oasis:names:tc:xliff:document:2.0}unit")) > 20
            else:
                assert len(content) > 20 and all(entry.msgctxt for entry in content)
    errata = opened(site / "translate/downloads/demo-errata.csv")
    assert [row["corrected"] for row in errata] == ["塔楼：肉体能力上升1级", "Gain 1 mental trait here."]
    en_zh = (site / "translate/downloads/demo-en-zh.po").read_text(encoding="utf-8")
    assert 'msgctxt "demo:tower-errata/errata/0/corrected"' in en_zh


@pytest.mark.slow  # the translators' site is built whole, PDFs included
def test_the_translators_pages_are_reached_from_the_menu_the_game_and_its_glossary(site):
    def targets(page: str) -> set[str]:
        return {urljoin(f"http://x/{page}", href).removeprefix("http://x/") for href, _ in links(site / page)}

    assert {"translate/index.html", "translate/demo.html"} <= targets("index.html")  # the Translators menu
    assert "translate/demo.html" in targets("demo/index.html")
    assert "translate/demo.html" in targets("demo/glossary.html")
    assert "translate/demo.html" in targets("translate/index.html")


@pytest.mark.slow  # the translators' site is built whole, PDFs included
def test_the_downloads_are_not_kept_for_offline_reading(site):
    listed = json.loads((site / "offline.json").read_text(encoding="utf-8"))
    names = listed if isinstance(listed, list) else listed.get("files", listed)
    assert "translate/demo.html" in str(names)
    assert "translate/downloads/" not in str(names)


# -- from a wrong text to a correction ----------------------------------------------------------------


def test_without_a_repository_each_answer_says_how_to_report_a_mistake():
    """The group's channel (extra.report) as an address, filled in for each answer, or as a sentence; with
    neither, the answer's citation to copy: the control is never absent."""
    kb = load(DATA).kb
    ctx = SiteContext(kb)
    entry = kb.entries["demo:tower-crossing"]
    page = entry_page(ctx, entry)  # neither repo_url nor extra.report: the citation
    assert page.count('data-report="cite"') == 1 + len(entry.questions)
    assert (
        '<code class="hr-cite-text">DM-A1/go-back 进了塔楼还能原路回去吗？ · Can I go back the way I came? · ' in page
    )
    ctx.report = "https://example.org/group?a=1&about={cite}&page={page}"
    page = entry_page(ctx, entry)
    assert page.count('data-report="channel"') == 1 + len(entry.questions)
    assert (
        'href="https://example.org/group?a=1&amp;about=DM-A1%2Fgo-back&amp;page=demo%2Ftower-crossing.html%23go-back"'
    ) in page
    ctx.report = "mailto:group@example.org"
    assert 'href="mailto:group@example.org?subject=%5BDM-A1%2Fgo-back%5D%20' in entry_page(ctx, entry)
    ctx.report = "在群里 <b>@管理员</b>"
    page = entry_page(ctx, entry)
    assert page.count('data-report="cite"') == 1 + len(entry.questions) and "<b>" not in page
    assert "维护者：在群里 &lt;b&gt;@管理员&lt;/b&gt;<br>" in page


# -- in Chromium ---------------------------------------------------------------------------------------


@pytest.mark.browser
def test_clicking_each_download_link_downloads_the_file(browser, site):
    from sitecheck import serve

    with serve(site) as url:
        context = browser.new_context(accept_downloads=True)
        tab = context.new_page()
        for page in PAGES:
            tab.goto(f"{url}/{page}")
            anchors = tab.locator("a[download]")
            count = anchors.count()
            assert count == len(DOWNLOADS)
            for index in range(count):
                with tab.expect_download() as info:
                    anchors.nth(index).click()
                download = info.value
                local = site / urljoin(f"http://x/{page}", anchors.nth(index).get_attribute("href")).removeprefix(
                    "http://x/"
                )
                assert download.suggested_filename == local.name
                assert Path(download.path()).read_bytes() == local.read_bytes()
        context.close()


@pytest.mark.parametrize(
    "repo_url, report, expected",
    [
        ("https://github.com/group/faq", None, "https://github.com/group/faq/issues/new?title="),
        ("https://gitlab.com/group/faq", None, "https://gitlab.com/group/faq/-/issues/new?issue%5Btitle%5D="),
        (None, "mailto:keepers@example.org", "mailto:keepers@example.org?subject="),
        (None, "在群里发给 @管理员", "在群里发给 @管理员"),
        (None, None, "to whoever keeps this knowledge base"),
    ],
)
def test_the_translators_page_says_how_to_send_a_file_back(repo_url, report, expected):
    """The round trip in three steps above the files: download, change the translations, send the file back (a new
    issue on the repository, the group's channel, or whoever keeps the data), then the maintainer's dry run."""
    from html import unescape

    from houserules.site.repo import RepoLinks
    from houserules.site.translators import translators_page

    kb = load(FIXTURES / "translators" / "data").kb
    repo = RepoLinks(repo_url, None, Path("/x"), None, "2026-12-01 · 3b0fbf2c") if repo_url else None
    ctx = SiteContext(kb, repo)
    ctx.report = report
    game = next(iter(kb.games.values()))
    page = translators_page(ctx, game)
    steps = page.split('data-block="round-trip"', 1)[1].split("</ol>", 1)[0]
    assert expected in unescape(steps) and "houserules l10n import FILE --dry-run" in steps
    assert page.index('data-block="round-trip"') < page.index("en-zh.xlf") < page.index("glossary.tbx")
    if repo_url:
        body = unescape(steps).split("body=" if "github" in repo_url else "description%5D=", 1)[1]
        assert "Attach%20the%20edited%20XLIFF%20or%20PO%20file" in body and "3b0fbf2c" in body
