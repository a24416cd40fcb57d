"""The site's search index: built at site build time from the CLI's index, and written into the site.

At build time (:func:`write_site_index`) the knowledge base is indexed by
:mod:`houserules.search.indexcache`, as ``houserules search`` does, and its scores are
exported by :mod:`houserules.search.shards` under ``site/search/hr/``. The
glossaries' terms are indexed too (the site only). :class:`Prepared` does that
work in another process while MkDocs renders the pages.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..data.reading.model import NO_TEXT
from . import analysis as searchtext
from .documents import documents
from .index import SearchIndex
from .indexcache import fingerprint, index_meta, write_index
from .shards import export

if TYPE_CHECKING:  # the search starts without loading the data model
    from ..data.reading.model import KnowledgeBase

#: Where the index goes, relative to the site.
SITE_FOLDER = "search/hr"


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


def write_site_index(kb: KnowledgeBase, site_dir: Path, prepared: Prepared | None = None) -> dict[str, Any]:
    """Index ``kb`` as the CLI does and write the site's search index into ``site_dir``.

    Also empties Material's own index (``search/search_index.json``, keeping its
    ``config``, which the theme still reads), so a browser loads one index, not two.
    When ``prepared`` built it from the same, unchanged files (in another process,
    while MkDocs rendered the pages), that result is moved into place.
    Returns the head (sizes and version).
    """
    target = Path(site_dir) / SITE_FOLDER
    head = prepared.take(target) if prepared is not None else None
    if head is None:
        head = _build(kb, target)
    point_material_index(Path(site_dir), head["version"])
    return head


def _build(kb: KnowledgeBase, target: Path) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="houserules-siteindex-") as tmp:
        meta = index_meta(kb, [])
        folder = write_index(Path(tmp) / "index", documents(kb), meta)
        terms = list(glossary_documents(kb))
        glossary = SearchIndex(write_index(Path(tmp) / "glossary", terms, meta)) if terms else None
        try:
            with SearchIndex(folder) as index:
                return export(index, target, glossary)
        finally:
            if glossary is not None:
                glossary.close()


class Prepared:
    """The site index of a data folder, being built in another process.

    Indexing 5,000 entries takes half a minute of one core; MkDocs renders the pages
    on the other meanwhile. :meth:`take` gives the result if the data files did not
    change in between (same fingerprint); otherwise the caller indexes itself.
    """

    def __init__(self, data_dir: Path):
        self.data_dir = Path(data_dir).resolve()
        self.fingerprint = fingerprint(self.data_dir)
        self.staging = Path(tempfile.mkdtemp(prefix="houserules-siteindex-"))
        self._state: str | None = None
        self.process = subprocess.Popen(
            [sys.executable, "-m", "houserules.search.siteindex", str(self.data_dir), str(self.staging)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # a failure is redone in process, with its messages

    def finished(self) -> str:
        """Wait for the process: ``"ready"``, ``"failed"``, or ``"changed"`` when the data changed meanwhile
        (found once: the data folder is fingerprinted again only the first time)."""
        if self._state is None:
            if self.process.wait() != 0:
                self._state = "failed"
            else:
                self._state = "ready" if fingerprint(self.data_dir) == self.fingerprint else "changed"
        return self._state

    def take(self, target: Path) -> dict[str, Any] | None:
        """The finished index moved to ``target`` and its head, or None when it cannot be used."""
        try:
            if self.finished() != "ready":
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
        """Stop the process if it still runs and remove its files."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        shutil.rmtree(self.staging, ignore_errors=True)


def _main(argv: list[str]) -> int:
    """``python -m houserules.search.siteindex DATA_DIR STAGING``: what :class:`Prepared` runs."""
    from ..data.reading.load import load

    data_dir, staging = Path(argv[0]), Path(argv[1])
    head = _build(load(data_dir).kb, staging / "hr")
    (staging / "head.json").write_text(json.dumps(head, ensure_ascii=False), encoding="utf-8")
    return 0


def point_material_index(site_dir: Path, version: str) -> None:
    """Material's index without documents, with a pointer to ours; its offline copy (``search_index.js``,
    written by the offline plugin) says the same."""
    path = site_dir / "search" / "search_index.json"
    try:
        config = json.loads(path.read_text(encoding="utf-8")).get("config", {})
    except (OSError, ValueError):
        config = {}
    config["houserules"] = {"version": version, "path": SITE_FOLDER}
    text = json.dumps({"config": config, "docs": []}, ensure_ascii=False, separators=(",", ":"))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    offline = path.with_suffix(".js")
    if offline.exists():
        offline.write_text(f"var __index = {text}", encoding="utf-8")


def sizes(site_dir: Path) -> dict[str, int]:
    """Bytes of the site index by part (for the benchmarks)."""
    root = Path(site_dir) / SITE_FOLDER
    parts: dict[str, int] = defaultdict(int)
    for path in root.rglob("*.js"):
        parts[path.parent.name if path.parent != root else path.stem] += path.stat().st_size
    return dict(parts)


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
