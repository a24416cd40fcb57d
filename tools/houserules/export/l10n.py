"""Every translatable text of the data as translation units, for CAT tools and translation platforms.

``houserules l10n export`` writes the units as XLIFF 2.0 or gettext PO (:mod:`.l10n_write`);
``houserules l10n import`` (:mod:`.l10n_import`) puts the translated targets back into the
YAML files. A unit is one text in one place of one file:

- its **id** is ``game:id/field-path`` (``betrayal:mystic-elevator-ruling/questions/must-move/a``;
  list items with an id are named by it, others by their index; glossary terms are
  ``game:glossary/<term>`` and ``.../note``), stable while the entry and its questions keep
  their ids;
- its **source** is the text in the source language, its **target** the text in the other
  one (empty when not written yet). Lists of names (aliases, a question's variants) are one
  unit each, one name a line: the names of the source language, and those of the target
  language to write;
- errata: the corrected text of a card is the target of an English → Chinese file, with the
  English card text as its source;
- its **state**: ``new`` (no target), ``needs-review`` (the entry's translation stamp, see
  :mod:`houserules.data.versions.sourcehash`, says its source changed since the translation was
  stamped; title, summary and body) or ``translated``;
- its **note**: the entry's code and titles, the page, the file and line, the
  glossary terms the source holds with their translations, each ``[[game:id]]`` reference's
  entry by title and code, and for an erratum the component (card) it is on, its printed text
  and its corrected text;
- the **exported target**: a digest of the target the unit was exported with
  (:func:`target_digest`), which the import compares with the data's target now: a unit whose
  file target is unchanged is never written, and one whose data target changed since the export
  is a conflict (see :mod:`.l10n_import`).

``[[game:id]]`` references are inline codes: XLIFF ``<ph>`` elements whose original data
is the reference, so a CAT tool moves them as a whole; in PO they stay as text and the
import checks that every reference of the source is in the target.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..data.reading.model import INLINE_REF, NO_TEXT, Entry, Game, KnowledgeBase
from ..data.versions.sourcehash import HASHED_FIELDS, stale_fields
from ..errors import HouserulesError, display_path
from ..render.urls import entry_url, glossary_src, page_url, question_url
from .tbx import language_of

LANGS = ("zh", "en")
L10N_FORMATS = ("xliff", "po")
XLIFF_NS = "urn:oasis:names:tc:xliff:document:2.0"
#: Our prefix for XLIFF 2.0 ``subState`` values (the standard requires ``prefix:value``).
SUBSTATE_REVIEW = "houserules:needs-review"
#: Texts not to translate: the translation stamps themselves.
_SKIPPED = {"translations"}
#: The XLIFF 2.0 Metadata module, where each unit records the target it was exported with.
MDA_NS = "urn:oasis:names:tc:xliff:metadata:2.0"
#: The Metadata module's category and type for it, and the PO comment line carrying the same.
MDA_CATEGORY = "houserules"
MDA_EXPORTED = "exported-target-sha256"
PO_EXPORTED = "houserules-exported-target:"


def lf_breaks(text: str) -> str:
    """``text`` with each CRLF and lone CR line break as LF, as the import reads every target.

    >>> lf_breaks("a\\r\\nb\\rc\\n")
    'a\\nb\\nc\\n'
    """
    return text.replace("\r\n", "\n").replace("\r", "\n")


def target_digest(text: str) -> str:
    """The digest a file records of the target a unit was exported with: SHA-256, 16 hex digits, of the text
    with its line breaks as LF (:func:`lf_breaks`), so a target a tool saved with CRLF is still the one exported.

    >>> target_digest(""), target_digest("Tower"), target_digest("a\\r\\nb") == target_digest("a\\nb")
    ('e3b0c44298fc1c14', 'aeb11001d7769761', True)
    """
    return hashlib.sha256(lf_breaks(text).encode("utf-8")).hexdigest()[:16]


@dataclass
class Unit:
    """One translatable text: where it lives, its source and target, and what a translator needs to know."""

    id: str
    path: Path
    #: Where the target text lives in the file's data (a list for names: aliases, variants).
    target_path: tuple[str | int, ...]
    source: str
    target: str
    is_list: bool = False
    state: str = "translated"
    entry: Entry | None = None
    line: int = 1
    notes: dict[str, str] = field(default_factory=dict)


def other(lang: str) -> str:
    return "en" if lang == "zh" else "zh"


def _segment(item: Any, index: int) -> str:
    return str(item["id"]) if isinstance(item, dict) and isinstance(item.get("id"), str) else str(index)


def _bilingual(
    data: Any, path: tuple[str | int, ...] = (), names: tuple[str | int, ...] = ()
) -> Iterator[tuple[tuple[str | int, ...], tuple[str | int, ...], dict[str, str]]]:
    """Every ``{zh, en}`` text of ``data``: (data path, id path, the mapping)."""
    if isinstance(data, dict):
        if data and set(data) <= set(LANGS) and all(isinstance(v, str) for v in data.values()):
            yield path, names, data
            return
        for key, value in data.items():
            if key not in _SKIPPED:
                yield from _bilingual(value, path + (key,), names + (key,))
    elif isinstance(data, list):
        for index, item in enumerate(data):
            yield from _bilingual(item, path + (index,), names + (_segment(item, index),))


def _names(items: list[str], lang: str) -> list[str]:
    return [item for item in items if language_of(item) == lang]


class _Terms:
    """The glossary terms a source text holds, as ``source = target`` pairs."""

    def __init__(self, game: Game | None, src: str):
        self.pairs: list[tuple[re.Pattern[str], str]] = []
        for term in game.glossary.terms if game and game.glossary else []:
            forms = [term.word(src)] + [v for v in term.variants if language_of(v) == src]
            label = f"{term.word(src)} = {term.word(other(src))}"
            for form in forms:
                pattern = re.escape(form) if src == "zh" else rf"(?<![\w-]){re.escape(form)}(?![\w-])"
                self.pairs.append((re.compile(pattern, re.IGNORECASE), label))

    def found(self, text: str) -> list[str]:
        seen: dict[str, None] = {}
        for pattern, label in self.pairs:
            if pattern.search(text):
                seen.setdefault(label, None)
        return list(seen)


def _entry_name(kb: KnowledgeBase, ref: str) -> str:
    """An entry as a translator knows it: its titles and code (``塔楼 · Tower (DM-R01)``)."""
    entry = kb.entries.get(ref)
    if entry is None:
        return ref
    titles = " · ".join(dict.fromkeys(t for t in (entry.title.zh, entry.title.en) if t))
    return f"{titles} ({entry.code})"


def _references(kb: KnowledgeBase, text: str) -> list[str]:
    """Each ``[[game:id]]`` of ``text`` once, with the entry it names (``[[demo:tower]] = 塔楼 · Tower (DM-R01)``)."""
    refs = dict.fromkeys(match.group(1) for match in INLINE_REF.finditer(text))
    return [f"[[{ref}]] = {_entry_name(kb, ref)}" for ref in refs]


def _url(site_url: str, url: str) -> str:
    return site_url.rstrip("/") + "/" + url if site_url else url


def entry_units(kb: KnowledgeBase, entry: Entry, src: str, site_url: str = "") -> Iterator[Unit]:
    """The units of one entry, in file order."""
    tgt = other(src)
    data = entry.data
    terms = _Terms(kb.games.get(entry.game), src)
    record = data.get("translations", {}).get(tgt)
    stale = set(stale_fields(entry, tgt)) if record is not None and record["from"] == src else set()
    where = display_path(entry.path)
    head = f"{entry.code} · {entry.title.zh} · {entry.title.en}"

    def unit(
        names: tuple[str | int, ...],
        path: tuple[str | int, ...],
        source: str,
        target: str,
        is_list: bool = False,
        url: str = "",
        **extra: str,
    ) -> Unit:
        line = entry.line(*path)
        state = "new" if not target.strip() else "translated"
        if state == "translated" and path[0] in HASHED_FIELDS and path[0] in stale:
            state = "needs-review"
        notes = {"entry": head, "url": _url(site_url, url or entry_url(entry)), "location": f"{where}:{line}"}
        found = terms.found(source)
        if found:
            notes["terms"] = "术语 Terms: " + "; ".join(found)
        if is_list:
            notes["hint"] = "每行一个名称 One name a line: what players type to find this entry."
        elif INLINE_REF.search(source):
            notes["hint"] = "[[…]] 是条目引用，保持原样 [[…]] are references to entries: keep each one."
            notes["references"] = "引用 References: " + "; ".join(_references(kb, source))
        notes.update(extra)
        return Unit(
            f"{entry.ref}/{'/'.join(map(str, names))}",
            entry.path,
            path,
            source,
            target,
            is_list,
            state,
            entry,
            line,
            notes,
        )

    texts = {path: (names, text) for path, names, text in _bilingual(data)}
    aliases = data.get("aliases", [])
    for path, (names, text) in texts.items():
        if not text.get(src, "").strip():
            continue
        url = question_url(entry, str(names[1])) if path[0] == "questions" else ""
        yield unit(names, path + (tgt,), text[src], text.get(tgt, ""), url=url)
        if path[0] == "title" and _names(aliases, src):
            yield unit(
                ("aliases",), ("aliases",), "\n".join(_names(aliases, src)), "\n".join(_names(aliases, tgt)), True
            )
        if path[0] == "questions" and path[-1] == "q":
            variants = data["questions"][path[1]].get("variants", [])
            if _names(variants, src):
                yield unit(
                    names[:-1] + ("variants",),
                    ("questions", path[1], "variants"),
                    "\n".join(_names(variants, src)),
                    "\n".join(_names(variants, tgt)),
                    True,
                    url,
                )
    for index, erratum in enumerate(entry.errata):
        if src == "en" and erratum.lang.split("-")[0] == tgt and erratum.source_en.strip():
            yield unit(
                ("errata", index, "corrected"),
                ("errata", index, "corrected"),
                erratum.source_en,
                erratum.corrected,
                component="卡牌 Component: " + _entry_name(kb, erratum.component),
                printed=f"印刷的文字 Printed ({erratum.lang}{', ' + erratum.edition if erratum.edition else ''}): "
                f"{erratum.printed}",
                corrected=f"更正的文字 Corrected (now in the data): {erratum.corrected}",
            )


def glossary_units(game: Game, src: str, site_url: str = "") -> Iterator[Unit]:
    """A unit per glossary term (its form in each language) and per term note."""
    if game.glossary is None:
        return
    tgt = other(src)
    glossary = game.glossary
    where = display_path(glossary.path)
    for index, term in enumerate(glossary.terms):
        url = _url(site_url, page_url(glossary_src(game.id)) + f"#term-{term.id}")
        base = f"{game.id}:glossary/{term.id}"
        head = f"术语 Term · {game.name.zh} · {game.name.en}"
        forms = "; ".join(term.variants)
        line = glossary.line("terms", index)
        notes = {"entry": head, "url": url, "location": f"{where}:{line}"}
        if forms:
            notes["terms"] = f"其他写法 Variants: {forms}"
        if term.deprecated:
            notes["hint"] = f"弃用 Deprecated (do not use): {'; '.join(term.deprecated)}"
        yield Unit(base, glossary.path, ("terms", index, tgt), term.word(src), term.word(tgt), line=line, notes=notes)
        note = term.note or NO_TEXT
        if note.get(src).strip():
            line = glossary.line("terms", index, "note")
            yield Unit(
                f"{base}/note",
                glossary.path,
                ("terms", index, "note", tgt),
                note.get(src),
                note.get(tgt),
                state="translated" if note.get(tgt).strip() else "new",
                line=line,
                notes={"entry": head, "url": url, "location": f"{where}:{line}"},
            )


def units(kb: KnowledgeBase, src: str = "zh", game: str | None = None, site_url: str = "") -> list[Unit]:
    """Every unit of the data (or of one game), game by game: entries in load order, then the glossary."""
    if src not in LANGS:
        raise HouserulesError(f"unknown source language '{src}' — use one of: {', '.join(LANGS)}")
    if game is not None and game not in kb.games:
        raise HouserulesError(f"no game '{game}' in the data — use one of: {', '.join(kb.games)}")
    result: list[Unit] = []
    for each in kb.games.values():
        if game is None or each.id == game:
            for entry in kb.game_entries(each.id):
                result.extend(entry_units(kb, entry, src, site_url))
            result.extend(glossary_units(each, src, site_url))
    return result
