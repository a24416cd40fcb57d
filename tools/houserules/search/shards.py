"""The site's search index files: every term's Whoosh scores, the records and the words, as scripts.

The site ranks exactly like ``houserules search`` because it uses the same index:
for every term the score Whoosh gives each document (BM25F over every field, times
the field's boost, with common terms skipped in the long texts) is written out.
The browser (``site_overrides/assets/javascripts/hr-search-*.js``) then only has
to analyse the query the same way and add the numbers up; it never recomputes a
ranking of its own. Layout under ``site/search/hr/``::

    head.js          sizes, the entry groups, the analysis tables (traditional →
                     simplified, stop words, patterns), the boosts
    t/<n>.js         terms hashed into shards: {term: [doc deltas..., scores...]}
    w/<letter>.js    the English words (for typo correction and completion)
    e/<letter>.js    common English words the index lacks (never corrected into another word)
    r/<n>.js         the result records, entries in chunks of RECORDS_PER_CHUNK
    rt/<n>.js        the same with their Chinese texts in Traditional characters, for a query in
                     Traditional characters (what ``houserules search`` shows it)
    g/<n>.js         the glossary terms shown (for translators): the term, its note, its row's URL, its game

Every file is a script that registers itself (``hrSearch.put(name, data)``), so
it loads with a script tag where ``fetch`` cannot (a site opened from
``file://``); the worker fetches and parses the same files over http.

Scores are stored as integers (hundredths), so the browser adds them exactly and
equal documents tie exactly (ties go to the earlier document, as in Whoosh).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import shutil
from collections import defaultdict
from collections.abc import Iterable
from functools import partial
from pathlib import Path
from typing import Any

from ..data.reading.model import INLINE_REF
from ..data.words.synonyms import ASPECT
from ..text import chinese
from . import analysis as searchtext
from . import homophones
from . import index as search
from .documents import FIELD_BOOSTS
from .query import MISSPELT_MIN
from .ranking import COVER_SHARE, FURTHER_OWN, FURTHER_PARTS, WEAK_LEAD

#: Scores are written as integers of this many units per point.
SCALE = 100
#: Aim for term shards of about this many bytes (before gzip): a query loads one per term.
SHARD_BYTES = 24_000
#: Entries per record chunk: a result list loads one chunk per entry shown.
RECORDS_PER_CHUNK = 8
#: Prefixes of the exact-match keys in the term shards (never the first character of a term).
EXACT, EXACT_ALIAS = "=", "~"
#: Prefix of the names (titles, aliases) that begin with a term: ``^term`` → {name key: doc deltas};
#: and of the names of what entries refer to (``@term``, the ``about`` field).
NAMES, ABOUT = "^", "@"
#: Prefix of a term's scores in the glossaries (kept in the shard of the term itself).
GLOSSARY = "§"
#: Glossary terms shown after the entries, at most; terms per record chunk.
GLOSSARY_SHOWN, GLOSSARY_PER_CHUNK = 3, 64
TEXT_FIELDS = tuple(FIELD_BOOSTS)


def fnv1a(text: str) -> int:
    """32-bit FNV-1a over UTF-16 code units: the shard hash, the same in Python and JavaScript.

    >>> fnv1a("魔梯"), fnv1a("elev")
    (2342325636, 2961780095)
    """
    h = 0x811C9DC5
    data = text.encode("utf-16-le")
    for i in range(0, len(data), 2):
        h ^= data[i] | (data[i + 1] << 8)
        h = (h * 0x01000193) & 0xFFFFFFFF
    return h


def postings(index: search.SearchIndex) -> dict[str, dict[int, float]]:
    """Every term's score per document, as the CLI's query would add it up.

    A query term ``t`` becomes ``Term(field, t, boost)`` for each field (long texts
    skip a common ``t``); Whoosh sums the parts a document matches. So the score of
    ``t`` in a document is the sum over fields of boost × the field's BM25F score,
    and a query's score is the sum over its terms: exactly what is stored here.
    The exact keys (``=``, ``~`` prefixes) work the same way with their own boosts.
    """
    boosts = {**FIELD_BOOSTS, "exact": search.EXACT_BOOST, "exact_alias": search.EXACT_ALIAS_BOOST}
    prefix = {"exact": EXACT, "exact_alias": EXACT_ALIAS}
    result: dict[str, dict[int, float]] = defaultdict(lambda: defaultdict(float))
    for field, boost in boosts.items():
        common = partial(index.common_in, field) if field in search.COMMON_SKIPPED else None
        for term, (ids, values) in index.postings.field_scores(field, common):
            scores = result[prefix.get(field, "") + term]
            for docnum, value in zip(ids, values):
                scores[docnum] += boost * value
    return result


def _flat(scores: dict[int, float]) -> list[int]:
    docs = sorted(scores)
    deltas = [docs[0]] + [b - a for a, b in zip(docs, docs[1:])]
    return deltas + [round(scores[d] * SCALE) for d in docs]


def _script(name: str, data: Any) -> str:
    return f"hrSearch.put({json.dumps(name)},{json.dumps(data, ensure_ascii=False, separators=(',', ':'))});\n"


def _js_pattern(pattern: re.Pattern[str]) -> str:
    # Python's \b counts CJK characters as word characters; JavaScript's only ASCII ones.
    word = r"[\p{L}\p{N}_]"
    return pattern.pattern.replace(r"\b(?:", rf"(?<!{word})(?:").replace(r")\b", rf")(?!{word})")


def analysis_tables() -> dict[str, Any]:
    """What the browser's query analysis needs from :mod:`houserules.search.analysis`."""
    pairs = sorted(searchtext.T2S.items())
    return {
        "t2s": ["".join(chr(t) for t, _ in pairs), "".join(s for _, s in pairs)],
        "bothScripts": "".join(sorted(chinese.BOTH_SCRIPTS)),
        "stop": sorted(searchtext.STOP_WORDS),
        "irregular": searchtext.IRREGULAR,
        "doubled": searchtext.DOUBLED.pattern,
        "token": searchtext.TOKEN.pattern,
        "question": searchtext.QUESTION.pattern,
        "filler": searchtext.FILLER.pattern,
        "questionWords": _js_pattern(searchtext.QUESTION_WORDS),
        "contracted": searchtext.CONTRACTED,
        "asks": _js_pattern(searchtext.ASKS),
        "asking": _js_pattern(searchtext.ASKING),
        "parts": _js_pattern(searchtext.PARTS),
        "commaParts": _js_pattern(searchtext.COMMA_PARTS),
        "partAsker": _js_pattern(searchtext.PART_ASKER),
        "quotes": [list(pair) for pair in searchtext.QUOTES],
        "minCorrected": search.MIN_CORRECTED,
        "minCompleted": search.MIN_COMPLETED,
        "completions": search.COMPLETIONS,
        "sounds": [list(pair) for pair in searchtext.SOUNDS],
        "aspect": ASPECT,
        "soundMin": searchtext.SOUND_MIN,
        "joinRun": searchtext.JOIN_RUN,
        "joinFirst": searchtext.JOIN_FIRST,
        "joinMin": searchtext.JOIN_MIN,
        "maxQuery": searchtext.MAX_QUERY,
        "measureOne": searchtext.MEASURE_ONE.pattern,
        "cantonese": searchtext.CANTONESE,
        "gloss": searchtext.GLOSS.pattern,
        "pronouns": "".join(sorted(homophones.PRONOUNS)),
        "playVerbs": "".join(sorted(homophones.PLAY_VERBS)),
        "standalone": "".join(sorted(searchtext.STANDALONE)),
    }


