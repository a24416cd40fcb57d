"""Machine exports of the knowledge base: the JSON API of the site and ``houserules export``.

``entries_json`` is the full document of every entry (``site/api/entries.json``).
``houserules export --what entries|errata|glossary|review --format csv|json``
writes flat tables of text columns: the CSV (UTF-8 with a byte-order mark, so
spreadsheet programs keep the Chinese) and the JSON carry the same records: the JSON
the exact text, the CSV as people read it (:class:`Readable`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator, Sequence

from ..data.reading import vocab
from ..data.reading.model import INLINE_REF, NO_TEXT, Entry, Game, KnowledgeBase, QuestionSource, Source, Text
from ..data.versions.sourcehash import stale_translations
from ..errors import HouserulesError, display_path
from ..render.urls import entry_url, question_code, question_url
from .api import EXPORT_VERSION, entries_json
from .safewrite import Row, to_csv
from .tbx import glossary_tbx

# -- flat tables: houserules export ----------------------------------------------------------------
#: Separator of list values (aliases, sources...) inside one cell.
LIST_SEP = "; "


def _join(items: Iterable[str]) -> str:
    return LIST_SEP.join(items)


class Exact:
    """Cells as the data holds them (the JSON tables): ``[[game:id]]`` and document ids kept."""

    def text(self, text: str, lang: str = "zh") -> str:
        return text

    def sources(self, game: Game | None, sources: Sequence[Source | QuestionSource]) -> str:
        return _join(f"{s.doc} {s.ref}" for s in sources)


class Readable(Exact):
    """Cells as a reader sees them (the CSV): ``[[game:id]]`` as the target's title and code, ``楼层封闭 (BH-T06)``,
    as the terminal, site and PDF name it; a source as its document's title and section, never a file name."""

    def __init__(self, kb: KnowledgeBase):
        self.kb = kb

    def text(self, text: str, lang: str = "zh") -> str:
        def name(match: re.Match[str]) -> str:
            ref = match.group(1).strip()
            target = self.kb.entries.get(ref)
            return f"{target.title.get(lang)} ({target.code})" if target else ref

        return INLINE_REF.sub(name, text)

    def sources(self, game: Game | None, sources: Sequence[Source | QuestionSource]) -> str:
        return _join(f"{game.source_title(s.doc) if game else s.doc} {s.ref}" for s in sources)


EXACT = Exact()


def entry_rows(kb: KnowledgeBase, shown: Exact = EXACT) -> Iterator[Row]:
    """One row per entry: codes, titles, summaries and the labels a spreadsheet filters on."""
    for entry in kb.entries.values():
        yield {
            "id": entry.ref,
            "code": entry.code,
            "game": entry.game,
            "kind": entry.kind,
            "title_zh": entry.title.zh,
            "title_en": entry.title.en,
            "aliases": _join(entry.aliases),
            "summary_zh": shown.text(entry.summary.zh, "zh"),
            "summary_en": shown.text(entry.summary.get("en", ""), "en"),
            "authority": entry.authority,
            "confidence": entry.confidence,
            "status": entry.status or "complete",
            "applies_to": _join(entry.applies_to),
            "sources": shown.sources(kb.games.get(entry.game), entry.sources),
            "url": entry_url(entry),
        }


def faq_rows(kb: KnowledgeBase, shown: Exact = EXACT) -> Iterator[Row]:
    """One row per question, entry by entry: the question, its answer and where the answer comes from."""
    for entry in kb.entries.values():
        game = kb.games.get(entry.game)
        for question in entry.questions:
            source = question.source
            yield {
                "id": question_code(entry, question.id),
                "entry": entry.ref,
                "code": entry.code,
                "game": entry.game,
                "kind": entry.kind,
                "question_zh": shown.text(question.q.zh, "zh"),
                "question_en": shown.text(question.q.en, "en"),
                "answer_zh": shown.text(question.a.zh, "zh"),
                "answer_en": shown.text(question.a.en, "en"),
                "variants": _join(question.variants),
                "source": shown.sources(game, [source]),
                "clause": source.clause,
                "confidence": (question.confidence or "confirmed"),
                "url": question_url(entry, question.id),
            }


