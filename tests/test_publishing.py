"""Publishing for a group: the workflows, ``houserules publish --check``, the site's addresses from the
environment, printouts traceable on 更新记录 with ready inserts, and the offline PDF message.

The history fixture is the three-version repository of ``test_changes.py``: the demo game (v1); a new
ruling and a changed answer (v2); a ruling removed (v3, current).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as etree
from pathlib import Path

import pytest
import yaml

from conftest import FIXTURES, ROOT, run_cli
from sitecheck import serve
from test_changes import make_repo

#: What the workflows run to build and check the site (through make publish-check), and what the tests run.
PUBLISH = ("publish", "--check")
SITE_URL = "https://group.example.org/faq/"
REPO_URL = "https://github.com/group/houserules"
#: The environment of a fork's build; CI's own variables cleared so only these count.
FORK_ENV = {
    "HOUSERULES_SITE_URL": SITE_URL.rstrip("/"),
    "HOUSERULES_REPO_URL": REPO_URL,
    "GITHUB_ACTIONS": "",
    "GITLAB_CI": "",
}
CONTROLLED = """() => new Promise(resolve => navigator.serviceWorker.controller ? resolve(true)
    : navigator.serviceWorker.addEventListener('controllerchange', () => resolve(true)))"""


def pdftotext(path: Path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout


def cover_version(pdf: Path) -> str:
    """The short hash the PDF's cover prints as its data version."""
    found = re.search(
        r"数据版本 · Data version\s+(?:\d{4}-\d{2}-\d{2} · )?([0-9a-f]{8})", pdftotext(pdf).split("\f")[0]
    )
    assert found, pdf
    return found.group(1)


# -- the workflows ----------------------------------------------------------------------------------
def test_the_workflows_build_with_the_command_the_tests_run():
    workflow = yaml.safe_load((ROOT / ".github/workflows/pages.yml").read_text(encoding="utf-8"))
    on = workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare `on` as true
    assert on["push"]["branches"] == ["main"]
    build, deploy = workflow["jobs"]["build"], workflow["jobs"]["deploy"]
    runs = [step.get("run", "") for step in build["steps"]]
    assert runs.index("make setup") < runs.index(".venv/bin/houserules check") < runs.index("make data-test")
    assert runs.index("make data-test") < runs.index("make publish-check")
    uses = [step["uses"] for job in workflow["jobs"].values() for step in job["steps"] if "uses" in step]
    assert {u.split("@")[0] for u in uses} == {
        "actions/checkout",
        "actions/configure-pages",
        "actions/cache",
        "actions/upload-pages-artifact",
        "actions/deploy-pages",
    }
    assert all(re.fullmatch(r"actions/[a-z-]+@[0-9a-f]{40}", u) for u in uses)  # pinned by commit
    checkout = next(s for s in build["steps"] if s.get("uses", "").startswith("actions/checkout@"))
    assert checkout["with"]["fetch-depth"] == 0  # the changes page needs the history
    cache = next(s for s in build["steps"] if s.get("uses", "").startswith("actions/cache@"))
    assert cache["with"]["path"] == build["env"]["HOUSERULES_CACHE"]
    publish = next(s for s in build["steps"] if s.get("run") == "make publish-check")
    assert publish["env"]["HOUSERULES_SITE_URL"] == "${{ steps.pages.outputs.base_url }}"
    upload = next(s for s in build["steps"] if s.get("uses", "").startswith("actions/upload-pages-artifact@"))
    assert upload["with"]["path"] == "site" and deploy["needs"] == "build"
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}

    gitlab = yaml.safe_load((ROOT / ".gitlab-ci.yml").read_text(encoding="utf-8"))["pages"]
    assert gitlab["script"][1:] == [
        "make setup",
        ".venv/bin/houserules check",
        "make data-test",
        "make publish-check",
        "rm -rf public && mv site public",
    ]
    assert gitlab["variables"]["HOUSERULES_CACHE"].endswith("/" + gitlab["cache"]["paths"][0])
    assert gitlab["artifacts"]["paths"] == ["public"] and gitlab["variables"]["GIT_DEPTH"] == "0"

    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile.split("\npublish-check: setup\n", 1)[1].splitlines()[0]
    assert recipe == "\t$(BIN)/houserules " + " ".join(PUBLISH) + " $(if $(PROFILE),--profile $(PROFILE))"
    lint = makefile.split("\nlint: setup\n", 1)[1].split("\n\n", 1)[0]
    assert "zizmor --offline --quiet .github/workflows/" in lint
    assert "check-jsonschema --builtin-schema vendor.gitlab-ci .gitlab-ci.yml" in lint


