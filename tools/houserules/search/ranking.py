"""The parts of a score beyond Whoosh's: coordination by rarity, and the game a query is about.

The site's worker (``hr-search-worker.js``) computes the same from the exported term lists.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

#: A question of a hit's entry answers a question a player tells (and its answer is shown first) when it
#: scores at least this share of the entry's own document: measured on tests/lead_judgements.yaml (the text a
#: result shows first, judged for 206 told questions: 0.75 to 0.85 showed the judged answer first most often,
#: 0.922; 0.65, 0.903; a question leading whenever one matched, 0.82; the coordination of the question, at best
#: 0.82). On the 1,426 questions of the blind sets 0.75 changed 26 first results, 10 for the better and 5 for the
#: worse: an overview that leads also lets the next hit's answer come first (:data:`ANSWER_FIRST`), which a
#: question of the overview's entry leading would stop ("I got the +1 from the gym earlier, can I get it again …").
LEAD_SHARE = 0.85
#: A told question is answered when its first hit's score, times the share of the query's terms the index
#: knows at all, times the first hit's lead over the next entry (its score over the second hit's), reaches
#: this: below it the results say they are not sure a ruling answers it exactly. The rule that sets it: the
#: highest value that doubts at most 5 % of the answerable told questions of tests/lead_judgements.yaml
#: (``houserules search-eval --leads``), because a doubt above a right answer costs a reader a glance while a
#: confident wrong answer costs a ruling. At 60: 10 of 206 answerable doubted, 26 of 39 that nothing answers
#: caught; on 130 told questions written afterwards from the source documents alone (12 that nothing
#: answers), 4 of 118 and 8 of 12. At 50 (the value before): 6 of 206 and 19 of 39; 3 of 118 and 3 of 12.
ANSWERED = 60.0
#: A second question of the hit's entry is shown below the leading one when it scores at least this share of it
#: (:func:`also`).
ALSO_SHARE = 0.6
#: A told question whose first hit shows no question of its entry (the entry's overview matched it best), while the
#: next hit, of the same game, shows a question that answers it: that answer comes first when its hit scores at least
#: this share of the first (:func:`answer_first`). On 991 questions of the earlier blind sets it changed 2 first
#: results, both to the entry whose question answers; on tests/lead_judgements.yaml the judged answer came first for
#: 0.922 of the told questions (0.917 before), and hit@1 of the judged queries stayed at 0.985.
ANSWER_FIRST = 0.85
#: A message that asks several things, whose first hit leads with its best question for a part it leaves while the
#: question below answers another part: the lead gives way when it scores under this share of another entry's
#: question for its part (:func:`across`). On the 1,426 questions of the blind sets, with the second condition
#: there, it changed 2 first results, both to the answer of each part; without it, or at 0.8, parts read alone
#: that are vague ("我这回合还能接着走吗") took an answer of another entry.
WEAK_LEAD = 0.7
#: A message that asks several things: the first hit shows the question of another of the first this many
#: entries that answers the part it leaves (:func:`across`), one a reader sees at a glance.
ACROSS = 3
#: A message that asks at least this many things: the first hit also shows the answer of the first part neither of
#: its two answers answers (:func:`further`), from its entry or another of the first :data:`ACROSS`.
FURTHER_PARTS = 3
#: ... answered by the first hit's own question for that part when it scores at least this share of the part's best
#: question in any hit (:func:`further`).
FURTHER_OWN = 0.5


def coordination(term_docs: list[frozenset[int]], count: int) -> Callable[[int], float]:
    """The share of the query a document has: the weights of the query's terms it holds over
    the weights of all the query's terms found anywhere (a term no document has changes nothing).
    A term weighs its inverse document frequency, so a long sentence's common words ("still",
    "turn") do not drown the one rare word that says what it is about."""
    weighted = [(docs, term_weight(len(docs), count)) for docs in term_docs if docs]
    total = sum(w for _, w in weighted)
    if not total:
        return lambda docnum: 1.0
    return lambda docnum: sum(w for docs, w in weighted if docnum in docs) / total


def term_weight(df: int, count: int) -> float:
    """A term's weight in :func:`coordination`: how rare it is among the documents."""
    return math.log(1 + count / df)


