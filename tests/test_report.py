"""纠错 · Report beside every answer: where it leads (a new issue, the group's channel, the citation to copy), what
it puts in an address, and in Chromium that it is in view at a question's anchor on a phone, a thumb's size, and
free of axe violations in both palettes, open and closed; the notices of a group's house rules pass axe too."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from conftest import FIXTURES, GOOD, load_kb
from houserules.site.repo import RepoLinks
from houserules.site.report import answer_report, channel_url

HOSTILE = 'Tower & "<b>#1?</b>" 100%'


def _entry():
    return load_kb(GOOD).entries["demo:tower-crossing"]


def test_no_page_holds_the_data_version_so_none_changes_with_it():
    """The citation's version comes from version.js: a data change re-renders only the pages that show it."""
    from houserules.site.context import SiteContext
    from houserules.site.entry_page import entry_page

    kb = load_kb(GOOD)
    ctx = SiteContext(kb)
    version = str(ctx.version)
    assert version.startswith("2026-11-30 · ")
    for entry in kb.entries.values():
        page = entry_page(ctx, entry)
        assert 'data-report="cite"' in page and version not in page and ctx.version.short not in page


@pytest.mark.parametrize("question", ["", "failed-roll"])
def test_without_repository_or_channel_the_control_is_the_citation(question):
    report = answer_report(_entry(), question, None, None, None, "2026-11-30 · 0123abcd")
    cite = "DM-A1/failed-roll" if question else "DM-A1"
    assert (report.kind, report.href, report.cite) == ("cite", None, cite)
    page = "demo/tower-crossing.html" + ("#failed-roll" if question else "")
    title = "过塔考验失败会怎样？ · What happens if I fail the roll?" if question else "穿过塔楼 · Crossing the Tower"
    assert report.text == f"{cite} {title} · {page} · 数据版本 · Data version 2026-11-30 · 0123abcd"


def test_with_a_site_address_the_citation_names_the_public_page():
    report = answer_report(_entry(), "go-back", None, None, "https://rules.example.org/hr", "")
    assert report.page == "https://rules.example.org/hr/demo/tower-crossing.html#go-back"
    assert report.text.endswith(" · https://rules.example.org/hr/demo/tower-crossing.html#go-back")


@pytest.mark.parametrize(
    "channel, expected",
    [
        # an address with placeholders: each filled in percent-encoded, the data's text too
        (
            "https://forms.example.org/r?c={cite}&t={title}&p={page}&v={version}",
            "https://forms.example.org/r?c=DM-A1%2Fgo-back&t=%E8%BF%9B%E4%BA%86%E5%A1%94%E6%A5%BC%E8%BF%98%E8%83%BD"
            "%E5%8E%9F%E8%B7%AF%E5%9B%9E%E5%8E%BB%E5%90%97%EF%BC%9F%20%C2%B7%20Can%20I%20go%20back%20the%20way%20I"
            "%20came%20after%20entering%20the%20Tower%3F&p=demo%2Ftower-crossing.html%23go-back&v=1%20%C2%B7%20ab",
        ),
        # an address without placeholders: as it is
        ("https://chat.example.org/our-group", "https://chat.example.org/our-group"),
        ("mailto:keeper@example.org?subject=houserules", "mailto:keeper@example.org?subject=houserules"),
    ],
)
def test_a_channel_address_is_filled_in_for_each_answer(channel, expected):
    report = answer_report(_entry(), "go-back", None, channel, None, "1 · ab")
    assert (report.kind, report.href) == ("channel", expected)


def test_a_mailto_channel_gets_a_subject_and_a_body():
    report = answer_report(_entry(), "go-back", None, "mailto:keeper@example.org", None, "1 · ab")
    form = parse_qs(urlsplit(report.href).query, strict_parsing=True)
    assert form["subject"] == [
        "[DM-A1/go-back] 进了塔楼还能原路回去吗？ · Can I go back the way I came after entering the Tower?"
    ]
    # the version only where the address asks for it ({version}): the page stays the same from one version to the next
    assert form["body"] == [report.text.removesuffix(" · 数据版本 · Data version 1 · ab")]


