"""``houserules build``: from one checked knowledge base, write the whole site into a fresh folder and swap it in.

The site is built into a temporary folder beside the target; only when every
step succeeded does it replace the previous ``site/``. A failed or killed
build leaves the previous site as it was, and a lock keeps two builds apart.

The printed FAQ is laid out in a forked process while MkDocs renders the site
(each uses a core), from the same checked knowledge base. A build into a folder
that holds an earlier build renders only the pages that changed and takes the
others from that build (:mod:`houserules.site.reuse`); the PDFs come from their
cache (:mod:`houserules.print.pdfcache`) the same way. The result is the same,
byte for byte, as a build into an empty folder.
"""

from __future__ import annotations

import contextlib
import functools
import multiprocessing
import os
import shutil
import sys
import tempfile
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .data.authoring.transaction import LockWords, folder_lock
from .data.reading.model import KnowledgeBase
from .errors import HouserulesError, is_write_failure, write_failure, write_fix
from .site.precompress import write_compressed
from .site.reuse import PageReuse

if TYPE_CHECKING:
    from .check.profile import Profile

ROOT = Path(__file__).resolve().parents[2]
#: The checkout's own site configuration (absent from an installed package): the site of a data folder that has none beside it.
MKDOCS_YML = ROOT / "mkdocs.yml"
#: The site configuration of a knowledge base, beside its data folder (as ``houserules init`` lays one out).
CONFIG_NAME = "mkdocs.yml"

#: Written into every built site, so that a later build knows the folder is its own to replace.
MARKER = ".houserules-site"
#: Written into the build's own temporary folders beside the output (``.<name>-new-*`` while it
#: builds, ``.<name>-old-*`` while it swaps): a later build cleans up or restores only folders
#: holding it, never another folder that happens to have such a name.
TEMP_MARKER = ".houserules-build-temp"


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
    """Hold an exclusive lock for building ``target``; a second build fails at once.

    The lock is :func:`~houserules.data.authoring.transaction.folder_lock`'s, the one each data
    folder has: ``.<name>.lock`` beside the folder, opened without following a symbolic link and
    without truncating it, so a link placed there makes the build stop with a message and no file
    it might point at is emptied.
    """
    lock = target.parent / f".{target.name}.lock"
    with folder_lock(
        target,
        identity=False,
        words=LockWords("the build lock", "build again", "its new site", "or choose another -o DIR"),
        busy=lambda holder: f"another build of {target} is running (lock {lock}); wait for it to finish",
    ):
        yield


def _temp_folder(target: Path, kind: str) -> Path:
    """A new, marked temporary folder beside ``target`` (``kind``: new or old); a site goes in its ``site/``."""
    folder = Path(tempfile.mkdtemp(prefix=f".{target.name}-{kind}-", dir=target.parent))
    try:
        (folder / TEMP_MARKER).write_text(
            f"a temporary folder of houserules build of {target.name}\n", encoding="utf-8"
        )
    except BaseException:  # a full disk: an unmarked folder would be left for good
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return folder


def _is_ours(folder: Path) -> bool:
    """Whether ``folder`` is one of the build's own temporary folders (a real folder with the marker)."""
    marker = folder / TEMP_MARKER
    return folder.is_dir() and not folder.is_symlink() and marker.is_file() and not marker.is_symlink()


def swap_in(new: Path, target: Path) -> None:
    """Replace ``target`` by the folder ``new`` with renames, so readers never see a half-written folder.

    The previous site is first moved into a marked ``.<name>-old-*`` folder (as its ``site/``),
    so that a build killed between the renames finds it there and puts it back.
    """
    old = None
    if target.exists():
        old = _temp_folder(target, "old")
        target.rename(old / "site")
    try:
        new.rename(target)
    except BaseException:
        if old is not None:  # the previous site goes back where it was
            (old / "site").rename(target)
            shutil.rmtree(old, ignore_errors=True)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def recover(target: Path) -> None:
    """Clean up after a build that was killed: call only while holding the lock.

    A killed build leaves its ``.<name>-new-*`` folder behind, and one killed between
    the two renames of :func:`swap_in` leaves the previous site in ``.<name>-old-*``
    with no ``target``: that site is put back, and every leftover is removed. Only
    folders holding :data:`TEMP_MARKER` are the build's: any other is left alone.
    """
    olds = sorted(
        (p for p in target.parent.glob(f".{target.name}-old-*") if _is_ours(p)), key=lambda p: p.stat().st_mtime
    )
    if olds and not os.path.lexists(target) and (olds[-1] / "site").is_dir():
        (olds[-1] / "site").rename(target)
    news = [p for p in target.parent.glob(f".{target.name}-new-*") if _is_ours(p)]
    for stale in [*olds, *news]:
        shutil.rmtree(stale, ignore_errors=True)