def _records(index: search.SearchIndex, traditional: bool = False) -> list[list[Any]]:
    """One list per entry: the entry's display record, then one per question; texts as a reader sees them
    (``traditional``: the Chinese texts in Traditional characters, as stored with the index)."""
    stored = [index.postings.stored(d) for d in range(index.postings.doc_count())]
    records = [fields["record"] for fields in stored]
    hant = [fields.get("hant", {}) for fields in stored]
    names = {r["id"]: (r, h) for r, h in zip(records, hant) if "question" not in r}

    def shown(text: str, lang: str) -> str:
        """``[[game:id]]`` as the target's title and code, as the terminal names it: ``塔楼 (DM-R01)``."""

        def name(match: re.Match[str]) -> str:
            target = names.get(match.group(1).strip())
            if not target:
                return match.group(1)
            record, texts = target
            title = texts.get("title", record["title"]["zh"]) if traditional and lang == "zh" else record["title"][lang]
            return f"{title} ({record['code']})"

        return INLINE_REF.sub(name, text)

    def zh(texts: dict[str, str], key: str, own: dict[str, str]) -> str:
        return own.get(key, texts["zh"]) if traditional else texts["zh"]

    groups: list[list[Any]] = []
    for record, own in zip(records, hant):
        question = record.get("question")
        if question is None:
            title, summary = record["title"], record["summary"]
            groups.append(
                [
                    [
                        record["code"],
                        zh(title, "title", own),
                        title["en"],
                        shown(zh(summary, "summary", own), "zh"),
                        shown(summary["en"], "en"),
                        record["url"],
                        record["id"],
                    ]
                ]
            )
        else:
            asked, answer = question["question"], question["answer"]
            groups[-1].append(
                [
                    question["id"],
                    zh(asked, "question", own),
                    asked["en"],
                    shown(zh(answer, "answer", own), "zh"),
                    shown(answer["en"], "en"),
                ]
            )
    return groups


