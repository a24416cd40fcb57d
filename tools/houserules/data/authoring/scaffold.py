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
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from ...errors import HouserulesError, display_path, is_write_failure, visible, write_failure, write_fix
from ..reading import vocab
from ..reading.load import ENTRIES_DIR
from ..reading.model import Game, KnowledgeBase
from ..reading.safefile import read_bytes
from ..reading.schema import committed_schema_path
from ..reading.yamlload import YamlError, parse
from .numbering import choose_id, choose_section, next_code
from .transaction import commit

SCHEMA_LINE = "# yaml-language-server: $schema="


def _quoted(text: str) -> str:
    """A YAML double-quoted scalar (JSON's escapes are YAML's)."""
    return json.dumps(text, ensure_ascii=False)


def _schema_line(folder: Path) -> str:
    """The schema line the game's other entries start with, else one pointing at the package's schema."""
    for path in sorted(folder.glob("*.yaml")):
        try:  # the safe reader: a named pipe or a huge (sparse) file is skipped, never read
            first = read_bytes(path).decode("utf-8").split("\n", 1)[0].rstrip("\r")
        except (OSError, UnicodeDecodeError, YamlError):
            continue
        if first.startswith(SCHEMA_LINE):
            return first
    schema = Path(str(committed_schema_path("entry")))
    return SCHEMA_LINE + Path(os.path.relpath(schema, folder)).as_posix()


#: What may not stand in a one-line field: anything YAML or a reader takes as a line break (LF, CR,
#: VT, FF, NEL U+0085, U+2028, U+2029), other control characters, and what no output can carry
#: (a lone surrogate, as undecodable bytes on the command line arrive; U+FFFE, U+FFFF).
_NOT_ONE_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufffe\uffff]")


def one_line(flag: str, text: str) -> None:
    """Refuse a title that is blank or that is not one line of text."""
    if not text.strip():
        raise HouserulesError(f"{flag} must be a one-line title, not {visible(repr(text))}")
    found = _NOT_ONE_LINE.search(text)
    if found is not None:
        char = found.group()
        what = "a line break" if char in "\n\r\x0b\x0c\x85\u2028\u2029" else "a control character"
        if 0xD800 <= ord(char) <= 0xDFFF or char in "\ufffe\uffff":
            what = "a character no file can carry (bytes that are not UTF-8?)"
        raise HouserulesError(
            f"{flag} must be a one-line title: {visible(repr(text))} holds U+{ord(char):04X}, {what}; "
            "write the title on one line without it"
        )


def _authority(kb: KnowledgeBase, game: Game, kind: str) -> str:
    """The authority most entries of this kind have in the game (a guess the contributor checks)."""
    found = Counter(e.authority for e in kb.game_entries(game.id) if e.kind == kind)
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
    items = game.contents[section].entries
    if not items:
        index = game.line("contents", section, "entries") - 1
        if "[]" not in lines[index]:
            raise HouserulesError(
                f"{display_path(game.path)}:{index + 1}: cannot find the empty list of section "
                f"'{game.contents[section].id}'; add '{ref}' to it by hand"
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
            f"'{game.contents[section].id}' ends; add '{ref}' to it by hand"
        )
    end = found[-1].end()
    lines[index] = line[:end] + f", {ref}" + line[end:]
    return "".join(lines)


def _verified(path: Path, text: str, expected: object) -> bool:
    try:
        return bool(parse(text.lstrip("\ufeff").replace("\r\n", "\n")).data == expected)
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
    """Write the new entry's file and list it in its game's contents, both or neither; refuse anything
    ambiguous. The caller holds the data folder for writing (:func:`.transaction.writing`)."""
    if game_id not in kb.games:
        known = ", ".join(sorted(kb.games)) or "(none loaded)"
        raise HouserulesError(
            f"unknown game '{game_id}' — use one of: {known} (a game whose game.yaml has problems "
            "is not loaded: run 'houserules check')"
        )
    if kind not in vocab.KINDS:
        raise HouserulesError(f"unknown kind '{kind}' — use one of: {', '.join(vocab.KINDS)}")
    for flag, text in (("--zh", zh), ("--en", en)):
        one_line(flag, text)
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
            f"'{game.contents[index].id}' safely; add it by hand (nothing was written)"
        )

    if os.path.lexists(path):
        raise HouserulesError(f"{display_path(path)} already exists — choose another --id")
    try:
        folder.mkdir(exist_ok=True)
    except OSError as exc:
        if not is_write_failure(exc):
            raise
        raise HouserulesError(
            f"{write_failure(exc, display_path(folder), 'create')} — {write_fix(exc)} and run 'houserules new' "
            "again (nothing was written)"
        ) from None
    commit(
        kb.root if kb.root is not None else game.path.parent.parent,
        {path: body.encode("utf-8"), game.path: new_game_text.encode("utf-8")},
        "new",
        again="run 'houserules new' again",
        create={path},
    )
    return NewEntry(path, ref, code, game.contents[index].id)
