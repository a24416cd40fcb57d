"""Reading a translator's XLIFF 2.0 or PO file: its languages and its units, each ``<ph>`` put back as its reference."""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..data.reading.model import INLINE_REF
from ..data.reading.safefile import file_kind
from ..errors import HouserulesError, display_path
from .l10n import LANGS, XLIFF_NS, other

if TYPE_CHECKING:
    from lxml.etree import _Element

_X = f"{{{XLIFF_NS}}}"

#: The largest translator's file read: the export of every game is under 2 MB, so a file many
#: times that size is no export, and reading it whole would only fill the memory.
MAX_IMPORT_BYTES = 32 * 1024 * 1024


@dataclass
class Imported:
    """One unit as read from the translator's file."""

    id: str
    source: str
    target: str
    line: int
    #: A problem found while reading it (an inline code that does not resolve).
    broken: str = ""


def language(code: str) -> str:
    """The language of a tag as tools write it: ``zh_Hans``, ``zh-CN`` and ``zh`` are ``zh``.

    >>> language("zh_Hans"), language("en-US"), language("ZH"), language("")
    ('zh', 'en', 'zh', '')
    """
    return re.split(r"[-_@]", code.strip(), maxsplit=1)[0].lower()


def _fail(where: str, problem: str, fix: str) -> HouserulesError:
    return HouserulesError(f"{where}: {problem} — {fix}")


# -- reading -------------------------------------------------------------------------------------------


def _xml_text(element: _Element, data: dict[str, str], where: str) -> tuple[str, str]:
    """The text of a source or target with each ``<ph>`` put back as its reference; and a problem, if any."""
    parts = [element.text or ""]
    problem = ""
    for child in element:
        tag = child.tag if isinstance(child.tag, str) else ""
        if tag == f"{_X}ph":
            ref = data.get(child.get("dataRef", ""), "")
            if not ref:
                equiv = child.get("equiv", "")
                ref = equiv if INLINE_REF.fullmatch(equiv) else ""
            if not ref:
                problem = f'inline code <ph id="{child.get("id", "")}"> in the {where} stands for no reference'
            parts.append(ref)
        elif tag:
            text, inner = _xml_text(child, data, where)
            parts.append(text)
            problem = problem or inner
        parts.append(child.tail or "")
    return "".join(parts), problem


def read_xliff(raw: bytes, name: str) -> tuple[str, str, list[Imported]]:
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
    try:
        root = etree.fromstring(raw, parser)
    except etree.XMLSyntaxError as exc:
        line = exc.lineno or 1
        raise _fail(
            f"{name}:{line}", f"not a valid XLIFF file: {exc.msg}", "export it again or repair the XML"
        ) from None
    docinfo = root.getroottree().docinfo
    if docinfo.internalDTD is not None or docinfo.system_url or docinfo.public_id:
        # XLIFF has no DTD: an entity declared in one is never expanded here (no file, no network
        # is read), so a target using it would be imported without its text.
        at = raw.find(b"<!DOCTYPE")
        line = raw[:at].count(b"\n") + 1 if at >= 0 else 1
        raise _fail(
            f"{name}:{line}",
            "the file has a <!DOCTYPE> (entity declarations), which XLIFF files do not have",
            "remove the <!DOCTYPE …> and write each entity's text itself, or export the file again",
        )
    if root.tag != f"{_X}xliff" or not str(root.get("version", "")).startswith("2."):
        found = etree.QName(root).localname + (f" version {root.get('version')}" if root.get("version") else "")
        raise _fail(
            f"{name}:{root.sourceline}",
            f"not an XLIFF 2 file (found <{found}>)",
            "import the XLIFF 2.0 or PO file that 'houserules l10n export' wrote",
        )
    src, tgt = language(root.get("srcLang", "")), language(root.get("trgLang", ""))
    if src not in LANGS or tgt != other(src):
        raise _fail(
            f"{name}:{root.sourceline}",
            f"languages srcLang='{src}' trgLang='{tgt}' are not zh → en or en → zh",
            "import a file exported by 'houserules l10n export'",
        )
    result = []
    for unit in root.iter(f"{_X}unit"):
        uid = unit.get("name") or unit.get("id") or ""
        data = {d.get("id", ""): "".join(d.itertext()) for d in unit.iter(f"{_X}data")}
        segment = unit.find(f"{_X}segment")
        source = segment.find(f"{_X}source") if segment is not None else None
        if segment is None or source is None:
            raise _fail(f"{name}:{unit.sourceline}", f"unit '{uid}' has no <segment><source>", "export it again")
        target = segment.find(f"{_X}target")
        source_text, _ = _xml_text(source, data, "source")
        target_text, problem = _xml_text(target, data, "target") if target is not None else ("", "")
        # lxml knows the line of every parsed element (None is only for elements built in memory).
        line = (target if target is not None else unit).sourceline or 1
        result.append(Imported(uid, source_text, target_text, line, problem))
    return src, tgt, result