@pytest.mark.parametrize("tool", ["zizmor", "check-jsonschema"])
def test_the_workflow_linters_are_pinned_in_the_test_extra(tool):
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    test_extra = pyproject.split("test = [", 1)[1].split("]", 1)[0]
    assert re.search(rf'"{tool}==[0-9.]+"', test_extra)


# -- the link check -----------------------------------------------------------------------------------
@pytest.mark.slow
def test_the_link_check_names_a_broken_anchor_and_a_missing_offline_file(built_fixture_full, tmp_path):
    site = tmp_path / "site"
    shutil.copytree(built_fixture_full, site)  # with its PDFs, which the pages link
    ok = run_cli(*PUBLISH, "--no-build", "-o", "site", cwd=tmp_path)
    assert ok.returncode == 0, ok.stderr
    site_named = re.escape(str(tmp_path.resolve() / "site"))
    assert re.fullmatch(rf"checked {site_named}: \d+ pages, \d+ internal links, ready to publish\n", ok.stdout)

    page = site / "demo/index.html"
    page.write_text(
        page.read_text(encoding="utf-8").replace("</article>", '<a href="tower.html#no-such-question">x</a></article>'),
        encoding="utf-8",
    )
    pages = "".join(p.read_text(encoding="utf-8") for p in site.rglob("*.html"))
    listed = json.loads((site / "offline.json").read_text(encoding="utf-8"))["files"]
    gone = next(p for p in listed if Path(p).name not in pages and not p.endswith(".html"))  # linked from no page
    (site / gone).unlink()
    result = run_cli(*PUBLISH, "--no-build", "-o", "site", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        "site/demo/index.html: link to tower.html#no-such-question: no such anchor — fix the link, or give an "
        'element of demo/tower.html id="no-such-question"',
        f"site/offline.json: the service worker lists {gone}: no such file — rebuild the site with houserules "
        "build (the worker could not install, and the site would not work offline)",
        f"houserules publish: 2 broken links or missing files in {tmp_path.resolve() / 'site'}; fix them before "
        "publishing (the site online stays as it was)",
    ]


def test_publish_needs_check_and_a_built_site(tmp_path):
    missing = run_cli("publish", "--check", "--no-build", "-o", str(tmp_path / "nothing"))
    assert missing.returncode == 1
    assert missing.stderr == (
        f"houserules publish: no built site in {tmp_path / 'nothing'} (no index.html); build it first, "
        "or drop --no-build\n"
    )
    assert run_cli("publish").returncode == 2  # --check is what it does


@pytest.mark.slow
def test_a_site_address_that_is_no_address_is_a_clear_message(tmp_path):
    result = run_cli(*PUBLISH, "-o", str(tmp_path / "site"), env={**FORK_ENV, "HOUSERULES_SITE_URL": "group.example"})
    assert result.returncode == 1 and not (tmp_path / "site").exists()
    assert (
        "HOUSERULES_SITE_URL='group.example' is not an http(s) address — set it to a full address such as "
        "https://your-name.github.io/houserules/ (or unset it to use mkdocs.yml)"
    ) in result.stderr


# -- a fork's site, as it publishes it ---------------------------------------------------------------
#: A fork's data: two games in the checkout (the edit links point into the repository), with their history. The
#: real data's site passes the same link check in tests/test_site.py (built once per run, its addresses mkdocs.yml's).
FORK_DATA = FIXTURES / "two-games"