def favoured_game(term_docs: list[frozenset[int]], game_of: list[int]) -> int | None:
    """The game the query's words belong to: the game with the most query terms found in its
    documents alone (a term found in one game only is that game's), if one game has more than
    any other; else None."""
    counts: dict[int, int] = {}
    for docs in term_docs:
        games = {game_of[d] for d in docs}
        if len(games) == 1:
            game = games.pop()
            counts[game] = counts.get(game, 0) + 1
    return favourite(counts)


def favourite(counts: dict[int, int]) -> int | None:
    """The game with the most terms of its own in ``counts`` (game → terms), if one has more than
    any other; else None (:func:`favoured_game`)."""
    if not counts:
        return None
    ranking = sorted(counts.values(), reverse=True)
    if len(ranking) > 1 and ranking[0] == ranking[1]:
        return None
    return max(counts, key=counts.__getitem__)


@dataclass
class Hit:
    """One search result: the stored record of an entry (with ``question`` and ``lead: "question"`` when a
    question of the entry answers the query, :func:`leading`), its score, and for a reader of Traditional
    characters the Chinese texts it shows in Traditional (``title``, ``summary``, ``question``, ``answer``)."""

    record: dict[str, Any]
    score: float
    traditional: dict[str, str] | None = None
    #: The document of the question shown below the leading one, if any (``record["also"]``).
    below: int | None = None
    #: The document of the leading question, if a question leads.
    lead: int | None = None

    @property
    def question(self) -> dict[str, Any] | None:
        return self.record.get("question")

    def to_json(self) -> dict[str, Any]:
        return {**self.record, "score": round(self.score, 4)}


@dataclass
class Found:
    """What a search found: the hits, the language and script the query is written in (``zh``, ``zh-Hant``,
    ``en``: what the results show first), and, for a question a player tells, whether a ruling answers it
    (None for a keyword query); ``outside``: what the question names that no entry answers (a topic no source
    covers, another game), as a reader sees it named, when that is why no ruling answers it."""

    hits: list[Hit]
    lang: str
    answered: bool | None
    outside: tuple[str, ...] = ()


def fold(scored: Iterable[tuple[int, dict[str, Any], float]], limit: int) -> list[tuple[int, dict[str, Any], float]]:
    """One item per entry, in rank order, at most ``limit``: the entry's best document ``(docnum, record, score)``."""
    seen: set[str] = set()
    best = []
    for docnum, record, score in scored:
        if record["id"] not in seen:
            seen.add(record["id"])
            best.append((docnum, record, score))
            if len(best) == limit:
                break
    return best


def best_of(scored: Iterable[tuple[float, int]]) -> tuple[float, int] | None:
    """The best-scoring ``(score, docnum)`` (ties: the lower docnum), None when there is none.

    >>> best_of([(9.0, 5), (9.0, 3), (2.0, 1)]), best_of([])
    ((9.0, 3), None)
    """
    return max(scored, key=lambda item: (item[0], -item[1]), default=None)


def leading(entry_score: float, questions: Iterable[tuple[float, int]], asks: bool) -> int | None:
    """Which question of an entry a hit shows first: the best-scoring of ``questions`` (``(score, docnum)``
    of the entry's matched question documents; ties: the lower docnum) when the query asks something and it
    scores at least :data:`LEAD_SHARE` of the entry's own document (``entry_score``, 0 when it did not
    match); else None (the entry and its one-line answer are shown). A keyword query (``电梯``,
    ``elevator crash``) shows the entry.

    >>> leading(100.0, [(90.0, 3), (95.0, 5)], True), leading(100.0, [(80.0, 3)], True), leading(9.0, [(9.0, 2)], False)
    (5, None, None)
    """
    if not asks:
        return None
    found = best_of(questions)
    if found is None or found[0] < LEAD_SHARE * entry_score:
        return None
    return found[1]


