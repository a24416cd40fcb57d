"""The site's search index: the CLI's index of the knowledge base, exported as the browser's sharded index.

:func:`build_index` indexes a knowledge base in memory (:func:`~houserules.search.indexcache.memory_index`: the
postings and scores ``houserules search`` reads from its written index, nothing written and read again) and
exports its scores with :mod:`houserules.search.shards`. The
glossaries' terms are indexed too (the site only). :class:`Prepared` does that work in a forked
copy of the process, from the knowledge base already loaded, while MkDocs renders the pages.
Where it goes in the site and how Material finds it is the adapter's
(:mod:`houserules.adapter.searchhandoff`).
"""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import stat
import tempfile
import warnings
import weakref
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..data.reading.model import NO_TEXT
from . import analysis as searchtext
from .documents import documents
from .index import SearchIndex
from .indexcache import index_meta, memory_index
from .shards import export

if TYPE_CHECKING:  # the search starts without loading the data model
    from ..data.reading.model import KnowledgeBase


def glossary_documents(kb: KnowledgeBase) -> Iterable[dict[str, Any]]:
    """The glossaries' terms as documents of the index schema (the site only: translators
    look terms up in the search box; the command line searches entries)."""
    for game in kb.games.values():
        for term in game.glossary.terms if game.glossary else []:
            names = [term.zh, term.en]
            others = [*term.variants, *term.deprecated]
            note = term.note or NO_TEXT
            record = {
                "id": f"{game.id}:glossary:{term.id}",
                "zh": term.zh,
                "en": term.en,
                "note": [note.zh, note.en],
                "url": f"{game.id}/glossary.html#term-{term.id}",
                "game": game.id,
            }
            yield {
                "ref": record["id"],
                "entry": record["id"],
                "type": "term",
                "game": game.id,
                "kind": "glossary",
                "record": record,
                "title": "\n".join(names),
                "aliases": "\n".join(others),
                "summary": "\n".join(v for v in note.values() if v),
                "exact": "\n".join(searchtext.exact_key(t) for t in names),
                "exact_alias": "\n".join(searchtext.exact_key(t) for t in others),
            }


def build_index(kb: KnowledgeBase, target: Path) -> dict[str, Any]:
    """Index ``kb`` as the CLI does (its entries and, for the site only, its glossaries' terms) and export
    the scores as the site's sharded index into the folder ``target``; return the head (sizes and version)."""
    meta = index_meta(kb, [])
    terms = list(glossary_documents(kb))
    glossary = SearchIndex(memory_index(terms, meta)) if terms else None
    with SearchIndex(memory_index(documents(kb), meta)) as index:
        return export(index, target, glossary)


#: Whether this system can fork a copy of the process (not on Windows).
CAN_FORK = "fork" in multiprocessing.get_all_start_methods()


class Prepared:
    """The site index of a knowledge base, being built in a forked copy of this process.

    Indexing 5,000 entries takes half a minute of one core; MkDocs renders the pages on
    the other meanwhile. The copy is forked after the data was loaded and checked: it
    indexes the very knowledge base the pages are made from, and reads no file. Where the
    system cannot fork, nothing runs and :meth:`take` gives None: the caller indexes itself.
    """

    def __init__(self, kb: Any):
        self.staging = Path(tempfile.mkdtemp(prefix="houserules-siteindex-"))
        self.process: multiprocessing.process.BaseProcess | None = None
        if CAN_FORK:
            context = multiprocessing.get_context("fork")
            self.process = context.Process(
                target=_index_into, args=(kb, self.staging), name="houserules-siteindex", daemon=True
            )
            with warnings.catch_warnings():
                # Python 3.12 warns of forking a process with threads (a live preview has some): the copy
                # runs only the indexing, which waits on no lock those threads hold, and ends with _exit.
                warnings.simplefilter("ignore", DeprecationWarning)
                self.process.start()
        # Whatever happens to this object (a build interrupted), the copy is stopped and its folder removed,
        # at the latest when the process exits.
        self._cleanup = weakref.finalize(self, _stop, self.process, self.staging, os.getpid())

    @property
    def forked(self) -> bool:
        """Whether the index is being built in another process (else :meth:`take` gives None)."""
        return self.process is not None

    def finished(self) -> bool:
        """Wait for the copy; whether it wrote the index."""
        if self.process is None:
            return False
        self.process.join()
        return self.process.exitcode == 0 and (self.staging / "head.json").is_file()

    def take(self, target: Path) -> dict[str, Any] | None:
        """The finished index moved to ``target`` and its head, or None when it cannot be used."""
        try:
            if not self.finished():
                return None
            head: dict[str, Any] = json.loads((self.staging / "head.json").read_text(encoding="utf-8"))
            if target.exists():
                shutil.rmtree(target)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(str(self.staging / "hr"), str(target))
            return head
        finally:
            self.discard()

    def discard(self) -> None:
        """Stop the copy if it still runs and remove its files."""
        self._cleanup()


def _stop(process: multiprocessing.process.BaseProcess | None, staging: Path, owner: int) -> None:
    if os.getpid() != owner:  # a forked copy never cleans up after the process it was forked from
        return
    if process is not None:
        if process.is_alive():
            process.kill()
        process.join()
    shutil.rmtree(staging, ignore_errors=True)


def _index_into(kb: Any, staging: Path) -> None:
    """What the forked copy runs: the index into ``staging/hr`` and its head into ``staging/head.json``.

    Its output goes nowhere: a failure is redone in the building process, with its messages. Its
    temporary files are made in ``staging`` too, so a copy stopped midway leaves nothing elsewhere.
    """
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)
    os.dup2(quiet, 2)
    _let_go_of_sockets(quiet)
    tempfile.tempdir = str(staging)  # this copy's own setting: the building process's is untouched
    head = build_index(kb, staging / "hr")
    (staging / "head.json").write_text(json.dumps(head, ensure_ascii=False), encoding="utf-8")


def _let_go_of_sockets(quiet: int) -> None:
    """The copy keeps no socket of the process it was forked from open: a live preview's port is free as
    soon as the preview stops, even while a copy still indexes. Each socket's number is pointed at
    ``quiet`` rather than closed, so nothing else can take the number of a socket object that closes it."""
    try:
        numbers = [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:  # no /proc (not Linux): the sockets stay open until the copy ends
        return
    for number in numbers:
        try:
            if stat.S_ISSOCK(os.fstat(number).st_mode):
                os.dup2(quiet, number)
        except OSError:
            continue
