"""The site's search box on a throttled phone: ours next to Material's own search.

    .venv/bin/python -m benchmarks.site_search_bench SITE [BASELINE_SITE] [--mode http|file]

For each site, a fresh headless Chromium page (375 px, CPU slowed 4x with CDP
``Emulation.setCPUThrottlingRate``) opens the home page, and as soon as it has
loaded the query is put in the search box (one keyup, as Material reads it):

* ``first``: milliseconds from that keyup to the first result on screen (this
  includes whatever the search still had to load or build after the page loaded);
* ``bytes``: every byte the page fetched before those first results (raw, and
  gzipped as a compressing server would send them), and the search's share of them
  (Material: ``search_index.json``; ours: the worker and ``search/hr/``);
* ``warm``: then each of :data:`QUERIES` in turn (box emptied in between): the
  median and p95 milliseconds from keyup to its results.

``http`` serves the site on 127.0.0.1 (the search runs in a Web Worker; Chromium's
CPU throttling slows a dedicated worker less than the page, about 2x instead of 4x);
``file`` opens it from disk (Material runs the worker in an iframe on the page's
thread, fully throttled). No timing here is asserted by a test.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from benchmarks.measure import percentile
from benchmarks.search_bench import QUERIES as CLI_QUERIES
from houserules.search.evaluate import CHROMIUM, CHROMIUM_ARGS, serve_static

#: The command-line benchmark's queries: the first typed on a freshly opened page, the rest warm, and a prefix.
FIRST_QUERY = CLI_QUERIES[0]
QUERIES = [*CLI_QUERIES[1:], "eleva"]
THROTTLE = 4

#: Put ``query`` in the box with one keyup and resolve with the ms until results (or "none") show.
_ASK = """async ([query, expectItems]) => {
  const box = document.querySelector("input.md-search__input");
  const list = document.querySelector(".md-search-result__list");
  const meta = document.querySelector(".md-search-result__meta");
  const texts = JSON.parse(document.getElementById("__config").textContent).translations;
  const done = () => expectItems
    ? list.querySelector(".md-search-result__item") !== null || meta.textContent.trim() === texts["search.result.none"]
    : list.children.length === 0 && meta.textContent.trim() === texts["search.result.placeholder"];
  box.focus();
  const start = performance.now();
  box.value = query;
  box.dispatchEvent(new KeyboardEvent("keyup", {key: "End", bubbles: true}));
  await new Promise(resolve => {
    if (done()) return resolve();
    const observer = new MutationObserver(() => { if (done()) { observer.disconnect(); resolve(); } });
    observer.observe(document.querySelector(".md-search-result"), {childList: true, subtree: true, characterData: true});
  });
  return performance.now() - start;
}"""


def measure(site: Path, mode: str, rounds: int = 2, first_query: str = FIRST_QUERY) -> dict[str, Any]:
    """First results, bytes before them and warm queries for one built site."""
    from playwright.sync_api import sync_playwright

    with serve_static(site) as base, sync_playwright() as playwright:
        root = base if mode == "http" else site.resolve().as_uri()
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True)
            page = context.new_page()
            context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": THROTTLE})
            fetched: list[str] = []
            page.on("requestfinished", lambda request: fetched.append(request.url))
            page.goto(f"{root}/index.html", wait_until="load")
            first = page.evaluate(_ASK, [first_query, True])
            before = list(fetched)
            warm = []
            for _ in range(rounds):
                for query in QUERIES:
                    page.evaluate(_ASK, ["", False])
                    warm.append(page.evaluate(_ASK, [query, True]))
            context.close()
        finally:
            browser.close()
    files = [_local(site, root, url) for url in before]
    files = [f for f in files if f is not None]
    search = [f for f in files if _is_search(f.relative_to(site.resolve()).as_posix())]
    return {
        "first_ms": first,
        "bytes": sum(f.stat().st_size for f in files),
        "gz_bytes": sum(len(gzip.compress(f.read_bytes(), 6)) for f in files),
        "search_bytes": sum(f.stat().st_size for f in search),
        "search_gz_bytes": sum(len(gzip.compress(f.read_bytes(), 6)) for f in search),
        "files": len(files),
        "warm_p50_ms": statistics.median(warm),
        "warm_p95_ms": percentile(warm, 0.95),
    }


def _is_search(path: str) -> bool:
    return path.startswith("search/") or "/workers/" in path or "hr-search" in path


def _local(site: Path, root: str, url: str) -> Path | None:
    if not url.startswith(root):
        return None
    path = site.resolve() / unquote(urlsplit(url).path[len(urlsplit(root).path) :].lstrip("/"))
    return path if path.is_file() else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "sites", type=Path, nargs="+", help="built sites to measure, e.g. ours and a plain Material one"
    )
    parser.add_argument("--mode", choices=["http", "file"], default="http")
    parser.add_argument("--query", default=FIRST_QUERY, help=f"the first query (default: {FIRST_QUERY})")
    args = parser.parse_args(argv)
    for site in args.sites:
        start = time.perf_counter()
        result = measure(site, args.mode, first_query=args.query)
        print(
            json.dumps(
                {"site": str(site), "mode": args.mode, **result, "seconds": round(time.perf_counter() - start, 1)}
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