def also(questions: Iterable[tuple[float, int]], lead: int | None) -> int | None:
    """The entry's question a hit shows below the leading one: the best-scoring of ``questions`` (``(score,
    docnum)``; ties: the lower docnum) after ``lead``, when a question leads and it scores at least
    :data:`ALSO_SHARE` of the leading one. A player often tells two things at once ("did I fail …, and if I pass,
    does it cost Speed?"), and the entry's next question answers the second.

    >>> also([(100.0, 3), (70.0, 5), (90.0, 4)], 3), also([(100.0, 3), (50.0, 5)], 3), also([(9.0, 2)], None)
    (4, None, None)
    """
    if lead is None:
        return None
    ranked = sorted(questions, key=lambda item: (-item[0], item[1]))
    first = next((score for score, docnum in ranked if docnum == lead), None)
    rest = [(score, docnum) for score, docnum in ranked if docnum != lead]
    if first is None or not rest or rest[0][0] < ALSO_SHARE * first:
        return None
    return rest[0][1]


def parts_lead(parts: list[list[tuple[float, int]]], entry_scores: list[float]) -> int | None:
    """For a message that asks several things whose whole reading shows the entry (its overview matches every part's
    words, so no question reaches :data:`LEAD_SHARE` of it, :func:`leading`): the question that leads when, for two
    parts at least, the part's best question of the entry (``parts``: each part's matched questions ``(score,
    docnum)``) scores at least :data:`LEAD_SHARE` of that part's score of the entry's own document (``entry_scores``,
    0 when it did not match), two questions in all: the first such part's. None otherwise. "When do I roll a d4 for
    damage, and when do I get a d12?" shows the two answers, not the one-line summary of attacks.

    >>> parts_lead([[(112.0, 3), (70.0, 4)], [(108.0, 5)]], [110.0, 54.0]), parts_lead([[(80.0, 3)], [(108.0, 5)]], [110.0, 54.0])
    (3, None)
    """
    shown: list[int] = []
    for matched, own in zip(parts, entry_scores, strict=True):
        best = best_of(matched)
        if best is not None and best[0] >= LEAD_SHARE * own and best[1] not in shown:
            shown.append(best[1])
    return shown[0] if len(shown) > 1 else None


def by_parts(parts: list[list[tuple[float, int]]], lead: int) -> tuple[int, int | None] | None:
    """For a message that asks several things (:func:`~houserules.text.searchtext.asked_parts`), what an entry's
    hit shows: ``parts`` holds, for each part, the entry's questions it matched (``(score, docnum)``, scored for that
    part alone), and ``lead`` is the question the whole message leads with (:func:`leading`). Each part's best
    question (ties: the lower docnum): ``lead`` stays when it is one of them (else the first part's leads), and the
    first other part's best is shown below it (None: :func:`also` chooses). None when fewer than two parts matched a
    question of the entry.

    >>> by_parts([[(5.0, 3), (9.0, 4)], [(7.0, 5)]], 5), by_parts([[(9.0, 4)], [(7.0, 5)]], 3), by_parts([[(5.0, 3)], []], 3)
    ((5, 4), (4, 5), None)
    """
    bests = [best[1] for best in map(best_of, parts) if best is not None]
    if len(bests) < 2:
        return None
    shown = lead if lead in bests else bests[0]
    return shown, next((docnum for docnum in bests if docnum != shown), None)


#: In a message that asks several things, an entry among the first :data:`ACROSS` of the first hit's game whose
#: questions answer more of its parts than the first hit's comes first, when it scores at least this share of it.
COVER_SHARE = 0.75


def covering(entries: list[list[int]], scores: list[float], parts: list[dict[int, float]]) -> int:
    """Which of the first entries (``entries``: each one's question documents, the first hit's first; ``scores``: the
    whole message's score of each) a message of several ``parts`` (each part's scores by document) shows first: the
    one whose questions answer the most parts (a part's best question there scoring at least :data:`LEAD_SHARE` of
    its best anywhere), when it scores at least :data:`COVER_SHARE` of the first; else the first (0). "traitor 走
    Chasm 要不要掷骰？他要是停在里面算哪边": the entry on crossing answers both parts, the one on ending a turn in a
    room only the second.

    >>> covering([[1], [2, 3]], [10.0, 9.5], [{2: 5.0}, {1: 8.0, 3: 7.0}]), covering([[1], [2, 3]], [10.0, 7.0], [{2: 5.0}, {1: 8.0, 3: 7.0}])
    (1, 0)
    """
    if len(parts) < 2 or len(entries) < 2:
        return 0
    tops = [max(part.values(), default=0.0) for part in parts]

    def answers(docs: list[int]) -> int:
        return sum(
            top > 0 and max((part.get(d, 0.0) for d in docs), default=0.0) >= LEAD_SHARE * top
            for part, top in zip(parts, tops)
        )

    counts = [answers(docs) for docs in entries]
    chosen = 0
    for k in range(1, len(entries)):
        if counts[k] > counts[chosen] and scores[k] >= COVER_SHARE * scores[0]:
            chosen = k
    return chosen


