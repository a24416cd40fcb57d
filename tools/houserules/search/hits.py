"""What a hit of the command-line search shows: the entry's question that answers the query (its answer first),
the question below it, and for a reader of Traditional characters the texts in Traditional. The site's worker
(``hr-search-worker.js``: ``leadingQuestion``, ``alsoQuestion``, ``byParts``, ``across``) shows the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..text import chinese
from .postings import MemoryPostings, Postings
from .ranking import ACROSS, FURTHER_PARTS, Hit, across, also, by_parts, covering, further, leading, parts_lead

#: Each part's scores by document, of a message that asks several things.
Parts = list[dict[int, float]]


def entry_hit(
    postings: Postings | MemoryPostings,
    record: dict[str, Any],
    score: float,
    scores: dict[int, float],
    asks: bool,
    lang: str,
    parts: Parts,
) -> Hit:
    """The hit of an entry: its question that answers the query (:func:`~houserules.search.ranking.leading`), else
    the entry; for a message that asks several things (``parts``: each part's scores), each part's question
    (:func:`~houserules.search.ranking.by_parts`)."""
    docs = entry_docs(postings, record["id"])
    entry_doc, questions = docs[0], docs[1:]
    matched = [(scores[d], d) for d in questions if d in scores]
    by_part = [[(part[d], d) for d in questions if d in part] for part in parts]
    shown = leading(scores.get(entry_doc, 0.0), matched, asks)
    if shown is None and asks and len(parts) > 1:  # each part's answer, where the whole message shows the overview
        shown = parts_lead(by_part, [part.get(entry_doc, 0.0) for part in parts])
    fields = postings.stored(entry_doc)
    hit = Hit(fields["record"], score)
    if shown is not None:
        chosen = by_parts(by_part, shown)
        shown = chosen[0] if chosen is not None else shown
        _lead(hit, fields, postings, shown, lang)
        second = chosen[1] if chosen is not None and chosen[1] is not None else also(matched, shown)
        if second is not None:
            _below(hit, postings.stored(second), lang)
            hit.below = second
    elif lang == chinese.ZH_HANT:
        hit.traditional = dict(fields.get("hant", {}))
    return hit


def cover_first(
    postings: Postings | MemoryPostings, hits: list[Hit], shown: list[Any], parts: Parts
) -> tuple[list[Hit], list[Any]]:
    """The hits of a message that asks several things, and ``shown`` (what each hit was folded from) in their order,
    with the entry among the first :data:`ACROSS` of the first hit's game that answers the most parts first
    (:func:`~houserules.search.ranking.covering`)."""
    game = [k for k, hit in enumerate(hits[:ACROSS]) if hit.record["game"] == hits[0].record["game"]]
    entries = [entry_docs(postings, hits[k].record["id"])[1:] for k in game]
    chosen = game[covering(entries, [hits[k].score for k in game], parts)]
    if not chosen:
        return hits, shown
    order = [chosen, *(k for k in range(len(hits)) if k != chosen)]
    return [hits[k] for k in order], [shown[k] for k in order if k < len(shown)] + shown[len(hits) :]


def across_hit(
    postings: Postings | MemoryPostings,
    first: Hit,
    records: list[dict[str, Any]],
    parts: Parts,
    lang: str,
    vague: Sequence[bool] = (),
) -> None:
    """The first hit of a message that asks several things shows, below its own answer, the question of another of
    the first :data:`ACROSS` entries of its game (``records``: the entries in the order shown, the first hit's first:
    a message asks about one game) that answers the part its entry leaves
    (:func:`~houserules.search.ranking.across`), with that entry's code, id, title and page; and below its two
    answers, the answer of a further part neither answers (:func:`~houserules.search.ranking.further`; ``vague``:
    which parts say too little to be read alone)."""
    refs = [record["id"] for record in records[:ACROSS] if record["game"] == first.record["game"]]
    docs = [entry_docs(postings, ref) for ref in refs]
    by_part = [[[(part[d], d) for d in entry[1:] if d in part] for entry in docs] for part in parts]
    chosen = across(by_part, first.below, first.lead)
    if chosen is not None:
        leads, shown = chosen
        if leads is not None:  # the answer shown below leads instead, the other entry's below it
            _lead(first, postings.stored(docs[0][0]), postings, leads, lang)
        question = postings.stored(shown)
        _below(first, question, lang, _other(first, question))
        first.below = shown
    if len(parts) < FURTHER_PARTS:
        return
    # A further part may be answered by an entry that is not among the first: the part's own best entry, of the game.
    tops = [max(part, key=lambda d: (part[d], -d)) for part in parts if part]
    extra = {postings.stored(d)["record"]["id"] for d in tops} - set(refs)
    game = first.record["game"]
    extra_docs = sorted(entry_docs(postings, ref) for ref in extra if ref.partition(":")[0] == game)
    for row, part in zip(by_part, parts, strict=True):
        row += [[(part[d], d) for d in entry[1:] if d in part] for entry in extra_docs]
    more = further(by_part, {d for d in (first.lead, first.below) if d is not None}, vague)
    if more is not None:
        question = postings.stored(more)
        _below(first, question, lang, _other(first, question), "more")


def entry_docs(postings: Postings | MemoryPostings, ref: str) -> list[int]:
    """The documents of the entry ``ref`` in order: its own first, then its questions'."""
    return sorted(postings.docs("entry", ref))


def _other(hit: Hit, stored: dict[str, Any]) -> dict[str, Any] | None:
    """The entry of ``stored``'s question when it is not the hit's own: its code, id, title and page."""
    record = stored["record"]
    if record["id"] == hit.record["id"]:
        return None
    return {**{key: record[key] for key in ("code", "id", "title")}, "url": record["url"].partition("#")[0]}


def _lead(hit: Hit, entry: dict[str, Any], postings: Postings | MemoryPostings, shown: int, lang: str) -> None:
    """The hit shows the question of document ``shown`` first, of its ``entry`` (the entry's stored document)."""
    question = postings.stored(shown)
    hit.record = {**question["record"], "lead": "question"}
    hit.lead, hit.below = shown, None
    if lang == chinese.ZH_HANT:
        hit.traditional = {**entry.get("hant", {}), **question.get("hant", {})}


def _below(hit: Hit, stored: dict[str, Any], lang: str, entry: dict[str, Any] | None = None, key: str = "also") -> None:
    """``stored``'s question shown below the hit's leading one (``key``: ``also``, or ``more`` below that), with its
    entry when it is another's."""
    hit.record[key] = {**stored["record"]["question"], **({"entry": entry} if entry else {})}
    if lang == chinese.ZH_HANT and hit.traditional is not None:
        hant = stored.get("hant", {})
        hit.traditional.update({f"{key}_question": hant.get("question", ""), f"{key}_answer": hant.get("answer", "")})
