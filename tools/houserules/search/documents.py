"""What the search index holds: its schema, and the documents a knowledge base becomes.

Each entry is one document and each of its questions another: a question
document holds the question and its variants, the answer, and the entry's
title as weak context. Whoosh pickles the schema, analyzers included, into the
index (:mod:`houserules.search.analysis` must stay where it is).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from whoosh.fields import ID, STORED, TEXT, Schema

from . import analysis as searchtext

if TYPE_CHECKING:  # the search starts without loading the data model
    from ..data.reading.model import KnowledgeBase, Question

#: Bump when the schema, the analysis or the stored record changes: caches rebuild.
INDEX_VERSION = 30  # 30: Dungeons & Dragons named by its edition (5e); 29: a demonstrative with its measure word and a spoken filler dropped from names' keys (FILLER); 28: Cantonese read as written Chinese (CANTONESE); two common one-character words never corrected (STANDALONE); 27: the English names of what no source covers read in Chinese too (crossed); 26: the English titles of components and terms read in Chinese too (crossed); 25: 哪一边 folded as 哪边 (MEASURE_ONE); the glossaries' English names a Chinese question says read in Chinese (crossed); 24: contractions typed without their apostrophe (contracted) and their stubs dropped from queries; 23: the Traditional label of what no entry answers with the reviewed forms; 22: an outside name of one common English word names nothing; 21: what a query may name that no entry answers (outside), with its Traditional label; the games' names as a result shows them (game_titles); 20: the analyzer pickled from search.analysis (the text analysis in houserules.text); 19: the games' names as typed (game_name_texts); 18: which game each game name names (game_named); 17: OpenCC's traditional → simplified table; the records' Traditional texts; 16: the characters' readings written with the index; 15: the homophone table written with the index (no words file); 14: the site's head says how a word split as heard is joined back (joinRun, joinFirst, joinMin), how a word sounds (sounds, soundMin) and the Chinese aspect particles (aspect); 13: each synonym pair with its game ("" for every game); 12: real Chinese words are never corrected (the words file); 11: a short verb's doubled consonant undone (stabbing: stab); 10: one-term names a game's texts use everywhere name nothing; 9: codes also without zero padding (MR-R8); 8: the games' names in the metadata; 7: irregular past forms; 6: names (titles, aliases, glossary terms) and what an entry is about as query-term runs; analyzer in data.searchtext

#: A one-term name found in more than this share of its game's documents is context, not a name
#: (:func:`context_names`).
CONTEXT_NAME_SHARE = 0.25

#: Weight of a query term found in each field: names above the answer above the details.
#: A question document fills the same fields: the question as its title, the variants as
#: aliases, the answer as summary, its entry's titles as body (weak context). Separate
#: fields ranked no better on the development questions and cost 60 % more per query.
FIELD_BOOSTS: dict[str, float] = {"code": 8.0, "title": 4.0, "aliases": 4.0, "summary": 3.0, "body": 1.0}


def code_forms(code: str) -> list[str]:
    """A code as it is printed and as people type it without the zero padding.

    >>> code_forms("MR-R08"), code_forms("BH-A13")
    (['MR-R08', 'MR-R8'], ['BH-A13'])
    """
    short = re.sub(r"(?<=[A-Za-z])0+(?=\d)", "", code)
    return [code] if short == code else [code, short]


def schema(analyzer: Any = None) -> Schema:
    """The index schema; ``analyzer`` replaces the project's for comparisons."""
    text = analyzer or searchtext.analyzer()
    return Schema(
        ref=ID(stored=True, unique=True),
        entry=ID,
        type=ID,
        game=ID,
        kind=ID,
        exact=TEXT(analyzer=_lines(), phrase=False),
        exact_alias=TEXT(analyzer=_lines(), phrase=False),
        words=TEXT(analyzer=_lines(), phrase=False),
        names=TEXT(analyzer=_lines(), phrase=False),
        about=TEXT(analyzer=_lines(), phrase=False),
        record=STORED,
        hant=STORED,
        **{name: TEXT(analyzer=text, phrase=False) for name in FIELD_BOOSTS},
    )


def _lines() -> Any:
    from whoosh.analysis import RegexTokenizer

    # One token per line: the exact keys and the spelling word list are written that way.
    return RegexTokenizer(r"[^\n]+")


