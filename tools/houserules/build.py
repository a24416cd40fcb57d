"""``houserules build``: from one checked knowledge base, write the whole site into a fresh folder and swap it in.

The site is built into a temporary folder beside the target; only when every
step succeeded does it replace the previous ``site/``. A failed or killed
build leaves the previous site as it was, and a lock keeps two builds apart.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from .data.model import KnowledgeBase
from .errors import HouserulesError

ROOT = Path(__file__).resolve().parents[2]
MKDOCS_YML = ROOT / "mkdocs.yml"
os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")

#: Written into every built site, so that a later build knows the folder is its own to replace.
MARKER = ".houserules-site"


def check_target(target: Path, data_dir: Path) -> None:
    """Refuse an output folder whose replacement would destroy something else.

    The swap deletes the previous folder, so ``-o .`` or ``-o ~`` must fail: the target may
    not hold the data or the working folder, and an existing one must be empty or a site this
    command built (its :data:`MARKER` file). Any site at all is not enough: a Pages checkout
    holds an ``index.html`` and a ``sitemap.xml`` too, beside its ``.git`` and drafts; and a
    built site copied into such a checkout brings its marker along, hence the ``.git`` test.
    """
    real = target.resolve()
    for inside, what in ((data_dir.resolve(), "the data folder"), (Path.cwd().resolve(), "the working folder")):
        if inside == real or real in inside.parents:
            raise HouserulesError(f"the output folder {target} holds {what}; choose another with -o DIR")
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        raise HouserulesError(f"the output {target} is not a folder; choose another with -o DIR")
    try:
        if not target.is_dir() or not any(target.iterdir()):
            return
    except OSError as exc:
        raise HouserulesError(
            f"cannot read the output folder {target}: {exc.strerror}; choose another with -o DIR"
        ) from None
    if not (target / MARKER).is_file() or (target / MARKER).is_symlink():
        raise HouserulesError(
            f"the output folder {target} is not empty and holds no built site (no {MARKER} file); "
            "the build replaces it whole, so choose an empty or new folder with -o DIR"
        )
    if os.path.lexists(target / ".git"):
        raise HouserulesError(
            f"the output folder {target} holds a .git repository; the build replaces the folder "
            "whole, so build into another folder with -o DIR and copy the site into the checkout"
        )


@contextlib.contextmanager
def build_lock(target: Path) -> Iterator[None]:
    """Hold an exclusive lock for building ``target``; a second build fails at once."""
    target.parent.mkdir(parents=True, exist_ok=True)
    lock_path = target.parent / f".{target.name}.lock"
    with open(lock_path, "w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise HouserulesError(
                f"another build of {target} is running (lock {lock_path}); wait for it to finish"
            ) from None
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def swap_in(new: Path, target: Path) -> None:
    """Replace ``target`` by ``new`` with renames, so readers never see a half-written folder."""
    old = None
    if target.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{target.name}-old-", dir=target.parent))
        old.rmdir()
        target.rename(old)
    new.rename(target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def recover(target: Path) -> None:
    """Clean up after a build that was killed: call only while holding the lock.

    A killed build leaves its ``.<name>-new-*`` folder behind, and one killed between
    the two renames of :func:`swap_in` leaves the previous site as ``.<name>-old-*``
    with no ``target``: that site is put back, and every leftover is removed.
    """
    olds = sorted(target.parent.glob(f".{target.name}-old-*"), key=lambda p: p.stat().st_mtime)
    if olds and not target.exists():
        olds.pop().rename(target)
    for stale in [*olds, *target.parent.glob(f".{target.name}-new-*")]:
        shutil.rmtree(stale, ignore_errors=True)


def quiet_jieba() -> None:
    """Material's search segments Chinese with jieba, which logs its dictionary loading on stderr."""
    import logging

    import jieba

    jieba.setLogLevel(logging.WARNING)


def mkdocs_config(
    kb: KnowledgeBase, data_dir: Path, site_dir: Path, config_file: Path = MKDOCS_YML, preview=None, **options: Any
):
    """MkDocs' configuration of the site, with the houserules plugin given the checked knowledge base.

    ``preview`` (a :class:`houserules.site.preview.Preview`) is what a live preview keeps between builds.
    """
    from mkdocs.config import load_config

    config = load_config(str(config_file), site_dir=str(site_dir), strict=True, **options)
    from .site.plugin import HouserulesPlugin

    plugin = config.plugins["houserules"]
    assert isinstance(plugin, HouserulesPlugin), "mkdocs.yml lists the houserules plugin"
    plugin.use(kb, data_dir, preview)
    return config


def mkdocs_build(kb: KnowledgeBase, data_dir: Path, site_dir: Path, config_file: Path = MKDOCS_YML) -> None:
    """Run MkDocs (strict) on ``kb``, checked from ``data_dir``, into ``site_dir``."""
    from mkdocs.commands.build import build
    from mkdocs.exceptions import MkDocsException

    quiet_jieba()
    try:
        build(mkdocs_config(kb, data_dir, site_dir, config_file))
    except MkDocsException as exc:
        raise HouserulesError(f"the site build failed: {exc}") from None
    except SystemExit as exc:  # mkdocs aborts strict builds this way
        raise HouserulesError(f"the site build failed (MkDocs exit {exc.code}); see the warnings above") from None


def configured_site_url(config_file: Path = MKDOCS_YML) -> str | None:
    """``site_url`` of mkdocs.yml, if set (the PDF then carries QR codes to the entry pages)."""
    from mkdocs.utils.yaml import yaml_load

    with open(config_file, encoding="utf-8") as handle:
        return yaml_load(handle).get("site_url") or None


Step = Callable[[KnowledgeBase, Path, Path], None]


def site_step(kb: KnowledgeBase, data_dir: Path, site_dir: Path) -> None:
    """the site (MkDocs, strict)"""
    mkdocs_build(kb, data_dir, site_dir)


def pdf_step(kb: KnowledgeBase, data_dir: Path, site_dir: Path) -> None:
    """the printed FAQ (a PDF per game and one for all)"""
    from .print.faq import build_pdfs  # WeasyPrint loads only when a build runs

    laid_out = build_pdfs(kb, site_dir, configured_site_url())
    _progress(
        f"printed FAQ: {len(laid_out)} of {len(kb.games)} games laid out, the others from the cache", ongoing=False
    )


STEPS: list[Step] = [site_step, pdf_step]


def build_site(kb: KnowledgeBase, data_dir: Path, target: Path, steps: list[Step] | None = None) -> Path:
    """Build everything from the checked ``kb`` into ``target`` atomically and return it."""
    target = Path(os.path.abspath(target))  # not resolve(): a symlinked target is refused
    check_target(target, data_dir)
    with build_lock(target):
        recover(target)
        work = Path(tempfile.mkdtemp(prefix=f".{target.name}-new-", dir=target.parent))
        work.chmod(0o755)  # mkdtemp's 0700 would hide the site from a web server's user
        try:
            for step in STEPS if steps is None else steps:
                _progress((step.__doc__ or step.__name__).strip().splitlines()[0])
                step(kb, data_dir, work)
            (work / MARKER).write_text(
                "built by houserules build; replaced whole by the next build\n", encoding="utf-8"
            )
            swap_in(work, target)
        except BaseException:
            shutil.rmtree(work, ignore_errors=True)
            raise
    return target


def _progress(what: str, ongoing: bool = True) -> None:
    """Say what the build is doing (laying out the printed FAQ can take minutes) or what it did."""
    print(f"houserules build: {what}{'…' if ongoing else ''}", file=sys.stderr, flush=True)