def across(
    parts: list[list[list[tuple[float, int]]]], below: int | None = None, lead: int | None = None
) -> tuple[int | None, int] | None:
    """For a message that asks several things, the question of another entry the first hit shows below its own
    answer: the part its entry leaves unanswered is answered by another hit's entry. ``parts[p][k]`` holds the
    questions of hit ``k``'s entry that part ``p`` matched (``(score, docnum)``, scored for that part alone); the
    hits are of the first hit's game only, since a message asks about one game. A part is answered by the first
    hit when its best question there scores at least :data:`LEAD_SHARE` of the part's best question in any hit
    (ties: the earlier hit, then the lower docnum).

    Returns ``(leads, shown)``: ``shown``, the other entry's question, goes below the first hit's answer; ``leads``
    is None (the first hit's leading question stays) or the question to lead instead. None (nothing changes)
    unless the first hit answers one part and another hit's question answers the first part it leaves. When the
    question the first hit shows below its answer (``below``) is its best for a part it answers, that answer stays
    (a part read alone is often vague, "没掷出爆炸咋办", and the rest of the message says which entry it means): then
    nothing changes, unless the leading question (``lead``) is there only as the first hit's best for a part it
    leaves, a part another entry's question answers clearly better (the lead scores under :data:`WEAK_LEAD` of
    it) and at least as strongly as the kept answer answers its own part (not a vague part): "Vault 跟 Catacombs 算
    barrier room 吗？过 Chasm 要掷什么属性？" led with a question on the traitor's crossing. Then the kept answer leads
    and the other entry's goes below it.

    >>> across([[[(9.0, 3)], [(2.0, 8)]], [[(1.0, 4)], [(8.0, 9)]]]), across([[[(9.0, 3)], []], [[(7.0, 4)], [(8.0, 9)]]])
    ((None, 9), None)
    >>> across([[[(1.0, 3)], [(9.0, 8)]], [[(1.0, 4)], [(8.0, 9)]]]), across([[[(9.0, 3)], []], [[], []]])
    (None, None)
    >>> across([[[(9.0, 3)], [(2.0, 8)]], [[(1.0, 4)], [(8.0, 9)]]], below=3) is None
    True
    >>> across([[[(9.0, 3)], [(2.0, 8)]], [[(1.0, 4)], [(9.5, 9)]]], below=3, lead=4)
    (3, 9)
    >>> across([[[(9.0, 3)], [(2.0, 8)]], [[(7.0, 4)], [(9.5, 9)]]], below=3, lead=4) is None  # 7 is not weak
    True
    >>> across([[[(9.0, 3)], [(2.0, 8)]], [[(1.0, 4)], [(8.0, 9)]]], below=3, lead=4) is None  # 8 is a vague part
    True
    """
    answers_one, left, kept, kept_score, swap, answering = False, None, False, 0.0, None, set()
    for by_hit in parts:
        bests = [best_of(matched) for matched in by_hit]
        ranked = [(best[0], -k, best[1]) for k, best in enumerate(bests) if best is not None]
        if not ranked:
            continue
        score, _, docnum = max(ranked)
        own, ours = bests[0] if bests[0] is not None else (0.0, None)
        if own >= LEAD_SHARE * score:
            answers_one = True
            answering.add(ours)
            if ours is not None and ours == below:
                kept, kept_score = True, max(kept_score, own)
        else:
            if ours is not None and ours == lead and own < WEAK_LEAD * score and swap is None:
                swap = (score, docnum)
            if left is None:
                left = docnum
    if not answers_one or left is None:
        return None
    if not kept:
        return None, left
    if swap is not None and swap[0] >= kept_score and lead not in answering and below is not None:
        return below, swap[1]
    return None


