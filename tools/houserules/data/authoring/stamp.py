"""``houserules stamp``: record in an entry's file that its translation matches the current source text.

Only the ``source_hash`` value changes; every other byte of the file stays as written,
the result is read back before it is written, and the file keeps its mode, owner and links.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
from pathlib import Path
from typing import Any

from ...errors import HouserulesError, display_path
from ..reading.model import Entry, read_entry
from ..reading.yamlload import YamlError, parse
from ..versions.sourcehash import source_hash


def stamp(entry: Entry, langs: list[str] | None = None, source: str = "zh") -> dict[str, str]:
    """Record the current source hash of an entry's translations in its file; returns ``{lang: hash}``.

    Only the ``source_hash`` value of each stamped language changes; every other
    byte of the file stays as written. An entry without a ``translations`` field
    gets one, appended at the end of the file, for every language other than
    ``source`` (or for ``langs``).
    """
    text = entry.path.read_bytes().decode("utf-8")
    new_text, stamped = stamp_text(entry, text, langs, source)
    _write(entry, new_text)
    return stamped


def stamp_text(
    entry: Entry, text: str, langs: list[str] | None = None, source: str = "zh", add: bool = False
) -> tuple[str, dict[str, str]]:
    """The entry file's ``text`` (as ``entry`` was read from it) with its translations stamped, verified.

    With ``add``, a language of ``langs`` that the entry's ``translations`` do not list yet gets a
    record there (a line like the last record's), from ``source``.
    """
    langs = list(dict.fromkeys(langs)) if langs else None  # `--lang en --lang en` stamps en once
    records = entry.data.get("translations", {})
    if records:
        wanted = langs or list(records)
        missing = [lang for lang in wanted if lang not in records]
        if missing and add:
            text = _add_records(entry, text, missing, source)
            reread = read_entry(entry.path, parse(text.lstrip("\ufeff").replace("\r\n", "\n")), entry.game)
            return stamp_text(reread, text, langs, source)
        if missing:
            raise HouserulesError(
                f"{display_path(entry.path)}: {entry.ref} has no translation record for "
                f"{', '.join(missing)}; add '{missing[0]}: {{from: {source}, source_hash: "
                f"\"000000000000\"}}' under 'translations:' and stamp again"
            )
    else:
        wanted = langs or [lang for lang in ("zh", "en") if lang != source]
    lines = text.splitlines(keepends=True)
    new_data = {**entry.data, "translations": {k: dict(v) for k, v in records.items()}}
    stamped: dict[str, str] = {}
    for lang in wanted:
        origin = records[lang]["from"] if lang in records else source
        new_hash = source_hash(entry.data, origin)
        stamped[lang] = new_hash
        new_data["translations"].setdefault(lang, {"from": origin, "source_hash": new_hash})["source_hash"] = new_hash
        if lang in records:
            index = entry.line("translations", lang, "source_hash") - 1
            old = re.search(rf"""(["']?){records[lang]["source_hash"]}\1""", lines[index])
            if old is None:
                raise HouserulesError(
                    f"{display_path(entry.path)}:{index + 1}: cannot find the hash "
                    f"{records[lang]['source_hash']} on this line; "
                    "write 'source_hash:' on the same line as its value"
                )
            new_text = f"{old.group(1)}{new_hash}{old.group(1)}" if old.group(1) else _scalar(new_hash)
            lines[index] = lines[index][: old.start()] + new_text + lines[index][old.end() :]
    added = [lang for lang in wanted if lang not in records]
    if added:
        newline = "\r\n" if text.endswith("\r\n") else "\n"
        if lines and not lines[-1].endswith("\n"):
            lines[-1] += newline
        lines.append(f"translations:{newline}")
        lines += [f"  {lang}: {{from: {source}, source_hash: {_scalar(stamped[lang])}}}{newline}" for lang in added]
    new_text = "".join(lines)
    _verify(entry, new_text, new_data)
    return new_text, stamped


def _add_records(entry: Entry, text: str, langs: list[str], source: str) -> str:
    """``text`` with a placeholder record for each of ``langs`` after the entry's last translation record."""
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
    added = [f'{indent}{lang}: {{from: {source}, source_hash: "000000000000"}}{newline}' for lang in langs]
    return "".join(lines[:end] + added + lines[end:])


#: Hashes YAML reads as something other than text: all digits (an integer), digits with an
#: 'e' inside (a float in YAML 1.2, as editors read it), '0b' and binary digits (YAML 1.1).
_NOT_TEXT = re.compile(r"[0-9]+(e[0-9]+)?|0b[01]+")


def _scalar(value: str) -> str:
    """``value`` as a YAML scalar that reads back as the same text: quoted only when needed.

    >>> _scalar("3f2a9c0d41b7"), _scalar("000000000000"), _scalar("123e45678901")
    ('3f2a9c0d41b7', '"000000000000"', '"123e45678901"')
    """
    return f'"{value}"' if _NOT_TEXT.fullmatch(value) else value


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


def _write(entry: Entry, text: str) -> None:
    rewrite(entry.path, text, "stamp")


def rewrite(path: Path, text: str, action: str) -> None:
    """Put the new ``text`` (verified by the caller) in the data file ``path``, as its owner would expect.

    - A file without write permission is refused, even for root: someone made it
      read-only (``chmod a-w``) on purpose.
    - Usually the text is written beside the file and renamed over it, so an
      interrupted stamp never leaves half a file; the new file keeps the old one's
      mode (and group, where allowed).
    - A file with other hard links, or owned by another user, or in a folder the user
      may not write, is rewritten in place instead: every link sees the new text and
      the file keeps its owner. The text was verified before (:func:`_verify`) and is
      written in one call from the start; a stamp only lengthens a file or keeps its
      length, so even an interrupted write leaves the old bytes after the new ones,
      never a hole.
    """
    where = display_path(path)
    try:
        info = os.stat(path)
        if not info.st_mode & 0o222 or not os.access(path, os.W_OK):
            raise HouserulesError(
                f"{where}: the file is read-only; make it writable (chmod u+w {where}) "
                f"and {action} again, or leave it as it is"
            )
        data = text.encode("utf-8")
        if info.st_nlink > 1 or info.st_uid != os.geteuid() or not _replace(path, data, info):
            _write_in_place(path, data)
    except OSError as exc:
        raise HouserulesError(f"{where}: cannot write the file: {exc.strerror or exc}") from None


def _replace(path: Path, data: bytes, info: os.stat_result) -> bool:
    """Write ``data`` beside ``path`` and rename it over; False when the folder is not writable."""
    try:
        handle, temp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    except PermissionError:
        return False
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temp, stat.S_IMODE(info.st_mode))  # mkstemp creates 0600
        with contextlib.suppress(OSError):  # only root or a member of the group may set it
            os.chown(temp, -1, info.st_gid)
        os.replace(temp, path)
    except BaseException:
        os.unlink(temp)
        raise
    return True


def _write_in_place(path: Path, data: bytes) -> None:
    with open(path, "r+b") as out:
        out.write(data)
        out.truncate()
        out.flush()
        os.fsync(out.fileno())
