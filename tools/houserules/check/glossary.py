"""The glossary of each game: the checks that keep translations consistent.

``rules_data/<game>/glossary.yaml`` lists terms: the English name (``en``),
the preferred Chinese translation (``zh``), other accepted forms
(``variants``), translations no longer to use (``deprecated``), a note and
the entry explaining the term. ``houserules check`` enforces it:

- an entry whose English title is a term's ``en`` (case-insensitive) must
  have that term's ``zh`` as its Chinese title;
- no Chinese text of an entry may use a deprecated translation, except the
  fields that quote wrong text on purpose (an erratum's ``printed`` text, a
  translator note's ``quote``) and the ``aliases`` that exist so people who
  type an old name still find the entry;
- the glossary itself has unique term ids, never deprecates a term's own
  preferred form, and links only existing entries.
"""

from __future__ import annotations

import bisect
import re
import string
from collections.abc import Iterable, Iterator, Sequence
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import ahocorasick

from ..data.reading.model import Entry, KnowledgeBase, Term
from ..errors import Problem, display_path

#: A block scalar (``|``) starts its text on the next line, so a line within the text can be found.
_LITERAL = re.compile(r":\s*\|[0-9+-]*\s*(#.*)?$")


def _glossary_path(kb: KnowledgeBase, game: str) -> Path:
    """The glossary file of ``game`` (where its terms came from)."""
    glossary = kb.games[game].glossary
    assert glossary is not None, "only a game with a glossary has terms"
    return glossary.path


def terms(kb: KnowledgeBase, game: str) -> tuple[Term, ...]:
    glossary = kb.games[game].glossary if game in kb.games else None
    return glossary.terms if glossary else ()


def chinese_fields(entry: Entry) -> Iterator[tuple[tuple[Any, ...], str]]:
    """The Chinese text of an entry that the glossary governs, with the path of each field."""
    for path, text in entry.texts:
        if path[-1] == "zh":
            yield path, text
    for index, erratum in enumerate(entry.errata):
        if erratum.lang.startswith("zh"):  # ``printed`` quotes the wrong text on purpose
            yield ("errata", index, "corrected"), erratum.corrected


@lru_cache(maxsize=256)
def _raw_lines(path: Path, mtime_ns: int) -> tuple[str, ...]:
    return tuple(path.read_text(encoding="utf-8-sig").splitlines())


def text_line(entry: Entry, path: tuple[Any, ...], offset: int) -> int:
    """The file line of character ``offset`` of a text field (exact inside ``|`` blocks, else the field's line)."""
    line = entry.line(*path)
    raw = _raw_lines(entry.path, entry.path.stat().st_mtime_ns)
    if 0 < line <= len(raw) and _LITERAL.search(raw[line - 1]):
        return line + 1 + _value(entry.data, path)[:offset].count("\n")
    return line


def _value(data: Any, path: tuple[Any, ...]) -> str:
    for key in path:
        data = data[key]
    text: str = data
    return text


@cache
def _pattern(form: str) -> re.Pattern[str]:
    # Compiled once per form: with many games the forms outnumber re's own cache.
    # Latin forms match whole words, case-insensitively; Chinese has no word boundaries.
    if form.isascii():
        return re.compile(rf"(?<!\w){re.escape(form)}(?!\w)", re.IGNORECASE)
    return re.compile(re.escape(form))


#: What a Latin form is looked for in: a text with every character that ``re.IGNORECASE`` matches
#: with an ASCII letter written as that letter in lower case (ASCII capitals, the Kelvin sign, the
#: dotted and dotless I, the long s; tests/test_glossary_scale.py derives the list from ``re``).
_CASELESS = str.maketrans(
    {**{c: c.lower() for c in string.ascii_uppercase}, "\u212a": "k", "\u0130": "i", "\u0131": "i", "\u017f": "s"}
)


