"""Reading a translator's XLIFF 2.0 or PO file: its languages and its units, each ``<ph>`` put back as its reference.

What a unit holds is read as the formats define it, not as our export happened to write it:

- the file's bytes are decoded by the charset it declares (the ``Content-Type`` of the PO header
  entry, the first one, whose msgid is empty; the XML declaration's ``encoding``; UTF-8 when it
  declares none): bytes that are not in that charset are refused with the line, and so are UTF-8
  bytes under a charset that reads any bytes (ISO-8859-1, cp1252): a UTF-8 file mislabelled;
- a line is what the file's own line breaks (LF, CRLF, CR) delimit, never U+2028, U+0085 or a form
  feed inside a text; a PO unit's line is its ``msgstr``'s, as an XLIFF unit's is its ``<target>``'s;
- a target's line breaks are LF: CRLF and lone CR are read as LF (:func:`.l10n.lf_breaks`);
- an XLIFF unit that a CAT tool split into several ``<segment>`` and ``<ignorable>`` elements
  is their texts joined in order (an ``<ignorable>`` without a target stands for itself);
- ``xml:space`` is inherited; ``default`` (what a tool that pretty-prints writes, or leaves)
  folds each run of white space into one space and trims the text's ends, ``preserve`` keeps it;
- a target not yet reviewed (PO ``fuzzy``; XLIFF ``state="initial"``, or our ``needs-review``
  ``subState`` below ``reviewed``) is marked so (:attr:`Imported.unreviewed`);
- the target the unit was exported with, as its digest (:attr:`Imported.exported`): XLIFF's
  Metadata module, PO's ``#. houserules-exported-target:`` comment.
"""

from __future__ import annotations

import codecs
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..data.reading.model import INLINE_REF
from ..data.reading.safefile import file_kind
from ..errors import HouserulesError, display_path
from .l10n import (
    LANGS,
    MDA_CATEGORY,
    MDA_EXPORTED,
    MDA_NS,
    PO_EXPORTED,
    SUBSTATE_REVIEW,
    XLIFF_NS,
    lf_breaks,
    other,
)

if TYPE_CHECKING:
    from lxml.etree import _Element

_X = f"{{{XLIFF_NS}}}"
_MDA = f"{{{MDA_NS}}}"
_XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
_DIGEST = re.compile(r"[0-9a-f]{16}")
PARTIAL_FIX = "translate every segment of the unit, or remove the unit from the file"
#: A line break of the file itself: U+2028, U+0085 or a form feed inside a text is none.
_LINE_BREAK = re.compile(r"\r\n|\r|\n")

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
    #: A problem found while reading it (an inline code that does not resolve), and its fix.
    broken: str = ""
    #: The digest of the target it was exported with (None: the file does not record it).
    exported: str | None = None
    #: Why the target is not reviewed yet ("fuzzy", "state initial"), or "" when it is.
    unreviewed: str = ""
    fix: str = "copy the inline code from the source again"
    #: A PO entry marked obsolete (``#~``): never imported, only named.
    obsolete: bool = False


def language(code: str) -> str:
    """The language of a tag as tools write it: ``zh_Hans``, ``zh-CN`` and ``zh`` are ``zh``.

    >>> language("zh_Hans"), language("en-US"), language("ZH"), language("")
    ('zh', 'en', 'zh', '')
    """
    return re.split(r"[-_@]", code.strip(), maxsplit=1)[0].lower()


def _fail(where: str, problem: str, fix: str) -> HouserulesError:
    return HouserulesError(f"{where}: {problem} — {fix}")


# -- reading -------------------------------------------------------------------------------------------


def _space(element: _Element) -> str:
    """The ``xml:space`` in force at ``element`` (inherited; XLIFF's default is ``default``)."""
    node: _Element | None = element
    while node is not None:
        value = node.get(_XML_SPACE)
        if value in ("preserve", "default"):
            return value
        node = node.getparent()
    return "default"


