"""``houserules stamp``: record in an entry's file that its translation matches the current source text.

The stamp is a hash of each source field (title, summary, body; see
:mod:`houserules.data.versions.sourcehash`). Only the ``source_hash`` value changes (an old
one-hash stamp becomes the mapping of the fields); every other byte of the file stays as written,
the result is read back before it is written, and the files of one command are written all or
none (:mod:`.transaction`), each keeping its mode, owner and links.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ...errors import HouserulesError, display_path
from ..reading.model import Entry, read_entry
from ..reading.yamlload import Path_, YamlError, parse
from ..versions.sourcehash import HASHED_FIELDS, UNREVIEWED, field_hash, stamped_fields
from .transaction import commit
from .yamledit import EditError, edit_values, plain_is_text, quoted

Stamp = dict[str, str]


def stamp_entries(
    data_dir: Path, entries: list[Entry], langs: list[str] | None = None
) -> list[tuple[Entry, dict[str, Stamp]]]:
    """Stamp every field of the translations of ``entries``, all files or none; returns what each got.

    The caller holds the data folder for writing (:func:`.transaction.writing`).
    """
    texts: dict[Path, str] = {}
    done = []
    for entry in entries:
        old = texts.get(entry.path)
        if old is None:
            old = entry.path.read_bytes().decode("utf-8")
        else:  # the same entry named twice (by id and by code): stamp what the first stamp wrote
            entry = read_entry(entry.path, parse(old.lstrip("\ufeff").replace("\r\n", "\n")), entry.game)
        new_text, stamped = stamp_text(entry, old, langs)
        texts[entry.path] = new_text
        done.append((entry, stamped))
    commit(
        data_dir,
        {path: text.encode("utf-8") for path, text in texts.items()},
        "stamp",
        again="stamp again, or leave it as it is",
    )
    return done


def new_stamps(
    entry: Entry,
    langs: list[str],
    source: str,
    fields: Iterable[str] = HASHED_FIELDS,
    unreviewed: Iterable[str] = (),
) -> dict[str, Stamp]:
    """What each language's stamp becomes: ``fields`` stamped from the current source, ``unreviewed``
    marked as not reviewed (:data:`UNREVIEWED`), the other fields as they were (an old one-hash stamp
    read field by field). A language whose stamp would cover no field gets none."""
    records = entry.data.get("translations", {})
    result = {}
    fields, unreviewed = set(fields), set(unreviewed)
    for lang in langs:
        origin = records[lang]["from"] if lang in records else source
        stamp = stamped_fields(entry.data, lang)
        for name in fields:
            stamp[name] = field_hash(entry.data, name, origin)
        for name in unreviewed:
            stamp[name] = UNREVIEWED
        ordered = {name: stamp[name] for name in HASHED_FIELDS if name in stamp}
        if ordered:
            result[lang] = ordered
    return result


def stamp_text(
    entry: Entry,
    text: str,
    langs: list[str] | None = None,
    source: str = "zh",
    add: bool = False,
    fields: Iterable[str] = HASHED_FIELDS,
    unreviewed: Iterable[str] = (),
) -> tuple[str, dict[str, Stamp]]:
    """The entry file's ``text`` (as ``entry`` was read from it) with its translations stamped, verified.

    ``fields`` are stamped from the current source text and ``unreviewed`` marked as needing review
    (see :func:`new_stamps`). With ``add``, a language of ``langs`` that the entry's
    ``translations`` do not list yet gets a record there (a line like the last record's), from
    ``source``. Returns the new text and each language's new stamp.
    """
    langs = list(dict.fromkeys(langs)) if langs else None  # `--lang en --lang en` stamps en once
    records = entry.data.get("translations", {})
    if records:
        wanted = langs or list(records)
        missing = [lang for lang in wanted if lang not in records]
        if missing and not add:
            raise HouserulesError(
                f"{display_path(entry.path)}: {entry.ref} has no translation record for "
                f"{', '.join(missing)}; add '{missing[0]}: {{from: {source}, source_hash: "
                f"\"000000000000\"}}' under 'translations:' and stamp again"
            )
    else:
        wanted = langs or [lang for lang in ("zh", "en") if lang != source]
    stamps = new_stamps(entry, wanted, source, fields, unreviewed)
    expected = copy.deepcopy(entry.data)
    translations = expected.setdefault("translations", {})
    added = [lang for lang in stamps if lang not in records]
    for lang, stamp in stamps.items():
        translations.setdefault(lang, {"from": source})["source_hash"] = stamp
    if not translations:
        del expected["translations"]
    if added and records:
        text = _add_records(entry, text, {lang: stamps[lang] for lang in added}, source)
    elif added:
        newline = "\r\n" if text.endswith("\r\n") else "\n"
        if text and not text.endswith("\n"):
            text += newline
        text += f"translations:{newline}" + "".join(
            f"  {_record(lang, source, stamps[lang])}{newline}" for lang in added
        )
    changes: dict[Path_, str | list[str] | dict[str, str]] = {
        ("translations", lang, "source_hash"): stamp
        for lang, stamp in stamps.items()
        if lang in records and records[lang]["source_hash"] != stamp
    }
    if changes:
        try:
            text, _ = edit_values(text, changes)
        except EditError as exc:
            raise HouserulesError(
                f"{display_path(entry.path)}: cannot stamp this file's layout safely ({exc}); "
                "set 'source_hash' by hand (see 'houserules check')"
            ) from None
    _verify(entry, text, expected)
    return text, stamps


def _record(lang: str, source: str, stamp: Stamp) -> str:
    hashes = ", ".join(f"{name}: {_scalar(value)}" for name, value in stamp.items())
    return f"{lang}: {{from: {source}, source_hash: {{{hashes}}}}}"


def _add_records(entry: Entry, text: str, stamps: dict[str, Stamp], source: str) -> str:
    """``text`` with a record for each language of ``stamps`` after the entry's last translation record."""
    last = list(entry.data["translations"])[-1]
    index = entry.line("translations", last) - 1
    lines = text.splitlines(keepends=True)
    if index == entry.line("translations") - 1:  # a flow mapping on the 'translations:' line
        raise HouserulesError(
            f"{display_path(entry.path)}:{index + 1}: cannot add a translation record to "
            "'translations: {...}' written on one line; write one record a line and import again"
        )
    indent = lines[index][: len(lines[index]) - len(lines[index].lstrip())]
    newline = "\r\n" if lines[index].endswith("\r\n") else "\n"
    end = index + 1
    while end < len(lines) and lines[end].strip() and len(lines[end]) - len(lines[end].lstrip()) > len(indent):
        end += 1
    added = [f"{indent}{_record(lang, source, stamp)}{newline}" for lang, stamp in stamps.items()]
    return "".join(lines[:end] + added + lines[end:])


def _scalar(value: str) -> str:
    """``value`` as a YAML scalar that reads back as the same text: quoted only when needed.

    >>> _scalar("3f2a9c0d41b7"), _scalar("000000000000"), _scalar("123e45678901")
    ('3f2a9c0d41b7', '"000000000000"', '"123e45678901"')
    """
    return value if plain_is_text(value) else quoted(value)


def _verify(entry: Entry, new_text: str, expected: dict[str, Any]) -> None:
    # The rewrite is textual: make sure it changed exactly the intended values and nothing else.
    try:
        reread = parse(new_text.lstrip("\ufeff").replace("\r\n", "\n")).data
    except YamlError as exc:
        raise HouserulesError(
            f"{display_path(entry.path)}:{exc.line}: stamping would break the file ({exc.problem}); stamp it by hand"
        ) from None
    if reread != expected:
        raise HouserulesError(
            f"{display_path(entry.path)}: cannot stamp this file's layout safely; "
            "set 'source_hash' by hand (see 'houserules check')"
        )
