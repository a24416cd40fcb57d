"""The site's search box on a throttled phone: ours next to Material's own search.

    .venv/bin/python -m benchmarks.site_search_bench SITE [BASELINE_SITE] [--mode http|file]

For each site, a fresh headless Chromium page (375 px, CPU slowed 4x with CDP
``Emulation.setCPUThrottlingRate``) opens the home page, and as soon as it has
loaded the query is put in the search box (one keyup, as Material reads it):

* ``first``: milliseconds from that keyup to the first result on screen (this
  includes whatever the search still had to load or build after the page loaded),
  or to the box saying there is none (``results``: how many it shows then);
* ``bytes``: every byte the page fetched before those first results (raw, and
  gzipped as a compressing server would send them), and the search's share of them
  (Material: ``search_index.json``; ours: the worker and ``search/hr/``);
* ``warm``: then each of :data:`QUERIES` in turn (box emptied in between): the
  median and p95 milliseconds from keyup to its results.

``http`` serves the site on 127.0.0.1 (the search runs in a Web Worker; Chromium's
CPU throttling slows a dedicated worker less than the page, about 2x instead of 4x);
``file`` opens it from disk (Material runs the worker in an iframe on the page's
thread, fully throttled). No timing here is asserted by a test.

Wall-clock times of a headless browser on a shared, loaded machine are not a
measurement (paired old/new ratios of 0.79-1.95 between runs, single trials over
4x apart). :func:`measure_cpu` (``--cpu``) measures what a loaded machine cannot
stretch much: the CPU time the browser spends. A fresh headless Chromium, CPU
*not* throttled (throttling adds sleeping, not CPU), opens the home page, waits
for the load event, the network to go quiet and the browser's CPU to stop moving,
then puts the first query in the box as above:

* ``cpu_first_s``: CPU seconds (user + system) from that keyup to the first result,
  summed over every process of that browser's tree (:func:`tree_cpu`: the browser,
  its zygotes, the renderer, whose threads include the search's Web Worker, and the
  GPU and utility processes), read from ``/proc/PID/stat`` before and after
  (children already reaped count through their parent's ``cutime``/``cstime``);
  ``cpu_first_by_kind``: the same by process kind (``--type=``);
* ``cpu_nav_first_s``: CPU seconds from just before the navigation to the first
  result: the page, fetching and parsing the search's files, and the query, what
  a first-time visitor's browser pays;
* ``first_ms`` (wall, unthrottled, for reference) and the bytes as above.

The site's offline service worker (``sw.js``) is blocked here: over http it
would otherwise start, right after the load, to copy every file of the site
into its cache (7,616 files, 205 MB at 5,000 entries), about one core of
CPU for as long as that takes, during the query; that is the offline
feature's cost, not the search's, and it would make the browser never idle.
(:func:`measure` allows it unless told ``service_workers="block"``.)

``/proc/PID/stat`` counts in clock ticks (10 ms each), per process: a difference
can be off by a tick or so per process, so read medians of several trials.
``runtime_first_s`` is the same window read from every thread's
``/proc/PID/task/TID/schedstat`` (:func:`tree_runtime_ns`, nanoseconds): finer,
but blind to a thread that ends within the window; ``runtime_first_by_thread``
splits it by thread (the page's main thread, the search's worker...).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from benchmarks.measure import descendants, percentile
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


#: How many results the box shows (0 when it says there are none).
_SHOWN = "() => document.querySelectorAll('.md-search-result__item').length"


def measure(
    site: Path, mode: str, rounds: int = 2, first_query: str = FIRST_QUERY, service_workers: str = "allow"
) -> dict[str, Any]:
    """First results, bytes before them and warm queries (none with ``rounds=0``) for one built site.

    ``service_workers="block"`` keeps the site's offline worker from installing (see :func:`measure_cpu`)."""
    from playwright.sync_api import sync_playwright

    with serve_static(site) as base, sync_playwright() as playwright:
        root = base if mode == "http" else site.resolve().as_uri()
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(
                viewport={"width": 375, "height": 740}, is_mobile=True, service_workers=service_workers
            )
            page = context.new_page()
            context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": THROTTLE})
            fetched: list[str] = []
            page.on("requestfinished", lambda request: fetched.append(request.url))
            page.goto(f"{root}/index.html", wait_until="load")
            first = page.evaluate(_ASK, [first_query, True])
            shown = page.evaluate(_SHOWN)
            before = list(fetched)
            warm = []
            for _ in range(rounds):
                for query in QUERIES:
                    page.evaluate(_ASK, ["", False])
                    warm.append(page.evaluate(_ASK, [query, True]))
            context.close()
        finally:
            browser.close()
    result = {"first_ms": first, "results": shown, **_fetched(site, root, before)}
    if warm:
        result |= {"warm_p50_ms": statistics.median(warm), "warm_p95_ms": percentile(warm, 0.95)}
    return result