def name_lists(index: search.SearchIndex, field: str) -> dict[str, dict[str, list[int]]]:
    """The names of a field (``names``, ``about``) by their first term: ``{term: {name key: doc
    deltas}}`` (a query loads the shard of each of its terms anyway, so it finds the names that begin there)."""
    found: dict[str, dict[str, list[int]]] = defaultdict(dict)
    if field not in index.postings.fields():
        return found
    for key in index.postings.terms(field):
        docs = sorted(index.postings.docs(field, key))
        found[key.split(" ")[0]][key] = [docs[0]] + [b - a for a, b in zip(docs, docs[1:])]
    return found


def _words(index: search.SearchIndex) -> dict[str, list[Any]]:
    """The spelling words by first letter: ``{letter: [words..., frequencies...]}``."""
    by_letter: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for word in index.postings.terms("words"):
        by_letter[word[0]].append((word, index.postings.frequency("words", word)))
    return {letter: [w for w, _ in items] + [f for _, f in items] for letter, items in by_letter.items()}


def common_terms(index: search.SearchIndex) -> list[str]:
    """The terms too common in the long texts to be looked up there (``SearchIndex.is_common``)."""
    found = set()
    for field in search.COMMON_SKIPPED:
        for text in index.postings.terms(field):
            if index.common_in(field, text):
                found.add(text)
    return sorted(found)


def _english(index: search.SearchIndex) -> dict[str, list[str]]:
    """The common English words the index lacks, by first letter (:mod:`~houserules.text.english`):
    never corrected into another word. The worker loads a letter's only when a correction is about
    to replace a word of it."""
    by_letter: dict[str, list[str]] = defaultdict(list)
    for word in sorted(searchtext.common_words()):
        if not index.postings.has("words", word):
            by_letter[word[0]].append(word)
    return dict(by_letter)


