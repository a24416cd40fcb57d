"""``houserules new``: a new entry file with the next free id and code, listed in its game's contents.

The entry gets every required field: the titles given, the next code of its kind
in its game (the letters and zero-padding the game already uses for that kind),
and a placeholder (``TODO …``) wherever only a person can write the text, which
``houserules check`` reports line by line until it is written. The game's
``contents`` gains the entry by a textual edit of ``game.yaml`` that keeps its
layout and comments, verified by reading the file back.
"""

from __future__ import annotations

import datetime
import json
import os
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from ..errors import HouserulesError, display_path
from . import vocab
from .load import ENTRIES_DIR
from .model import Game, KnowledgeBase
from .schema import SLUG, committed_schema_path
from .stamp import rewrite
from .yamlload import YamlError, parse

_SLUG = re.compile(SLUG)
_SUFFIX = re.compile(r"([A-Z]+)([0-9]+)")
_CODE_LINE = re.compile(r"^code:\s*[\"']?([A-Z0-9-]+)", re.M)
MAX_ID = 60
SCHEMA_LINE = "# yaml-language-server: $schema="


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
            taken.update(_CODE_LINE.findall(path.read_text(encoding="utf-8", errors="replace")))
        except OSError:
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


def choose_section(game: Game, kb: KnowledgeBase, kind: str, given: str | None) -> int:
    """The contents section the entry goes in: ``--section``, else the one holding most entries of its kind."""
    ids = [section["id"] for section in game.contents]
    if given is not None:
        if given not in ids:
            raise HouserulesError(f"game '{game.id}' has no contents section '{given}' — use one of: {', '.join(ids)}")
        return ids.index(given)
    counts = [
        sum(1 for ref in section["entries"] if ref in kb.entries and kb.entries[ref].kind == kind)
        for section in game.contents
    ]
    if not any(counts):
        raise HouserulesError(
            f"no contents section of game '{game.id}' lists a {kind} yet — choose one with "
            f"--section ID (one of: {', '.join(ids)})"
        )
    best = max(counts)
    return max(i for i, count in enumerate(counts) if count == best)  # the last of equals: usually the newest


def _quoted(text: str) -> str:
    """A YAML double-quoted scalar (JSON's escapes are YAML's)."""
    return json.dumps(text, ensure_ascii=False)


def _schema_line(folder: Path) -> str:
    """The schema line the game's other entries start with, else one pointing at the package's schema."""
    for path in sorted(folder.glob("*.yaml")):
        try:
            with open(path, encoding="utf-8") as handle:
                first = handle.readline().rstrip("\n")
        except (OSError, UnicodeDecodeError):
            continue
        if first.startswith(SCHEMA_LINE):
            return first
    schema = Path(str(committed_schema_path("entry")))
    return SCHEMA_LINE + Path(os.path.relpath(schema, folder)).as_posix()


def _authority(kb: KnowledgeBase, game: Game, kind: str) -> str:
    """The authority most entries of this kind have in the game (a guess the contributor checks)."""
    found = Counter(e.data["authority"] for e in kb.game_entries(game.id) if e.kind == kind)
    if found:
        return found.most_common(1)[0][0]
    return {"house-rule": "house-rule", "ruling": "clarification"}.get(kind, "official")


def entry_text(
    entry_id: str, code: str, kind: str, zh: str, en: str, authority: str, schema_line: str, today: str
) -> str:
    """The new entry's YAML: every required field, with ``TODO`` placeholders for what a person must write."""

    def note(line: str, comment: str) -> str:
        return f"{line:<26}# {comment}"

    return "\n".join(
        [
            schema_line,
            f"id: {entry_id}",
            f"code: {code}",
            f"kind: {kind}",
            f"title: {{zh: {_quoted(zh)}, en: {_quoted(en)}}}",
            note("summary:", "the one-line answer a player needs mid-game"),
            f'  zh: "{vocab.PLACEHOLDER} 待填写：一句话答案"',
            f'  en: "{vocab.PLACEHOLDER}: the one-line answer"',
            note(f"authority: {authority}", " | ".join(vocab.AUTHORITIES)),
            note("confidence: confirmed", f"{' | '.join(vocab.CONFIDENCES)} (then add confidence_note)"),
            note("sources:", "a document game.yaml declares, and where in it"),
            f'  - {{doc: {vocab.PLACEHOLDER}, ref: "{vocab.PLACEHOLDER} 待填写：条款、章节或页码 · ruling, section or page"}}',
            "history:",
            f"  - {{date: {today}, change: created with houserules new}}",
            "",
        ]
    )