def _xml_text(element: _Element, data: dict[str, str], where: str) -> tuple[str, str]:
    """The text of a source or target with each ``<ph>`` put back as its reference; and a problem, if any.

    Other inline elements (``<pc>``, ``<mrk>``) give their text; ``<cp hex="…"/>`` its character.
    """
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
        elif tag == f"{_X}cp":
            try:
                parts.append(chr(int(child.get("hex", ""), 16)))
            except (ValueError, OverflowError):
                problem = problem or f'code point <cp hex="{child.get("hex", "")}"> in the {where} is no character'
        elif tag:
            text, inner = _xml_text(child, data, where)
            parts.append(text)
            problem = problem or inner
        parts.append(child.tail or "")
    return "".join(parts), problem


def _folded(text: str) -> str:
    """``xml:space="default"``: each run of XML white space one space.

    >>> _folded("\\n   Going through\\n   the Tower\\n  ")
    ' Going through the Tower '
    """
    return re.sub(r"[ \t\r\n]+", " ", text)


def _unit_texts(unit: _Element, data: dict[str, str], uid: str, name: str) -> tuple[str, str, str, str]:
    """A unit's source and target (its segments and ignorables joined in order), a problem, and why its
    target is not reviewed."""
    parts = [child for child in unit if child.tag in (f"{_X}segment", f"{_X}ignorable")]
    if not parts or any(part.find(f"{_X}source") is None for part in parts):
        raise _fail(f"{name}:{unit.sourceline}", f"unit '{uid}' has no <segment><source>", "export it again")
    sources: list[str] = []
    targets: list[str] = []
    problem = ""
    untranslated = []
    unreviewed = ""
    segments = [part for part in parts if part.tag == f"{_X}segment"]
    for part in parts:
        source_element = part.find(f"{_X}source")
        assert source_element is not None
        target_element = part.find(f"{_X}target")
        source, _ = _xml_text(source_element, data, "source")
        fold = _space(source_element) == "default"
        sources.append(_folded(source) if fold else source)
        if target_element is None:
            if part.tag == f"{_X}segment":
                untranslated.append(segments.index(part) + 1)
            targets.append(sources[-1])  # an ignorable without a target stands for itself
            continue
        target, inner = _xml_text(target_element, data, "target")
        problem = problem or inner
        targets.append(_folded(target) if _space(target_element) == "default" else target)
        if part.tag == f"{_X}segment" and not unreviewed:
            state, sub_state = part.get("state", "initial"), part.get("subState", "")
            if state == "initial":
                unreviewed = "state initial"
            elif sub_state == SUBSTATE_REVIEW and state == "translated":
                unreviewed = f"subState {sub_state}"
    if untranslated and len(untranslated) == len(segments):
        target_text = ""
        unreviewed = ""
    else:
        target_text = _trimmed(targets, parts, "target")
        if untranslated and not problem:
            listed = ", ".join(map(str, untranslated))
            problem = f"segment {listed} of {len(segments)} has no target: the unit is translated only in part"
    return _trimmed(sources, parts, "source"), target_text, problem, unreviewed


def _trimmed(texts: list[str], parts: list[_Element], kind: str) -> str:
    """The parts joined; white space at an end trimmed where that part's ``xml:space`` is ``default``."""
    joined = "".join(texts)

    def folds(part: _Element) -> bool:
        element = part.find(f"{_X}{kind}")
        return element is not None and _space(element) == "default"

    if folds(parts[0]):
        joined = joined.lstrip(" ")
    if folds(parts[-1]):
        joined = joined.rstrip(" ")
    return joined


def _exported_xliff(unit: _Element) -> str | None:
    for group in unit.iterfind(f"{_MDA}metadata/{_MDA}metaGroup"):
        if group.get("category") != MDA_CATEGORY:
            continue
        for meta in group.iterfind(f"{_MDA}meta"):
            text = (meta.text or "").strip()
            if meta.get("type") == MDA_EXPORTED and _DIGEST.fullmatch(text):
                return text
    return None


