"""A full disk or a read-only folder: one clear message, nothing left behind.

``build``, ``new``, ``stamp``, ``export -o`` and ``pdf -o`` each meet a write that fails with
ENOSPC (no space left on device) or EROFS (a read-only file system), raised at the write seam
itself (``os.open``, ``os.fsync``, ``tempfile.mkstemp``, a step of the build), since a tiny
tmpfs needs a mount this suite cannot count on. Each command ends with exit 1 and one line that
names the path and what is wrong (never a traceback, never advice to remove a lock), and leaves
nothing behind: no empty or partial file, no temporary folder, no lock held, the previous site,
data file or export as it was. ``new``, run again once there is space, takes the id it would
have taken (an empty file left behind made it choose ``-2``).
"""

from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

import pytest

from conftest import GOOD
from houserules import build as build_module
from houserules.build import build_lock, build_site
from houserules.cli import main
from houserules.data.authoring import transaction
from houserules.data.reading.model import KnowledgeBase
from houserules.export import safewrite

FULL = "the disk is full (no space left on device)"
READ_ONLY = "the folder is on a read-only file system"


def disk_full(path: object = None):
    def fail(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path) if path is not None else None)

    return fail


def files(folder: Path) -> dict[str, bytes | None]:
    return {
        p.relative_to(folder).as_posix(): (p.read_bytes() if p.is_file() else None) for p in sorted(folder.rglob("*"))
    }


def previous_site(tmp_path: Path) -> Path:
    def page(kb, data, site):
        (site / "index.html").write_text("the previous site", encoding="utf-8")

    return build_site(KnowledgeBase(), GOOD, tmp_path / "site", steps=[page])


def assert_lock_free(target: Path) -> None:
    with build_lock(target):  # a second build could start at once
        pass