def site_config(data_dir: Path) -> Path:
    """The ``mkdocs.yml`` of the site of ``data_dir``: the one beside the data folder, as in this checkout and in a
    knowledge base ``houserules init`` made; else the checkout's own (a data folder of the tests, an example).

    >>> site_config(ROOT / "rules_data") == MKDOCS_YML
    True
    """
    beside = Path(os.path.abspath(data_dir)).parent / CONFIG_NAME
    if beside.is_file():
        return beside
    if not MKDOCS_YML.is_file():
        raise HouserulesError(
            f"no {CONFIG_NAME} beside the data folder {data_dir}: the site needs one — run the command in the "
            "folder 'houserules init' made, or make one with 'houserules init DIR' and move the data into it"
        )
    return MKDOCS_YML


def mkdocs_config(
    kb: KnowledgeBase, data_dir: Path, site_dir: Path, config_file: Path | None = None, **options: Any
) -> Any:  # MkDocs' config object, which only the adapter names
    """MkDocs' configuration of the site, with the houserules plugin given the checked knowledge base."""
    from .adapter import runner as adapter

    return adapter.mkdocs_config(kb, data_dir, site_dir, config_file or site_config(data_dir), **options)


def mkdocs_build(
    kb: KnowledgeBase,
    data_dir: Path,
    site_dir: Path,
    config_file: Path | None = None,
    reuse: PageReuse | None = None,
) -> None:
    """Run MkDocs (strict) on ``kb``, checked from ``data_dir``, into ``site_dir`` (taking what it can from
    ``reuse``, the previous build of the target: MkDocs' dirty build renders only the other pages)."""
    from .adapter import runner as adapter

    adapter.mkdocs_build(kb, data_dir, site_dir, config_file or site_config(data_dir), reuse)


def configured_site_url(data_dir: Path) -> str | None:
    """The site's public address: ``$HOUSERULES_SITE_URL``, else ``site_url`` of the data's mkdocs.yml
    (:func:`site_config`; none: no address), if set (the PDF then carries QR codes to the entry pages)."""
    from .adapter import runner as adapter

    try:
        config_file = site_config(data_dir)
    except HouserulesError:  # a data folder without a site: a PDF or an export needs no address
        config_file = None
    return adapter.configured_site_url(config_file)


Step = Callable[[KnowledgeBase, Path, Path], None]


def site_step(kb: KnowledgeBase, data_dir: Path, site_dir: Path, reuse: PageReuse | None = None) -> None:
    """the site (MkDocs, strict)"""
    mkdocs_build(kb, data_dir, site_dir, reuse=reuse)


def pdf_step(kb: KnowledgeBase, data_dir: Path, site_dir: Path, profile: Profile | None = None) -> None:
    """the printed FAQ (a PDF per game and one for all)"""
    from .print.faq import build_pdfs  # WeasyPrint loads only when a build runs

    laid_out = build_pdfs(kb, site_dir, configured_site_url(data_dir), profile)
    _progress(
        f"printed FAQ: {len(laid_out)} of {len(kb.games)} games laid out, the others from the cache", ongoing=False
    )


STEPS: list[Step] = [site_step, pdf_step]


def build_site(
    kb: KnowledgeBase,
    data_dir: Path,
    target: Path,
    steps: list[Step] | None = None,
    profile: Profile | None = None,
    precompress: bool = True,
) -> Path:
    """Build everything from the checked ``kb`` into ``target`` atomically and return it (``kb`` holds the house
    rules of the group's ``profile``, if given: the PDFs print them as ``houserules pdf --profile`` does).

    A full build (no ``steps``) ends with the ``.gz`` and ``.br`` copies of the text files unless ``precompress``
    is false (:mod:`houserules.site.precompress`)."""
    target = Path(os.path.abspath(target))  # not resolve(): a symlinked target is refused
    check_target(target, data_dir)
    try:
        return _build_site(kb, data_dir, target, steps, profile, precompress)
    except OSError as exc:
        if not is_write_failure(exc):
            raise
        raise HouserulesError(_failed_write(exc, target)) from None


