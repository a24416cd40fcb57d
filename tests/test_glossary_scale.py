"""Glossaries of thousands of terms: the check and the search grow linearly, with the same answers.

The deprecated-form check reads a text once through an Aho–Corasick automaton of the forms (it was
one alternation of every form, tried at every character); a query many synonym pairs say keeps
the longest of them without comparing every pair with every other, and names the longest runs of
its terms with a sort. Here each new way is compared with the old one (written out below as it
was) on generated glossaries, texts and queries, and the work each does is counted: the old ways'
grows with the square of the pairs or with every form, the new ones' does not. The timings, before
and after, are in BENCHMARKS.md (``benchmarks/glossary_scale.py``).
"""

from __future__ import annotations

import re
import string
import sys

from hypothesis import given
from hypothesis import strategies as st

from conftest import DATA, load_kb
from houserules.check import glossary
from houserules.data.reading.model import Term
from houserules.data.words import synonyms
from houserules.text import querynames

# --- the old ways, as they were ------------------------------------------------------------------


def old_pattern(form: str) -> re.Pattern[str]:
    if form.isascii():
        return re.compile(rf"(?<!\w){re.escape(form)}(?!\w)", re.IGNORECASE)
    return re.compile(re.escape(form))


def old_screen(forms: list[str]) -> re.Pattern[str]:
    return re.compile(
        "|".join(f"(?i:{old_pattern(f).pattern})" if f.isascii() else old_pattern(f).pattern for f in forms)
    )


def old_deprecated_uses(text: str, terms: list[Term]) -> list[tuple[str, str, int]]:
    def find(form: str) -> list[tuple[int, int]]:
        return [m.span() for m in old_pattern(form).finditer(text)]

    found = [(s, e, t, f) for t in terms for f in t.deprecated for s, e in find(f)]
    if not found:
        return []
    covering = glossary._Spans([span for t in terms for f in (t.zh, *t.variants) for span in find(f)])
    hits = [(s, e, t, f) for s, e, t, f in found if not covering.holds(s, e)]
    longer = glossary._Spans([(s, e) for s, e, _, _ in hits])
    out, reported = [], set()
    for s, e, t, f in sorted(hits, key=lambda hit: hit[0]):
        if not longer.holds(s, e, strictly=True) and (t.id, f) not in reported:
            reported.add((t.id, f))
            out.append((t.id, f, s))
    return out


def old_longest(hits: list[list[str]]) -> list[list[str]]:
    keys = [synonyms._key(pair[0]) for pair in hits]
    return [
        pair
        for pair, key in zip(hits, keys)
        if not key
        or not any(other != key and key in other for other in keys if other.startswith(" ") == key.startswith(" "))
    ]


def old_merge(hits: list[list[str]]) -> dict[str, frozenset[str] | None]:
    found: dict[str, frozenset[str] | None] = {}
    for _say, means, *game in old_longest(hits):
        scope = frozenset(game) if game and game[0] else None
        if means not in found:
            found[means] = scope
        else:
            prior = found[means]
            found[means] = None if prior is None or scope is None else prior | scope
    return found