@pytest.mark.slow
def test_the_published_site_takes_its_addresses_from_the_environment_and_passes_the_link_check(tmp_path):
    out = tmp_path / "site"
    result = run_cli(*PUBLISH, "--data", str(FORK_DATA), "-o", str(out), env=FORK_ENV, timeout=1500)
    assert result.returncode == 0, result.stderr[-3000:]
    assert re.search(r"checked .*: \d+ pages, \d+ internal links, ready to publish", result.stdout)

    feed = etree.parse(out / "changes.xml").getroot()
    assert feed.get("{http://www.w3.org/XML/1998/namespace}base") == SITE_URL
    assert f"<loc>{SITE_URL}demo/tower.html</loc>" in (out / "sitemap.xml").read_text(encoding="utf-8")
    tower = (out / "demo/tower.html").read_text(encoding="utf-8")
    in_repository = FORK_DATA.relative_to(ROOT).as_posix()
    assert f'href="{REPO_URL}/edit/main/{in_repository}/demo/entries/tower.yaml"' in tower
    assert f'href="{REPO_URL}/issues/new?title=' in tower
    assert f'<link rel="canonical" href="{SITE_URL}demo/tower.html">' in tower

    # Each PDF's printed version is on the 更新记录 page: a game's PDF prints its own folder's.
    changes = (out / "changes.html").read_text(encoding="utf-8")
    versions = {pdf.name: cover_version(pdf) for pdf in (out / "print").glob("*.pdf")}
    assert {"demo.pdf", "other.pdf", "faq.pdf"} <= set(versions)
    assert versions["demo.pdf"] != versions["faq.pdf"] != versions["other.pdf"] != versions["demo.pdf"]
    for name, short in versions.items():
        if not name.startswith("changes-since-"):
            assert re.search(rf">(?:\d{{4}}-\d{{2}}-\d{{2}} · )?{short}</code>", changes), name

    # The QR codes of the printed FAQ, read back from its first pages of entries.
    pdf = out / "print/demo.pdf"
    subprocess.run(
        ["pdftoppm", "-r", "200", "-f", "1", "-l", "8", "-png", str(pdf), str(tmp_path / "page")], check=True
    )
    images = sorted(str(p) for p in tmp_path.glob("page*.png"))
    scanned = subprocess.run(["zbarimg", "--quiet", "--raw", *images], capture_output=True, text=True).stdout
    codes = scanned.split()
    assert len(codes) >= 3 and all(re.fullmatch(re.escape(SITE_URL) + r"go\.html#DM-[A-Z]+\d+", c) for c in codes)
    printed = pdftotext(pdf)
    assert all(f"{c.rsplit('#', 1)[1]} · " in printed for c in codes)  # each code is an entry printed there


# -- printouts traceable on 更新记录 --------------------------------------------------------------------
@pytest.fixture(scope="module")
def published(tmp_path_factory):
    data, trees = make_repo(tmp_path_factory.mktemp("publishing"))
    out = data.parent / "site"
    result = run_cli("build", "--data", str(data), "-o", str(out))
    assert result.returncode == 0, result.stderr
    return data, trees, out


@pytest.mark.slow
def test_each_pdfs_printed_version_is_on_the_changes_page(published):
    data, trees, out = published
    html = (out / "changes.html").read_text(encoding="utf-8")
    assert cover_version(out / "print/faq.pdf") == trees[2][:8]
    assert cover_version(out / "print/demo.pdf") == trees[2][:8]  # the only game: the folder's version
    demo = subprocess.run(
        ["git", "-C", str(data), "rev-parse", "HEAD:rules_data/demo"], capture_output=True, text=True
    ).stdout[:8]
    assert demo != trees[2][:8]
    current = html.split('data-block="data-version"', 1)[1].split("</div>", 1)[0]
    assert f'<code class="hr-code">2026-12-01 · {trees[2][:8]}</code>' in current
    assert f'演示游戏 <span lang="en">Demo Game</span> <code class="hr-code">2026-12-01 · {demo}</code>' in current
    v3 = html.split(f'id="v-{trees[2][:8]}"', 1)[1].split("</details>", 1)[0]
    assert (
        f'<code class="hr-code" id="v-demo-{demo}">2026-12-01 · {demo}</code>' in v3
    )  # where this game version starts
    for pdf in (out / "print").glob("*.pdf"):
        if not pdf.name.startswith("changes-since-"):
            assert re.search(rf">(?:2026-12-01 · )?{cover_version(pdf)}</code>", html), pdf.name


@pytest.mark.slow
def test_each_earlier_version_has_a_ready_insert_of_exactly_what_changed_since(published):
    data, trees, out = published
    html = (out / "changes.html").read_text(encoding="utf-8")
    offered = re.findall(r'href="(print/changes-since-[0-9a-f]{8}\.pdf)" download', html)
    assert offered == [f"print/changes-since-{t[:8]}.pdf" for t in (trees[1], trees[0])]  # not the current one

    def printed(name: str) -> tuple[set[str], str]:
        text = pdftotext(out / name)
        assert (out / name).read_bytes().startswith(b"%PDF")
        cover = text.split("\f")[0]
        body = "\f".join(text.split("\f")[1:])
        return set(re.findall(r"^\s*(DM-[A-Z]+\d+) · ", body, re.MULTILINE)), cover

    since_v1, cover = printed(offered[1])
    assert since_v1 == {"DM-A3", "DM-A1"}  # added and changed; DM-R01 unchanged, DM-A2 removed
    # each names the version as faq.pdf printed it: the date of its newest history line, and its hash
    assert f"Changes since 2026-11-30 · {trees[0][:8]}" in cover and "DM-A2" in cover
    since_v2, cover = printed(offered[0])
    assert since_v2 == set() and f"Changes since 2026-12-01 · {trees[1][:8]}" in cover and "DM-A2" in cover