class _Forms:
    """Many forms of a glossary (its deprecated ones, or its accepted ones), found in a text in one pass.

    A text is read once by an Aho–Corasick automaton of the forms (``pyahocorasick``): its time
    grows with the text and the uses found, not with the number of forms. A giant alternation of
    every form (what this replaced) tried each form at each character: 26,000 forms took
    minutes. Chinese forms are looked for as written; Latin ones in the text with
    :data:`_CASELESS` applied, which finds every use ``re.IGNORECASE`` would and maybe more (a use
    inside a word): each form found is then matched with its own pattern (:func:`_pattern`), so
    what counts as a use is exactly what it was.
    """

    def __init__(self, forms: Iterable[tuple[Term, str]]):
        #: The (place in the order given, term, form) of each key; the key's number is its place here.
        self._groups: list[list[tuple[int, Term, str]]] = []
        written = ahocorasick.Automaton()
        caseless = ahocorasick.Automaton()
        keys: dict[tuple[bool, str], int] = {}
        for place, (term, form) in enumerate(forms):
            if not form:
                continue
            latin = form.isascii()
            key = (latin, form.translate(_CASELESS) if latin else form)
            if key not in keys:
                keys[key] = len(self._groups)
                self._groups.append([])
                (caseless if latin else written).add_word(key[1], keys[key])
            self._groups[keys[key]].append((place, term, form))
        self._automata = [(a, latin) for a, latin in ((written, False), (caseless, True)) if len(a)]
        for automaton, _ in self._automata:
            automaton.make_automaton()

    def __bool__(self) -> bool:
        return bool(self._groups)

    def candidates(self, text: str) -> list[tuple[Term, str]]:
        """The (term, form) pairs whose key the text holds, in the order given (a superset of the forms it uses)."""
        seen: set[int] = set()
        for automaton, latin in self._automata:
            for _, group in automaton.iter(text.translate(_CASELESS) if latin else text):
                seen.add(group)
        found = sorted((each for group in seen for each in self._groups[group]), key=lambda each: each[0])
        return [(term, form) for _, term, form in found]

    def used(self, text: str) -> bool:
        """Whether the text uses one of the forms."""
        return any(_pattern(form).search(text) for _, form in self.candidates(text))

    def uses(self, text: str) -> list[tuple[int, int, Term, str]]:
        """Every use of every form: (start, end, term, form), by term and form in the order given."""
        return [(start, end, term, form) for term, form in self.candidates(text) for start, end in _find(form, text)]


def _find(form: str, text: str) -> Iterator[tuple[int, int]]:
    for match in _pattern(form).finditer(text):
        yield match.span()


class _Glossary:
    """A game's terms as the deprecated-form check reads them: its deprecated and its accepted forms."""

    def __init__(self, glossary: Sequence[Term]):
        self.deprecated = _Forms((term, form) for term in glossary for form in term.deprecated)
        self.accepted = _Forms((term, form) for term in glossary for form in (term.zh, *term.variants))


def _deprecated_uses(text: str, glossary: Sequence[Term] | _Glossary) -> Iterator[tuple[Term, str, int]]:
    """(term, deprecated form, offset of its first use) for each deprecated form a text uses.

    A form inside an accepted form of any term (塔 inside 塔楼) is no use, nor is
    a form inside a longer deprecated one (塔 inside 高塔: that one is reported).

    >>> tower = Term(id="tower", en="Tower", zh="塔楼", deprecated=("高塔", "塔"))
    >>> [(form, offset) for _, form, offset in _deprecated_uses("塔楼旁的高塔，不是塔。", [tower])]
    [('高塔', 4), ('塔', 9)]
    """
    forms = glossary if isinstance(glossary, _Glossary) else _Glossary(glossary)
    found = forms.deprecated.uses(text)
    if not found:  # the usual case: no need to look for the accepted forms
        return
    covering = _Spans([(start, end) for start, end, _, _ in forms.accepted.uses(text)])
    hits = [(start, end, term, form) for start, end, term, form in found if not covering.holds(start, end)]
    longer = _Spans([(start, end) for start, end, _, _ in hits])
    reported: set[tuple[str, str]] = set()
    for start, end, term, form in sorted(hits, key=lambda hit: hit[0]):
        if not longer.holds(start, end, strictly=True) and (term.id, form) not in reported:
            reported.add((term.id, form))
            yield term, form, start


class _Spans:
    """Spans of a text, asked whether one of them holds a given span: a binary search each, so
    thousands of uses of a form cost thousands of steps, not millions of comparisons."""

    def __init__(self, spans: list[tuple[int, int]]):
        ordered = sorted(spans)
        self.starts = [a for a, _ in ordered]
        #: The furthest end of the spans up to each (in start order).
        self.reach: list[int] = []
        #: The furthest end of the spans from each start.
        self.longest_from: dict[int, int] = {}
        furthest = -1
        for a, b in ordered:
            furthest = max(furthest, b)
            self.reach.append(furthest)
            self.longest_from[a] = max(self.longest_from.get(a, -1), b)

    def holds(self, start: int, end: int, strictly: bool = False) -> bool:
        """Whether a span holds ``start..end`` (``strictly``: and is longer than it)."""
        i = (bisect.bisect_left if strictly else bisect.bisect_right)(self.starts, start)
        if i and self.reach[i - 1] >= end:  # one starting before (or, not strictly, at) start reaches end
            return True
        return strictly and self.longest_from.get(start, -1) > end  # one starting at start ends later