def errata_rows(kb: KnowledgeBase, shown: Exact = EXACT) -> Iterator[Row]:
    """One row per erratum, with the component's names and the entry that records it."""
    for entry, erratum in ((holder, erratum) for holder in kb.entries.values() for erratum in holder.errata):
        component = kb.entries.get(erratum.component)
        note = erratum.note or NO_TEXT
        yield {
            "game": erratum.component.split(":", 1)[0],
            "component": erratum.component,
            "component_code": component.code if component else "",
            "component_zh": component.title.zh if component else "",
            "component_en": component.title.en if component else "",
            "lang": erratum.lang,
            "edition": erratum.edition,
            "printed": erratum.printed,
            "corrected": erratum.corrected,
            "source_en": erratum.source_en,
            "status": erratum.status,
            "date": erratum.date,
            "sources": shown.sources(kb.games.get(entry.game), erratum.sources),
            "note_zh": shown.text(note.zh, "zh"),
            "note_en": shown.text(note.en, "en"),
            "entry": entry.ref,
            "entry_code": entry.code,
            "url": entry_url(entry),
        }


def glossary_rows(kb: KnowledgeBase, shown: Exact = EXACT) -> Iterator[Row]:
    """One row per glossary term, game by game, in file order."""
    for game in kb.games.values():
        for term in game.glossary.terms if game.glossary else []:
            note = term.note or NO_TEXT
            yield {
                "game": game.id,
                "id": term.id,
                "en": term.en,
                "zh": term.zh,
                "variants": _join(term.variants),
                "deprecated": _join(term.deprecated),
                "note_zh": shown.text(note.zh, "zh"),
                "note_en": shown.text(note.en, "en"),
                "entry": term.entry,
            }


def _review_items(entry: Entry) -> Iterator[tuple[str, tuple[str | int, ...], Text]]:
    """(reason, data path, detail) for each thing of an entry that needs a reviewer."""
    if entry.confidence == "uncertain":
        yield "confidence-uncertain", ("confidence",), entry.confidence_note or NO_TEXT
    status = entry.status or "complete"
    if status != "complete":
        yield f"status-{status}", ("status",), NO_TEXT
    for i, fact in enumerate(entry.facts):
        if fact.confidence == "uncertain":
            label, value = fact.label, fact.value
            english = f"{label.en}: {value.en}" if value.en else label.en
            yield "uncertain-fact", ("facts", i), Text(f"{label.zh}：{value.zh}", english)
    for i, note in enumerate(entry.translator_notes):
        if note.confidence == "uncertain":
            yield "uncertain-translator-note", ("translator_notes", i), note.problem
    for lang in stale_translations(entry):
        source = entry.translations[lang].from_
        yield (
            "stale-translation",
            ("translations", lang),
            Text(
                f"{lang} 译文据 {source} 原文翻译，原文其后有改动",
                f"the {source} text changed since the {lang} translation",
            ),
        )


def review_rows(kb: KnowledgeBase, shown: Exact = EXACT) -> Iterator[Row]:
    """One row per reason an entry needs review: uncertain, stub, needs-review, uncertain facts, stale translations."""
    for entry in kb.entries.values():
        for reason, path, detail in _review_items(entry):
            yield {
                "id": entry.ref,
                "code": entry.code,
                "game": entry.game,
                "title_zh": entry.title.zh,
                "title_en": entry.title.en,
                "reason": reason,
                "reason_zh": vocab.REVIEW_REASONS[reason]["zh"],
                "detail_zh": shown.text(detail.zh, "zh"),
                "detail_en": shown.text(detail.en, "en"),
                "file": display_path(entry.path),
                "line": str(entry.line(*path)),
                "url": entry_url(entry),
            }


