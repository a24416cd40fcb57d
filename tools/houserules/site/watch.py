"""The files of a live preview (``houserules serve``): its temporary site folder and the watch on the data folder.

A preview builds into a temporary folder marked with :data:`SERVE_MARKER` (the id of its
process): a preview stopped by a signal removes it, and one killed outright leaves it for
the next preview to remove. The data folder is watched by its file events; a folder deleted
and made again (a checkout switched) has lost them, which :class:`DataWatch` notices.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import stat
import tempfile
import threading
from pathlib import Path

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


class DataWatch(threading.Thread):
    """Notices the data folder being deleted and made again (a checkout switched, a folder restored):
    the file watch on the old folder is gone with it, so the folder is watched again and rebuilt.
    While it is missing the log says, once, that saves are not rebuilt."""

    INTERVAL = 1.0

    def __init__(self, server, data_dir: Path, extra: list[str]):
        super().__init__(daemon=True, name="houserules-data-watch")
        self.server, self.data_dir, self.extra = server, data_dir, extra
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
                with self.server._rebuild_cond:
                    self.server._want_rebuild = True
                    self.server._rebuild_cond.notify_all()
            self.identity = now

    def _watch_again(self) -> None:
        paths = [str(self.data_dir), *self.extra]
        for path in paths:
            with contextlib.suppress(KeyError, OSError):
                self.server.unwatch(path)
        with contextlib.suppress(KeyError, OSError):
            self.server.observer.unschedule_all()
        for path in paths:
            self.server.watch(path)
