"""``houserules l10n import``: translated targets from an XLIFF or PO file back into the YAML files.

Every unit of the file is checked before anything is written: its id must name a text of
the data, its source must be the text the data holds now (else it is a conflict: the
source changed since the export; ``--force`` writes it anyway), every ``[[ref]]`` of the
source must be in the target, once each, and a target may not be emptied. Then each
changed text is written into its file in place (:mod:`houserules.data.yamledit`), each
entry whose texts changed is stamped (:mod:`houserules.data.stamp`), every file is read
back, and all files are written or none. The data is checked after the write; when the
check fails, every file is put back as it was.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..check import run as run_check
from ..data.model import INLINE_REF, Entry, KnowledgeBase
from ..data.stamp import stamp_text
from ..data.yamledit import EditError, edit_values
from ..data.yamlload import parse
from ..errors import HouserulesError, Problem, display_path
from .l10n import LANGS, XLIFF_NS, Unit, other, units
from .tbx import language_of

_X = f"{{{XLIFF_NS}}}"
#: ``[[`` or ``]]`` that is not part of a whole reference: a code a tool or a translator broke.
_BROKEN_REF = re.compile(r"\[\[|\]\]")


@dataclass
class Imported:
    """One unit as read from the translator's file."""

    id: str
    source: str
    target: str
    line: int
    #: A problem found while reading it (an inline code that does not resolve).
    broken: str = ""


@dataclass
class Change:
    unit: Unit
    target: str | list[str]


@dataclass
class Plan:
    """What an import writes: per file, the new text; per entry, what changed."""

    src: str
    tgt: str
    files: dict[Path, tuple[str, str]] = field(default_factory=dict)  # path -> (old text, new text)
    changed: dict[str, list[str]] = field(default_factory=dict)  # entry or glossary -> unit paths
    stamped: dict[str, str] = field(default_factory=dict)  # entry ref -> new hash
    skipped: int = 0


def _fail(where: str, problem: str, fix: str) -> HouserulesError:
    return HouserulesError(f"{where}: {problem} — {fix}")


# -- reading -------------------------------------------------------------------------------------------


def _xml_text(element, data: dict[str, str], where: str) -> tuple[str, str]:
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
    if root.tag != f"{_X}xliff" or not str(root.get("version", "")).startswith("2."):
        found = root.tag.split("}")[-1] + (f" version {root.get('version')}" if root.get("version") else "")
        raise _fail(
            f"{name}:{root.sourceline}",
            f"not an XLIFF 2 file (found <{found}>)",
            "import the XLIFF 2.0 or PO file that 'houserules l10n export' wrote",
        )
    src, tgt = root.get("srcLang", ""), root.get("trgLang", "")
    if src not in LANGS or tgt != other(src):
        raise _fail(
            f"{name}:{root.sourceline}",
            f"languages srcLang='{src}' trgLang='{tgt}' are not zh → en or en → zh",
            "import a file exported by 'houserules l10n export'",
        )
    result = []
    for unit in root.iter(f"{_X}unit"):
        uid = unit.get("name") or unit.get("id", "")
        data = {d.get("id", ""): "".join(d.itertext()) for d in unit.iter(f"{_X}data")}
        segment = unit.find(f"{_X}segment")
        source = segment.find(f"{_X}source") if segment is not None else None
        if source is None:
            raise _fail(f"{name}:{unit.sourceline}", f"unit '{uid}' has no <segment><source>", "export it again")
        target = segment.find(f"{_X}target")
        source_text, _ = _xml_text(source, data, "source")
        target_text, problem = _xml_text(target, data, "target") if target is not None else ("", "")
        line = target.sourceline if target is not None else unit.sourceline
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
    tgt, src = header.get("Language", ""), header.get("X-Source-Language", "")
    if src not in LANGS or tgt != other(src):
        raise _fail(
            f"{name}:1",
            f"the header says Language '{tgt}', X-Source-Language '{src}', not zh → en or en → zh",
            "import a file exported by 'houserules l10n export'",
        )
    text = raw.decode("utf-8", "replace").splitlines()
    lines = {}
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


