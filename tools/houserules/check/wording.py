"""Shown text speaks the reader's language: no production words.

The data is written from source documents that the project calls "seeds" and stores under file
names (``002_912163b109a9ba77.txt``). A reader knows neither: a page, an answer, the PDF or an
export says "this Chinese translation" or names the document by its title. Each game lists the
words its text must not show (``production_words`` in ``game.yaml``); the ids of its source
documents that look like file names are added. Keys that hold ids rather than text (a source's
``doc`` and ``id``, a source ``kind``, codes, clauses, hashes) are not shown as written and are
not checked.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Iterator
from functools import cache
from itertools import accumulate

from ..data.reading.model import Game, KnowledgeBase, Record
from ..data.reading.yamlload import Path_
from ..errors import Problem, display_path
from .rules import entry_problem

#: Keys whose values are ids, not text a reader sees as written.
ID_KEYS = frozenset({"doc", "id", "kind", "code", "clause", "clauses", "source_hash", "from", "production_words"})
_FILE_NAME = re.compile(r"\.[A-Za-z0-9]{1,5}$")


def production_words(game: Game) -> list[str]:
    """The words ``game``'s shown text must not use: its list, and its source ids that are file names.

    A source id is a file name when it ends in an extension (``002_….txt``); ``rulebook-2e`` is not.
    """
    words = list(game.production_words)
    words += [s.id for s in game.sources if _FILE_NAME.search(s.id)]
    return list(dict.fromkeys(words))


def _pattern(words: Iterable[str]) -> re.Pattern[str] | None:
    """One search for all words: Latin words from a word start (``seed`` finds ``seeds``, not ``linseed``),
    anything else anywhere; case-insensitive.

    >>> _pattern(["种子", "seed"]).findall("The seed's 种子译文; linseed; Seeds")
    ['seed', '种子', 'Seed']
    """
    parts = [
        (r"\b" if re.match(r"[A-Za-z]", word) else "") + re.escape(word)
        for word in sorted(words, key=len, reverse=True)
    ]
    return re.compile("|".join(parts), re.IGNORECASE) if parts else None


def _shown(texts: Iterable[tuple[Path_, str]]) -> Iterator[tuple[Path_, str]]:
    """The texts a person reads: every text of a file but ids and other keys (:data:`ID_KEYS`)."""
    for path, text in texts:
        if _is_shown(path):
            yield path, text


@cache
def _is_shown(path: Path_) -> bool:
    # The same few hundred paths recur in every entry.
    return not any(isinstance(key, str) and key in ID_KEYS for key in path)


def _uses(
    pattern: re.Pattern[str],
    words: tuple[str, ...],
    texts: Iterable[tuple[Path_, str]],
    joined: str | None = None,
    ids: Iterable[str] = (),
) -> Iterator[tuple[Path_, re.Match[str]]]:
    """Each text that uses a word of ``pattern``, with its first use.

    A file whose texts hold none of ``words`` (case-folded) anywhere but in ``ids`` (texts of
    the file that are ids, not shown: the documents its citations name, which are file names
    themselves) is passed at once: a substring count over the whole file is much faster than
    the case-insensitive pattern over each text, and whatever the pattern finds holds one of
    the words. ``joined``: the file's texts joined by blank lines, when the caller has it.
    """
    texts = list(texts)
    folded = ("\n\n".join(text for _, text in texts) if joined is None else joined).casefold()
    present = [word for word in words if word in folded]
    if not present:
        return
    in_ids = "\n\n".join(ids).casefold()
    if all(folded.count(word) == in_ids.count(word) for word in present):
        return  # every use is in an id
    # One search of the shown texts joined (no word spans a blank line), then each text it found.
    shown = list(_shown(texts))
    ends = list(accumulate(len(text) + 2 for _, text in shown))
    last = -1
    for found in pattern.finditer("\n\n".join(text for _, text in shown)):
        index = bisect.bisect_right(ends, found.start())
        if index != last:
            last = index
            path, text = shown[index]
            match = pattern.search(text)
            if match is not None:
                yield path, match


def _fix(game: Game) -> str:
    return (
        "say it in the reader's words (本中文译本 / this translation; the document's title) — the list is "
        f"production_words in rules_data/{game.id}/game.yaml"
    )


def check_wording(kb: KnowledgeBase) -> Iterator[Problem]:
    """No text a person reads (entries, game, glossary) uses one of its game's production words."""
    patterns = {game.id: (game, _pattern(production_words(game))) for game in kb.games.values()}
    folded = {game.id: tuple(word.casefold() for word in production_words(game)) for game in kb.games.values()}
    for game, pattern in patterns.values():
        if pattern is None:
            continue
        records: list[tuple[Record, str, str]] = [(game, display_path(game.path), game.id)]
        if game.glossary is not None:
            records.append((game.glossary, display_path(game.glossary.path), game.id))
        for record, where, name in records:
            for path, match in _uses(pattern, folded[game.id], record.doc.texts()):
                yield Problem(where, record.line(*path), name, _message(path, match), _fix(game))
    for entry in kb.entries.values():
        if entry.game not in patterns:
            continue
        game, pattern = patterns[entry.game]
        if pattern is None:
            continue
        docs = [source.doc for _, source in entry.citations()] + [q.source.doc for q in entry.questions]
        for path, match in _uses(pattern, folded[entry.game], entry.texts, entry.all_text, docs):
            yield entry_problem(entry, path, _message(path, match), _fix(game))


