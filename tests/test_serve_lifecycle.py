"""``houserules serve`` over its life: stopped by a signal it removes its folder, a stale folder of a killed
preview is removed at the next start, and a data folder deleted and made again is watched again."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from conftest import GOOD, HOUSERULES
from houserules.adapter.liveserver import SERVE_MARKER, remove_stale_folders

pytestmark = pytest.mark.slow


def start(tmp_path: Path) -> tuple[Path, Path, subprocess.Popen, list[str], str]:
    """A preview of a copy of the good fixture, with its own temporary folder; its log is collected."""
    data, tmp = tmp_path / "my-data", tmp_path / "tmp"
    shutil.copytree(GOOD, data)
    tmp.mkdir()
    process = subprocess.Popen(
        [str(HOUSERULES), "serve", "--port", "0", "--data", str(data)],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "TMPDIR": str(tmp), "NO_MKDOCS_2_WARNING": "1"},
    )
    log: list[str] = []
    reader = threading.Thread(target=lambda: log.extend(iter(process.stderr.readline, "")), daemon=True)
    reader.start()
    STARTED.append((process, reader))
    line = process.stdout.readline()
    match = re.search(r"http://\S+/", line)
    assert match, line + "".join(log)
    return data, tmp, process, log, match.group(0)


STARTED: list[tuple[subprocess.Popen, threading.Thread]] = []


@pytest.fixture(autouse=True)
def close_pipes():
    """Every preview started is stopped and its pipes closed, whatever the test did."""
    yield
    while STARTED:
        process, reader = STARTED.pop()
        if process.poll() is None:
            process.kill()
        process.wait()
        reader.join(timeout=10)
        process.stdout.close()
        process.stderr.close()


def wait_for(what, deadline: float, message: str = ""):
    while time.monotonic() < deadline:
        found = what()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(message or "timed out")


def page(url: str) -> str:
    try:
        return urllib.request.urlopen(url, timeout=5).read().decode("utf-8")
    except OSError:
        return ""


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_signal_stops_the_preview_and_removes_its_folder(tmp_path, signum):
    _, tmp, process, log, url = start(tmp_path)
    try:
        wait_for(lambda: "有障碍的房间" in page(url + "demo/tower.html"), time.monotonic() + 120, "".join(log))
        folders = list(tmp.glob("houserules-serve-*"))
        assert len(folders) == 1 and (folders[0] / SERVE_MARKER).read_text().strip() == str(process.pid)
        process.send_signal(signum)
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
    assert list(tmp.iterdir()) == []
    assert "Traceback" not in "".join(log)


def test_only_stale_folders_of_previews_are_removed(tmp_path):
    dead = subprocess.Popen(["true"])
    dead.wait()
    stale = tmp_path / "houserules-serve-stale"
    stale.mkdir()
    (stale / SERVE_MARKER).write_text(f"{dead.pid}\n")
    (stale / "site").mkdir()
    live = tmp_path / "houserules-serve-live"
    live.mkdir()
    (live / SERVE_MARKER).write_text(f"{os.getppid()}\n")
    unmarked = tmp_path / "houserules-serve-unmarked"
    unmarked.mkdir()
    junk = tmp_path / "houserules-serve-junk"
    junk.mkdir()
    (junk / SERVE_MARKER).write_text("not a pid\n")
    linked = tmp_path / "houserules-serve-link"
    linked.symlink_to(stale, target_is_directory=True)
    assert remove_stale_folders(tmp_path) == [stale]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["houserules-serve-live", "houserules-serve-unmarked", "houserules-serve-junk", "houserules-serve-link"]
    )


def test_a_start_removes_the_folder_a_killed_preview_left(tmp_path):
    data, tmp, process, log, url = start(tmp_path)
    wait_for(lambda: "有障碍的房间" in page(url + "demo/tower.html"), time.monotonic() + 120, "".join(log))
    process.kill()  # no clean-up can run
    process.wait()
    (left,) = tmp.glob("houserules-serve-*")
    with subprocess.Popen(
        [str(HOUSERULES), "serve", "--port", "0", "--data", str(data)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "TMPDIR": str(tmp), "NO_MKDOCS_2_WARNING": "1"},
    ) as again:
        try:
            assert again.stdout.readline().startswith("serving on ")
            assert not left.exists()
            assert len(list(tmp.glob("houserules-serve-*"))) == 1
        finally:
            again.terminate()
            again.wait(timeout=30)
    assert list(tmp.iterdir()) == []


def test_a_data_folder_deleted_and_made_again_is_watched_again(tmp_path):
    data, _, process, log, url = start(tmp_path)
    try:
        deadline = time.monotonic() + 180
        wait_for(lambda: "有障碍的房间" in page(url + "demo/tower.html"), deadline, "".join(log))
        wait_for(lambda: any("Watching paths for changes" in line for line in log), deadline, "".join(log))
        shutil.rmtree(data)
        wait_for(lambda: any(f"the data folder {data} is gone" in line for line in log), deadline, "".join(log))
        shutil.copytree(GOOD, data)
        entry = data / "demo/entries/tower.yaml"
        entry.write_text(entry.read_text(encoding="utf-8").replace("有障碍的房间", "回来的房间"), encoding="utf-8")
        wait_for(lambda: "回来的房间" in page(url + "demo/tower.html"), deadline, "".join(log))
        assert any(f"the data folder {data} is back: watching it again" in line for line in log)
        entry.write_text(entry.read_text(encoding="utf-8").replace("回来的房间", "再改的房间"), encoding="utf-8")
        wait_for(lambda: "再改的房间" in page(url + "demo/tower.html"), deadline, "".join(log))
    finally:
        process.terminate()
        process.wait(timeout=30)
    assert "Traceback" not in "".join(log)


@pytest.mark.parametrize("delay", [0.0, 0.05, 0.3, 1.0])
def test_a_signal_stops_the_preview_whenever_it_comes(tmp_path, delay):
    """SIGTERM the moment the preview says it serves, or a little later (a test runner stopping ``make serve``
    as soon as the page answered): it always stops and removes its folder. Raised as an exception in MkDocs'
    build loop it could leave the loop's lock taken, and the preview then never stopped."""
    _, tmp, process, log, url = start(tmp_path)
    try:
        time.sleep(delay)
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=60) == 0, "".join(log)
    finally:
        if process.poll() is None:
            process.kill()
    assert list(tmp.iterdir()) == []
    assert "Traceback" not in "".join(log)
