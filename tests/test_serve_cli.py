"""``houserules serve`` as a user runs it: the port it says, the data folder it watches, its mistakes."""

from __future__ import annotations

import re
import shutil
import subprocess
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from conftest import GOOD, HOUSERULES, run_process
from houserules.adapter.csp import add_policy

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("port", ["99999", "-1", "http", "8000x"])
def test_a_port_out_of_range_is_refused_before_any_build(port):
    result = run_process("serve", "--port", port, "--data", str(GOOD), timeout=60)
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == (
        f"houserules serve: error: argument --port: must be a port number from 0 to 65535 (0: any free port), not {port!r}"
    )
    assert "building" not in result.stderr.lower() and result.stdout == ""


def test_a_taken_port_is_a_clear_message():
    with subprocess.Popen(
        [
            "python3",
            "-c",
            "import socket,time; s=socket.socket(); s.bind(('127.0.0.1',0)); s.listen();"
            "print(s.getsockname()[1], flush=True); time.sleep(60)",
        ],
        stdout=subprocess.PIPE,
        text=True,
    ) as holder:
        port = holder.stdout.readline().strip()
        try:
            result = run_process("serve", "--port", port, "--data", str(GOOD), timeout=60)
        finally:
            holder.kill()
    assert result.returncode == 1
    assert result.stderr.strip() == (
        f"houserules serve: cannot listen on 127.0.0.1:{port}: Address already in use — choose another --port"
    )


def _wait_for(url: str, text: str, deadline: float) -> str:
    while time.monotonic() < deadline:
        try:
            page = urllib.request.urlopen(url, timeout=5).read().decode("utf-8")
            if text in page:
                return page
        except OSError:
            pass
        time.sleep(0.3)
    raise AssertionError(f"{url} never showed {text!r}")


def _serve_a_copy(tmp_path: Path) -> tuple[Path, subprocess.Popen]:
    """``houserules serve --port 0`` on a copy of the good fixture (``my-data``), its output piped."""
    data = tmp_path / "my-data"
    shutil.copytree(GOOD, data)
    process = subprocess.Popen(
        [str(HOUSERULES), "serve", "--port", "0", "--data", str(data)],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    return data, process


def test_port_zero_serves_on_the_port_it_prints_and_rebuilds_from_the_data_it_was_given(tmp_path):
    data, process = _serve_a_copy(tmp_path)
    try:
        line = process.stdout.readline()
        match = re.fullmatch(
            r"serving on (http://127\.0\.0\.1:(\d+)/) \(rebuilds when .*my-data changes; Ctrl-C stops\)\n", line
        )
        assert match and match.group(2) != "0", line
        url = match.group(1)
        deadline = time.monotonic() + 120
        page = _wait_for(url + "demo/tower.html", "有障碍的房间", deadline)
        assert "livereload" in page and add_policy(page) == page  # the policy allows the reload script
        entry = data / "demo/entries/tower.yaml"
        entry.write_text(entry.read_text(encoding="utf-8").replace("有障碍的房间", "改过的房间"), encoding="utf-8")
        _wait_for(url + "demo/tower.html", "改过的房间", deadline)
        # A data error is logged and the last good pages stay served.
        entry.write_text("id: tower\ncode: [", encoding="utf-8")
        time.sleep(3)
        assert "改过的房间" in urllib.request.urlopen(url + "demo/tower.html", timeout=5).read().decode("utf-8")
    finally:
        process.terminate()
        _, err = process.communicate(timeout=30)
    assert "demo/entries/tower.yaml:2: demo:tower: malformed YAML" in err
    assert "Traceback" not in err


def test_reading_the_data_starts_no_rebuild_and_a_save_does(tmp_path):
    """A build reads every data file (the site's search index is made from them): file reads are not changes,
    or the preview would rebuild for ever."""
    data, process = _serve_a_copy(tmp_path)
    log: list[str] = []
    reader = threading.Thread(target=lambda: log.extend(iter(process.stderr.readline, "")), daemon=True)
    reader.start()

    def builds() -> int:
        return sum("Documentation built in" in line for line in list(log))

    try:
        url = re.search(r"http://\S+/", process.stdout.readline()).group(0)
        deadline = time.monotonic() + 120
        _wait_for(url + "demo/tower.html", "有障碍的房间", deadline)
        while not any("Watching paths for changes" in line for line in list(log)):
            assert time.monotonic() < deadline, "".join(log)
            time.sleep(0.2)
        time.sleep(3)  # a rebuild set off by the first build's own reads would have started by now
        before = builds()
        for path in sorted(data.rglob("*.yaml")):
            path.read_bytes()
        time.sleep(3)
        assert builds() == before, "".join(log)
        entry = data / "demo/entries/tower.yaml"
        entry.write_text(entry.read_text(encoding="utf-8").replace("有障碍的房间", "改过的房间"), encoding="utf-8")
        _wait_for(url + "demo/tower.html", "改过的房间", deadline)
        assert builds() > before
    finally:
        process.terminate()
        process.communicate(timeout=30)
        reader.join(timeout=5)