@pytest.mark.slow
def test_the_home_page_links_the_printed_faq_and_what_changed(published):
    _, _, out = published
    article = (out / "index.html").read_text(encoding="utf-8").split('<article class="md-content__inner')[1]
    assert 'href="print/index.html"' in article and 'href="changes.html"' in article


@pytest.mark.browser
def test_a_group_downloads_its_insert_and_finds_the_links_at_every_width(browser, published):
    _, trees, out = published
    name = f"changes-since-{trees[0][:8]}.pdf"
    with serve(out) as url:
        for width, height in ((1280, 800), (375, 740)):
            tab = browser.new_page(viewport={"width": width, "height": height})
            tab.goto(f"{url}/index.html")
            for href in ("print/index.html", "changes.html"):
                assert tab.locator(f'article a[href="{href}"]').is_visible(), (width, href)
            tab.close()
        tab = browser.new_page(accept_downloads=True)
        tab.goto(f"{url}/changes.html")
        with tab.expect_download() as info:
            tab.locator(f'a[href="print/{name}"]').click()
        download = info.value
        assert download.suggested_filename == name
        assert Path(download.path()).read_bytes() == (out / "print" / name).read_bytes()
        tab.close()


@pytest.mark.browser
def test_offline_a_pdf_never_opened_says_so_instead_of_404(browser, published):
    _, _, out = published
    with serve(out) as url:
        context = browser.new_context()
        tab = context.new_page()
        tab.goto(f"{url}/index.html")
        assert tab.evaluate(CONTROLLED)
        told = tab.wait_for_selector(".hr-offline-ready")
        assert "没有网络也能打开" in told.inner_text() and "opens without a network" in told.inner_text()
        tab.locator(".md-search__input").focus()  # the search open: the notice waits rather than cover results
        tab.wait_for_function("() => document.getElementById('__search').checked")
        assert not told.is_visible()
        tab.keyboard.press("Escape")
        tab.wait_for_function("() => !document.getElementById('__search').checked")
        assert told.is_visible()
        tab.locator(".md-search__input").focus()  # typing (the search, a filter box): the notice goes at once
        tab.keyboard.type("x")
        tab.keyboard.press("Escape")
        tab.wait_for_function("() => !document.getElementById('__search').checked")
        assert tab.locator(".hr-offline-ready").count() == 0
        context.set_offline(True)
        response = tab.goto(f"{url}/print/demo.pdf")
        assert response is not None and response.status == 503
        assert tab.locator("h1").inner_text() == "尚未离线保存"
        body = tab.locator("body").inner_text()
        assert "请在联网时打开一次" in body and "Not saved offline yet — open it once online" in body
        assert "404" not in body
        tab.goto(f"{url}/index.html")
        assert tab.locator(".hr-cards .hr-card").count() == 1
        assert tab.locator(".hr-offline-ready").count() == 0  # told once
        context.close()


@pytest.mark.slow
def test_changes_since_accepts_a_games_version_as_the_page_shows_it(published, tmp_path):
    data, trees, out = published
    demo_v1 = subprocess.run(
        ["git", "-C", str(data), "rev-parse", "HEAD~3:rules_data/demo"], capture_output=True, text=True, check=True
    ).stdout[:8]
    v1 = (out / "changes.html").read_text(encoding="utf-8").split(f'id="v-{trees[0][:8]}"', 1)[1].split("</details>")[0]
    assert f'<code class="hr-code" id="v-demo-{demo_v1}">2026-11-30 · {demo_v1}</code>' in v1
    by_game, by_folder = tmp_path / "game.pdf", tmp_path / "folder.pdf"
    for version, target in ((demo_v1, by_game), (trees[0][:8], by_folder)):
        result = run_cli("pdf", "--data", str(data), "--changes-since", version, "-o", str(target))
        assert result.returncode == 0, result.stderr
        assert result.stdout == f"wrote {target} (2 entries, 3 pages)\n"
    ready = out / f"print/changes-since-{trees[0][:8]}.pdf"
    assert pdftotext(by_folder) == pdftotext(ready)
    # the same entries; the cover names the version given, as the PDF printed it
    assert pdftotext(by_game).split("\f")[1:] == pdftotext(ready).split("\f")[1:]
    assert f"Changes since 2026-11-30 · {demo_v1}" in " ".join(pdftotext(by_game).split("\f")[0].split())
