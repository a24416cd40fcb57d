"""Each game's PDF kept under a hash of what it prints, laid out again only when that changes.

A game's print HTML says everything its PDF shows: its printed entries and their
blocks, the titles and codes of the entries its references point into (in this
game or another), its cover (the data version, the print date, the layout and the
options). So the key of a game's PDF is a hash of that HTML (as the first layout
pass sees it) with what turns it into pages, the cache's own salt: the print
stylesheet and the paper, the font file, the versions of houserules and WeasyPrint.
The data's part of it is the data's fingerprint (:mod:`houserules.data.versions.fingerprint`)
as far as the game prints it: its cover names its folder's tree hash, and its pages
show its entries and the titles and codes of those they point to. A key of the
fingerprint alone would lay out every game after any change, or miss a title
another game's entry took. The cache lives beside
the search index's (``$HOUSERULES_CACHE`` or the XDG cache), in ``pdf/``::

    <key>.pdf     the game's own PDF (cover = page 1)
    <key>.json    where each anchor starts and how many pages there are

Games to lay out are laid out in parallel, one process per core, each holding one
game's layout at a time. The all-games PDF is a cover and contents laid out on their
own (the cover alone, then a chunk of games at a time past :data:`FRONT_ENTRIES` lines),
each cached too,
followed by the pages of the games' cached PDFs (:mod:`pypdf`), so no process ever
holds every game's layout.

>>> PdfCache(Path("/tmp/c")).path("ab12") == Path("/tmp/c/ab12.pdf")
True
"""

from __future__ import annotations

import hashlib
import io
import json
import multiprocessing
import os
import subprocess
import tempfile
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

from ..data.reading.model import KnowledgeBase
from ..render.blocks import EntryBlocks
from ..render.text import MarkdownRenderer
from ..search.indexcache import cache_root
from .document import PrintDocument, PrintLinker
from .pdf import EMOJI_FAMILY, FONT_FAMILY, PrintedGame, render, stylesheet
from .plan import FRONT_LINK, PrintOptions, printed_groups

#: Bump when the layout changes in a way the HTML does not show: caches are laid out again.
CACHE_VERSION = 3
#: Lines of contents laid out in one document for the all-games PDF (WeasyPrint holds about
#: 0.25 MB per line while laying them out; past this, chunks of games start on a new page).
FRONT_ENTRIES = 500


@dataclass
class LaidOut:
    """A game's PDF in the cache: where it is, where each of its anchors starts, how many pages it has."""

    game: str
    key: str
    path: Path
    pages: dict[str, int]
    count: int


@cache
def _font_digest() -> str:
    """A hash of the font files fontconfig chooses, the CJK font's and the emoji font's (another version
    of a font, or the emoji font installed, lays out otherwise)."""
    return " ".join(_file_digest(family) for family in (FONT_FAMILY, EMOJI_FAMILY))


def _file_digest(family: str) -> str:
    try:
        path = subprocess.run(["fc-match", "-f", "%{file}", family], capture_output=True, text=True, check=False).stdout
        return hashlib.sha256(Path(path).read_bytes()).hexdigest() if path else "no-font"
    except (OSError, FileNotFoundError):
        return "no-font"


@cache
def _versions() -> str:
    return f"v{CACHE_VERSION} houserules {metadata.version('houserules')} weasyprint {metadata.version('weasyprint')}"


def key(html: str, paper: str) -> str:
    """The cache key of a print document: its HTML and everything that lays it out."""
    digest = hashlib.sha256()
    for part in (_versions(), _font_digest(), stylesheet(paper), html):
        digest.update(part.encode("utf-8") + b"\0")
    return digest.hexdigest()


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class _Worker:
    """What one forked layout process holds: every game to lay out, handed over when the process starts.

    :meth:`start` runs once in each new process (the pool's initializer, its argument inherited
    through fork, never pickled), so each task sends only a game's id. Its class attribute is the
    worker process's own: the parent never sets it.
    """

    work: dict[str, tuple[PrintedGame, str, PdfCache]] | None = None

    @classmethod
    def start(cls, work: dict[str, tuple[PrintedGame, str, PdfCache]]) -> None:
        cls.work = work

    @classmethod
    def lay_out(cls, game: str) -> None:
        assert cls.work is not None, "a layout worker runs only after its initializer"
        part, game_key, cache = cls.work[game]
        cache.lay_out(part, game_key)


