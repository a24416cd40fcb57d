"""What a query names, as runs of its terms: the longest names it says, and the terms they hold.

The runs are found by :func:`~houserules.text.searchtext.named_spans`; the command line's search
(``search.index``) and the site's worker (``hr-search-worker.js``) use them the same way.
"""

from __future__ import annotations

from collections.abc import Callable

from .searchtext import named_spans


def longest_spans(spans: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """The runs of :func:`~houserules.text.searchtext.named_spans` that are not inside a longer one:
    the query names what its longest name says ("tile and space" names "Tiles and spaces", not also
    each room tile).

    >>> longest_spans([(2, 3, "tile"), (2, 4, "tile space"), (3, 4, "space"), (6, 7, "gym")])
    [(2, 4, 'tile space'), (6, 7, 'gym')]
    """
    # By start, the longer of one start first: a span is inside another when one before it in that
    # order reaches as far (a sort and one pass, where comparing every span with every other grew
    # with the square of a long query's names).
    inside: set[tuple[int, int]] = set()
    reach = -1
    for start, end in sorted({(start, end) for start, end, _ in spans}, key=lambda span: (span[0], -span[1])):
        if reach >= end:
            inside.add((start, end))
        reach = max(reach, end)
    return [span for span in spans if (span[0], span[1]) not in inside]


def outside_spans(said: list[tuple[int, int, str]], covered: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """The runs ``said`` (names of what no entry answers: a topic no source covers, another game) that no run of
    ``covered`` (an entry's or a game's name) holds while at least as long: "furnace room" is said when the
    query's longest name there is it, not when it only holds a shorter name ("room"), and an entry named by as
    many terms is what the query asks about. In the query's order.

    >>> outside_spans([(0, 2, "furnac room")], [(1, 2, "room")]), outside_spans([(3, 5, "x y")], [(3, 5, "x y")])
    ([(0, 2, 'furnac room')], [])
    """
    return [
        (start, end, key)
        for start, end, key in sorted(said)
        if not any(s <= start and end <= e and e - s >= end - start for s, e, _ in covered)
    ]


def name_terms(
    sequence: list[str],
    known: Callable[[str], bool],
    context: Callable[[str], bool] = lambda term: False,
    scoped: Callable[[str], bool] = lambda term: False,
) -> set[str]:
    """The terms of a query in runs that ``known`` says are names (an entry's, a game's: their
    words then weigh less, see ``search.index.NAME_TERMS_SHARE``; "how do saves work in
    mausritter" asks about saves, in Mausritter); none when every term is in one or is
    ``context`` (a word the texts use everywhere, such as "mouse"): a query that only names
    things ("frightened condition") and their setting ("my mouse is scared") asks nothing else
    that could decide between them and the rulings about them.

    >>> sorted(name_terms(["gym", "again"], {"gym"}.__contains__)), name_terms(["gym"], {"gym"}.__contains__)
    (['gym'], set())
    >>> name_terms(["mous", "scare"], {"scare"}.__contains__, {"mous"}.__contains__)
    set()

    A run with ``scoped`` terms (what one game's synonyms add: the name is that game's) makes only
    those terms name terms: another game's name never changes how the query's own words weigh.

    >>> sorted(name_terms(["turn", "gym", "explor", "turn"], {"explor turn"}.__contains__, scoped={"explor"}.__contains__))
    ['explor']
    """
    found = {
        term
        for start, end, _ in named_spans(sequence, known)
        for term in sequence[start:end]
        if scoped(term) or not any(scoped(t) for t in sequence[start:end])
    }
    return found if any(term not in found and not context(term) for term in sequence) else set()
