"""HTML of entries: the templates' helper (``h`` in ``render/templates/``) and the entry's blocks rendered.

Each output links entries its own way (a :class:`~houserules.render.text.Linker`);
an :class:`Html` holds it and gives the templates what they compute in Python (data
Markdown as sanitized HTML, references looked up, sources as a reader sees them, the
rows of an errata table). The macros of ``parts.html`` lay out what every output
shares, so a fact table or an erratum looks the same on a page and on paper.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from ..data.reading import vocab
from ..data.reading.model import Entry, Game, KnowledgeBase, QuestionSource
from ..data.reading.model import Erratum as ErratumRecord
from ..data.reading.model import Source as SourceRecord
from .blocks import Block, Erratum
from .diff import Span, diff_spans
from .templating import render
from .text import Linker, MarkdownRenderer


@dataclass(frozen=True)
class Source:
    """A source as a reader sees it: the document's title (never its id, a file name such as 002_….txt),
    the place in it, and its role when it is not the basis of the text."""

    title: str
    ref: str
    role: str | None


@dataclass(frozen=True)
class ErratumRow:
    """One row of an errata table."""

    record: Erratum
    #: The component the erratum corrects, when it is an entry (else its name is the erratum's ``component``).
    component: Entry | None
    #: The entry holding the erratum, when it is not the component, and its link.
    holder: Entry | None
    holder_href: str | None
    printed: list[Span]
    corrected: list[Span]
    #: The language of the printed and corrected texts (``zh`` or ``en``).
    lang: str
    status: dict[str, str]
    sources: list[Source]

    @property
    def data(self) -> ErratumRecord:
        return self.record.data


class Html:
    """HTML of entry parts for one output (its linker decides where references go)."""

    def __init__(self, kb: KnowledgeBase, linker: Linker, markdown: MarkdownRenderer | None = None):
        self.kb = kb
        self.linker = linker
        #: The build's Markdown parser and cache (a new one, made when first needed, without).
        self.markdown = markdown or MarkdownRenderer()

    # -- what the templates ask ---------------------------------------------------------------
    def md(self, text: str | None, lang: str = "zh") -> Markup:
        """Data Markdown as sanitized HTML: the one way data text becomes markup."""
        return Markup(self.markdown.html(text, self.linker, lang)) if text else Markup()

    def entries(self, refs: Iterable[str]) -> list[Entry]:
        """The entries of ``refs`` that exist."""
        return [self.kb.entries[ref] for ref in refs if ref in self.kb.entries]

    def game(self, entry: Entry) -> Game:
        return self.kb.games[entry.game]

    def source(self, game: Game, source: SourceRecord | QuestionSource, role: bool = True) -> Source:
        """A source of ``game``; ``role=False`` leaves out its role (a question's source)."""
        kind = (getattr(source, "role", "") or "basis") if role else "basis"
        return Source(
            game.source_title(source.doc), source.ref, None if kind == "basis" else vocab.SOURCE_ROLES[kind]["zh"]
        )

    def errata_rows(self, records: Iterable[Erratum]) -> list[ErratumRow]:
        rows = []
        for record in records:
            erratum, holder = record.data, record.holder
            other = holder.ref != erratum.component
            printed, corrected = diff_spans(erratum.printed, erratum.corrected, erratum.lang)
            game = self.kb.games[holder.game]
            rows.append(
                ErratumRow(
                    record,
                    self.kb.entries.get(erratum.component),
                    holder if other else None,
                    self.linker.href(holder) if other else None,
                    printed,
                    corrected,
                    "en" if erratum.lang == "en" else "zh",
                    vocab.ERRATA_STATUSES[erratum.status],
                    [self.source(game, s) for s in erratum.sources],
                )
            )
        return rows


def entry_html(h: Html, output: str, entry: Entry, blocks: list[Block], **extra: Any) -> str:
    """An entry's ``blocks`` laid out for ``output`` (``site``: the Markdown of its page after the front matter;
    ``print``: its ``<article>`` in the print document); ``extra`` is what the output's own parts show."""
    return render("entry.html", output=output, h=h, entry=entry, blocks=blocks, **extra)