def _failed_write(exc: OSError, target: Path) -> str:
    """A build stopped by a full disk or a read-only folder: what happened, and that the previous site stands."""
    kept = f"{target} is as it was" if os.path.lexists(target) else f"{target} was not made"
    return f"{write_failure(exc)} — {write_fix(exc)} and build again (nothing was built: {kept})"


def _build_site(
    kb: KnowledgeBase,
    data_dir: Path,
    target: Path,
    steps: list[Step] | None,
    profile: Profile | None,
    precompress: bool,
) -> Path:
    with build_lock(target):
        recover(target)
        work = _temp_folder(target, "new")
        site = work / "site"
        site.mkdir(mode=0o755)  # not mkdtemp's 0700, which would hide the site from a web server's user
        site.chmod(0o755)
        reuse = None
        try:
            if steps is None:
                from .search.indexcache import cache_root

                reuse = PageReuse(target, cache_root())
                _site_and_pdfs(kb, data_dir, site, reuse, profile)
                if precompress:
                    _progress("compressed copies of the text files (.gz, .br), for hosts that send them")
                    write_compressed(site)
            else:
                for step in steps:
                    _progress(_title(step))
                    step(kb, data_dir, site)
            (site / MARKER).write_text(
                "built by houserules build; replaced whole by the next build\n", encoding="utf-8"
            )
            swap_in(site, target)
            if reuse is not None:
                try:
                    reuse.commit()
                except OSError as exc:  # the site is in place; only the next build's shortcut is lost
                    if not is_write_failure(exc):
                        raise
                    _progress(f"warning: {write_failure(exc)}; the next build renders every page", ongoing=False)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return target


def _title(step: Callable[..., None]) -> str:
    return (step.__doc__ or step.__name__).strip().splitlines()[0]


def _site_and_pdfs(
    kb: KnowledgeBase, data_dir: Path, site: Path, reuse: PageReuse, profile: Profile | None = None
) -> None:
    """:data:`STEPS` at once: the PDFs in a forked process (into a folder of their own, moved in at the end,
    so the site's file lists never see one half-written), the site here."""
    pdfs = site.parent / "pdf-step"
    pdfs.mkdir()
    _progress(f"{_title(pdf_step)}, beside {_title(site_step)}")
    reader, writer = multiprocessing.get_context("fork").Pipe(duplex=False)
    worker = multiprocessing.get_context("fork").Process(
        target=_in_worker,
        args=(
            writer,
            pdf_step if profile is None else functools.partial(pdf_step, profile=profile),
            kb,
            data_dir,
            pdfs,
        ),
        name="houserules-pdf-step",
    )
    worker.start()
    writer.close()
    try:
        site_step(kb, data_dir, site, reuse)
    except BaseException:
        worker.kill()
        worker.join()
        reader.close()
        raise
    try:
        outcome = reader.recv()
    except EOFError:  # it ended without a word: killed, or out of memory
        outcome = ("crash", "")
    finally:
        reader.close()
        worker.join()
    if outcome[0] == "error":
        raise HouserulesError(outcome[1])
    if outcome[0] == "oserror":
        raise OSError(*outcome[1])
    if outcome[0] != "ok" or worker.exitcode != 0:
        raise RuntimeError(f"laying out the printed FAQ failed (exit code {worker.exitcode})\n{outcome[1]}")
    for folder, _, names in os.walk(pdfs):
        for name in names:
            source = Path(folder, name)
            (site / source.relative_to(pdfs)).parent.mkdir(parents=True, exist_ok=True)
            source.rename(site / source.relative_to(pdfs))


def _in_worker(writer: Any, step: Step, kb: KnowledgeBase, data_dir: Path, site: Path) -> None:
    """Run ``step`` in a forked process and send the parent how it ended (a data error's message, a traceback)."""
    try:
        step(kb, data_dir, site)
        writer.send(("ok", ""))
    except HouserulesError as exc:
        writer.send(("error", str(exc)))
    except OSError as exc:
        if is_write_failure(exc):  # raised again in the build, which knows what it was building
            writer.send(("oserror", (exc.errno, exc.strerror, exc.filename)))
        else:
            writer.send(("crash", traceback.format_exc()))
    except BaseException:
        writer.send(("crash", traceback.format_exc()))
    finally:
        writer.close()


def _progress(what: str, ongoing: bool = True) -> None:
    """Say what the build is doing (laying out the printed FAQ can take minutes) or what it did."""
    print(f"houserules build: {what}{'…' if ongoing else ''}", file=sys.stderr, flush=True)