class PdfCache:
    """The folder of cached PDFs; :meth:`games` brings every game's PDF up to date there."""

    def __init__(self, root: Path | None = None, jobs: int | None = None):
        self.root = root or cache_root() / "pdf"
        self.jobs = jobs or _cores()
        #: The games the last :meth:`games` call laid out (the others came from the cache).
        self.laid_out: list[str] = []

    def path(self, game_key: str) -> Path:
        return self.root / f"{game_key}.pdf"

    def _meta(self, game_key: str) -> Path:
        return self.root / f"{game_key}.json"

    def _load(self, game: str, game_key: str) -> LaidOut | None:
        try:
            meta = json.loads(self._meta(game_key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not self.path(game_key).is_file():
            return None
        return LaidOut(game, game_key, self.path(game_key), meta["pages"], meta["count"])

    def _store(self, game_key: str, pdf: bytes, meta: dict[str, Any]) -> None:
        """Write a PDF and its metadata, each whole or not at all (the metadata last: it marks a complete pair)."""
        self.root.mkdir(parents=True, exist_ok=True)
        for target, data in ((self.path(game_key), pdf), (self._meta(game_key), json.dumps(meta).encode())):
            handle, tmp = tempfile.mkstemp(prefix=".tmp-", dir=self.root)
            try:
                with os.fdopen(handle, "wb") as out:
                    out.write(data)
                os.replace(tmp, target)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise

    def lay_out(self, part: PrintedGame, game_key: str) -> None:
        """Lay out one game and keep its PDF."""
        document = part.lay_out()
        pdf = document.write_pdf()
        self._store(
            game_key,
            pdf,
            {"game": part.game.id, "pages": part.pages, "count": len(document.pages), "passes": part.passes},
        )

    def games(self, kb: KnowledgeBase, games: list[str], options: PrintOptions, paper: str) -> list[LaidOut]:
        """The PDF of each of ``games``, laying out (in parallel) those not in the cache."""
        blocks, markdown = EntryBlocks(kb), MarkdownRenderer()  # one of each for every game of the call
        parts = {g: PrintedGame(kb, kb.games[g], options, paper, blocks, markdown) for g in games}
        keys = {g: key(part.html(), paper) for g, part in parts.items()}
        self.laid_out = [g for g in games if self._load(g, keys[g]) is None]
        if len(self.laid_out) == 1 or (self.laid_out and self.jobs == 1):
            for game in self.laid_out:
                self.lay_out(parts[game], keys[game])
        elif self.laid_out:
            work = {g: (parts[g], keys[g], self) for g in self.laid_out}
            # fork: the workers share the loaded data instead of each loading it again.
            with ProcessPoolExecutor(
                min(self.jobs, len(self.laid_out)),
                multiprocessing.get_context("fork"),
                initializer=_Worker.start,
                initargs=(work,),
            ) as pool:
                for done in pool.map(_Worker.lay_out, self.laid_out):
                    del done
        found = [self._load(g, keys[g]) for g in games]
        assert all(found), "a laid-out game is missing from the cache"
        return found  # type: ignore[return-value]

    def combined(self, kb: KnowledgeBase, parts: list[LaidOut], options: PrintOptions, paper: str) -> Path:
        """The PDF of several games: a shared cover and contents, then each game's own pages (kept in the cache too)."""
        from pypdf import PdfReader, PdfWriter
        from pypdf.constants import PageLabelStyle

        groups = [(kb.games[p.game], printed_groups(kb, kb.games[p.game], options)) for p in parts]
        printed = {ref for _, game_groups in groups for _, _, refs in game_groups for ref in refs}
        pages = {name: number for part in parts for name, number in part.pages.items()}
        doc = PrintDocument(kb, PrintLinker(kb, printed, None, pages), options)
        front_key = key(doc.front_html(groups) + f"\0chunks of {FRONT_ENTRIES}", paper)
        combined_key = key(front_key + "\0" + "\0".join(p.key for p in parts), paper)
        path = self.path(combined_key)
        if self._load("", combined_key) is not None:
            return path
        front = self._load("", front_key) or self._front(doc, groups, front_key, paper)
        writer = PdfWriter()
        writer.append(PdfReader(front.path))
        count = front.count
        for part in parts:
            start = part.pages[f"g-{part.game}"]
            writer.append(PdfReader(part.path), pages=(start - 1, part.count))
            # A viewer's page box reads as the printed footer does ("BH 15"), not the page's place in the file.
            code = kb.games[part.game].code_prefix
            writer.set_page_label(count, count + part.count - start, PageLabelStyle.DECIMAL, f"{code} ", start)
            count += part.count - start + 1
        _link_anchors(writer, front.count)
        out = io.BytesIO()
        writer.write(out)
        self._store(combined_key, out.getvalue(), {"game": None, "pages": {}, "count": count})
        return path

    def _front(self, doc: PrintDocument, groups: list[Any], front_key: str, paper: str) -> LaidOut:
        """Lay out the cover and contents, a chunk of games at a time (numbered on), and keep them.

        Each chunk is kept too, under the key of its own HTML: a change that moves no page number
        lays out the cover alone (it names the data version), the contents come from the cache.
        """
        from pypdf import PdfReader, PdfWriter

        writer = PdfWriter()
        count = 0
        for make in doc.front_chunks(groups, FRONT_ENTRIES):
            html = make(count + 1)
            chunk_key = key(html, paper)
            chunk = self._load("", chunk_key)
            if chunk is None:
                laid = render(html, paper)
                self._store(chunk_key, laid.write_pdf(), {"game": None, "pages": {}, "count": len(laid.pages)})
                del laid
                chunk = self._load("", chunk_key)
                assert chunk is not None, "a laid-out chunk of the contents is missing from the cache"
            writer.append(PdfReader(chunk.path))
            count += chunk.count
        out = io.BytesIO()
        writer.write(out)
        self._store(front_key, out.getvalue(), {"game": None, "pages": {}, "count": count})
        return self._load("", front_key)  # type: ignore[return-value]


def _link_anchors(writer: Any, front_pages: int) -> None:
    """The contents' links to entries, written as :data:`FRONT_LINK` URIs, made links to their named destinations."""
    from pypdf.generic import DictionaryObject, NameObject, TextStringObject

    for page in writer.pages[:front_pages]:
        for annotation in page.get("/Annots") or []:
            annotation = annotation.get_object()
            action = annotation.get("/A")
            uri = str(action.get_object().get("/URI", "")) if action is not None else ""
            if uri.startswith(FRONT_LINK):
                annotation[NameObject("/A")] = DictionaryObject(
                    {NameObject("/S"): NameObject("/GoTo"), NameObject("/D"): TextStringObject(uri[len(FRONT_LINK) :])}
                )
