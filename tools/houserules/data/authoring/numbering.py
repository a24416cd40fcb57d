"""The next free id, code and contents section of a new entry (for ``houserules new``).

A code continues what the game already uses for the kind (its letters and
zero-padding); an id comes from the English title; a section is the one that
already lists most entries of the kind.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass

from ...errors import HouserulesError, display_path
from ..reading import vocab
from ..reading.load import ENTRIES_DIR
from ..reading.model import Game, KnowledgeBase
from ..reading.safefile import YamlError, read_bytes
from ..reading.schemaparts import SLUG

_SLUG = re.compile(SLUG)
_SUFFIX = re.compile(r"([A-Z]+)([0-9]+)")
_CODE_LINE = re.compile(r"^code:\s*[\"']?([A-Z0-9-]+)", re.M)
MAX_ID = 60


def slugify(text: str) -> str:
    """An id from an English title: lowercase ASCII letters and digits joined by single hyphens.

    >>> slugify("Mystic Elevator: who rolls?"), slugify("Déjà vu — 2nd edition"), slugify("魔梯")
    ('mystic-elevator-who-rolls', 'deja-vu-2nd-edition', '')
    """
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    slug = "-".join(re.findall(r"[a-z0-9]+", ascii_text))
    while len(slug) > MAX_ID and "-" in slug:
        slug = slug.rsplit("-", 1)[0]
    return slug[:MAX_ID]


@dataclass
class Code:
    kind: str
    letters: str
    digits: str


def _codes(kb: KnowledgeBase, game: Game) -> tuple[list[Code], set[str]]:
    """The game's codes by kind (of the entries that loaded), and every code written in its entry files.

    The files are read for their ``code:`` line too: an entry that does not load now
    (a typo elsewhere in it) still holds its code, and a new code must not take it.
    """
    prefix = game.code_prefix + "-"
    codes = []
    for entry in kb.game_entries(game.id):
        match = _SUFFIX.fullmatch(entry.code.removeprefix(prefix))
        if match and entry.code.startswith(prefix):
            codes.append(Code(entry.kind, match.group(1), match.group(2)))
    taken = {e.code for e in kb.entries.values()}
    for path in (game.path.parent / ENTRIES_DIR).glob("*.yaml"):
        try:
            # The safe reader: a named pipe or a huge (sparse) file among the entries is skipped, not read.
            taken.update(_CODE_LINE.findall(read_bytes(path).decode("utf-8", errors="replace")))
        except (OSError, YamlError):
            continue
    return codes, taken


def _letters_for(kind: str, kb: KnowledgeBase, game: Game, codes: list[Code]) -> str:
    """The code letters of ``kind`` in the game: the ones it uses for the kind, else a letter free in it."""
    own = Counter(c.letters for c in codes if c.kind == kind)
    if own:
        return own.most_common(1)[0][0]
    used = {c.letters for c in codes}
    elsewhere: Counter[str] = Counter()
    for other in kb.games.values():
        if other.id != game.id:
            other_codes, _ = _codes(kb, other)
            elsewhere.update(c.letters for c in other_codes if c.kind == kind)
    candidates = [letters for letters, _ in elsewhere.most_common()]
    candidates += [vocab.KINDS[kind]["en"][0].upper()] + [chr(c) for c in range(ord("A"), ord("Z") + 1)]
    return next(letters for letters in candidates if letters not in used)


def next_code(kb: KnowledgeBase, game: Game, kind: str) -> str:
    """The next free code of ``kind`` in ``game``, padded as the game pads it.

    ``BH-A1 … BH-A14`` (no padding) give ``BH-A15``; ``BH-R01 … BH-R26`` give ``BH-R27``.
    Every number already written with those letters counts, whatever the kind.
    """
    codes, taken = _codes(kb, game)
    letters = _letters_for(kind, kb, game, codes)
    same = [c for c in codes if c.letters == letters]
    if same:
        padded = [len(c.digits) for c in same if c.digits.startswith("0")]
        width = max(padded) if padded else 1
    else:  # letters new to the game: pad as most of its codes are padded
        width = 2 if sum(c.digits.startswith("0") for c in codes) * 2 > len(codes) else 1
    numbers = [int(c.digits) for c in same]
    numbers += [
        int(m.group(2))
        for code in taken
        if (m := _SUFFIX.fullmatch(code.removeprefix(game.code_prefix + "-"))) and m.group(1) == letters
    ]
    number = max(numbers, default=0) + 1
    while (code := f"{game.code_prefix}-{letters}{number:0{width}d}") in taken:
        number += 1
    return code


def _existing_ids(kb: KnowledgeBase, game: Game) -> set[str]:
    """Ids of the game's entries and the stems of every file in its entries folder (case folded)."""
    folder = game.path.parent / ENTRIES_DIR
    stems = {p.stem.casefold() for p in folder.iterdir()} if folder.is_dir() else set()
    return stems | {e.id for e in kb.game_entries(game.id)}


def choose_id(kb: KnowledgeBase, game: Game, english: str, kind: str, given: str | None) -> str:
    taken = _existing_ids(kb, game)
    if given is not None:
        if not _SLUG.fullmatch(given):
            raise HouserulesError(
                f"--id '{given}' is not an id — use lowercase letters, digits and single hyphens, e.g. mystic-elevator"
            )
        if given in vocab.RESERVED_IDS:
            raise HouserulesError(
                f"--id '{given}' is reserved for a page of the game — choose another id "
                f"(reserved: {', '.join(sorted(vocab.RESERVED_IDS))})"
            )
        if given.casefold() in taken:
            raise HouserulesError(
                f"{game.id} already has an entry '{given}' "
                f"({display_path(game.path.parent / ENTRIES_DIR / (given + '.yaml'))}) — "
                "choose another --id, or edit that entry"
            )
        return given
    base = slugify(english) or kind
    candidate, n = base, 1
    while candidate in taken or candidate in vocab.RESERVED_IDS:
        n += 1
        candidate = f"{base}-{n}"
    return candidate


def kind_section(kind: str) -> str:
    """The id of the contents section named for a kind of entry, where a game has one.

    >>> kind_section("rule"), kind_section("ruling"), kind_section("house-rule")
    ('rules', 'rulings', 'house-rules')
    """
    return slugify(vocab.KINDS[kind]["en"]) + "s"


def choose_section(game: Game, kb: KnowledgeBase, kind: str, given: str | None) -> int:
    """The contents section the entry goes in: ``--section``, else the one holding most entries of its kind,
    else (no section lists one yet) the section named for the kind (:func:`kind_section`)."""
    ids = [section.id for section in game.contents]
    if given is not None:
        if given not in ids:
            raise HouserulesError(f"game '{game.id}' has no contents section '{given}' — use one of: {', '.join(ids)}")
        return ids.index(given)
    counts = [
        sum(1 for ref in section.entries if ref in kb.entries and kb.entries[ref].kind == kind)
        for section in game.contents
    ]
    if not any(counts) and (named := kind_section(kind)) in ids:
        return ids.index(named)  # a new game's sections (houserules new-game): 'rules', 'rulings'
    if not any(counts):
        raise HouserulesError(
            f"no contents section of game '{game.id}' lists a {kind} yet — choose one with "
            f"--section ID (one of: {', '.join(ids)})"
        )
    best = max(counts)
    return max(i for i, count in enumerate(counts) if count == best)  # the last of equals: usually the newest