def measure_cpu(site: Path, mode: str, first_query: str = FIRST_QUERY) -> dict[str, Any]:
    """The browser's CPU seconds to the first results of one built site, in a fresh headless Chromium.

    CPU not throttled; see the module's documentation for what each number counts."""
    from playwright.sync_api import sync_playwright

    with serve_static(site) as base, sync_playwright() as playwright:
        root = base if mode == "http" else site.resolve().as_uri()
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            pid = browser_pid()
            context = browser.new_context(
                viewport={"width": 375, "height": 740}, is_mobile=True, service_workers="block"
            )
            page = context.new_page()
            fetched: list[str] = []
            page.on("requestfinished", lambda request: fetched.append(request.url))
            settle_start = settle(pid)
            start = tree_cpu(pid)
            page.goto(f"{root}/index.html", wait_until="load")
            page.wait_for_load_state("networkidle")
            settle_loaded = settle(pid)
            loaded, loaded_ns = tree_cpu(pid), tree_runtime_ns(pid)
            first = page.evaluate(_ASK, [first_query, True])
            done, done_ns = tree_cpu(pid), tree_runtime_ns(pid)
            shown = page.evaluate(_SHOWN)
            threads = {t: (n - loaded_ns.get(t, 0)) / 1e9 for t, n in done_ns.items() if n > loaded_ns.get(t, 0)}
            before = list(fetched)
            context.close()
        finally:
            browser.close()
    kinds = sorted(set(done) | set(loaded))
    return {
        "cpu_first_s": sum(done.values()) - sum(loaded.values()),
        "cpu_nav_first_s": sum(done.values()) - sum(start.values()),
        "runtime_first_s": sum(threads.values()),
        "runtime_first_by_thread": dict(sorted(threads.items(), key=lambda item: -item[1])),
        "cpu_first_by_kind": {k: done.get(k, 0.0) - loaded.get(k, 0.0) for k in kinds},
        "first_ms": first,
        "results": shown,
        "settle_s": [settle_start, settle_loaded],
        **_fetched(site, root, before),
    }


#: Seconds per tick of ``/proc/PID/stat``'s CPU times.
TICK = 1 / os.sysconf("SC_CLK_TCK")


def _proc_stat(pid: int) -> tuple[int, float] | None:
    """``pid``'s parent and its CPU seconds (user + system, its own and its reaped children's); None if gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()  # the name in brackets may hold spaces
    return int(fields[1]), sum(int(n) for n in fields[11:15]) * TICK  # ppid; utime, stime, cutime, cstime


def _kind(pid: int, root: int) -> str:
    if pid == root:
        return "browser"
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return "gone"
    for word in command.split():
        if word.startswith("--type="):
            return word[len("--type=") :]
    return "other"


def tree_cpu(root: int) -> dict[str, float]:
    """CPU seconds (user + system) of ``root`` and all its descendants, by kind of process.

    The kind is Chromium's ``--type=`` (``renderer``, ``gpu-process``, ``utility``, ``zygote``), ``browser``
    for ``root`` itself and ``other`` for a process without one. Descendants that have exited and been
    waited for count in their parent's ``cutime``/``cstime``; threads count in their process."""
    if _proc_stat(root) is None:
        raise ProcessLookupError(f"no process {root}")
    by_kind: dict[str, float] = {}
    for pid in descendants(root):
        if (stat := _proc_stat(pid)) is not None:
            kind = _kind(pid, root)
            by_kind[kind] = by_kind.get(kind, 0.0) + stat[1]
    return by_kind