@pytest.mark.parametrize("where", ["site", "pdf"])
def test_build_on_a_full_disk_says_so_and_keeps_the_previous_site(tmp_path, monkeypatch, capsys, where):
    target = previous_site(tmp_path)
    before = files(tmp_path)

    def pages(kb, data, site, reuse=None):
        (site / "index.html").write_text("half", encoding="utf-8")
        if where == "site":
            disk_full(site / "assets/bundle.js")()

    def pdfs(kb, data, site):
        if where == "pdf":  # in the forked process that lays out the PDFs
            disk_full(site / "print/faq.pdf")()

    monkeypatch.setattr(build_module, "site_step", pages)
    monkeypatch.setattr(build_module, "pdf_step", pdfs)
    assert main(["build", "--data", str(GOOD), "-o", str(target)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[-1].startswith("houserules build: cannot write ")
    assert err[-1].endswith(f": {FULL} — free some space and build again (nothing was built: {target} is as it was)")
    assert "Traceback" not in "\n".join(err)
    assert files(tmp_path) == before  # the previous site, the lock file, nothing else
    assert_lock_free(target)


def test_build_into_a_read_only_folder_says_the_folder_is_read_only_not_remove_the_lock(tmp_path, monkeypatch, capsys):
    target = tmp_path / "site"
    real_open = os.open

    def read_only(path, *args, **kwargs):
        if str(path).endswith(".lock"):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(build_module.os, "open", read_only)
    assert main(["build", "--data", str(GOOD), "-o", str(target)]) == 1
    err = capsys.readouterr().err
    assert err.splitlines()[-1] == (
        f"houserules build: cannot write in {tmp_path}: {READ_ONLY} (the build lock .site.lock and its new "
        "site go there) — mount it writable, or choose another -o DIR"
    )
    assert "remove" not in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_a_full_disk_while_swapping_puts_the_previous_site_back(tmp_path, monkeypatch):
    target = previous_site(tmp_path)
    before = files(tmp_path)
    real_rename = Path.rename

    def rename(self, other):
        if Path(other) == target and self.name == "site" and ".site-new-" in str(self):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(self), None, str(other))
        return real_rename(self, other)

    monkeypatch.setattr(Path, "rename", rename)
    with pytest.raises(Exception, match="no space left on device"):
        build_site(KnowledgeBase(), GOOD, target, steps=[lambda kb, data, site: None])
    assert files(tmp_path) == before


def new_args(data: Path) -> list[str]:
    return ["new", "--data", str(data), "demo", "ruling", "--zh", "新规则", "--en", "New ruling"]


@pytest.mark.parametrize("fault", ["journal", "entry"])
def test_new_on_a_full_disk_leaves_no_file_and_takes_the_same_id_next_time(tmp_path, monkeypatch, capsys, fault):
    data = tmp_path / "data"
    shutil.copytree(GOOD, data)
    before = files(data)
    if fault == "journal":  # the first file written into the folder: the commit's journal
        monkeypatch.setattr(os, "fsync", disk_full())
        where = "cannot write in data"
    else:  # the journal is written, then the disk has no room for the entry
        real = transaction._write_file

        def write_file(path, *args, **kwargs):
            if "new-ruling" in str(path):
                disk_full()()
            return real(path, *args, **kwargs)

        monkeypatch.setattr(transaction, "_write_file", write_file)
        where = "cannot write data/demo/entries/new-ruling.yaml"
    monkeypatch.chdir(tmp_path)
    assert main(new_args(data)) == 1
    assert capsys.readouterr().err == (
        f"houserules new: {where}: {FULL} — free some space and run 'houserules new' again (nothing was written)\n"
    )
    assert files(data) == before
    monkeypatch.undo()
    monkeypatch.chdir(tmp_path)
    assert main(new_args(data)) == 0
    assert (data / "demo/entries/new-ruling.yaml").is_file()  # not new-ruling-2
    assert not (data / "demo/entries/new-ruling-2.yaml").exists()


def test_new_in_a_read_only_folder_says_so(tmp_path, monkeypatch, capsys):
    data = tmp_path / "data"
    shutil.copytree(GOOD, data)
    before = files(data)
    real = transaction._write_file

    def read_only(path, *args, **kwargs):
        if "new-ruling" in str(path):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(transaction, "_write_file", read_only)
    monkeypatch.chdir(tmp_path)
    assert main(new_args(data)) == 1
    assert capsys.readouterr().err == (
        f"houserules new: cannot write data/demo/entries/new-ruling.yaml: {READ_ONLY} — mount it writable and "
        "run 'houserules new' again (nothing was written)\n"
    )
    assert files(data) == before


def stale_data(tmp_path: Path) -> tuple[Path, Path]:
    from conftest import FIXTURES

    data = tmp_path / "data"
    shutil.copytree(FIXTURES / "translators/data", data)
    shutil.copytree(FIXTURES / "translators/bad/stale-translation", data, dirs_exist_ok=True)
    return data, data / "demo/entries/tower.yaml"


def test_stamp_on_a_full_disk_keeps_the_file_and_leaves_no_temporary_file(tmp_path, monkeypatch, capsys):
    data, entry = stale_data(tmp_path)
    before = files(data)
    monkeypatch.setattr(os, "fsync", disk_full())
    assert main(["stamp", "--data", str(data), "demo:tower"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("houserules stamp: ") and f"{FULL} — free some space" in err and "Traceback" not in err
    assert files(data) == before


def test_stamp_on_a_read_only_disk_says_so_not_chmod(tmp_path, monkeypatch, capsys):
    data, entry = stale_data(tmp_path)
    before = files(data)
    monkeypatch.setattr("houserules.cli.read_only_disk", lambda path: Path(path) == entry.parent)
    assert main(["stamp", "--data", str(data), "demo:tower"]) == 1
    err = capsys.readouterr().err
    assert err.endswith(f": {READ_ONLY} — mount it writable and stamp again (nothing was written)\n")
    assert "chmod" not in err
    assert files(data) == before


@pytest.mark.parametrize("seam", ["mkstemp", "write", "replace"])
def test_export_on_a_full_disk_keeps_the_previous_file(tmp_path, monkeypatch, capsys, seam):
    out = tmp_path / "entries.csv"
    out.write_bytes(b"the previous export")
    if seam == "mkstemp":
        monkeypatch.setattr(safewrite.tempfile, "mkstemp", disk_full(out))
    elif seam == "write":
        monkeypatch.setattr(safewrite.os, "fchmod", disk_full(out))  # after the bytes, before the rename
    else:
        monkeypatch.setattr(safewrite.os, "replace", disk_full(out))
    assert main(["export", "--data", str(GOOD), "--format", "csv", "-o", str(out)]) == 1
    assert capsys.readouterr().err == (
        f"houserules export: cannot write {out}: {FULL}; free some space or choose another path with -o FILE "
        "(nothing was written)\n"
    )
    assert files(tmp_path) == {"entries.csv": b"the previous export"}


@pytest.mark.parametrize("command", [["export", "--format", "csv"], ["pdf"]])
def test_export_and_pdf_into_a_read_only_folder_are_refused_before_any_work(tmp_path, monkeypatch, capsys, command):
    out = tmp_path / "out.file"
    monkeypatch.setattr(safewrite.os, "access", lambda path, mode: Path(path) != tmp_path)
    monkeypatch.setattr(safewrite, "read_only_disk", lambda path: Path(path) == tmp_path)
    laid_out = []
    monkeypatch.setattr("houserules.print.faq.print_games", lambda *a, **k: laid_out.append(a) or 1)
    assert main([command[0], "--data", str(GOOD), *command[1:], "-o", str(out)]) == 1
    assert capsys.readouterr().err == (
        f"houserules {command[0]}: cannot write {out}: {READ_ONLY}; mount it writable or choose another path with "
        "-o FILE (nothing was written)\n"
    )
    assert laid_out == [] and list(tmp_path.iterdir()) == []


def test_any_command_meeting_a_full_disk_prints_one_line(tmp_path, monkeypatch, capsys):
    """What no command expected (here: the search's index cache) still ends in one line, not a traceback."""
    monkeypatch.setenv("HOUSERULES_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr("houserules.search.index.ensure_index", disk_full(tmp_path / "cache/index"))
    assert main(["search", "--data", str(GOOD), "塔楼"]) == 1
    assert capsys.readouterr().err == (
        f"houserules search: cannot write {tmp_path}/cache/index: {FULL} — free some space and run it again\n"
    )
