"""A text says as much certainty in Chinese as in English.

A completion the English calls "almost certainly" right and the Chinese 很可能 ("probably") tells
readers of the two languages different things. Each pair of texts (a field's ``zh`` and ``en``,
in entries, games and glossaries) must use the same levels of
:data:`~houserules.data.reading.vocab.CERTAINTY`: a level one language says and the other does
not is reported on the line of the one that says it. Quotations of a source (an erratum's
``printed``, a translator note's ``quote``) and the history are not the project's words and are
not compared.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import cache

from ..data.reading.model import KnowledgeBase, Record
from ..data.reading.vocab import CERTAINTY
from ..data.reading.yamlload import Path_
from ..errors import Problem, display_path
from .rules import entry_problem

#: Keys whose texts quote a source or record the past: not compared.
_SKIPPED = frozenset({"printed", "corrected", "source_en", "quote", "suggestion", "history"})
_LANGS = ("zh", "en")


@cache
def _pattern(lang: str) -> re.Pattern[str]:
    """Every certainty word of ``lang``, longest first; English words whole and in any case."""
    words = sorted((w for level in CERTAINTY.values() for w in level[lang]), key=len, reverse=True)
    if lang == "en":
        return re.compile(r"\b(?:" + "|".join(map(re.escape, words)) + r")\b", re.IGNORECASE)
    return re.compile("|".join(map(re.escape, words)))


#: Every certainty word of both languages, case-folded, anywhere: a text holding none of them says no
#: certainty. One search of the folded text, without the patterns' word boundaries, is several times faster.
_ANY_WORD = re.compile(
    "|".join(sorted({re.escape(w.casefold()) for level in CERTAINTY.values() for ws in level.values() for w in ws}))
)


def _may_say(text: str) -> bool:
    """Whether ``text`` holds a certainty word somewhere (a screen before the patterns).

    >>> _may_say("It is PROBABLY so"), _may_say("很可能"), _may_say("It is so")
    (True, True, False)
    """
    return _ANY_WORD.search(text.casefold()) is not None


@cache
def _level_of(lang: str) -> dict[str, str]:
    return {word.casefold(): level for level, words in CERTAINTY.items() for word in words[lang]}


def levels(text: str, lang: str) -> dict[str, str]:
    """The certainty levels ``text`` says, each with the first word that says it.

    >>> levels("It almost certainly meant this; the rest is probably lost.", "en")
    {'almost certain': 'almost certainly', 'probable': 'probably'}
    >>> levels("不太可能；很可能是扩展。unlikely", "zh")
    {'probable': '很可能'}
    """
    found: dict[str, str] = {}
    for match in _pattern(lang).finditer(text):
        found.setdefault(_level_of(lang)[match.group(0).casefold()], match.group(0))
    return found


def _pairs(texts: Iterable[tuple[Path_, str]]) -> Iterator[tuple[Path_, dict[str, str]]]:
    """Each bilingual text of which a language says some certainty, as its field's path and its text
    by language (both languages there)."""
    by_field: dict[Path_, dict[str, str]] = {}
    said: set[Path_] = set()
    for path, text in texts:
        if path and path[-1] in _LANGS and not any(isinstance(k, str) and k in _SKIPPED for k in path):
            by_field.setdefault(path[:-1], {})[str(path[-1])] = text
            if _may_say(text) and _pattern(str(path[-1])).search(text):
                said.add(path[:-1])
    for field in said:
        langs = by_field[field]
        if len(langs) == len(_LANGS):
            yield field, langs


def _mismatches(texts: Iterable[tuple[Path_, str]]) -> Iterator[tuple[Path_, str, str]]:
    """Each text saying a level its other language does not: its path, the level and what is wrong."""
    for field, langs in _pairs(texts):
        said = {lang: levels(langs[lang], lang) for lang in _LANGS}
        for lang, other in (("zh", "en"), ("en", "zh")):
            for level, word in said[lang].items():
                if level in said[other]:
                    continue
                name = ".".join(map(str, field))
                instead = "".join(f", it says '{w}' ({lv})" for lv, w in said[other].items() if lv not in said[lang])
                yield (
                    (*field, lang),
                    level,
                    f"{name}.{lang} says '{word}' ({level}) and {name}.{other} does not{instead}",
                )


def _say(level: str) -> str:
    words = CERTAINTY[level]
    return f"say it with the same certainty in both languages ({level}: {words['zh'][0]} / {words['en'][0]})"


def check_certainty(kb: KnowledgeBase) -> Iterator[Problem]:
    """Each bilingual text of an entry, a game or a glossary says the same certainty in both languages."""
    records: list[tuple[Record, str]] = []
    for game in kb.games.values():
        records.append((game, game.id))
        if game.glossary is not None:
            records.append((game.glossary, game.id))
    for record, name in records:
        for path, level, problem in _mismatches(record.doc.texts()):
            yield Problem(display_path(record.path), record.line(*path), name, problem, _say(level))
    for entry in kb.entries.values():
        if not _may_say(entry.all_text):
            continue
        for path, level, problem in _mismatches(entry.texts):
            yield entry_problem(entry, path, problem, _say(level))