def tree_runtime_ns(root: int) -> dict[str, int]:
    """Nanoseconds on a CPU of every thread now alive in ``root``'s tree (``/proc/PID/task/TID/schedstat``),
    by ``"kind pid/thread name tid"`` (kind as in :func:`tree_cpu`; a process's main thread has the process's
    name, ``chromium`` for the renderer's, which runs the page; Chromium names the others: a Web Worker's
    ``DedicatedWorker``, ``Compositor``, ``ThreadPoolForeg``...).

    Finer than :func:`tree_cpu` (nanoseconds, not 10 ms ticks), but a thread that has ended is no longer
    counted, so a difference is only right if no thread ended in between (Chromium keeps its threads)."""
    found = {}
    for pid in descendants(root):
        kind = _kind(pid, root)
        try:
            threads = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in threads:
            try:
                name = Path(f"/proc/{pid}/task/{tid}/comm").read_text().strip()
                found[f"{kind} {pid}/{name} {tid}"] = int(
                    Path(f"/proc/{pid}/task/{tid}/schedstat").read_text().split()[0]
                )
            except (OSError, IndexError, ValueError):
                continue
    return found


def browser_pid() -> int:
    """The one Chromium browser process among this process's descendants (Playwright's driver starts it)."""
    names = {pid: _name(pid) for pid in descendants(os.getpid())[1:]}
    parents = {pid: (_proc_stat(pid) or (0, 0.0))[0] for pid in names}
    roots = [
        pid
        for pid, name in names.items()
        if name.startswith("chrom") and not names.get(parents[pid], "").startswith("chrom")
    ]
    if len(roots) != 1:
        raise RuntimeError(f"expected one Chromium browser below process {os.getpid()}, found {roots}")
    return roots[0]


def _name(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


def settle(pid: int, window: float = 0.5, quiet: float = 0.03, limit: float = 15.0) -> float:
    """Wait until the tree of ``pid`` used at most ``quiet`` CPU seconds in ``window`` seconds (or ``limit``
    passed); return the seconds waited."""
    start = time.perf_counter()
    used = sum(tree_cpu(pid).values())
    while time.perf_counter() - start < limit:
        time.sleep(window)
        now = sum(tree_cpu(pid).values())
        if now - used <= quiet:
            break
        used = now
    return time.perf_counter() - start


def _fetched(site: Path, root: str, urls: list[str]) -> dict[str, int]:
    """The bytes of the site's files at ``urls``: raw and gzipped, all and the search's."""
    files = [_local(site, root, url) for url in urls]
    files = [f for f in files if f is not None]
    search = [f for f in files if _is_search(f.relative_to(site.resolve()).as_posix())]
    return {
        "bytes": sum(f.stat().st_size for f in files),
        "gz_bytes": sum(len(gzip.compress(f.read_bytes(), 6)) for f in files),
        "search_bytes": sum(f.stat().st_size for f in search),
        "search_gz_bytes": sum(len(gzip.compress(f.read_bytes(), 6)) for f in search),
        "files": len(files),
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
    parser.add_argument(
        "--cpu", action="store_true", help="the browser's CPU time to the first results, unthrottled (measure_cpu)"
    )
    args = parser.parse_args(argv)
    for site in args.sites:
        start = time.perf_counter()
        if args.cpu:
            result = measure_cpu(site, args.mode, first_query=args.query)
        else:
            result = measure(site, args.mode, first_query=args.query)
        print(
            json.dumps(
                {"site": str(site), "mode": args.mode, **result, "seconds": round(time.perf_counter() - start, 1)}
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