def documents(kb: KnowledgeBase) -> Iterable[dict[str, Any]]:
    """The index documents of a :class:`~houserules.data.reading.model.KnowledgeBase`: each entry, then its questions."""
    from ..render.urls import entry_url
    from ..text.chinese import to_traditional

    regional = kb.traditional_terms()

    def hant(text: str) -> str:
        return to_traditional(text, regional)

    termed = _glossary_names(kb)
    own = {
        ref: {k for n in [*e.title.values(), *e.aliases, *termed.get(ref, [])] if (k := searchtext.name_key(n))}
        for ref, e in kb.entries.items()
    }
    context = context_names(kb, own)
    own = {ref: names - context.get(kb.entries[ref].game, set()) for ref, names in own.items()}
    for entry in kb.entries.values():
        titles = [entry.title.zh, entry.title.en]
        names = "\n".join(sorted(own[entry.ref]))
        # The names of what the entry refers to: a ruling about the Gymnasium is about the Gymnasium.
        about = "\n".join(sorted(set().union(*(own.get(r, set()) for r in entry.all_refs())) - own[entry.ref]))
        texts = {
            "code": entry.code,
            "title": "\n".join(titles),
            "aliases": "\n".join(entry.aliases),
            "summary": "\n".join(entry.summary.values()),
            "body": "\n".join(entry.body.values()),
        }
        record = {
            "id": entry.ref,
            "code": entry.code,
            "game": entry.game,
            "kind": entry.kind,
            "title": entry.title.as_dict(),
            "summary": entry.summary.as_dict(),
            "url": entry_url(entry),
        }
        yield {
            "ref": entry.ref,
            "entry": entry.ref,
            "type": "entry",
            "game": entry.game,
            "kind": entry.kind,
            "record": record,
            # What a reader of Traditional characters sees of it (search.index.SearchIndex.find).
            "hant": {"title": hant(entry.title.zh), "summary": hant(entry.summary.zh)},
            "exact": "\n".join(searchtext.exact_key(t) for t in [*code_forms(entry.code), *titles]),
            "exact_alias": "\n".join(searchtext.exact_key(a) for a in entry.aliases),
            "words": _words(texts.values()),
            "names": names,
            "about": about,
            **texts,
        }
        for question in entry.questions:
            asked = [question.q.zh, question.q.en, *question.variants]
            qtexts = {
                "title": "\n".join(asked[:2]),
                "aliases": "\n".join(asked[2:]),
                "summary": "\n".join(question.a.values()),
                "body": "\n".join(titles),
            }
            url = f"{record['url']}#{question.id}"
            yield {
                "ref": f"{entry.ref}#{question.id}",
                "entry": entry.ref,
                "type": "question",
                "game": entry.game,
                "kind": entry.kind,
                "record": {
                    **record,
                    "url": url,
                    "question": {
                        "id": question.id,
                        "question": question.q.as_dict(),
                        "answer": question.a.as_dict(),
                        "url": url,
                        # the sources here do not answer it: a search that leads with it says no ruling answers
                        **({"unanswered": True} if question.confidence == "unanswered" else {}),
                    },
                },
                "hant": {"question": hant(question.q.zh), "answer": hant(question.a.zh)},
                "exact_alias": "\n".join(searchtext.exact_key(a) for a in asked),
                "words": _words(qtexts.values()),
                "names": names,
                "about": about,
                **qtexts,
            }


def context_names(kb: KnowledgeBase, own: dict[str, set[str]]) -> dict[str, set[str]]:
    """The one-term names of each game that its texts use everywhere: a term in more than
    :data:`CONTEXT_NAME_SHARE` of the game's documents (entries and questions). Such a word
    ("mouse" in Mice and Mystics, "room" in Betrayal) is the setting of a question, not what it
    names ("my mouse is scared" is about being frightened, not the hero card called "mouse"), so
    it names no entry (an entry's longer names still do: "mouse turn")."""
    candidates: dict[str, set[str]] = {}
    for ref, names in own.items():
        candidates.setdefault(kb.entries[ref].game, set()).update(n for n in names if " " not in n)
    counts: dict[str, dict[str, int]] = {game: dict.fromkeys(terms, 0) for game, terms in candidates.items()}
    docs: dict[str, int] = dict.fromkeys(candidates, 0)
    for entry in kb.entries.values():
        count = counts[entry.game]
        texts = [*entry.title.values(), *entry.aliases, *entry.summary.values(), *entry.body.values()]
        for text in [" ".join(texts)] + [_question_text(q) for q in entry.questions]:
            docs[entry.game] += 1
            for term in searchtext.index_terms(text) & count.keys():
                count[term] += 1
    return {
        game: {term for term, n in count.items() if n > CONTEXT_NAME_SHARE * docs[game]}
        for game, count in counts.items()
    }


def _question_text(question: Question) -> str:
    return " ".join([*question.q.values(), *question.variants, *question.a.values()])


def _glossary_names(kb: KnowledgeBase) -> dict[str, list[str]]:
    """The names of the glossary terms that point at an entry (``entry:``), by entry."""
    found: dict[str, list[str]] = {}
    for game in kb.games.values():
        for term in game.glossary.terms if game.glossary else []:
            if term.entry:
                found.setdefault(term.entry, []).extend([term.zh, term.en, *term.variants])
    return found


def _words(texts: Iterable[str]) -> str:
    return "\n".join(sorted({w for t in texts for w in searchtext.english_words(t)}))