def old_longest_spans(spans: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    return [
        span
        for span in spans
        if not any(other != span and other[0] <= span[0] and span[1] <= other[1] for other in spans)
    ]


# --- generated glossaries and texts --------------------------------------------------------------

#: Characters that make the hard cases: Latin letters in both cases and the non-ASCII ones
#: ``re.IGNORECASE`` matches with them (İ ı ſ and the Kelvin sign), digits, word joiners and
#: separators, a few Chinese characters that overlap, and two beyond the BMP (an emoji, CJK Extension B).
ALPHABET = "aAbBkKsSiI\u0130\u0131\u017f\u212a0_ -.塔楼高兆征预😀𠀀"
forms = st.text(alphabet=ALPHABET, min_size=1, max_size=4)
texts = st.text(alphabet=ALPHABET + "，x", max_size=60)


@st.composite
def glossaries(draw: st.DrawFn) -> list[Term]:
    count = draw(st.integers(1, 6))
    return [
        Term(
            id=f"t{n}",
            en=f"term {n}",
            zh=draw(forms),
            variants=tuple(draw(st.lists(forms, max_size=2))),
            deprecated=tuple(draw(st.lists(forms, min_size=1, max_size=4))),
        )
        for n in range(count)
    ]


@given(glossaries(), texts)
def test_deprecated_uses_are_what_the_old_check_found(terms, text):
    new = [(t.id, f, s) for t, f, s in glossary._deprecated_uses(text, terms)]
    assert new == old_deprecated_uses(text, terms)


@given(glossaries(), texts)
def test_the_screen_passes_what_the_old_alternation_passed(terms, text):
    deprecated = [form for term in terms for form in term.deprecated]
    assert glossary._Glossary(terms).deprecated.used(text) == bool(old_screen(deprecated).search(text))


def test_caseless_text_maps_every_character_ignorecase_matches_with_a_latin_letter():
    """Derived from ``re`` over every code point: a Latin form is never missed for its case."""
    letters = re.compile("|".join(f"(?i:{c})" for c in string.ascii_lowercase))
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        if letters.fullmatch(char):
            folded = char.translate(glossary._CASELESS)
            assert re.fullmatch(f"(?i:{folded})", char) and folded in string.ascii_lowercase, hex(code)


def test_the_check_compiles_no_pattern_for_forms_no_text_uses():
    """26,000 forms used nowhere: the old check compiled a pattern for each (and one alternation of
    them all, tried at every character); now only a form found in a text is matched with its own."""
    kb = load_kb(DATA)
    game = next(g for g in kb.games.values() if g.glossary is not None)
    many = tuple(
        Term(id=f"g{n}", en=f"generated {n}", zh=f"㐀{n}", deprecated=(f"㐁{n}㐂", f"zq{n}x")) for n in range(13_000)
    )
    object.__setattr__(game.glossary, "terms", game.glossary.terms + many)
    glossary._pattern.cache_clear()
    problems = list(glossary.check_deprecated(kb))
    assert problems == []
    assert glossary._pattern.cache_info().currsize < 50  # the real glossary's forms found in texts, no more


# --- the search: the pairs a query says -----------------------------------------------------------


class Counted(str):
    """A synonym that counts how often it is compared with another."""

    comparisons = 0

    def __eq__(self, other: object) -> bool:
        Counted.comparisons += 1
        return str.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        Counted.comparisons += 1
        return str.__ne__(self, other)

    def __contains__(self, other: object) -> bool:
        Counted.comparisons += 1
        return str.__contains__(self, other)

    __hash__ = str.__hash__


def test_thousands_of_pairs_saying_one_word_are_not_compared_pair_by_pair():
    count = 3000
    pairs = [[Counted("咋整"), f"办法{n}", f"game{n % 7}"] for n in range(count)]
    Counted.comparisons = 0
    said = synonyms.said_scopes("这个咋整", pairs)
    assert len(said) == count and said["办法5"] == frozenset({"game5"})
    assert Counted.comparisons < 10 * count  # comparing each pair with each other: 9,000,000


said_words = st.sampled_from(
    ["walk", "walk up to", "up to", "walk up", "塌了", "地板塌了", "板塌", "了", "砍一刀", "!!", ""]
)


@given(
    st.lists(st.tuples(said_words, st.sampled_from(["a", "b", "c"]), st.sampled_from(["", "g1", "g2"])), max_size=30)
)
def test_the_pairs_kept_and_their_games_are_what_they_were(hits):
    pairs = [[say, means, game] for say, means, game in hits]
    assert synonyms._longest(pairs) == old_longest(pairs)
    assert list(synonyms._scopes(synonyms._longest(pairs)).items()) == list(old_merge(pairs).items())


@given(st.lists(st.text(alphabet="ab塌了地板 ", max_size=8), max_size=40))
def test_inside_others_is_the_plain_definition(keys):
    expected = {key for key in set(keys) if any(other != key and key in other for other in set(keys))}
    assert synonyms.inside_others(keys) == expected


@given(
    st.lists(st.tuples(st.integers(0, 12), st.integers(1, 6)), max_size=40).map(
        lambda runs: [(s, s + n, f"k{s}-{s + n}") for s, n in dict.fromkeys(runs)]
    )
)
def test_longest_spans_are_what_they_were(spans):
    assert querynames.longest_spans(spans) == old_longest_spans(spans)


def test_said_scopes_merge_games_as_before():
    pairs = [["咋整", "办法", "g1"], ["咋整", "办法", "g2"], ["怎么办", "办法", ""], ["咋整", "妙计", "g1"]]
    assert (
        synonyms.said_scopes("咋整", pairs)
        == old_merge(pairs[:2] + pairs[3:])
        == {
            "办法": frozenset({"g1", "g2"}),
            "妙计": frozenset({"g1"}),
        }
    )
    assert synonyms.said_scopes("咋整 怎么办", pairs) == {"办法": None, "妙计": frozenset({"g1"})}


class CountedSpan(tuple):
    """A run of a query's terms that counts how often it is compared with another."""

    comparisons = 0

    def __eq__(self, other: object) -> bool:
        CountedSpan.comparisons += 1
        return tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        CountedSpan.comparisons += 1
        return tuple.__ne__(self, other)

    __hash__ = tuple.__hash__


def test_thousands_of_names_in_a_query_are_not_compared_pair_by_pair():
    count = 1500  # a query many synonyms expand says thousands of names
    spans = [CountedSpan((n, n + 1 + n % 3, f"name {n}")) for n in range(count)]
    CountedSpan.comparisons = 0
    kept = querynames.longest_spans(spans)
    assert kept == old_longest_spans([tuple(span) for span in spans])
    assert CountedSpan.comparisons < 10 * count
