"""Where an output goes: ``export -o`` and ``pdf -o`` over every kind of target path.

A regular or missing file is replaced whole or not at all, through an unpredictable temporary
file created exclusively beside it; a device or a named pipe is written into and stays what it
is; a symbolic link, a folder, a socket or a missing folder is refused with a message and left
as it was.
"""

from __future__ import annotations

import os
import stat
import tempfile
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import FIXTURES, run_cli
from houserules.errors import HouserulesError
from houserules.export import OUTPUT_OPTION, copy_output, open_output, write_output
from houserules.print.pdf import copy_pdf

TRANSLATORS = FIXTURES / "translators" / "data"
KINDS = [
    "regular",
    "missing",
    "folder",
    "link-to-file",
    "link-to-missing",
    "link-to-dev-null",
    "fifo-read",
    "fifo-unread",
    "dev-null",
    "missing-folder",
]


def make_target(folder: Path, kind: str) -> Path:
    """A path of the ``kind`` in ``folder`` (for ``dev-null``, /dev/null itself)."""
    target = folder / "out.csv"
    if kind == "regular":
        target.write_bytes(b"the previous file")
    elif kind == "folder":
        target.mkdir()
    elif kind == "link-to-file":
        (folder / "elsewhere.csv").write_bytes(b"somebody else's file")
        target.symlink_to(folder / "elsewhere.csv")
    elif kind == "link-to-missing":
        target.symlink_to(folder / "nothing-yet.csv")
    elif kind == "link-to-dev-null":
        target.symlink_to("/dev/null")
    elif kind in ("fifo-read", "fifo-unread"):
        os.mkfifo(target)
    elif kind == "dev-null":
        return Path("/dev/null")
    elif kind == "missing-folder":
        return folder / "no-such-folder" / "out.csv"
    return target


def state(folder: Path) -> dict[str, tuple]:
    """What is in ``folder``: each name's kind, link target and bytes."""
    result = {}
    for path in sorted(folder.rglob("*")):
        info = path.lstat()
        link = os.readlink(path) if path.is_symlink() else None
        data = path.read_bytes() if stat.S_ISREG(info.st_mode) else None
        result[path.relative_to(folder).as_posix()] = (stat.S_IFMT(info.st_mode), link, data)
    return result


class PipeReader(threading.Thread):
    """Reads a named pipe to its end, as a program on the other side would (open before any writer)."""

    def __init__(self, path: Path):
        super().__init__(daemon=True)
        self.fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        self.done = threading.Event()
        self.data = b""

    def run(self):
        chunks = []
        while True:
            # Asked before the read: an end of file read after the writer finished is the real end
            # (asked after, a writer could open, write and finish between the read and the question).
            finished = self.done.is_set()
            try:
                chunk = os.read(self.fd, 65536)
            except BlockingIOError:  # a writer is there but wrote nothing yet
                chunk = None
            if chunk:
                chunks.append(chunk)
            elif chunk == b"" and finished:
                break
            else:
                time.sleep(0.001)
        os.close(self.fd)
        self.data = b"".join(chunks)


def write_with_reader(target: Path, data: bytes, write) -> bytes:
    reader = PipeReader(target)
    reader.start()
    try:
        write(target, data)
    finally:
        reader.done.set()
        reader.join(10)
    assert not reader.is_alive()
    return reader.data


REFUSED = {
    "folder": "cannot write {t}: it is a folder; give a file name, e.g. -o {t}/export.csv",
    "link-to-file": "cannot write {t}: it is a symbolic link (to {f}/elsewhere.csv); "
    "give the path of the file itself, or remove the link",
    "link-to-missing": "cannot write {t}: it is a symbolic link (to {f}/nothing-yet.csv); "
    "give the path of the file itself, or remove the link",
    "link-to-dev-null": "cannot write {t}: it is a symbolic link (to /dev/null); "
    "give the path of the file itself, or remove the link",
    "fifo-unread": "cannot write {t}: it is a named pipe and no program reads from it; start the reader first",
    "missing-folder": "cannot write {t}: the folder {f}/no-such-folder does not exist; "
    "create it first or choose another path with -o FILE",
}


def as_cli(target: Path, data: bytes) -> None:
    """What ``-o FILE`` writes through: the rules, and the option named in the messages."""
    write_output(target, data, option=OUTPUT_OPTION)


def check_write(folder: Path, kind: str, data: bytes, write=as_cli) -> None:
    """Write ``data`` to a target of ``kind`` and check the outcome the rules promise."""
    target = make_target(folder, kind)
    before = state(folder)
    if kind in REFUSED:
        with pytest.raises(HouserulesError) as error:
            write(target, data)
        assert str(error.value) == REFUSED[kind].format(t=target, f=folder)
        assert state(folder) == before, "a refused output changes nothing"
        return
    if kind == "fifo-read":
        assert write_with_reader(target, data, write) == data
        assert stat.S_ISFIFO(target.lstat().st_mode), "the pipe stays a pipe"
    elif kind == "dev-null":
        write(target, data)
        assert stat.S_ISCHR(os.lstat("/dev/null").st_mode), "/dev/null stays a device"
    else:
        write(target, data)
        assert stat.S_ISREG(target.lstat().st_mode)
        assert target.read_bytes() == data
    expected = set(before) | ({target.name} if target.parent == folder else set())
    assert {p.name for p in folder.iterdir()} == expected, "no temporary file is left"


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_of_target_is_written_or_refused(tmp_path, kind):
    check_write(tmp_path, kind, b"a,b\r\n1,2\r\n")


