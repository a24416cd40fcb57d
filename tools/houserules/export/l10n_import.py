"""``houserules l10n import``: translated targets from an XLIFF or PO file back into the YAML files.

Every unit of the file is checked before anything is written: its id must name a text of
the data, its source must be the text the data holds now (else it is a conflict: the
source changed since the export; ``--force`` writes it anyway), every ``[[ref]]`` of the
source must be in the target, once each, and a target may not be emptied. Then each
changed text is written into its file in place (:mod:`houserules.data.authoring.yamledit`), each
entry whose texts changed is stamped (:mod:`houserules.data.authoring.stamp`), every file is read
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
from typing import Any

from ..check import run as run_check
from ..data.authoring.stamp import stamp_text
from ..data.authoring.yamledit import EditError, edit_values
from ..data.reading.model import INLINE_REF, KnowledgeBase, read_entry
from ..data.reading.yamlload import parse
from ..errors import HouserulesError, Problem, display_path
from .l10n import Unit, units
from .l10n_read import read
from .tbx import language_of

#: ``[[`` or ``]]`` that is not part of a whole reference: a code a tool or a translator broke.
_BROKEN_REF = re.compile(r"\[\[|\]\]")


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
            reread = read_entry(file, parse(new.lstrip("\ufeff").replace("\r\n", "\n")), entry.game)
            new, stamped = stamp_text(reread, new, [tgt], src, add=True)
            result.stamped[entry.ref] = stamped[tgt]
        result.files[file] = (old, new)
        for change in file_changes:
            owner, _, rest = change.unit.id.partition("/")
            result.changed.setdefault(owner, []).append(rest)
    return result


def kb_value(kb: KnowledgeBase, unit: Unit) -> list[str]:
    data: Any = unit.entry.data if unit.entry is not None else _glossary_data(kb, unit.path)
    for key in unit.target_path:
        data = data[key]
    return list(data)


def _glossary_data(kb: KnowledgeBase, path: Path) -> dict[str, Any]:
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
    from .safewrite import write_output

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
