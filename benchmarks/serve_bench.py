"""Edit to refreshed page under ``houserules serve``: from saving an entry to its new page on disk.

    .venv/bin/python -m benchmarks.serve_bench DATA [--edits 3]

Starts ``houserules serve --port 0`` on ``DATA`` (a copy is edited, never ``DATA``
itself), waits for the first build, then saves a changed one-line answer into an
entry several times, each time timing from the save to the moment the entry's
page, fetched from the server, shows the new text. The server holds requests
while it rebuilds, so the time includes the whole rebuild (check, pages, the
JSON API; the site search index follows in the background). Prints the median
and the worst, in seconds.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

BIN = Path(sys.executable).parent


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=600) as response:
        return response.read().decode("utf-8")


def edit_to_page(data: Path, edits: int = 3, timeout: float = 900) -> list[float]:
    """Seconds from each save to the refreshed page, for ``edits`` saves of one entry."""
    from houserules.data.reading.load import load

    with tempfile.TemporaryDirectory(prefix="houserules-serve-bench-") as tmp:
        copy = Path(tmp) / "data"
        shutil.copytree(data, copy)
        kb = load(copy).kb
        # An entry of the middle game: neither the first nor the last file read.
        entry = list(kb.entries.values())[len(kb.entries) // 2]
        url_path = f"{entry.game}/{entry.id}.html"
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
        server = subprocess.Popen(
            [str(BIN / "houserules"), "serve", "--data", str(copy), "--port", "0"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        try:
            line = server.stdout.readline() if server.stdout else ""
            if not line.startswith("serving on "):
                raise SystemExit(f"houserules serve did not start: {line!r}")
            base = line.split()[2]
            _get(base + url_path)
            times = []
            original = entry.path.read_text(encoding="utf-8")
            for n in range(edits):
                marker = f"BENCHMARK-EDIT-{n}"
                text = original.replace("summary:\n  zh: ", f"summary:\n  zh: {marker}", 1)
                if text == original:
                    text = original.replace("summary: {zh: ", f"summary: {{zh: {marker}", 1)
                assert text != original, entry.path
                time.sleep(1.0)  # let the server settle after the last build
                saved = time.perf_counter()
                entry.path.write_text(text, encoding="utf-8")
                while marker not in _get(base + url_path):
                    if time.perf_counter() - saved > timeout:
                        raise SystemExit(f"the page did not change within {timeout} s")
                    time.sleep(0.05)
                times.append(time.perf_counter() - saved)
            return times
        finally:
            server.terminate()
            server.wait(timeout=60)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path)
    parser.add_argument("--edits", type=int, default=3)
    args = parser.parse_args(argv)
    times = edit_to_page(args.data, args.edits)
    print(
        f"edit to page: median {statistics.median(times):.2f} s, worst {max(times):.2f} s "
        f"({', '.join(f'{t:.2f}' for t in times)})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
