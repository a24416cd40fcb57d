"""``houserules serve``: a live preview on 127.0.0.1 that rebuilds when the data changes.

The data is loaded and checked before each build; a data error is logged one
problem per line and the previous pages stay served until the data is fixed.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
from pathlib import Path

from .build import MKDOCS_YML, ROOT, _quiet_jieba, mkdocs_config
from .errors import HouserulesError

log = logging.getLogger("mkdocs.houserules")


def _server(builder, host: str, port: int, root: Path):
    """MkDocs' live-reload server, bound before the first build: a taken port fails at once, port 0 gets a real one."""
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

    server = Server(builder=builder, host=host, port=port, root=str(root))
    server.server_bind()
    server.server_activate()
    return server


def serve(data_dir: Path, port: int, host: str = "127.0.0.1") -> int:
    """Build, serve and rebuild on changes until interrupted."""
    from mkdocs.commands.build import build

    from .check import run as run_check

    if not data_dir.is_dir():
        raise HouserulesError(f"data folder not found: {data_dir} — pass --data DIR pointing at rules_data/")
    logging.basicConfig(level=logging.INFO, format="%(levelname)-7s -  %(message)s")
    _quiet_jieba()
    site_dir = Path(tempfile.mkdtemp(prefix="houserules-serve-"))

    def builder() -> None:
        report = run_check(data_dir)
        for problem in report.problems:
            log.error(str(problem)) if problem.severity == "error" else log.warning(str(problem))
        if report.errors:
            log.error(f"not rebuilt: the data has {len(report.errors)} problems; the last good pages stay served")
            return
        config = mkdocs_config(report.kb, data_dir, site_dir, MKDOCS_YML)
        config.plugins["houserules"].config.offline = False  # a preview's pages never come from a cache
        config.site_url = f"http://{host}:{server.server_port}/"
        try:
            build(config, serve_url=config.site_url)
        except SystemExit:
            log.error("not rebuilt: the site build failed (see the warnings above)")

    try:
        server = _server(builder, host, port, site_dir)
    except OSError as exc:
        shutil.rmtree(site_dir, ignore_errors=True)
        raise HouserulesError(f"cannot listen on {host}:{port}: {exc.strerror} — choose another --port") from None
    try:
        builder()
        server.watch(str(data_dir.resolve()))
        for extra in ("content", "site_overrides", "mkdocs.yml"):
            server.watch(str(ROOT / extra))
        print(f"serving on http://{host}:{server.server_port}/ (rebuilds when {data_dir} changes; Ctrl-C stops)",
              flush=True)
        server.serve()
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
        shutil.rmtree(site_dir, ignore_errors=True)
    return 0