#: What ``houserules export --what`` can write: the rows and their columns (fixed, even with no rows).
TABLES: dict[str, tuple[Callable[[KnowledgeBase, Exact], Iterator[Row]], tuple[str, ...]]] = {
    "entries": (
        entry_rows,
        (
            "id",
            "code",
            "game",
            "kind",
            "title_zh",
            "title_en",
            "aliases",
            "summary_zh",
            "summary_en",
            "authority",
            "confidence",
            "status",
            "applies_to",
            "sources",
            "url",
        ),
    ),
    "faq": (
        faq_rows,
        (
            "id",
            "entry",
            "code",
            "game",
            "kind",
            "question_zh",
            "question_en",
            "answer_zh",
            "answer_en",
            "variants",
            "source",
            "clause",
            "confidence",
            "url",
        ),
    ),
    "errata": (
        errata_rows,
        (
            "game",
            "component",
            "component_code",
            "component_zh",
            "component_en",
            "lang",
            "edition",
            "printed",
            "corrected",
            "source_en",
            "status",
            "date",
            "sources",
            "note_zh",
            "note_en",
            "entry",
            "entry_code",
            "url",
        ),
    ),
    "glossary": (glossary_rows, ("game", "id", "en", "zh", "variants", "deprecated", "note_zh", "note_en", "entry")),
    "review": (
        review_rows,
        (
            "id",
            "code",
            "game",
            "title_zh",
            "title_en",
            "reason",
            "reason_zh",
            "detail_zh",
            "detail_en",
            "file",
            "line",
            "url",
        ),
    ),
}
FORMATS = vocab.EXPORT_FORMATS
assert tuple(TABLES) == vocab.EXPORT_TABLES, "keep vocab.EXPORT_TABLES in step with export.TABLES"


def rows(kb: KnowledgeBase, what: str, readable: bool = False) -> list[Row]:
    """The records of one table: the exact text (JSON), or ``readable`` as a person reads them (CSV)."""
    return list(TABLES[what][0](kb, Readable(kb) if readable else EXACT))


def check_format(what: str, fmt: str) -> None:
    """Refuse a format the table cannot be written in (TBX holds terms only).

    >>> check_format("entries", "tbx")
    Traceback (most recent call last):
    houserules.errors.HouserulesError: the tbx format is for the glossary only (TBX is a terminology exchange format) — use --what glossary --format tbx, or --format csv or json for entries
    """
    allowed = vocab.EXPORT_ONLY.get(fmt)
    if allowed is not None and what not in allowed:
        raise HouserulesError(
            f"the {fmt} format is for the {' and '.join(allowed)} only (TBX is a terminology exchange "
            f"format) — use --what {allowed[0]} --format {fmt}, or --format csv or json for {what}"
        )


def game_part(kb: KnowledgeBase, game: str) -> KnowledgeBase:
    """The knowledge base of one game alone (its glossary and entries)."""
    if game not in kb.games:
        raise HouserulesError(f"unknown game '{game}' — use one of: {', '.join(kb.games)}")
    return KnowledgeBase({game: kb.games[game]}, {ref: e for ref, e in kb.entries.items() if e.game == game}, kb.root)


def export(kb: KnowledgeBase, what: str, fmt: str, game: str | None = None, version: str | None = None) -> bytes:
    """The bytes of one export, of every game or of ``game`` alone. ``entries`` as JSON is the full API
    document; the glossary as TBX is a terminology file (``version``: the data version it names,
    by default the data folder's); everything else is a flat table."""
    check_format(what, fmt)
    part = kb if game is None else game_part(kb, game)
    if fmt == "tbx":
        if version is None:
            from ..data.versions.version import data_version

            version = str(data_version(kb)) if kb.root else ""
        return glossary_tbx(part, version)
    if what == "entries" and fmt == "json":
        return (entries_json(part) + "\n").encode("utf-8")
    columns = TABLES[what][1]
    # rows of the whole knowledge base (a reference to another game keeps its name), then the game's
    records = [r for r in rows(kb, what, readable=fmt == "csv") if game is None or r["game"] == game]
    if fmt == "csv":
        return to_csv(columns, records)
    payload = {"version": EXPORT_VERSION, "what": what, "columns": list(columns), "records": records}
    return (json.dumps(payload, ensure_ascii=False, indent=1) + "\n").encode("utf-8")