def read_xliff(raw: bytes, name: str) -> tuple[str, str, list[Imported]]:
    from lxml import etree

    raw = _xml_utf8(raw, name)
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
        source_text, target_text, problem, unreviewed = _unit_texts(unit, data, uid, name)
        # lxml knows the line of every parsed element (None is only for elements built in memory).
        target = unit.find(f"{_X}segment/{_X}target")
        line = (target if target is not None else unit).sourceline or 1
        fix = PARTIAL_FIX if problem.startswith("segment ") else Imported.fix
        exported = _exported_xliff(unit)
        target_text = lf_breaks(target_text)
        result.append(
            Imported(uid, source_text, target_text, line, problem, exported, unreviewed if target_text else "", fix)
        )
    return src, tgt, result


def read_po(raw: bytes, name: str) -> tuple[str, str, list[Imported]]:
    from translate.storage import pypo
    from translate.storage.poparser import PoParseError

    raw = _po_utf8(raw, name)
    decoded = raw.decode("utf-8")
    _po_escapes(decoded, name)
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
    lines = _msgstr_lines(decoded)
    result = []
    for unit in store.units:
        if unit.isheader():
            continue
        uid = unit.getcontext()
        if unit.isobsolete():
            if str(unit.target or "").strip():
                result.append(Imported(uid, str(unit.source), str(unit.target), 1, obsolete=True))
            continue
        if unit.hasplural():  # the first form alone would be written, the others lost
            problem = "the unit has plural forms (msgid_plural, msgstr[n]), which no text of the data has"
            fix = "write the translation as one msgstr, without msgid_plural"
            result.append(Imported(uid, str(unit.source), "", _next_line(lines, uid), problem, None, "", fix))
            continue
        target = lf_breaks(str(unit.target or ""))
        found = re.search(rf"^{re.escape(PO_EXPORTED)} ([0-9a-f]{{16}})$", unit.getnotes("developer"), re.M)
        exported = found.group(1) if found else None
        unreviewed = "fuzzy" if unit.isfuzzy() and target else ""
        result.append(Imported(uid, str(unit.source), target, _next_line(lines, uid), "", exported, unreviewed))
    return src, tgt, result


def _msgstr_lines(text: str) -> dict[str, list[int]]:
    """Per ``msgctxt``, the lines of the ``msgstr`` of its entries in the file's order (a unit may be in the file
    twice): where the translator's text starts, as an XLIFF unit's line is its ``<target>``'s."""
    found: dict[str, list[int]] = {}
    context: list[str] | None = None
    collecting = False
    for number, line in enumerate(_LINE_BREAK.split(text), 1):
        stripped = line.strip()
        if stripped.startswith("msgctxt"):
            context, collecting = [stripped[7:].strip()], True
        elif collecting and stripped.startswith('"'):
            assert context is not None
            context.append(stripped)
        else:
            collecting = False
            if stripped.startswith("msgstr") and context is not None:
                uid = re.sub(r"\\(.)", r"\1", "".join(part[1:-1] for part in context))
                found.setdefault(uid, []).append(number)
                context = None
    return found


def _next_line(lines: dict[str, list[int]], uid: str) -> int:
    """The line of the next entry of ``uid`` (1 if the file has none: a unit without ``msgctxt``)."""
    queue = lines.get(uid)
    return queue.pop(0) if queue else 1


#: A string line of a PO file (``msgctxt``, ``msgid``, ``msgid_plural``, ``msgstr``, ``msgstr[n]`` or a
#: continuation): its quoted part.
_PO_STRING = re.compile(r'^\s*(?:msg(?:ctxt|id|id_plural|str(?:\[\d+\])?)\s*)?(".*)$')


def _po_escapes(text: str, name: str) -> None:
    """Refuse an escape translate-toolkit would misread: it reads ``\\n``, ``\\t``, ``\\r``, ``\\"`` and
    ``\\\\`` and drops the backslash of any other, where GNU gettext reads ``\\0``, ``\\a`` or ``\\x1b`` as a
    character (and refuses the rest): ``Lib\\0rary`` would be written ``Lib0rary``."""
    for number, line in enumerate(_LINE_BREAK.split(text), 1):
        found = _PO_STRING.match(line)
        if found is None:
            continue
        for escape in re.finditer(r"\\(.?)", found.group(1)):
            if escape.group(1) not in ("n", "t", "r", '"', "\\"):
                raise _fail(
                    f"{name}:{number}",
                    f"the escape {escape.group(0)} is not one a PO text may hold "
                    '(only \\n, \\t, \\r, \\" and \\\\ are)',
                    "write the character itself, or \\\\ for a backslash",
                )


