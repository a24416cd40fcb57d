"""The site as an app on a phone: installable, and offline after the first visit (headless Chromium, 127.0.0.1).

Each test waits for what a reader waits for (the service worker taking control, the notice
appearing), never for a length of time.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import urllib.request
from urllib.parse import urlsplit

import pytest

from conftest import DATA, GOOD, HOUSERULES, ROOT, run_cli
from houserules.data.versions.version import tree_hash
from sitecheck import CHROMIUM, CHROMIUM_ARGS, serve

pytestmark = pytest.mark.browser

#: Resolves once a service worker controls the page (the pages' policy forbids eval, so no wait_for_function).
CONTROLLED = """() => new Promise(resolve => navigator.serviceWorker.controller ? resolve(true)
    : navigator.serviceWorker.addEventListener('controllerchange', () => resolve(true)))"""
CACHES = "() => caches.keys()"


def watched(context, origin: str) -> list[str]:
    """Every URL the context requests that is not on ``origin`` (none may be)."""
    outside: list[str] = []
    context.on(
        "request",
        lambda r: (
            outside.append(r.url)
            if urlsplit(r.url).scheme not in {"data", "blob"} and not r.url.startswith(origin)
            else None
        ),
    )
    return outside


# -- what the build writes --------------------------------------------------------------------------
#: What the worker keeps none of: source maps, and the compressed copies of the files it keeps (a browser fetches
#: the file; the host chooses whether to send a copy).
SKIPPED = (".map", ".gz", ".br")


def test_the_worker_keeps_every_page_asset_and_search_file_and_no_pdf(built_site):
    files = json.loads((built_site / "offline.json").read_text(encoding="utf-8"))["files"]
    on_disk = {p.relative_to(built_site).as_posix() for p in built_site.rglob("*") if p.is_file()}
    pages = {p for p in on_disk if p.endswith(".html")}
    assert pages <= set(files) and len(pages) > 150
    assets = {p for p in on_disk if p.startswith(("search/", "assets/", "go/")) and not p.endswith(SKIPPED)}
    assert assets <= set(files)
    assert {"manifest.webmanifest", "search/search_index.json", "search/search_index.js", "go/bh.js"} <= set(files)
    assert not [p for p in files if p.endswith((".pdf", *SKIPPED)) or p.startswith("api/") or p not in on_disk]
    assert {p + ".br" for p in pages if p + ".br" in on_disk}  # the build's compressed copies, which it keeps none of

    worker = (built_site / "sw.js").read_text(encoding="utf-8")
    version = json.loads(worker.split("var VERSION = ", 1)[1].split(";\n", 1)[0])
    assert version["data"] == tree_hash(DATA)  # the data version: git's tree hash of rules_data
    assert version["build"] == json.loads((built_site / "offline.json").read_text(encoding="utf-8"))["build"]
    assert version["label"].endswith(" · " + tree_hash(DATA)[:8])


def test_the_manifest_has_what_a_phone_needs(built_site):
    manifest = json.loads((built_site / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["name"] == "房规速查 houserules" and manifest["short_name"] == "房规速查"
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == ("index.html", "./", "standalone")
    sizes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} == sizes
    for icon in manifest["icons"]:
        assert (built_site / icon["src"]).read_bytes().startswith(b"\x89PNG")
    for page in ("index.html", "betrayal/vault.html", "go.html"):
        html = (built_site / page).read_text(encoding="utf-8")
        assert (
            'rel="manifest" href="' in html and f'<meta name="theme-color" content="{manifest["theme_color"]}">' in html
        )


# -- in the browser ---------------------------------------------------------------------------------
def test_after_one_visit_the_whole_site_works_offline(browser, built_site):
    with serve(built_site) as url:
        context = browser.new_context()
        outside = watched(context, url)
        tab = context.new_page()
        tab.goto(f"{url}/index.html")
        assert tab.evaluate(CONTROLLED)
        tab.evaluate("() => fetch('print/betrayal.pdf').then(r => r.arrayBuffer())")  # a PDF opened once, online
        context.set_offline(True)

        tab.reload()
        assert tab.locator(".hr-cards .hr-card").count() == 3
        tab.goto(f"{url}/mausritter/levels.html")  # never opened before
        assert tab.locator("h1").inner_text().startswith("MR-")
        assert tab.locator(".hr-answer").is_visible()
        tab.goto(f"{url}/index.html?q=魔梯")  # the search index comes from the cache too
        tab.wait_for_selector(".md-search-result__item")
        first = tab.locator(".md-search-result__item .md-search-result__article h1").first.inner_text()
        assert first.replace("\u200b", "").startswith("BH-R20 ")
        tab.goto(f"{url}/go.html#bh a13/must-move")
        tab.wait_for_url(f"{url}/betrayal/mystic-elevator-ruling.html#must-move")
        fetched = tab.evaluate("""() => Promise.all(['../print/betrayal.pdf', '../print/mausritter.pdf'].map(
            p => fetch(p).then(r => r.status + ' ' + r.headers.get('content-type'), () => 'offline')))""")
        assert fetched == ["200 application/pdf", "offline"]  # kept once opened; the other was never asked for
        context.close()
    assert outside == []


def test_a_rebuild_with_changed_data_offers_the_new_version(browser, tmp_path):
    data = tmp_path / "rules_data"
    shutil.copytree(GOOD, data)
    site = tmp_path / "site"
    assert run_cli("build", "--data", str(data), "-o", str(site)).returncode == 0
    with serve(site) as url:
        context = browser.new_context()
        tab = context.new_page()
        tab.goto(f"{url}/demo/tower.html")
        assert tab.evaluate(CONTROLLED)
        old_caches = tab.evaluate(CACHES)
        assert len(old_caches) == 1 and tree_hash(data) in old_caches[0]

        entry = data / "demo/entries/tower.yaml"
        entry.write_text(
            entry.read_text(encoding="utf-8").replace("有障碍的房间，", "有障碍的房间（新版），"), encoding="utf-8"
        )
        rebuilt = run_cli("build", "--data", str(data), "-o", str(site))
        assert rebuilt.returncode == 0, rebuilt.stderr

        tab.reload()  # still the kept version, and the browser finds the new worker
        notice = tab.wait_for_selector(".hr-update")
        assert notice.inner_text().replace("\n", " ") == "有新版本。 A newer version is available. 重新载入 · Reload"
        assert "新版" not in tab.locator(".hr-answer").inner_text()
        with tab.expect_navigation():
            tab.locator(".hr-update button").click()
        assert "有障碍的房间（新版）" in tab.locator(".hr-answer").inner_text()
        caches = tab.evaluate(CACHES)
        assert len(caches) == 1 and tree_hash(data) in caches[0] and caches != old_caches  # the old one deleted
        context.close()


def test_an_identical_rebuild_is_no_new_version(tmp_path):
    site = tmp_path / "site"
    builds = []
    for _ in range(2):
        assert run_cli("build", "--data", str(GOOD), "-o", str(site)).returncode == 0
        builds.append((site / "sw.js").read_bytes())
    assert builds[0] == builds[1]  # the browser sees the same worker: no notice, nothing downloaded again


def test_chromium_reports_the_app_installable(playwright, built_site, tmp_path):
    with serve(built_site) as url:
        # Installability is not checked in an incognito context: a profile folder makes a normal one.
        context = playwright.chromium.launch_persistent_context(
            tmp_path / "profile", executable_path=CHROMIUM, args=CHROMIUM_ARGS
        )
        tab = context.new_page()
        tab.goto(f"{url}/betrayal/vault.html")
        assert tab.evaluate(CONTROLLED)
        cdp = context.new_cdp_session(tab)
        assert cdp.send("Page.getInstallabilityErrors") == {"installabilityErrors": []}
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["errors"] == []
        parsed = manifest["manifest"]
        assert parsed["startUrl"] == f"{url}/index.html" and parsed["scope"] == f"{url}/"
        assert parsed["display"] == "kStandalone"
        header = tab.evaluate("() => getComputedStyle(document.querySelector('.md-header')).backgroundColor")
        assert parsed["themeColor"].replace("rgba(", "rgb(").replace(",1)", ")") == header.replace(" ", "")
        context.close()


def test_from_file_there_is_no_worker_and_nothing_breaks(browser, built_site):
    context = browser.new_context()
    tab = context.new_page()
    problems: list[str] = []
    tab.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    tab.on("pageerror", lambda error: problems.append(str(error)))
    tab.goto(f"{built_site.as_uri()}/betrayal/vault.html")
    assert tab.locator(".hr-answer").is_visible()
    tab.goto(f"{built_site.as_uri()}/go.html#BH-A13")
    tab.wait_for_url(f"{built_site.as_uri()}/betrayal/mystic-elevator-ruling.html")
    # Chromium allows no service worker on file:// at all (asking for one is refused, not answered with a
    # count), and the page tried none (no error logged).
    refused = tab.evaluate("() => navigator.serviceWorker.getRegistrations().then(r => r.length, e => e.name)")
    assert refused in {"SecurityError", "InvalidStateError"}, refused
    assert tab.evaluate("() => navigator.serviceWorker ? navigator.serviceWorker.controller : null") is None
    assert tab.locator(".hr-update").count() == 0
    context.close()
    assert problems == []


def fetch(url: str) -> bytes:
    with urllib.request.urlopen(url) as response:
        return response.read()


def test_the_live_preview_keeps_no_offline_copy():
    """``houserules serve``: pages name no worker, and its sw.js removes one left by a built site at that address."""
    with subprocess.Popen(
        [str(HOUSERULES), "serve", "--data", str(GOOD), "--port", "0"],
        cwd=ROOT,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    ) as server:
        try:
            url = server.stdout.readline().split("serving on ", 1)[1].split(" ", 1)[0].rstrip("/")
            page = fetch(f"{url}/demo/tower.html").decode("utf-8")
            worker = fetch(f"{url}/sw.js").decode("utf-8")
            manifest = json.loads(fetch(f"{url}/manifest.webmanifest"))
        finally:
            server.terminate()
    assert 'rel="manifest"' in page and "houserules:service-worker" not in page
    assert "self.registration.unregister()" in worker and "offline.json" not in worker
    assert manifest["display"] == "standalone"
