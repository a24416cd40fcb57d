"""``houserules serve``: a live preview on 127.0.0.1 that rebuilds when the data changes.

The data is loaded and checked before each build; a data error is logged one
problem per line and the previous pages stay served until the data is fixed.

Rebuilds are incremental: the check reads again only the files that changed
(:class:`~houserules.data.reading.readfile.ReadCache`; the checks across entries run whole),
and MkDocs' dirty build renders only the pages whose Markdown changed (the plugin keeps
the last build: :class:`~houserules.adapter.livepreview.LivePreview`). A change to the
hand-written pages, the theme overrides or ``mkdocs.yml``, a new navigation or a failed
build makes the next build a full one. The server, its watch and its folder are the
adapter's (:mod:`houserules.adapter.liveserver`).
"""

from __future__ import annotations

import gc
import logging
import shutil
import signal
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from .adapter.liveserver import DataWatch, RebuildRequests, make_site_folder, open_server
from .adapter.runner import not_the_dirty_warning, plugin_of, preview_build, preview_config, quiet_jieba
from .build import MKDOCS_YML, site_config
from .errors import HouserulesError

#: How long a signal's shut-down waits for MkDocs to start serving (it starts at once; a busy machine is slower).
SERVE_START_WAIT = 10.0

if TYPE_CHECKING:
    from .adapter.plugin import HouserulesPlugin

log = logging.getLogger("mkdocs.houserules")


def _files_signature(paths: list[Path]) -> tuple[tuple[str, int, int], ...]:
    """Names, sizes and times of every file under ``paths``: what the site's own pages and theme are made of."""
    found = []
    for root in paths:
        for path in sorted([root] if root.is_file() else root.rglob("*")):
            try:
                st = path.stat()
            except OSError:
                continue
            found.append((str(path), st.st_size, st.st_mtime_ns))
    return tuple(found)


class Session:
    """One live preview: the site folder, whether its last build succeeded and the data files as last read.

    What the last build made is the plugin's (:attr:`plugin`, kept by MkDocs from one build to the next).
    """

    #: Besides the data: the site's own pages, its theme overrides and its configuration.
    SITE_FILES = ("content", "site_overrides", "mkdocs.yml")

    def __init__(self, data_dir: Path, site_dir: Path, config_file: Path = MKDOCS_YML, site_url: str | None = None):
        from .data.reading.readfile import ReadCache

        self.data_dir, self.site_dir, self.config_file, self.site_url = data_dir, site_dir, config_file, site_url
        self.cache = ReadCache()
        #: The houserules plugin of the last build (None before the first).
        self.plugin: HouserulesPlugin | None = None
        self._site_files: tuple[tuple[str, int, int], ...] | None = None
        self._collector: threading.Timer | None = None
        self._lock = threading.Lock()

    #: Seconds after a build before the garbage of the builds is collected (the new pages are served first).
    COLLECT_AFTER = 1.0

    def build(self) -> bool:
        """Check the data and bring the site up to date; False (and the problems logged) when it was not rebuilt."""
        if self._collector is not None:
            self._collector.cancel()
        if self._site_files is not None:
            gc.disable()  # no full collection in the middle of a rebuild (it makes little garbage): see _collect
        try:
            return self._build()
        finally:
            self._collector = threading.Timer(self.COLLECT_AFTER, self._collect)
            self._collector.daemon = True
            self._collector.start()

    def _collect(self) -> None:
        """One full collection once the pages are served, then what the preview keeps stays out of the collector's way.

        The preview keeps millions of objects at 5,000 entries; the collector's full passes over
        them would cost every rebuild up to a second.
        """
        with self._lock:
            gc.unfreeze()
            gc.collect()
            gc.freeze()
            gc.enable()

    def _build(self) -> bool:
        with self._lock:
            return self._update()

    def _update(self) -> bool:
        from .check import run as run_check

        report = run_check(self.data_dir, self.cache)
        for problem in report.problems:
            log.error(str(problem)) if problem.severity == "error" else log.warning(str(problem))
        if report.errors:
            log.error(f"not rebuilt: the data has {len(report.errors)} problems; the last good pages stay served")
            return False
        site_files = _files_signature([self.config_file.parent / name for name in self.SITE_FILES])
        try:
            config = preview_config(report.kb, self.data_dir, self.site_dir, self.config_file, self.site_url)
            self.plugin = plugin_of(config)  # known before it builds: close() stops what a build left running
            preview_build(config, fresh=site_files != self._site_files)
        except (SystemExit, Exception) as exc:
            self._site_files = None
            log.error(f"not rebuilt: the site build failed ({exc or 'see the warnings above'})")
            return False
        self._site_files = site_files
        return True

    def close(self) -> None:
        """The preview ends: what the plugin keeps of it is dropped (its background indexing stops)."""
        if self.plugin is not None:
            self.plugin.stop_preview()


