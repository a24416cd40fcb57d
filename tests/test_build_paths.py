"""What ``houserules build -o sites/X`` may touch beside its output: its own marked folders and its lock."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import GOOD
from houserules import build as build_module
from houserules.build import MARKER, TEMP_MARKER, build_lock, build_site
from houserules.data.reading.model import KnowledgeBase
from houserules.errors import HouserulesError


def write_page(kb: KnowledgeBase, data: Path, site: Path) -> None:
    (site / "index.html").write_text("built", encoding="utf-8")


def build(target: Path) -> Path:
    return build_site(KnowledgeBase(), GOOD, target, steps=[write_page])


def tree(folder: Path) -> dict[str, str | None]:
    return {
        p.relative_to(folder).as_posix(): (p.read_text() if p.is_file() and not p.is_symlink() else None)
        for p in sorted(folder.rglob("*"))
    }


@pytest.mark.parametrize("name", [".X-old-mine", ".X-new-mine", ".X-old-", ".X-new-2026"])
def test_folders_named_like_the_builds_but_unmarked_are_left_alone(tmp_path, name):
    target = tmp_path / "X"
    build(target)
    theirs = tmp_path / name
    theirs.mkdir()
    (theirs / "notes.txt").write_text("someone's work", encoding="utf-8")
    before = tree(theirs)
    (target).rename(tmp_path / "gone")  # no X: a build would restore an old site of its own, not this one
    build(target)
    assert tree(theirs) == before
    assert (target / "index.html").read_text() == "built" and (target / MARKER).is_file()


def test_only_marked_leftovers_are_restored_or_removed(tmp_path):
    target = tmp_path / "X"
    build(target)
    old = tmp_path / ".X-old-abc"
    old.mkdir()
    (old / TEMP_MARKER).write_text("")
    target.rename(old / "site")
    stale = tmp_path / ".X-new-def"
    stale.mkdir()
    (stale / TEMP_MARKER).write_text("")
    link = tmp_path / ".X-new-link"
    link.symlink_to(stale)  # a link to a marked folder is no folder of the build's
    with pytest.raises(KeyboardInterrupt):
        build_site(KnowledgeBase(), GOOD, target, steps=[stop])
    assert (target / "index.html").read_text() == "built"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".X-new-link", ".X.lock", "X"]


def stop(kb, data, site):
    raise KeyboardInterrupt


@given(st.sampled_from(["-old-", "-new-"]), st.text("abc-_.", max_size=6), st.booleans())
def test_any_unmarked_neighbour_survives_a_build(tmp_path_factory, kind, suffix, as_file):
    root = tmp_path_factory.mktemp("b")
    target = root / "X"
    neighbour = root / f".X{kind}{suffix}"
    if as_file:
        neighbour.write_text("a file", encoding="utf-8")
    else:
        neighbour.mkdir()
        (neighbour / "site").mkdir()
        (neighbour / "site" / "index.html").write_text("not ours", encoding="utf-8")
    build(target)
    assert neighbour.exists()
    assert (target / "index.html").read_text() == "built"
    assert [p.name for p in root.iterdir() if p.name.startswith(".X-")] == [neighbour.name]


# -- the lock ----------------------------------------------------------------------------------------


def test_a_symbolic_link_at_the_lock_is_refused_and_its_target_kept(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me", encoding="utf-8")
    (tmp_path / ".X.lock").symlink_to(victim)
    with pytest.raises(HouserulesError) as error:
        build(tmp_path / "X")
    assert str(error.value) == (
        f"cannot open the build lock {tmp_path / '.X.lock'}: it is a symbolic link; remove it and build again"
    )
    assert victim.read_text(encoding="utf-8") == "keep me" and not (tmp_path / "X").exists()


def test_an_existing_lock_file_is_not_truncated(tmp_path):
    lock = tmp_path / ".X.lock"
    lock.write_text("pid 123", encoding="utf-8")
    build(tmp_path / "X")
    assert lock.read_text(encoding="utf-8") == "pid 123"


def test_a_fifo_at_the_lock_is_refused_without_blocking(tmp_path):
    os.mkfifo(tmp_path / ".X.lock")
    with pytest.raises(HouserulesError, match="cannot open the build lock|is not a regular file"):
        with build_lock(tmp_path / "X"):
            pass


def test_the_pdfs_laid_out_beside_the_site_end_up_in_it(tmp_path, monkeypatch):
    def pages(kb, data, site, reuse=None):
        (site / "index.html").write_text("pages", encoding="utf-8")

    def pdfs(kb, data, site):
        (site / "print").mkdir()
        (site / "print" / "faq.pdf").write_text(f"laid out by {os.getpid()}", encoding="utf-8")

    monkeypatch.setattr(build_module, "site_step", pages)
    monkeypatch.setattr(build_module, "pdf_step", pdfs)
    target = build_site(KnowledgeBase(), GOOD, tmp_path / "site")
    assert (target / "index.html").read_text(encoding="utf-8") == "pages"
    assert (target / "print" / "faq.pdf").read_text(encoding="utf-8") != f"laid out by {os.getpid()}"  # forked


def test_a_failing_pdf_step_fails_the_build_with_its_message_and_keeps_the_previous_site(tmp_path, monkeypatch):
    target = build(tmp_path / "site")

    def pages(kb, data, site, reuse=None):
        (site / "index.html").write_text("new", encoding="utf-8")

    def no_font(kb, data, site):
        raise HouserulesError("the CJK font is not installed")

    monkeypatch.setattr(build_module, "site_step", pages)
    monkeypatch.setattr(build_module, "pdf_step", no_font)
    with pytest.raises(HouserulesError, match="the CJK font is not installed"):
        build_site(KnowledgeBase(), GOOD, target)
    assert (target / "index.html").read_text(encoding="utf-8") == "built"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".site-")] == []