def read(path: Path) -> tuple[str, str, list[Imported]]:
    """The languages and units of a translator's file, XLIFF or PO (told apart by their first character)."""
    name = display_path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise HouserulesError(f"cannot read {name}: {exc.strerror or exc}") from None
    head = raw.lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"<"):
        return read_xliff(raw, name)
    if not head:
        raise _fail(f"{name}:1", "the file is empty", "import the XLIFF or PO file that 'houserules l10n export' wrote")
    return read_po(raw, name)


# -- planning ------------------------------------------------------------------------------------------


def _names(text: str) -> list[str]:
    return list(dict.fromkeys(line.strip() for line in text.split("\n") if line.strip()))


def _merged(current: list[str], names: list[str], tgt: str) -> list[str]:
    """``current`` with its names in ``tgt`` replaced by ``names``, where the first of them stood."""
    kept = [item for item in current if language_of(item) != tgt]
    at = next((i for i, item in enumerate(current) if language_of(item) == tgt), len(current))
    before = sum(1 for item in current[:at] if language_of(item) != tgt)
    return kept[:before] + [n for n in names if n not in kept] + kept[before:]


def _ref_problem(source: str, target: str, current: str) -> str:
    """What is wrong with the references of a new ``target``: one of the source's is missing (that the
    ``current`` target had), or is there twice, or one the source does not have, or a broken ``[[``."""
    wanted, found = Counter(INLINE_REF.findall(source)), Counter(INLINE_REF.findall(target))
    missing = sorted(((wanted - found) - (wanted - Counter(INLINE_REF.findall(current)))).elements())
    extra = sorted((found - wanted).elements())
    if missing or extra:
        parts = ([f"lacks {', '.join(f'[[{m}]]' for m in missing)}"] if missing else []) + (
            [f"has {', '.join(f'[[{m}]]' for m in extra)}, which the source does not"] if extra else []
        )
        return "the target " + " and ".join(parts)
    if _BROKEN_REF.search(INLINE_REF.sub("", target)):
        return "the target has a broken [[reference]]"
    return ""


def plan(kb: KnowledgeBase, path: Path, force: bool = False) -> Plan:
    """Read ``path`` and work out every file's new text; raises with every problem found, nothing written."""
    name = display_path(path)
    src, tgt, imported = read(path)
    current = {unit.id: unit for unit in units(kb, src)}
    problems: list[Problem] = []
    conflicts: list[Problem] = []
    changes: list[Change] = []
    skipped = 0
    seen: set[str] = set()
    for item in imported:
        unit = current.get(item.id)
        if unit is None:
            problems.append(
                Problem(
                    name,
                    item.line,
                    item.id,
                    "unknown unit id: no such text in the data",
                    "export again and translate in the new file",
                )
            )
            continue
        if item.id in seen:
            problems.append(Problem(name, item.line, item.id, "the unit is in the file twice", "keep one of them"))
            continue
        seen.add(item.id)
        if item.broken:
            problems.append(
                Problem(name, item.line, item.id, item.broken, "copy the inline code from the source again")
            )
            continue
        target = item.target
        if not target.strip():
            if unit.target.strip():
                problems.append(
                    Problem(
                        name,
                        item.line,
                        item.id,
                        "empty target: importing it would delete the text",
                        "translate it, or remove the unit from the file",
                    )
                )
            else:
                skipped += 1
            continue
        if target == unit.target:
            continue
        if item.source != unit.source and not force:
            conflicts.append(
                Problem(
                    name,
                    item.line,
                    item.id,
                    "conflict: the source text changed since the export",
                    "export again and translate the new source, or import with --force to write this target anyway",
                )
            )
            continue
        if not unit.is_list:
            problem = _ref_problem(unit.source, target, unit.target)
            if problem:
                problems.append(
                    Problem(name, item.line, item.id, problem, "keep every [[…]] inline code of the source, once each")
                )
                continue
        if unit.is_list:
            data = kb_value(kb, unit)
            new_list = _merged(data, _names(target), tgt)
            if new_list != data:
                changes.append(Change(unit, new_list))
        elif target != unit.target:
            changes.append(Change(unit, target))
    if problems or conflicts:
        every = sorted(problems + conflicts)
        message = f"nothing imported: {len(every)} problem{'s' if len(every) != 1 else ''} in {name}"
        raise HouserulesError(message, every)
    result = Plan(src, tgt, skipped=skipped)
    by_file: dict[Path, list[Change]] = {}
    for change in changes:
        by_file.setdefault(change.unit.path, []).append(change)
    for file, file_changes in by_file.items():
        where = display_path(file)
        try:
            old = file.read_bytes().decode("utf-8")
        except OSError as exc:
            raise HouserulesError(f"cannot read {where}: {exc.strerror or exc}") from None
        try:
            new, _ = edit_values(old, {c.unit.target_path: c.target for c in file_changes})
        except EditError as exc:
            raise HouserulesError(f"{where}: cannot write the imported text safely ({exc}); nothing imported") from None
        entry = file_changes[0].unit.entry
        if entry is not None:
            reread = Entry(file, parse(new.lstrip("\ufeff").replace("\r\n", "\n")), entry.game)
            new, stamped = stamp_text(reread, new, [tgt], src, add=True)
            result.stamped[entry.ref] = stamped[tgt]
        result.files[file] = (old, new)
        for change in file_changes:
            owner, _, rest = change.unit.id.partition("/")
            result.changed.setdefault(owner, []).append(rest)
    return result