def serve(data_dir: Path, port: int, host: str = "127.0.0.1") -> int:
    """Build, serve and rebuild on changes until interrupted (Ctrl-C, SIGTERM or SIGHUP)."""
    if not data_dir.is_dir():
        raise HouserulesError(f"data folder not found: {data_dir} — pass --data DIR pointing at rules_data/")
    logging.basicConfig(level=logging.INFO, format="%(levelname)-7s -  %(message)s")
    logging.getLogger("mkdocs.commands.build").addFilter(not_the_dirty_warning)
    quiet_jieba()
    serving = threading.Event()

    def stop(signum: int, frame: object) -> None:
        """SIGTERM or SIGHUP: the same way out as Ctrl-C, the server stops and its folder is removed. While it
        serves, the main thread waits in MkDocs' build loop, and an exception raised there can leave the loop's
        lock taken (a preview that never stopped): the loop is told to end instead, from another thread."""
        if not serving.is_set():
            raise KeyboardInterrupt
        threading.Thread(target=shut_down_once_serving, name="houserules-stop", daemon=True).start()

    def shut_down_once_serving() -> None:
        """The server shut down once its thread runs: a signal between "serving on" and MkDocs starting that thread
        would otherwise close the socket first, and the thread would then fail on it (a traceback on the way out)."""
        deadline = time.monotonic() + SERVE_START_WAIT
        while not server.serve_thread.is_alive() and time.monotonic() < deadline:
            time.sleep(0.01)
        server.shutdown()

    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, stop)
    folder, site_dir = make_site_folder()
    session = Session(data_dir, site_dir, site_config(data_dir))

    def builder() -> None:
        session.build()

    try:
        server = open_server(builder, host, port, site_dir)
    except OSError as exc:
        shutil.rmtree(folder, ignore_errors=True)
        raise HouserulesError(f"cannot listen on {host}:{port}: {exc.strerror} — choose another --port") from None
    session.site_url = f"http://{host}:{server.server_port}/"
    keeper = None
    try:
        builder()
        watched = str(data_dir.resolve())
        server.watch(watched)
        # Those of the site's own files that it has: a knowledge base of 'houserules init' takes the theme from the package.
        extra = [str(own) for name in Session.SITE_FILES if (own := session.config_file.parent / name).exists()]
        for path in extra:
            server.watch(path)
        requests = RebuildRequests(server, folder / "requests")
        requests.watch()
        keeper = DataWatch(server, Path(watched), extra, requests)
        keeper.start()
        print(
            f"serving on http://{host}:{server.server_port}/ (rebuilds when {data_dir} changes; Ctrl-C stops)",
            flush=True,
        )
        serving.set()
        server.serve()
    except KeyboardInterrupt:
        pass
    finally:
        for signum in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, signal.SIG_IGN)  # a second signal must not interrupt the clean-up
        if keeper is not None:
            keeper.stopped.set()
        server.shutdown()
        session.close()
        shutil.rmtree(folder, ignore_errors=True)
    return 0