def export(index: search.SearchIndex, out: Path, glossary: search.SearchIndex | None = None) -> dict[str, Any]:
    """Write the shards of an open index into ``out``; return the head (also written).

    ``glossary`` (an index of :func:`~houserules.search.siteindex.glossary_documents`) adds the glossary terms: their
    scores sit in the same shards under ``§term``, their records in ``g/N.js``.
    """
    terms = {term: _flat(scores) for term, scores in postings(index).items() if scores}
    extra = (
        {GLOSSARY + term: _flat(scores) for term, scores in postings(glossary).items() if scores}
        if glossary is not None
        else {}
    )
    size = sum(
        len(json.dumps(t, ensure_ascii=False).encode()) + len(json.dumps(p)) + 1 for t, p in {**terms, **extra}.items()
    )
    shards = max(1, math.ceil(size / SHARD_BYTES))
    buckets: list[dict[str, list[int] | dict[str, list[int]]]] = [{} for _ in range(shards)]
    for term in sorted(terms):
        buckets[fnv1a(term) % shards][term] = terms[term]
    for term in sorted(extra):
        buckets[fnv1a(term[len(GLOSSARY) :]) % shards][term] = extra[term]
    for field, prefix in (("names", NAMES), ("about", ABOUT)):
        for first, names in name_lists(index, field).items():
            buckets[fnv1a(first) % shards][prefix + first] = names
    groups = _records(index)
    stored = index.postings.stored
    records = [stored(d)["record"] for d in range(index.postings.doc_count())]
    kinds = [record["kind"] for record in records]
    sizes, answers, entry_games, doc = [], [], [], 0
    for group in groups:
        sizes.append(len(group))
        entry_games.append(stored(doc)["record"]["game"])
        answers.append(1 if kinds[doc] in search.QUESTION_KINDS else 0)
        doc += len(group)
    files: dict[str, str] = {}
    for n, bucket in enumerate(buckets):
        files[f"t/{n}"] = _script(f"t/{n}", bucket)
    for letter, words in _words(index).items():
        files[f"w/{letter}"] = _script(f"w/{letter}", words)
    english = _english(index)
    for letter, words in english.items():
        files[f"e/{letter}"] = _script(f"e/{letter}", words)
    for folder, chunked in (("r", groups), ("rt", _records(index, traditional=True))):
        for n in range(0, len(chunked), RECORDS_PER_CHUNK):
            name = f"{folder}/{n // RECORDS_PER_CHUNK}"
            files[name] = _script(name, chunked[n : n + RECORDS_PER_CHUNK])
    terms_shown = []
    if glossary is not None:
        terms_shown = [glossary.postings.stored(d)["record"] for d in range(glossary.postings.doc_count())]
    for n in range(0, len(terms_shown), GLOSSARY_PER_CHUNK):
        name = f"g/{n // GLOSSARY_PER_CHUNK}"
        files[name] = _script(
            name,
            [
                [r["zh"], r["en"], *r["note"], r["url"], index.games.index(r["game"])]
                for r in terms_shown[n : n + GLOSSARY_PER_CHUNK]
            ],
        )
    pinyin_shards = homophone_files(index, files)
    titles: dict[str, dict[str, str]] = index.meta.get("game_titles", {})

    def game_title(game: str) -> dict[str, str]:
        return titles.get(game, {"zh": game, "en": game, "zh-Hant": game})

    version = hashlib.blake2b("".join(files[k] for k in sorted(files)).encode(), digest_size=8).hexdigest()
    head = {
        "version": version,
        "docs": index.postings.doc_count(),
        "shards": shards,
        "chunk": RECORDS_PER_CHUNK,
        "groups": sizes,
        "answers": answers,
        "letters": sorted(_words(index)),
        "englishLetters": sorted(english),
        "scale": SCALE,
        "questionBoost": round(search.QUESTION_BOOST * SCALE),
        "questionDocBoost": round(search.QUESTION_DOC_BOOST * SCALE),
        "nameBoost": round(search.NAME_BOOST * SCALE),
        "nameTermsShare": search.NAME_TERMS_SHARE,
        "gameNames": index.meta.get("game_names", []),
        "gameNameTexts": [
            [name, index.games.index(game)]
            for name, game in index.meta.get("game_name_texts", [])
            if game in index.games
        ],
        "misspeltMin": MISSPELT_MIN,
        # ... each name's label, its game (an index into the games; -1: another game) and its Traditional label.
        "outside": {
            key: [label, index.games.index(game) if game in index.games else -1, hant]
            for key, (label, game, hant) in index.meta.get("outside", {}).items()
            if game == "" or game in index.games
        },
        "gameNamed": {
            key: index.games.index(game)
            for key, game in index.meta.get("game_named", {}).items()
            if game in index.games
        },
        "commonTerms": common_terms(index),
        "aboutBoost": round(search.ABOUT_BOOST * SCALE),
        "about": ABOUT,
        "leadShare": search.LEAD_SHARE,
        "weakLead": WEAK_LEAD,
        "furtherParts": FURTHER_PARTS,
        "furtherOwn": FURTHER_OWN,
        "coverShare": COVER_SHARE,
        "alsoShare": search.ALSO_SHARE,
        "answerFirst": search.ANSWER_FIRST,
        "answered": search.ANSWERED,
        # the questions the sources here do not answer (documents): a search that leads with one says none answers
        "unanswered": [d for d, record in enumerate(records) if record.get("question", {}).get("unanswered")],
        "gameBoost": round(search.GAME_BOOST * SCALE),
        "names": NAMES,
        "maxNameTerms": searchtext.MAX_NAME_TERMS,
        "gameOf": [index.games.index(game) for game in entry_games],
        # What a result shows beside its code, by game: the name in Chinese, English and Traditional characters.
        "gameTitles": [[title["zh"], title["en"], title["zh-Hant"]] for title in map(game_title, index.games)],
        **synonym_tables(index),
        # The glossaries' English names a Chinese question may say, and the pattern they are found with (cross_named).
        "crossed": index.meta.get("crossed", []),
        "crossPattern": searchtext.cross_pattern(index.meta.get("crossed", [])),
        "exact": EXACT,
        "exactAlias": EXACT_ALIAS,
        "glossary": GLOSSARY,
        "glossaryDocs": len(terms_shown),
        "glossaryChunk": GLOSSARY_PER_CHUNK,
        "glossaryShown": GLOSSARY_SHOWN,
        "pinyinShards": pinyin_shards,
        **analysis_tables(),
    }
    files["head"] = _script("head", head)
    if out.exists():
        shutil.rmtree(out)
    for name, text in files.items():
        path = out / f"{name}.js"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return head