# -- charsets --------------------------------------------------------------------------------------

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
    (codecs.BOM_UTF8, "utf-8-sig"),
)


def _line_at(raw: bytes, offset: int) -> int:
    """The line of the byte at ``offset``, counted by the file's line breaks (LF, CRLF, CR)."""
    return len(re.findall(rb"\r\n|\r|\n", raw[:offset])) + 1


def _any_bytes(codec: str) -> bool:
    """Whether ``codec`` reads each byte as a character of its own (ISO-8859-1, cp1252, KOI8-R…): any bytes are
    text in it, UTF-8 bytes included.

    >>> _any_bytes("iso8859-1"), _any_bytes("cp1252"), _any_bytes("utf-8"), _any_bytes("gb18030")
    (True, True, False, False)
    """
    return len(b"\xc3\xa9\xe5\xa1\x94".decode(codec, "replace")) == 5


def _decoded(raw: bytes, charset: str, name: str, what: str, fix: str, line: int = 1, relabel: str = "") -> str:
    """``raw`` decoded strictly as ``charset``; refused with the line of the first byte that is not, and (when
    ``relabel`` says how to declare UTF-8) as UTF-8 mislabelled when ``charset`` reads any bytes and ``raw`` is
    UTF-8 holding non-ASCII characters. ``line``: where ``charset`` is declared."""
    try:
        codec = codecs.lookup(charset).name
    except LookupError:
        raise _fail(f"{name}:{line}", f"{what} declares the charset '{charset}', which is not known", fix) from None
    if relabel and _any_bytes(codec) and not raw.isascii():
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            pass
        else:
            first = next(at for at, byte in enumerate(raw) if byte > 0x7F)
            raise _fail(
                f"{name}:{_line_at(raw, first)}",
                f"the file is UTF-8 (the bytes of its non-ASCII characters from this line on), not {charset}, the "
                f"charset {what} declares: read as {charset}, each would be imported as other characters",
                f"declare {relabel} (the file is saved as UTF-8), or save the file as {charset}",
            )
    try:
        return raw.decode(codec)
    except UnicodeDecodeError as exc:
        line = _line_at(raw, exc.start)
        raise _fail(
            f"{name}:{line}",
            f"bytes on this line are not {charset}, the charset {what} declares",
            fix,
        ) from None


def _bom(raw: bytes) -> str | None:
    return next((codec for bom, codec in _BOMS if raw.startswith(bom)), None)


#: The charset in a string of the header entry's msgstr (its fields are separated by ``\n`` escapes).
_PO_CHARSET = re.compile(r'(?:"|\\n)Content-Type:[^"\\]*?charset=([^"\s;\\]+)')


def _po_header_charset(text: str) -> tuple[str, int, tuple[int, int]]:
    """The charset the header entry declares (the first entry, if its msgid is empty), its line and its place
    on the line; ``("", 1, (0, 0))`` when it declares none. A text of another entry holding a line like the
    header's is text, never read as the header."""
    msgid = msgstr = False
    for number, line in enumerate(_LINE_BREAK.split(text), 1):
        stripped = line.lstrip("\ufeff\xef\xbb\xbf" if number == 1 else "").strip()
        if not msgid:
            if not stripped or stripped.startswith("#"):
                continue
            if not re.fullmatch(r'msgid\s*""', stripped):
                break  # the first entry is no header (a msgctxt, a msgid with text): no charset declared
            msgid = True
            continue
        if stripped.startswith("msgstr") and not msgstr:
            msgstr = True
        elif not stripped.startswith('"') or (not msgstr and stripped != '""'):
            break  # the header ended (or its msgid is not empty: it is no header)
        found = _PO_CHARSET.search(line) if msgstr else None
        if found:
            return found.group(1), number, found.span(1)
    return "", 1, (0, 0)