def read_po(raw: bytes, name: str) -> tuple[str, str, list[Imported]]:
    from translate.storage import pypo
    from translate.storage.poparser import PoParseError

    try:
        store = pypo.pofile.parsestring(raw)
    except PoParseError as exc:
        raise _fail(
            f"{name}:{getattr(exc, 'lineno', 1) or 1}", f"not a valid PO file: {exc}", "repair it or export it again"
        ) from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise _fail(f"{name}:1", f"not a valid PO file: {exc}", "repair it or export it again") from None
    header = store.parseheader()
    tgt = language(header.get("Language", ""))
    # Weblate writes its own language codes (zh_Hans) and may leave out headers it does not know.
    src = language(header.get("X-Source-Language", "")) or (other(tgt) if tgt in LANGS else "")
    if src not in LANGS or tgt != other(src):
        raise _fail(
            f"{name}:1",
            f"the header says Language '{tgt}', X-Source-Language '{src}', not zh → en or en → zh",
            "import a file exported by 'houserules l10n export'",
        )
    text = raw.decode("utf-8", "replace").splitlines()
    lines: dict[str, int] = {}
    for number, line in enumerate(text, 1):
        if line.startswith("msgctxt "):
            lines.setdefault(line[8:].strip().strip('"'), number)
    result = []
    for unit in store.units:
        if unit.isheader() or unit.isobsolete():
            continue
        uid = unit.getcontext()
        result.append(Imported(uid, str(unit.source), str(unit.target or ""), lines.get(uid, 1)))
    return src, tgt, result


def _read_bounded(path: Path, name: str) -> bytes:
    """The bytes of a regular file of at most :data:`MAX_IMPORT_BYTES`, checked before reading: a
    named pipe would block for ever and a device (``/dev/zero``) or a huge file fill the memory."""
    fix = "give the path of the translated XLIFF or PO file"
    try:
        # Non-blocking: a named pipe nobody writes must not block the open.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise HouserulesError(f"cannot read {name}: {exc.strerror or exc} — {fix}") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise HouserulesError(f"cannot read {name}: it is {file_kind(info.st_mode)}, not a regular file — {fix}")
    with os.fdopen(fd, "rb") as handle:
        try:
            raw = handle.read(MAX_IMPORT_BYTES + 1)
        except OSError as exc:
            raise HouserulesError(f"cannot read {name}: {exc.strerror or exc} — {fix}") from None
    if len(raw) > MAX_IMPORT_BYTES:
        size = max(info.st_size, len(raw))
        raise HouserulesError(
            f"cannot read {name}: the file is {size} bytes, over the {MAX_IMPORT_BYTES}-byte limit of a "
            f"translator's file — {fix}, or export and import one game at a time (--game)"
        )
    return raw


def read(path: Path) -> tuple[str, str, list[Imported]]:
    """The languages and units of a translator's file, XLIFF or PO (told apart by their first character)."""
    name = display_path(path)
    raw = _read_bounded(path, name)
    head = raw.lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"<"):
        return read_xliff(raw, name)
    if not head:
        raise _fail(f"{name}:1", "the file is empty", "import the XLIFF or PO file that 'houserules l10n export' wrote")
    return read_po(raw, name)
