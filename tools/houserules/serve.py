"""``houserules serve``: a live preview on 127.0.0.1 that rebuilds when the data changes.

The data is loaded and checked before each build; a data error is logged one
problem per line and the previous pages stay served until the data is fixed.

Rebuilds are incremental: the check reads again only the files that changed
(:class:`~houserules.data.reading.readfile.ReadCache`; the checks across entries run whole),
and MkDocs' dirty build renders only the pages whose Markdown changed
(:class:`~houserules.site.plugin.Preview`). A change to the hand-written pages, the
theme overrides or ``mkdocs.yml``, a new navigation or a failed build makes the
next build a full one.
"""

from __future__ import annotations

import gc
import logging
import shutil
import signal
import threading
from pathlib import Path

from .build import MKDOCS_YML, ROOT, mkdocs_config, quiet_jieba
from .errors import HouserulesError
from .site.watch import DataWatch, make_site_folder

log = logging.getLogger("mkdocs.houserules")


def _changes() -> list[type]:
    """The file events that are changes (watchdog also reports files opened and closed unwritten)."""
    from watchdog import events

    return [
        events.FileCreatedEvent,
        events.FileDeletedEvent,
        events.FileModifiedEvent,
        events.FileMovedEvent,
        events.FileClosedEvent,
        events.FileAttribEvent,
        events.DirCreatedEvent,
        events.DirDeletedEvent,
        events.DirMovedEvent,
    ]


def _server(builder, host: str, port: int, root: Path):
    """MkDocs' live-reload server, bound before the first build: a taken port fails at once, port 0 gets a real one.

    It watches with the system's file events (inotify on Linux) where watchdog has them, not by
    polling: polling thousands of data files every half second costs a core's tenth and up to
    half a second before a save is seen.
    """
    import watchdog.observers
    from mkdocs.livereload import LiveReloadServer

    class Server(LiveReloadServer):
        def server_bind(self) -> None:
            if not getattr(self, "_bound", False):
                super().server_bind()
                self._bound = True
                self.url = f"http://{host}:{self.server_port}/"

        def server_activate(self) -> None:
            if not getattr(self, "_active", False):
                super().server_activate()
                self._active = True

        def _inject_js_into_html(self, content: bytes, epoch: int) -> bytes:
            # The reload script MkDocs adds to each page it serves is allowed by the page's policy too.
            from .site.csp import add_policy

            return add_policy(super()._inject_js_into_html(content, epoch).decode("utf-8")).encode("utf-8")

    class ChangesOnly(watchdog.observers.Observer):  # type: ignore[misc,valid-type]  # a per-platform class
        """Reports writes, creations, removals, renames and permission changes, not a file being read:
        a build reads the data (the site index is built from every file), which must not start another."""

        def schedule(self, event_handler, path, *, recursive=False, event_filter=None, follow_symlink=False):
            return super().schedule(
                event_handler,
                path,
                recursive=recursive,
                event_filter=event_filter or _changes(),
                follow_symlink=follow_symlink,
            )

    server = Server(builder=builder, host=host, port=port, root=str(root))
    server.observer = ChangesOnly()  # nothing is watched yet
    server.server_bind()
    server.server_activate()
    return server


def _files_signature(paths: list[Path]) -> tuple:
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


def _not_the_dirty_warning(record: logging.LogRecord) -> bool:
    # MkDocs warns that a dirty build may leave the navigation stale: the preview renders every
    # page again when the navigation changes, and in strict mode the warning would abort the build.
    return not record.getMessage().startswith("A 'dirty' build is being performed")


class Session:
    """One live preview: the site folder, what its last build made and the data files as last read."""

    #: Besides the data: the site's own pages, its theme overrides and its configuration.
    SITE_FILES = ("content", "site_overrides", "mkdocs.yml")

    def __init__(self, data_dir: Path, site_dir: Path, config_file: Path = MKDOCS_YML, site_url: str | None = None):
        from .data.reading.readfile import ReadCache
        from .site.preview import Preview

        self.data_dir, self.site_dir, self.config_file, self.site_url = data_dir, site_dir, config_file, site_url
        self.cache = ReadCache()
        self.preview = Preview()
        self._site_files: tuple | None = None
        self._collector: threading.Timer | None = None
        self._lock = threading.Lock()

    #: Seconds after a build before the garbage of the builds is collected (the new pages are served first).
    COLLECT_AFTER = 1.0

    def build(self) -> bool:
        """Check the data and bring the site up to date; False (and the problems logged) when it was not rebuilt."""
        if self._collector is not None:
            self._collector.cancel()
        if self.preview.state is not None:
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
        from mkdocs.commands.build import build

        from .check import run as run_check

        report = run_check(self.data_dir, self.cache)
        for problem in report.problems:
            log.error(str(problem)) if problem.severity == "error" else log.warning(str(problem))
        if report.errors:
            log.error(f"not rebuilt: the data has {len(report.errors)} problems; the last good pages stay served")
            return False
        site_files = _files_signature([self.config_file.parent / name for name in self.SITE_FILES])
        if site_files != self._site_files:
            self.preview.reset()
        config = mkdocs_config(report.kb, self.data_dir, self.site_dir, self.config_file, preview=self.preview)
        config.plugins["houserules"].config.offline = False  # a preview's pages never come from a cache
        if self.site_url:
            config.site_url = self.site_url
        dirty = self.preview.start(report.kb, config)
        try:
            build(config, serve_url=config.site_url, dirty=dirty)
        except (SystemExit, Exception) as exc:
            self.preview.reset()
            self._site_files = None
            log.error(f"not rebuilt: the site build failed ({exc or 'see the warnings above'})")
            return False
        self.preview.commit()
        self._site_files = site_files
        return True


def _stop_on_signal(signum, frame) -> None:
    raise KeyboardInterrupt  # the same way out as Ctrl-C: the server stops and its folder is removed


def serve(data_dir: Path, port: int, host: str = "127.0.0.1") -> int:
    """Build, serve and rebuild on changes until interrupted (Ctrl-C, SIGTERM or SIGHUP)."""
    if not data_dir.is_dir():
        raise HouserulesError(f"data folder not found: {data_dir} — pass --data DIR pointing at rules_data/")
    logging.basicConfig(level=logging.INFO, format="%(levelname)-7s -  %(message)s")
    logging.getLogger("mkdocs.commands.build").addFilter(_not_the_dirty_warning)
    quiet_jieba()
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _stop_on_signal)
    folder, site_dir = make_site_folder()
    session = Session(data_dir, site_dir)

    def builder() -> None:
        session.build()

    try:
        server = _server(builder, host, port, site_dir)
    except OSError as exc:
        shutil.rmtree(folder, ignore_errors=True)
        raise HouserulesError(f"cannot listen on {host}:{port}: {exc.strerror} — choose another --port") from None
    session.site_url = f"http://{host}:{server.server_port}/"
    keeper = None
    try:
        builder()
        watched = str(data_dir.resolve())
        server.watch(watched)
        extra = [str(ROOT / name) for name in Session.SITE_FILES]
        for path in extra:
            server.watch(path)
        keeper = DataWatch(server, Path(watched), extra)
        keeper.start()
        print(
            f"serving on http://{host}:{server.server_port}/ (rebuilds when {data_dir} changes; Ctrl-C stops)",
            flush=True,
        )
        server.serve()
    except KeyboardInterrupt:
        pass
    finally:
        for signum in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, signal.SIG_IGN)  # a second signal must not interrupt the clean-up
        if keeper is not None:
            keeper.stopped.set()
        server.shutdown()
        shutil.rmtree(folder, ignore_errors=True)
    return 0
