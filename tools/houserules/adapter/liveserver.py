"""The live preview's server and files (``houserules serve``): MkDocs' live-reload server, the watch on the
data folder and the preview's temporary site folder.

Only the public API of :class:`mkdocs.livereload.LiveReloadServer` is used: its constructor, ``watch``,
``unwatch``, ``serve`` and ``shutdown``, its ``observer`` (replaced before anything is watched), the
``server_bind`` and ``server_activate`` of every :mod:`socketserver` server (called before the first
build, so a taken port fails at once; ``serve`` calls them again, which then does nothing) and the
WSGI application of every :mod:`wsgiref` server (``get_app`` and ``set_app``):

- the reload script the server adds to each page it serves is allowed by the page's policy: the
  application is wrapped (:func:`serve_with_policy`), and the policy of the page as served replaces
  the one it was built with (:func:`houserules.adapter.csp.add_policy`);
- a rebuild that no file change sets off (the data folder deleted and made again: a checkout
  switched) is asked for by writing a file in a folder the server watches (:class:`RebuildRequests`).

A preview builds into a temporary folder marked with :data:`SERVE_MARKER` (the id of its
process): a preview stopped by a signal removes it, and one killed outright leaves it for
the next preview to remove. The data folder is watched by its file events; a folder deleted
and made again has lost them, which :class:`DataWatch` notices.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import stat
import tempfile
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from mkdocs.livereload import LiveReloadServer

from .csp import add_policy

log = logging.getLogger("mkdocs.houserules")

#: The file in a preview's temporary folder that says it is one, and which process made it.
SERVE_MARKER = ".houserules-serve"
SERVE_PREFIX = "houserules-serve-"


def make_site_folder() -> tuple[Path, Path]:
    """A marked temporary folder for one preview (removing stale ones first) and the site folder in it."""
    remove_stale_folders()
    folder = Path(tempfile.mkdtemp(prefix=SERVE_PREFIX))
    (folder / SERVE_MARKER).write_text(f"{os.getpid()}\n", encoding="utf-8")
    site = folder / "site"
    site.mkdir()
    return folder, site


def remove_stale_folders(tmp: Path | None = None) -> list[Path]:
    """Remove the temporary folders of previews that are no longer running; return them.

    Only a real folder of this user named ``houserules-serve-*`` holding :data:`SERVE_MARKER`
    with the id of a process that is gone counts: anything else there is left alone.
    """
    removed = []
    for folder in sorted((tmp or Path(tempfile.gettempdir())).glob(SERVE_PREFIX + "*")):
        marker = folder / SERVE_MARKER
        try:
            info = folder.lstat()
            if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid() or marker.is_symlink():
                continue
            pid = int(marker.read_text(encoding="utf-8").strip())
        except (OSError, ValueError):
            continue
        if pid != os.getpid() and not _running(pid):
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return pid > 0


# -- the server ------------------------------------------------------------------------------------------------


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


def open_server(builder: Callable[[], None], host: str, port: int, root: Path) -> LiveReloadServer:
    """MkDocs' live-reload server, bound before the first build: a taken port fails at once (OSError), port 0
    gets a real one; the pages it serves carry a policy that allows its reload script.

    It watches with the system's file events (inotify on Linux) where watchdog has them, not by
    polling: polling thousands of data files every half second costs a core's tenth and up to
    half a second before a save is seen.
    """
    import watchdog.observers

    class Server(LiveReloadServer):
        # serve() binds and listens: done here already, so the second time does nothing.
        def server_bind(self) -> None:
            if not getattr(self, "bound", False):
                super().server_bind()
                self.bound = True
                self.url = f"http://{host}:{self.server_port}/"

        def server_activate(self) -> None:
            if not getattr(self, "active", False):
                super().server_activate()
                self.active = True

    class ChangesOnly(watchdog.observers.Observer):  # type: ignore[misc,valid-type]  # a per-platform class
        """Reports writes, creations, removals, renames and permission changes, not a file being read:
        a build reads the data, which must not start another."""

        def schedule(
            self,
            event_handler: Any,
            path: str,
            *,
            recursive: bool = False,
            event_filter: Any = None,
            follow_symlink: bool = False,
        ) -> Any:
            return super().schedule(
                event_handler,
                path,
                recursive=recursive,
                event_filter=event_filter or _changes(),
                follow_symlink=follow_symlink,
            )

    server = Server(builder=builder, host=host, port=port, root=str(root))
    server.observer = ChangesOnly()  # nothing is watched yet
    try:
        server.server_bind()
        server.server_activate()
    except OSError:
        server.server_close()
        raise
    return serve_with_policy(server)


def serve_with_policy(server: LiveReloadServer) -> LiveReloadServer:
    """``server`` serving its pages with a Content-Security-Policy that allows the scripts they hold as served
    (the reload script the server adds is one)."""
    app = server.get_app()
    if app is None or getattr(app, "with_policy", False):
        return server
    server.set_app(_with_policy(app))
    return server


def _with_policy(app: Callable[..., Iterable[bytes]]) -> Callable[..., Iterable[bytes]]:
    def policed(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        answer: list[Any] = []
        body = app(environ, lambda status, headers, exc_info=None: answer.extend([status, headers, exc_info]))
        status, headers, exc_info = answer
        if not any(k.lower() == "content-type" and v.startswith("text/html") for k, v in headers):
            start_response(status, headers, exc_info)
            return body
        try:
            page = b"".join(body)
        finally:
            if hasattr(body, "close"):
                body.close()
        page = add_policy(page.decode("utf-8", "surrogateescape")).encode("utf-8", "surrogateescape")
        headers = [(k, str(len(page)) if k.lower() == "content-length" else v) for k, v in headers]
        start_response(status, headers, exc_info)
        return [page]

    policed.with_policy = True  # type: ignore[attr-defined]
    return policed


class RebuildRequests:
    """A folder the server watches, in the preview's temporary folder: a file written there asks for a
    rebuild (and reloads the browsers), as a saved data file does."""

    def __init__(self, server: LiveReloadServer, folder: Path):
        self.server, self.folder = server, folder
        folder.mkdir(exist_ok=True)
        self._count = 0

    def watch(self) -> None:
        self.server.watch(str(self.folder))

    def ask(self) -> None:
        self._count += 1
        (self.folder / "rebuild").write_text(f"{self._count}\n", encoding="utf-8")


class DataWatch(threading.Thread):
    """Notices the data folder being deleted and made again (a checkout switched, a folder restored):
    the file watch on the old folder is gone with it, so the folder is watched again and rebuilt.
    While it is missing the log says, once, that saves are not rebuilt."""

    INTERVAL = 1.0

    def __init__(self, server: LiveReloadServer, data_dir: Path, extra: list[str], requests: RebuildRequests):
        super().__init__(daemon=True, name="houserules-data-watch")
        self.server, self.data_dir, self.extra, self.requests = server, data_dir, extra, requests
        self.stopped = threading.Event()
        self.identity = self._identity()

    def _identity(self) -> tuple[int, int] | None:
        try:
            info = os.stat(self.data_dir)
        except OSError:
            return None
        return (info.st_dev, info.st_ino) if stat.S_ISDIR(info.st_mode) else None

    def run(self) -> None:
        while not self.stopped.wait(self.INTERVAL):
            now = self._identity()
            if now == self.identity:
                continue
            if now is None:
                log.error(
                    f"the data folder {self.data_dir} is gone: not watching it; "
                    "the preview watches for it and rebuilds when it is back"
                )
            else:
                self._watch_again()
                log.info(f"the data folder {self.data_dir} is back: watching it again and rebuilding")
                self.requests.ask()
            self.identity = now

    def _watch_again(self) -> None:
        paths = [str(self.data_dir), *self.extra, str(self.requests.folder)]
        for path in paths:
            with contextlib.suppress(KeyError, OSError):
                self.server.unwatch(path)
        with contextlib.suppress(KeyError, OSError):
            self.server.observer.unschedule_all()
        for path in paths:
            self.server.watch(path)