def add_to_contents(text: str, game: Game, section: int, ref: str) -> str:
    """``game.yaml``'s text with ``ref`` after the last entry of contents section ``section``, layout kept.

    A block list gains a line indented like its last item; a flow list ``[a, b]`` gains
    ``, ref`` after its last item.
    """
    lines = text.splitlines(keepends=True)
    items = game.contents[section]["entries"]
    if not items:
        index = game.line("contents", section, "entries") - 1
        if "[]" not in lines[index]:
            raise HouserulesError(
                f"{display_path(game.path)}:{index + 1}: cannot find the empty list of section "
                f"'{game.contents[section]['id']}'; add '{ref}' to it by hand"
            )
        lines[index] = lines[index].replace("[]", f"[{ref}]", 1)
        return "".join(lines)
    index = game.line("contents", section, "entries", len(items) - 1) - 1
    line, last = lines[index], items[-1]
    block = re.match(r"(\s*-\s+)([\"']?)" + re.escape(last) + r"\2(\s*(#.*)?)$", line.rstrip("\r\n"))
    if block:
        newline = line[len(line.rstrip("\r\n")) :] or "\n"
        if not line.endswith(("\n", "\r")):
            lines[index] = line + newline
        lines.insert(index + 1, f"{block.group(1)}{ref}{newline}")
        return "".join(lines)
    found = [m for m in re.finditer(r"([\"']?)" + re.escape(last) + r"\1(?=\s*([,\]#]|$))", line.rstrip("\r\n"))]
    if not found:
        raise HouserulesError(
            f"{display_path(game.path)}:{index + 1}: cannot find where the list of section "
            f"'{game.contents[section]['id']}' ends; add '{ref}' to it by hand"
        )
    end = found[-1].end()
    lines[index] = line[:end] + f", {ref}" + line[end:]
    return "".join(lines)


def _verified(path: Path, text: str, expected: object) -> bool:
    try:
        return parse(text.lstrip("\ufeff").replace("\r\n", "\n")).data == expected
    except YamlError:
        return False


@dataclass
class NewEntry:
    path: Path
    ref: str
    code: str
    section: str


def new_entry(
    kb: KnowledgeBase,
    game_id: str,
    kind: str,
    zh: str,
    en: str,
    entry_id: str | None = None,
    section: str | None = None,
    today: str | None = None,
) -> NewEntry:
    """Write the new entry's file and list it in its game's contents; refuse anything ambiguous."""
    if game_id not in kb.games:
        known = ", ".join(sorted(kb.games)) or "(none loaded)"
        raise HouserulesError(
            f"unknown game '{game_id}' — use one of: {known} (a game whose game.yaml has problems "
            "is not loaded: run 'houserules check')"
        )
    if kind not in vocab.KINDS:
        raise HouserulesError(f"unknown kind '{kind}' — use one of: {', '.join(vocab.KINDS)}")
    for flag, text in (("--zh", zh), ("--en", en)):
        if not text.strip() or "\n" in text:
            raise HouserulesError(f"{flag} must be a one-line title, not {text!r}")
    game = kb.games[game_id]
    new_id = choose_id(kb, game, en, kind, entry_id)
    code = next_code(kb, game, kind)
    index = choose_section(game, kb, kind, section)
    ref = f"{game_id}:{new_id}"
    folder = game.path.parent / ENTRIES_DIR
    path = folder / f"{new_id}.yaml"
    body = entry_text(
        new_id,
        code,
        kind,
        zh,
        en,
        _authority(kb, game, kind),
        _schema_line(folder),
        today or datetime.date.today().isoformat(),
    )

    game_text = game.path.read_bytes().decode("utf-8")
    new_game_text = add_to_contents(game_text, game, index, ref)
    expected = json.loads(json.dumps(game.data))
    expected["contents"][index]["entries"].append(ref)
    if not _verified(game.path, new_game_text, expected):
        raise HouserulesError(
            f"{display_path(game.path)}: cannot add '{ref}' to contents section "
            f"'{game.contents[index]['id']}' safely; add it by hand (nothing was written)"
        )

    folder.mkdir(exist_ok=True)
    try:
        with open(path, "x", encoding="utf-8", newline="\n") as out:  # "x": never over an existing file
            out.write(body)
    except FileExistsError:
        raise HouserulesError(f"{display_path(path)} already exists — choose another --id") from None
    try:
        rewrite(game.path, new_game_text, "run 'houserules new'")
        if not _verified(game.path, game.path.read_bytes().decode("utf-8"), expected):
            rewrite(game.path, game_text, "run 'houserules new'")
            raise HouserulesError(
                f"{display_path(game.path)} did not read back as expected; it was restored — "
                f"add '{ref}' to its contents by hand"
            )
    except BaseException:
        path.unlink(missing_ok=True)
        raise
    return NewEntry(path, ref, code, game.contents[index]["id"])