@pytest.mark.parametrize(
    "channel",
    ["javascript:alert(1)", "data:text/html,<b>x</b>", "在群里 @管理员", "//evil.example.org/x", "https://x y"],
)
def test_a_channel_that_is_no_http_or_mail_address_is_a_sentence_never_a_link(channel):
    report = answer_report(_entry(), "", None, channel, None, "")
    assert (report.kind, report.href, report.channel) == ("cite", None, channel)
    assert channel_url(channel, {}) is None


def test_data_text_in_a_prefilled_address_is_encoded_whole():
    """A title holding &, #, %, quotes and markup stays one field of the address, whatever the channel."""
    import dataclasses

    from houserules.data.reading.records import Text

    entry = _entry()
    odd = dataclasses.replace(entry, title=Text(zh="塔楼 & <b>#1?", en=HOSTILE))
    repo = RepoLinks.from_config("https://github.com/o/hr", None, "/x/content", GOOD)
    for report in (
        answer_report(odd, "", repo, None, None, ""),
        answer_report(odd, "", None, "https://f.example.org/?t={title}&c={cite}", None, ""),
        answer_report(odd, "", None, "mailto:k@example.org", None, ""),
    ):
        query = urlsplit(report.href).query
        assert not set(query) - set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789%_.-~=&"), query
        values = [v for vs in parse_qs(query, strict_parsing=True).values() for v in vs]
        assert any(f"塔楼 & <b>#1? · {HOSTILE}" in v for v in values), values


# -- in Chromium ---------------------------------------------------------------------------------------------------
PHONE = {"viewport": {"width": 375, "height": 667}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}

#: Where each report control of the page is, against the viewport and under the sticky header, once the page has
#: scrolled to ``anchor`` ("" the top): [{anchor, top, bottom, width, height}] and the viewport's and header's sizes.
MEASURE = """async (anchor) => {
  if (anchor) { location.hash = anchor; } else { history.replaceState(null, "", location.pathname); scrollTo(0, 0); }
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const header = document.querySelector('.md-header').getBoundingClientRect().bottom;
  const target = anchor ? document.getElementById(anchor).nextElementSibling.querySelector('.hr-report-line .hr-report')
                        : document.querySelector('.hr-answer .hr-report');
  const hit = target.matches('details') ? target.querySelector('summary') : target;
  const r = hit.getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, width: r.width, height: r.height, header, height_: innerHeight};
}"""


@pytest.fixture(scope="module")
def real_url(built_site):
    from sitecheck import serve

    with serve(built_site) as url:
        yield url


@pytest.mark.browser
@pytest.mark.parametrize(
    "path", ["betrayal/mystic-elevator-ruling.html", "betrayal/mystic-elevator.html", "mausritter/conditions.html"]
)
def test_every_report_control_is_in_view_at_its_answer_on_a_phone(browser, real_url, built_site, path):
    """Opened at the top, the one-line answer's control shows; opened at any question's anchor, that question's
    control shows, below the header and above the screen's foot; each one a 44×44 px target."""
    import re

    from sitecheck import NO_OFFLINE_APP

    html = (built_site / path).read_text(encoding="utf-8")
    anchors = re.findall(r'<h3 class="hr-question" id="([^"]+)"', html)
    assert anchors, path
    context = browser.new_context(**PHONE, **NO_OFFLINE_APP)
    page = context.new_page()
    page.goto(f"{real_url}/{path}")
    page.wait_for_load_state("load")
    out = []
    for anchor in ["", *anchors]:
        box = page.evaluate(MEASURE, anchor)
        if not (box["top"] >= box["header"] and box["bottom"] <= box["height_"]):
            out.append((anchor, round(box["top"]), round(box["bottom"])))
        assert box["width"] >= 44 and box["height"] >= 44, (anchor, box)
    context.close()
    assert out == []