def _title_term(entry: Entry, glossary: Sequence[Term]) -> Term | None:
    english = entry.title.en.casefold()
    return next((term for term in glossary if term.en.casefold() == english), None)


def check_titles(kb: KnowledgeBase) -> Iterator[Problem]:
    """An entry named after a term carries the term's preferred Chinese name."""
    named: dict[str, dict[str, Term]] = {}  # per game: the first term of each English name
    for entry in kb.entries.values():
        if entry.game not in named:
            named[entry.game] = {}
            for each in terms(kb, entry.game):
                named[entry.game].setdefault(each.en.casefold(), each)
        term = named[entry.game].get(entry.title.en.casefold())
        if term and entry.title.zh != term.zh:
            yield Problem(
                display_path(entry.path),
                entry.line("title"),
                entry.ref,
                f"title '{entry.title.zh}' disagrees with the glossary: '{term.en}' is "
                f"translated '{term.zh}' (term '{term.id}')",
                f"write title.zh: {term.zh}, or change {display_path(_glossary_path(kb, entry.game))}",
            )


def check_deprecated(kb: KnowledgeBase) -> Iterator[Problem]:
    """No Chinese text of an entry uses a deprecated translation of a term."""
    matchers: dict[str, _Glossary] = {}
    for entry in kb.entries.values():
        glossary = terms(kb, entry.game)
        if entry.game not in matchers:
            matchers[entry.game] = _Glossary(glossary)
        forms = matchers[entry.game]
        # Every text of the entry (an erratum's correction too) is in its joined text, between
        # blank lines a form never spans: one pass over it passes most entries at once.
        if not forms.deprecated or not forms.deprecated.used(entry.all_text):
            continue
        for path, text in chinese_fields(entry):
            if not forms.deprecated.used(text):
                continue
            for term, form, offset in _deprecated_uses(text, forms):
                if path == ("title", "zh") and term is _title_term(entry, glossary):
                    continue  # check_titles already reports this title
                yield Problem(
                    display_path(entry.path),
                    text_line(entry, path, offset),
                    entry.ref,
                    f"{'.'.join(map(str, path))} uses '{form}', a deprecated translation of "
                    f"'{term.en}' (term '{term.id}')",
                    f"write '{term.zh}' instead",
                )


def check_glossary(kb: KnowledgeBase) -> Iterator[Problem]:
    """Each glossary on its own: unique ids, deprecated forms that differ from the preferred one, entries that exist."""
    for game in kb.games.values():
        glossary = game.glossary
        if glossary is None:
            continue
        where = display_path(glossary.path)
        first_line: dict[str, int] = {}
        for index, term in enumerate(glossary.terms):
            if term.id in first_line:
                yield Problem(
                    where,
                    glossary.line("terms", index, "id"),
                    game.id,
                    f"duplicate term id '{term.id}' (first on line {first_line[term.id]})",
                    "give each term an id of its own",
                )
            first_line.setdefault(term.id, glossary.line("terms", index, "id"))
            deprecated = term.deprecated
            for j, form in enumerate(deprecated):
                at = glossary.line("terms", index, "deprecated", j)
                if form == term.zh:
                    yield Problem(
                        where,
                        at,
                        game.id,
                        f"term '{term.id}' deprecates its own preferred form '{form}'",
                        f"remove '{form}' from deprecated, or choose another zh",
                    )
                elif form in term.variants:
                    yield Problem(
                        where,
                        at,
                        game.id,
                        f"term '{term.id}' lists '{form}' both as a variant and as deprecated",
                        "keep it in one of the two lists",
                    )
            ref = term.entry
            if ref and ref not in kb.entries:
                yield Problem(
                    where,
                    glossary.line("terms", index, "entry"),
                    game.id,
                    f"term '{term.id}' links entry '{ref}', which does not exist",
                    "fix the reference or create the entry",
                )


CHECKS = [check_glossary, check_titles, check_deprecated]
