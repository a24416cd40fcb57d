"""A first visit on a slow phone network: from the navigation to the first search results.

    .venv/bin/python -m benchmarks.first_visit SITE [SITE...] [--query Q] [--rounds N] [--precompressed]

Each site is served on 127.0.0.1 gzipped, as GitHub Pages and most hosts send text files (level 6, the
``Content-Encoding: gzip`` a browser asks for). With ``--precompressed`` it is served as GitLab Pages or nginx's
``brotli_static``/``gzip_static`` serve it: the build's ``.br`` copy of a file when the browser accepts Brotli, else
its ``.gz`` copy, else as above. A fresh headless Chromium page at 375 px, its cache empty (a new context; each file is sent with GitHub Pages'
``Cache-Control: max-age=600``, so what the page fetches twice comes from its cache the second time) and the
site's offline worker blocked (see :mod:`benchmarks.site_search_bench`), has its network slowed to Slow 4G
(1.6 Mbps down, 750 kbps up, 150 ms round trip, CDP ``Network.emulateNetworkConditions``) and its CPU 4x
(``Emulation.setCPUThrottlingRate``). It opens the home page and, as soon as the search box is in the page,
puts the query in it (one keyup, as Material reads it):

* ``first_ms``: milliseconds from the start of the navigation to the first result on screen
  (``performance.now()`` when it shows), medians over ``--rounds``;
* ``requests`` and ``bytes``: what the browser fetched before then, and the bytes it received for it
  (compressed, as sent);
* ``largest``: the files that weighed most, and ``chain``: when each file started and ended (ms from the
  navigation's first request), which shows what waited on what.

Wall-clock times of a browser on a shared machine vary from run to run: compare sites in one run, and read the
bytes and the chain, which do not. No timing here is asserted by a test.
"""

from __future__ import annotations

import argparse
import gzip
import http.server
import json
import statistics
import sys
from pathlib import Path
from typing import Any

from benchmarks.site_search_bench import _ASK, FIRST_QUERY, THROTTLE
from houserules.search.evaluate import CHROMIUM, CHROMIUM_ARGS, serve_static

#: Chrome's "Slow 4G": bytes per second down and up, and the round trip in ms.
DOWN, UP, LATENCY = 1_600_000 / 8, 750_000 / 8, 150
#: What a host compresses (the rest, images and PDFs, it sends as they are).
COMPRESSED = (".html", ".js", ".css", ".json", ".svg", ".xml", ".txt", ".webmanifest", ".map")


class _GzipHandler(http.server.SimpleHTTPRequestHandler):
    """Static files, gzipped when the browser accepts it and the type is text (each compressed once)."""

    cache: dict[Path, bytes] = {}
    #: Whether to send the build's own ``.br`` and ``.gz`` copies when they exist.
    precompressed = False

    def log_message(self, *args: Any) -> None:
        pass

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "max-age=600")  # as GitHub Pages sends every file
        super().end_headers()

    def send_head(self):  # type: ignore[no-untyped-def]
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if (
            not path.is_file()
            or not path.name.endswith(COMPRESSED)
            or "gzip" not in self.headers.get("Accept-Encoding", "")
        ):
            return super().send_head()
        accepted = self.headers.get("Accept-Encoding", "")
        encoding, body = "gzip", self.cache.get(path)
        copies = [("br", ".br"), ("gzip", ".gz")] if self.precompressed else []
        for name, suffix in copies:
            copy = path.with_name(path.name + suffix)
            if name in accepted and copy.is_file():
                encoding, body = name, copy.read_bytes()
                break
        if body is None:
            body = self.cache[path] = gzip.compress(path.read_bytes(), 6)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", encoding)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return _Body(body)


class _Body:
    """What ``send_head`` returns for ``copyfile``: the compressed body."""

    def __init__(self, body: bytes):
        self.body = body

    def read(self, *args: Any) -> bytes:
        body, self.body = self.body, b""
        return body

    def close(self) -> None:
        pass


class _PrecompressedHandler(_GzipHandler):
    """:class:`_GzipHandler` that sends the build's ``.br`` or ``.gz`` copy of a file first."""

    cache: dict[Path, bytes] = {}
    precompressed = True


def visit(site: Path, query: str = FIRST_QUERY, precompressed: bool = False) -> dict[str, Any]:
    """One first visit of ``site`` (see the module's documentation)."""
    from playwright.sync_api import sync_playwright

    handler = _PrecompressedHandler if precompressed else _GzipHandler
    with serve_static(site, handler) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(
                viewport={"width": 375, "height": 740}, is_mobile=True, service_workers="block"
            )
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            cdp.send("Network.enable")
            cdp.send(
                "Network.emulateNetworkConditions",
                {"offline": False, "latency": LATENCY, "downloadThroughput": DOWN, "uploadThroughput": UP},
            )
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": THROTTLE})
            finished: list[Any] = []
            page.on("requestfinished", lambda request: finished.append(request))
            page.goto(f"{base}/index.html", wait_until="commit")
            page.wait_for_selector("input.md-search__input", state="attached")
            page.evaluate(_ASK, [query, True])
            first = page.evaluate("performance.now()")
            before = list(finished)
            files = []  # (name, bytes received, start and end in ms from the navigation's start)
            origin = before[0].timing["startTime"] if before else 0.0
            for request in before:
                timing, sizes = request.timing, request.sizes()
                name = request.url.removeprefix(base + "/")
                start = timing["startTime"] - origin
                files.append((name, sizes["responseBodySize"], start, start + max(timing["responseEnd"], 0.0)))
            context.close()
        finally:
            browser.close()
    return {
        "first_ms": round(first),
        "requests": len(files),
        "bytes": sum(f[1] for f in files),
        "largest": sorted(((f[0], f[1]) for f in files), key=lambda f: -f[1])[:8],
        "chain": [(name.partition("?")[0], size, round(start), round(end)) for name, size, start, end in files],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sites", type=Path, nargs="+", help="built sites to visit")
    parser.add_argument("--query", default=FIRST_QUERY, help=f"the query typed (default: {FIRST_QUERY})")
    parser.add_argument("--rounds", type=int, default=3, help="visits per site (their median is reported)")
    parser.add_argument("--precompressed", action="store_true", help="send the build's .br and .gz copies first")
    args = parser.parse_args(argv)
    for site in args.sites:
        visits = [visit(site, args.query, args.precompressed) for _ in range(args.rounds)]
        report = visits[-1] | {"first_ms": statistics.median(v["first_ms"] for v in visits)}
        report["first_ms_each"] = [v["first_ms"] for v in visits]
        print(json.dumps({"site": str(site), **report}, ensure_ascii=False), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