def _message(path: Path_, match: re.Match[str]) -> str:
    return f"field '{'.'.join(map(str, path))}' uses the production word '{match.group(0)}'"


# -- git-derived text: commit subjects -----------------------------------------------------------------

#: What the changes page and its feed show for a commit subject that uses a production word. The whole
#: subject is replaced rather than the word cut out: "Audit against the seeds: 21 entries corrected"
#: without its word reads "Audit against the : 21 entries corrected", which says something else.
NEUTRAL_SUBJECT = "数据更新 · Data update"
#: The subject git itself writes for a merge ("Merge branch 'x'", "Merge pull request #3 from …"): it names
#: branches, not what changed, so the changes page and its feed show no subject for it.
_MERGE_SUBJECT = re.compile(r"Merge (?:branch|branches|remote-tracking branch|pull request|commit|tag)\b")
#: A file name in a commit subject (a source document, a data or project file): a reader knows none.
_SUBJECT_FILE = r"(?<![\w.-])[\w.-]*\w\.(?:txt|md|pdf|docx?|ya?ml|json|csv|html?)\b"


def subject_pattern(kb: KnowledgeBase) -> re.Pattern[str]:
    """What no commit subject shown to a reader may hold: every game's production words, its source ids
    that are file names, and any file name.

    Subjects are not a game's: a commit may touch every game, so the words of all games count.

    >>> pattern = subject_pattern(KnowledgeBase())
    >>> [bool(pattern.search(s)) for s in ("Fix 002_912163b109a9ba77.txt refs", "Update game.yaml", "v1.2", "e.g. x")]
    [True, True, False, False]
    """
    words = [word for game in kb.games.values() for word in production_words(game)]
    found = _pattern(dict.fromkeys(words))
    return re.compile(f"{found.pattern}|{_SUBJECT_FILE}" if found else _SUBJECT_FILE, re.IGNORECASE)


def shown_subject(subject: str, pattern: re.Pattern[str]) -> str:
    """``subject`` as a reader sees it: :data:`NEUTRAL_SUBJECT` when it uses a word of ``pattern``, nothing
    for git's own subject of a merge (:data:`_MERGE_SUBJECT`).

    >>> shown_subject("Content audit against the seeds", re.compile(r"\\bseed", re.I))
    '数据更新 · Data update'
    >>> shown_subject("Betrayal: the vault's answers", re.compile(r"\\bseed", re.I))
    "Betrayal: the vault's answers"
    >>> shown_subject("Merge branch 'vault' into main", re.compile(r"\\bseed", re.I))
    ''
    """
    if subject and _MERGE_SUBJECT.match(subject):
        return ""
    return NEUTRAL_SUBJECT if subject and pattern.search(subject) else subject