def synonym_tables(index: search.SearchIndex) -> dict[str, list[Any]]:
    """The synonym pairs as ``[say, means]`` (the index's order: the general table's first, then each
    game's) and how many of them are the general table's and each game's, in the order of
    :attr:`~search.SearchIndex.games` (``synonymGames``: a game's are looked up in its documents only,
    :meth:`~search.SearchIndex.expanded`). A few bytes instead of a game beside every pair."""
    pairs = index.meta.get("synonyms", [])
    blocks = ["", *index.games]
    order = sorted(pairs, key=lambda pair: blocks.index(pair[2] if len(pair) > 2 else ""))
    counts = [0] * len(blocks)
    for pair in order:
        counts[blocks.index(pair[2] if len(pair) > 2 else "")] += 1
    return {"synonyms": [pair[:2] for pair in order], "synonymGames": counts}


def homophone_files(index: search.SearchIndex, files: dict[str, str]) -> int:
    """Add the homophone tables to ``files``; return the number of key shards.

    ``py/chars``: every character's toneless pinyin as ``{syllable: characters}``; ``py/N``: the
    indexed bigrams by key (:func:`homophones.key_table`), hashed like the terms. The worker loads
    them only for a query with a Chinese bigram the index lacks.
    """
    table = index.homophone_table()
    size = sum(len(json.dumps([k, v], ensure_ascii=False).encode()) for k, v in table.items())
    count = max(1, math.ceil(size / SHARD_BYTES))
    buckets: list[dict[str, list[str]]] = [{} for _ in range(count)]
    for k, bigrams in table.items():
        buckets[fnv1a(k) % count][k] = bigrams
    for n, bucket in enumerate(buckets):
        files[f"py/{n}"] = _script(f"py/{n}", bucket)
    files["py/chars"] = _script("py/chars", homophones.char_table())
    return count


def iter_terms(index: search.SearchIndex) -> Iterable[str]:
    """Every exported term (for tests)."""
    return postings(index).keys()