@pytest.fixture(scope="module")
def fixture_tab(browser, built_fixture_site):
    from sitecheck import NO_OFFLINE_APP

    context = browser.new_context(**PHONE, **NO_OFFLINE_APP)
    yield context.new_page()
    context.close()


@pytest.mark.browser
def test_from_disk_the_citation_opens_without_a_server_and_copies_the_page_and_version(fixture_tab, built_fixture_site):
    page = fixture_tab
    page.goto((built_fixture_site / "demo/tower-crossing.html").as_uri() + "#failed-roll")
    page.wait_for_load_state("load")
    control = page.locator("#failed-roll + .hr-qa details.hr-report")
    control.locator("summary").click()
    cite = control.locator(".hr-cite-text")
    assert cite.is_visible()
    assert cite.inner_text().startswith("DM-A1/failed-roll 过塔考验失败会怎样？ · What happens if I fail the roll? · ")
    # the data version, from version.js once the citation opened (the page itself holds none)
    page.wait_for_function("() => !document.querySelector('#failed-roll + .hr-qa .hr-data-version a')")
    assert "数据版本 · Data version 2026-11-30 · " in cite.inner_text()
    button = control.locator("button.hr-copy-cite")
    button.click()
    copied = button.get_attribute("data-copied")
    page_url = (built_fixture_site / "demo/tower-crossing.html").as_uri() + "#failed-roll"
    assert copied.startswith(
        f"DM-A1/failed-roll 过塔考验失败会怎样？ · What happens if I fail the roll? · {page_url} · "
    )
    assert "数据版本 · Data version 2026-11-30 · " in copied
    box = button.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44


@pytest.mark.browser
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_with_the_citation_open(browser, built_fixture_site, scheme):
    from test_a11y import settle

    from axecheck import describe, violations
    from sitecheck import NO_OFFLINE_APP, serve

    with serve(built_fixture_site) as url:
        context = browser.new_context(color_scheme=scheme, **PHONE, **NO_OFFLINE_APP)
        page = context.new_page()
        page.goto(f"{url}/demo/tower-crossing.html")
        page.wait_for_load_state("load")
        assert page.evaluate("() => document.body.getAttribute('data-md-color-scheme')") == (
            "slate" if scheme == "dark" else "default"
        )
        closed = violations(page)
        for summary in page.locator("details.hr-report > summary").all():
            summary.click()  # the last one stays hovered: its colours are checked so too
        assert page.locator(".hr-report-cite:visible").count() == 3
        settle(page)  # the header's title has slid in as the page scrolled
        found = violations(page)
        context.close()
    assert closed == [] and found == [], describe(closed + found)


@pytest.fixture(scope="module")
def profile_site(tmp_path_factory):
    """The fixture's pages built with the group's profile (its house rule overrides a ruling and a question)."""
    from houserules.build import build_site, site_step
    from houserules.check import run as run_check
    from houserules.check.profile import load_profile

    profile, kb = load_profile(FIXTURES / "profile" / "group.yaml", run_check(GOOD).kb)
    return build_site(kb, GOOD, tmp_path_factory.mktemp("profile-site") / "site", steps=[site_step], profile=profile)


@pytest.mark.browser
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_on_a_ruling_a_house_rule_changes(browser, profile_site, scheme):
    from axecheck import describe, violations
    from sitecheck import NO_OFFLINE_APP, serve

    with serve(profile_site) as url:
        context = browser.new_context(color_scheme=scheme, **PHONE, **NO_OFFLINE_APP)
        page = context.new_page()
        page.goto(f"{url}/demo/tower-crossing.html")
        page.wait_for_load_state("load")
        assert page.locator(".hr-override").count() == 2
        found = violations(page)
        context.close()
    assert found == [], describe(found)
