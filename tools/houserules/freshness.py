"""Translation freshness: which version of the source text a translation was made from.

An entry that carries a translation records it as::

    translations:
      en: {from: zh, source_hash: 3f2a9c0d41b7}

``source_hash`` is :func:`source_hash` of the ``from`` language text when the
translation was last brought up to date. When the source text changes, the
hash no longer matches: ``houserules check`` warns, the entry page says the
translation may be out of date, and ``houserules stamp game:id`` records the
new hash once the translation has been updated.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
import unicodedata
from typing import Any, Iterator

from .errors import HouserulesError, Problem, display_path
from .model import Entry, KnowledgeBase
from .yamlload import YamlError, parse

#: The fields a translation is made from, in hashing order.
HASHED_FIELDS = ("title", "summary", "body")
HASH_LENGTH = 12


#: A space next to a Chinese character or full-width punctuation: layout, not meaning.
_CJK_SPACE = re.compile(r"(?<=[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]) | (?=[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef])")


def _normalise(text: str) -> str:
    # Reflowing lines, re-indenting a block or spacing around Chinese does not change what needs translating.
    return _CJK_SPACE.sub("", " ".join(unicodedata.normalize("NFC", text).split()))


def source_hash(data: dict[str, Any], lang: str) -> str:
    """The hash of an entry's ``lang`` text: sha256 of its normalised title, summary and body, 12 hex digits.

    >>> source_hash({"title": {"zh": "塔楼"}, "summary": {"zh": "一句话。"}}, "zh")
    'a95ec79778c7'
    >>> source_hash({"title": {"zh": "塔楼 "}, "summary": {"zh": "一句话。\\n"}}, "zh")
    'a95ec79778c7'
    """
    parts = [f"{name}\x1f{_normalise((data.get(name) or {}).get(lang, ''))}" for name in HASHED_FIELDS]
    return hashlib.sha256("\x1e".join(parts).encode("utf-8")).hexdigest()[:HASH_LENGTH]


def stale_translations(entry: Entry) -> list[str]:
    """The languages of an entry whose translation was made from an older source text."""
    return [lang for lang, record in entry.data.get("translations", {}).items()
            if record["source_hash"] != source_hash(entry.data, record["from"])]


def check_freshness(kb: KnowledgeBase) -> Iterator[Problem]:
    """A warning for each translation whose source text changed since it was stamped."""
    for entry in kb.entries.values():
        for lang in stale_translations(entry):
            source = entry.data["translations"][lang]["from"]
            yield Problem(display_path(entry.path), entry.line("translations", lang, "source_hash"), entry.ref,
                          f"the {lang} translation may be out of date: the {source} text changed since it was stamped",
                          f"update the {lang} title, summary and body, then run 'houserules stamp {entry.ref}'",
                          severity="warning")


# -- houserules stamp ------------------------------------------------------------------------------


def stamp(entry: Entry, langs: list[str] | None = None, source: str = "zh") -> dict[str, str]:
    """Record the current source hash of an entry's translations in its file; returns ``{lang: hash}``.

    Only the ``source_hash`` value of each stamped language changes; every other
    byte of the file stays as written. An entry without a ``translations`` field
    gets one, appended at the end of the file, for every language other than
    ``source`` (or for ``langs``).
    """
    records = entry.data.get("translations", {})
    if records:
        wanted = langs or list(records)
        missing = [lang for lang in wanted if lang not in records]
        if missing:
            raise HouserulesError(f"{display_path(entry.path)}: {entry.ref} has no translation record for "
                                  f"{', '.join(missing)}; add '{missing[0]}: {{from: {source}, source_hash: "
                                  f"000000000000}}' under 'translations:' and stamp again")
    else:
        wanted = langs or [lang for lang in ("zh", "en") if lang != source]
    text = entry.path.read_bytes().decode("utf-8")
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
                raise HouserulesError(f"{display_path(entry.path)}:{index + 1}: cannot find the hash "
                                      f"{records[lang]['source_hash']} on this line; "
                                      "write 'source_hash:' on the same line as its value")
            new_text = f"{old.group(1)}{new_hash}{old.group(1)}" if old.group(1) else _scalar(new_hash)
            lines[index] = lines[index][:old.start()] + new_text + lines[index][old.end():]
    added = [lang for lang in wanted if lang not in records]
    if added:
        newline = "\r\n" if text.endswith("\r\n") else "\n"
        if lines and not lines[-1].endswith("\n"):
            lines[-1] += newline
        lines.append(f"translations:{newline}")
        lines += [f"  {lang}: {{from: {source}, source_hash: {_scalar(stamped[lang])}}}{newline}" for lang in added]
    new_text = "".join(lines)
    _verify(entry, new_text, new_data)
    _write(entry, new_text)
    return stamped


def _scalar(value: str) -> str:
    # An all-digit hash would read back as a number.
    return f'"{value}"' if value.isdigit() else value


def _verify(entry: Entry, new_text: str, expected: dict[str, Any]) -> None:
    # The rewrite is textual: make sure it changed exactly the intended values and nothing else.
    try:
        reread = parse(new_text.lstrip("\ufeff").replace("\r\n", "\n")).data
    except YamlError as exc:
        raise HouserulesError(f"{display_path(entry.path)}:{exc.line}: stamping would break the file "
                              f"({exc.problem}); stamp it by hand") from None
    if reread != expected:
        raise HouserulesError(f"{display_path(entry.path)}: cannot stamp this file's layout safely; "
                              "set 'source_hash' by hand (see 'houserules check')")


def _write(entry: Entry, text: str) -> None:
    # Write beside the file and rename, so an interrupted stamp never leaves half a file.
    handle, temp = tempfile.mkstemp(prefix=f".{entry.path.name}.", dir=entry.path.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(text.encode("utf-8"))
        os.chmod(temp, entry.path.stat().st_mode & 0o7777)  # mkstemp creates 0600
        os.replace(temp, entry.path)
    except BaseException:
        os.unlink(temp)
        raise