def further(parts: list[list[list[tuple[float, int]]]], shown: set[int], vague: Sequence[bool] = ()) -> int | None:
    """For a message that asks :data:`FURTHER_PARTS` things or more, the question the first hit shows below its two
    answers (``shown``): ``parts[p][k]`` as for :func:`across`. The first part none of them answers (its best
    question in any hit, ties: the earlier hit, then the lower docnum, scores over theirs by more than
    :data:`LEAD_SHARE` allows) is answered by that question; or by the first hit's own best for it when that scores
    at least :data:`FURTHER_OWN` of it, since a part read alone is often vague and the message is about the first
    hit's entry ("…掷到的还是这一层呢" read alone is about placing a room on a floor), and by none when that is
    shown already. None when every part is answered. "魔梯一回合能做几次 进去出来再进去还能再动一次吗 要是掷出来还是同一层呢"
    showed two answers and left the third part's: the same floor. A part that says too little to be read alone
    (``vague[p]``, :func:`~houserules.text.searchtext.vague`: "没过会怎样") is answered by the first hit's own best only:
    "…要过个力量豁免 没过会怎样" showed another entry's opposed save.

    >>> further([[[(9.0, 3)]], [[(8.0, 4)], [(9.0, 7)]], [[(3.0, 5)], [(7.0, 8)]]], {3, 4})
    8
    >>> further([[[(9.0, 3)]], [[(8.0, 4)]], [[(5.0, 5), (2.0, 6)]]], {3, 4}), further([[[(9.0, 3)]]] * 2, {1})
    (5, None)
    >>> further([[[(9.0, 3)]], [[(8.0, 4)]], [[(4.0, 3)], [(7.0, 8)]]], {3, 4}) is None  # its own, and shown
    True
    >>> further([[[(9.0, 3)]], [[(8.0, 4)]], [[(1.0, 5)], [(7.0, 8)]]], {3, 4}, [False, False, True])  # vague: its own
    5
    """
    if len(parts) < FURTHER_PARTS:
        return None
    for p, by_hit in enumerate(parts):
        ranked = [(best[0], -k, -best[1]) for k, best in enumerate(map(best_of, by_hit)) if best is not None]
        own = max((score for matched in by_hit for score, docnum in matched if docnum in shown), default=0.0)
        if not ranked or own >= LEAD_SHARE * max(ranked)[0]:
            continue
        alone = p < len(vague) and vague[p]
        mine = best_of(by_hit[0])
        if mine is not None and (alone or mine[0] >= FURTHER_OWN * max(ranked)[0]):
            if mine[1] in shown:
                continue
            return mine[1]
        if not alone:
            return -max(ranked)[2]
    return None


def answer_first(first: Hit, second: Hit, named: tuple[bool, bool]) -> bool:
    """For a told question, whether the second hit comes first (:data:`ANSWER_FIRST`): the first shows its entry, not
    a question of it; the second shows a question that answers and is of the same game; and the query does not name
    the first hit's entry without naming the second's (``named``: whether it names each), as "frightened condition,
    what does it do" names the Frightened condition.

    >>> a, b = Hit({"game": "g"}, 10.0), Hit({"game": "g", "lead": "question"}, 9.0)
    >>> answer_first(a, b, (False, False)), answer_first(a, b, (True, False)), answer_first(a, b, (True, True))
    (True, False, True)
    >>> answer_first(a, Hit({"game": "g", "lead": "question"}, 8.0), (False, False)), answer_first(b, a, (False, False))
    (False, False)
    """
    if first.record.get("lead") == "question" or second.record.get("lead") != "question":
        return False
    if first.record["game"] != second.record["game"] or (named[0] and not named[1]):
        return False
    return second.score >= ANSWER_FIRST * first.score


def answered(first: float, second: float, known: float) -> bool:
    """Whether the first hit of a told question answers it: its score (``first``) times the share of the
    query's terms the index knows (``known``, 0–1) times its lead over the second hit (``first / second``;
    no second hit: any lead) reaches :data:`ANSWERED`.

    >>> answered(100.0, 50.0, 1.0), answered(60.0, 59.0, 0.67), answered(10.0, 0.0, 0.5), answered(10.0, 0.0, 0.0)
    (True, False, True, False)
    """
    if not known:
        return False
    if second <= 0:
        return first > 0
    return first * known * (first / second) >= ANSWERED