def _po_utf8(raw: bytes, name: str) -> bytes:
    """The PO file as UTF-8, decoded by the charset its header entry declares (UTF-8 if none)."""
    bom = _bom(raw)
    if bom is not None and bom != "utf-8-sig":
        text = _decoded(raw, bom, name, "its byte-order mark", "save the file as UTF-8")
        declared = _po_header_charset(text)[0]
    else:
        # Read as Latin-1 to find the header: each byte one character, the line breaks where they are.
        declared, line, _ = _po_header_charset(raw.decode("latin-1"))
        charset = "utf-8-sig" if not declared or declared.upper() == "CHARSET" else declared
        fix = (
            f"save the file as {declared}, or as UTF-8 with 'charset=UTF-8' in its header"
            if declared and declared.upper() not in ("UTF-8", "UTF8", "CHARSET")
            else "save the file as UTF-8, or declare its charset in the header's Content-Type"
        )
        what = "the header" if declared else "the file (no charset declared: UTF-8)"
        relabel = "'charset=UTF-8' in the header's Content-Type" if declared else ""
        text = _decoded(raw, charset, name, what, fix, line, relabel)
    if declared:  # translate-toolkit reads the bytes by it: they are UTF-8 now
        _, line, (start, end) = _po_header_charset(text)
        parts = re.split(r"(\r\n|\r|\n)", text)
        parts[2 * line - 2] = parts[2 * line - 2][:start] + "UTF-8" + parts[2 * line - 2][end:]
        text = "".join(parts)
    return text.encode("utf-8")


_XML_DECLARATION = re.compile(rb"""<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._:-]+)["']""")


def _xml_utf8(raw: bytes, name: str) -> bytes:
    """The XML file as UTF-8, decoded by the encoding its declaration (or byte-order mark) says."""
    bom = _bom(raw)
    if bom is not None and bom != "utf-8-sig":
        text = _decoded(raw, bom, name, "its byte-order mark", "save the file as UTF-8")
    else:
        head = raw[3:] if raw.startswith(codecs.BOM_UTF8) else raw
        found = _XML_DECLARATION.match(head.lstrip(b" \t\r\n")) if head.lstrip().startswith(b"<?xml") else None
        declared = found.group(1).decode("ascii") if found else ""
        fix = (
            f'save the file as {declared}, or as UTF-8 with encoding="UTF-8" in its XML declaration'
            if declared and declared.upper() not in ("UTF-8", "UTF8")
            else "save the file as UTF-8, or declare its encoding in the XML declaration"
        )
        text = _decoded(
            raw,
            declared or "utf-8-sig",
            name,
            "the XML declaration" if declared else "the file (no encoding declared: UTF-8)",
            fix,
            relabel='encoding="UTF-8" in the XML declaration' if declared else "",
        )
    text = text.lstrip("\ufeff")
    text = re.sub(
        r"""^(\s*<\?xml[^>]*?encoding\s*=\s*)(["'])[A-Za-z0-9._:-]+\2""", r"\g<1>\g<2>UTF-8\g<2>", text, count=1
    )
    return text.encode("utf-8")


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
            f"translator's file — {fix}, or export one game at a time ('houserules l10n export --game G') and "
            "import each file"
        )
    return raw


def read(path: Path) -> tuple[str, str, list[Imported]]:
    """The languages and units of a translator's file, XLIFF or PO (told apart by their first character)."""
    name = display_path(path)
    raw = _read_bounded(path, name)
    bom = _bom(raw)
    head = raw.lstrip(b"\xef\xbb\xbf \t\r\n")
    if bom in ("utf-16", "utf-32"):
        head = raw.decode(bom, "replace").lstrip("\ufeff \t\r\n").encode("utf-8")
    if head.startswith(b"<"):
        return read_xliff(raw, name)
    if not head:
        raise _fail(f"{name}:1", "the file is empty", "import the XLIFF or PO file that 'houserules l10n export' wrote")
    return read_po(raw, name)