def kb_value(kb: KnowledgeBase, unit: Unit) -> list[str]:
    data = unit.entry.data if unit.entry is not None else _glossary_data(kb, unit.path)
    for key in unit.target_path:
        data = data[key]
    return list(data)


def _glossary_data(kb: KnowledgeBase, path: Path):
    for game in kb.games.values():
        if game.glossary is not None and game.glossary.path == path:
            return game.glossary.data
    raise HouserulesError(f"{display_path(path)}: not a loaded glossary")


# -- writing -------------------------------------------------------------------------------------------


def write_all(files: dict[Path, str]) -> None:
    """Write every file or none: each read-only file is refused first; each file is written beside
    itself and renamed over; if one fails, the ones already replaced are put back."""
    read_only = [p for p in files if not os.access(p, os.W_OK) or not os.stat(p).st_mode & 0o222]
    if read_only:
        names = ", ".join(display_path(p) for p in read_only)
        raise HouserulesError(
            f"{names}: the file is read-only; make it writable (chmod u+w {display_path(read_only[0])}) "
            "and import again; nothing imported"
        )
    from .files import write_output

    old = {path: path.read_bytes() for path in files}
    done: list[Path] = []
    try:
        for path, text in files.items():
            mode = os.stat(path).st_mode
            write_output(path, text.encode("utf-8"))
            with contextlib.suppress(OSError):
                os.chmod(path, mode & 0o7777)
            done.append(path)
    except BaseException:
        for path in done:
            with contextlib.suppress(HouserulesError, OSError):
                write_output(path, old[path])
        raise


def import_file(kb: KnowledgeBase, data_dir: Path, path: Path, dry_run: bool = False, force: bool = False) -> Plan:
    """Plan, then (unless ``dry_run``) write and check; the data is put back if the check fails."""
    result = plan(kb, path, force)
    if dry_run or not result.files:
        return result
    write_all({file: new for file, (_, new) in result.files.items()})
    report = run_check(data_dir)
    if report.errors:
        write_all({file: old for file, (old, _) in result.files.items()})
        raise HouserulesError(
            f"nothing imported: the imported texts would break {len(report.errors)} check"
            f"{'s' if len(report.errors) != 1 else ''} (the files are as they were)",
            report.errors,
        )
    return result