@given(kind=st.sampled_from(KINDS), data=st.binary(max_size=200_000))
def test_any_bytes_to_any_kind_of_target(tmp_path_factory, kind, data):
    check_write(tmp_path_factory.mktemp("out"), kind, data)


@given(kind=st.sampled_from(KINDS), data=st.binary(min_size=1, max_size=70_000))
def test_a_copied_file_follows_the_same_rules(tmp_path_factory, kind, data):
    folder = tmp_path_factory.mktemp("copy")
    source = tmp_path_factory.mktemp("source") / "cached.pdf"
    source.write_bytes(data)
    check_write(
        folder, kind, data, lambda target, _: copy_output(source, target, example="export.csv", option=OUTPUT_OPTION)
    )


def test_the_temporary_file_is_unpredictable_and_nothing_placed_beside_is_followed(tmp_path, monkeypatch):
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"keep me")
    for name in (".faq.pdf.partial", ".faq.pdf.tmp", ".faq.pdf.0000.tmp"):
        (tmp_path / name).symlink_to(victim)
    source = tmp_path / "cached.pdf"
    from pypdf import PdfWriter

    writer = PdfWriter()
    writer.add_blank_page(595, 842)
    writer.write(source)
    names = []
    real_mkstemp = tempfile.mkstemp

    def spy(*args, **kwargs):
        handle, name = real_mkstemp(*args, **kwargs)
        names.append(Path(name).name)
        return handle, name

    monkeypatch.setattr(tempfile, "mkstemp", spy)
    assert copy_pdf(source, tmp_path / "faq.pdf") == 1
    assert copy_pdf(source, tmp_path / "faq.pdf") == 1
    assert victim.read_bytes() == b"keep me"
    assert (tmp_path / "faq.pdf").read_bytes() == source.read_bytes()
    assert len(set(names)) == 2 and all(n.startswith(".faq.pdf.") for n in names)


def test_a_new_file_gets_the_usual_permissions_and_a_replaced_one_keeps_its_own(tmp_path):
    mask = os.umask(0o027)
    try:
        write_output(tmp_path / "new.csv", b"x")
    finally:
        os.umask(mask)
    assert stat.S_IMODE((tmp_path / "new.csv").stat().st_mode) == 0o640
    old = tmp_path / "old.csv"
    old.write_bytes(b"old")
    old.chmod(0o604)
    write_output(old, b"new")
    assert stat.S_IMODE(old.stat().st_mode) == 0o604 and old.read_bytes() == b"new"


def test_an_error_while_writing_leaves_the_previous_file(tmp_path):
    out = tmp_path / "out.csv"
    out.write_bytes(b"previous")
    with pytest.raises(RuntimeError), open_output(out) as handle:
        handle.write(b"half")
        raise RuntimeError("interrupted")
    assert out.read_bytes() == b"previous" and [p.name for p in tmp_path.iterdir()] == ["out.csv"]


# -- the commands, as a user runs them -----------------------------------------------------------------


@pytest.mark.parametrize("kind", ["link-to-file", "link-to-dev-null", "fifo-unread", "folder"])
def test_export_refuses_a_target_it_must_not_replace(tmp_path, kind):
    target = make_target(tmp_path, kind)
    before = state(tmp_path)
    result = run_cli("export", "--data", str(TRANSLATORS), "--format", "csv", "-o", str(target), timeout=60)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == "houserules export: " + REFUSED[kind].format(t=target, f=tmp_path) + "\n"
    assert state(tmp_path) == before


def test_export_writes_into_dev_null_and_a_pipe_that_is_read(tmp_path):
    result = run_cli("export", "--data", str(TRANSLATORS), "-o", "/dev/null")
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == "wrote /dev/null (entries, json)\n"
    assert stat.S_ISCHR(os.lstat("/dev/null").st_mode)
    pipe = make_target(tmp_path, "fifo-read")
    expected = run_cli("export", "--data", str(TRANSLATORS)).stdout.encode("utf-8")

    def export(target, _):
        result = run_cli("export", "--data", str(TRANSLATORS), "-o", str(target), timeout=60)
        assert result.returncode == 0, result.stderr

    assert write_with_reader(pipe, b"", export) == expected
    assert stat.S_ISFIFO(pipe.lstat().st_mode)


@pytest.mark.slow  # the refusal comes when the PDF is written: only opening a pipe tells whether anything reads it
def test_pdf_refuses_a_pipe_nobody_reads(tmp_path):
    target = make_target(tmp_path, "fifo-unread")
    result = run_cli("pdf", "--data", str(FIXTURES / "good"), "-o", str(target), timeout=60)
    assert result.returncode == 1
    assert result.stderr == "houserules pdf: " + REFUSED["fifo-unread"].format(t=target, f=tmp_path) + "\n"
