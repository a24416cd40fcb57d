"""``houserules l10n import``: translated targets from an XLIFF or PO file back into the YAML files.

Every unit of the file is checked before anything is written:

- its id must name a text of the data; it may be in the file once;
- **only what the translator changed is written**: each unit records the target it was
  exported with (:func:`houserules.export.l10n.target_digest`); a unit whose target is still
  that one is left alone, whatever the data holds now, so importing a file never undoes what
  another import (or an author) wrote since the export;
- a changed unit whose target **in the data** changed since the export too is a conflict (both
  texts shown), and so is one whose source changed since the export; ``--force`` writes the
  file's text anyway. A file that records no exported targets (made by an older version) is
  refused as a whole: export again, or ``--force`` (every target that differs is written);
- every ``[[ref]]`` of the source must be in the target, once each, and a target may not be
  emptied.

Then each changed text is written into its file in place (:mod:`houserules.data.authoring.yamledit`);
in each entry only the fields whose targets were imported are stamped
(:mod:`houserules.data.authoring.stamp`), and a target the file marks as not reviewed (PO
``fuzzy``, XLIFF ``state="initial"``) is written without a stamp: its field is marked as
needing review (``--skip-unreviewed`` leaves such targets out instead). The new files are
checked as a copy of the data folder holding them, and only when the check passes are they
committed, all or none, across interrupts and crashes (:mod:`houserules.data.authoring.transaction`).
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import stat
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..check import run as run_check
from ..data.authoring.stamp import stamp_text
from ..data.authoring.transaction import commit, fault_point
from ..data.authoring.yamledit import EditError, edit_values
from ..data.reading.model import INLINE_REF, KnowledgeBase, read_entry
from ..data.reading.safefile import first_uncarriable, uncarriable
from ..data.reading.yamlload import parse
from ..data.versions.sourcehash import HASHED_FIELDS
from ..errors import HouserulesError, Problem, display_path
from ..render.linebreak import wrap
from .l10n import Unit, lf_breaks, target_digest, units
from .l10n_read import Imported, read
from .tbx import language_of

#: ``[[`` or ``]]`` that is not part of a whole reference: a code a tool or a translator broke.
_BROKEN_REF = re.compile(r"\[\[|\]\]")
#: The width of the dry run's lines of text.
DIFF_COLUMNS = 96


@dataclass
class Change:
    """One text the import writes."""

    unit: Unit
    #: What is written at the unit's place (a list for names).
    target: str | list[str]
    #: The file's target, as text (names one a line).
    text: str
    #: Why the file does not count it as reviewed ("fuzzy", "state initial"), or "".
    unreviewed: str = ""
    #: Written over a changed source with --force: translated from another source text.
    forced_source: bool = False

    @property
    def stamped_field(self) -> str:
        """The field of the entry's translation stamp this text is (title, summary, body), or ""."""
        path = self.unit.target_path
        if self.unit.entry is None or len(path) != 2 or path[0] not in HASHED_FIELDS:
            return ""
        return str(path[0])


@dataclass
class Plan:
    """What an import writes: per file, the new text; per entry, what changed and what it stamps."""

    src: str
    tgt: str
    files: dict[Path, tuple[str, str]] = field(default_factory=dict)  # path -> (old text, new text)
    changes: list[Change] = field(default_factory=list)
    changed: dict[str, list[str]] = field(default_factory=dict)  # entry or glossary -> unit paths
    stamped: dict[str, list[str]] = field(default_factory=dict)  # entry ref -> fields stamped
    review: dict[str, list[str]] = field(default_factory=dict)  # entry ref -> fields marked for review
    skipped: int = 0
    #: Units whose target the translator did not change (never written).
    unchanged: int = 0
    #: Unreviewed targets left out (--skip-unreviewed): their ids.
    left_out: list[str] = field(default_factory=list)
    #: Obsolete PO entries (``#~``) holding a text: never imported, their ids.
    obsolete: list[str] = field(default_factory=list)

    @property
    def unreviewed(self) -> list[Change]:
        return [c for c in self.changes if c.unreviewed or c.forced_source]


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


def _folded(text: str) -> str:
    """``text`` as ``xml:space="default"`` reads it: each run of white space one space, the ends trimmed."""
    return re.sub(r"[ \t\r\n]+", " ", text).strip(" ")


def _shown(text: str) -> str:
    """A text quoted in a message on one line: its line breaks and quotes as escapes."""
    return json.dumps(text, ensure_ascii=False)


NO_RECORD_FIX = (
    "export again and translate in the new file, or import with --force to write every target that differs "
    "from the data (which undoes what was written into the data since this file was exported)"
)


def plan(kb: KnowledgeBase, path: Path, force: bool = False, skip_unreviewed: bool = False) -> Plan:
    """Read ``path`` and work out every file's new text; raises with every problem found, nothing written."""
    name = display_path(path)
    src, tgt, imported = read(path)
    live = [item for item in imported if not item.obsolete]
    if live and not force and all(item.exported is None for item in live):
        raise HouserulesError(
            f"{name}: nothing imported: the file does not record the target each unit was exported with "
            f"(it was exported by an older houserules, or a tool dropped the record) — {NO_RECORD_FIX}"
        )
    current = {unit.id: unit for unit in units(kb, src)}
    if live and not any(item.id in current for item in live):
        raise HouserulesError(_no_unit_known(kb, name, live))
    problems: list[Problem] = []
    result = Plan(src, tgt)
    seen: set[str] = set()
    for item in imported:
        if item.obsolete:
            result.obsolete.append(item.id)
            continue
        unit = current.get(item.id)

        def problem(text: str, fix: str) -> None:
            problems.append(Problem(name, item.line, item.id, text, fix))  # noqa: B023 - used at once

        if unit is None:
            problem(
                "unknown unit id: no such text in the data (renamed or removed since the export)",
                "remove the unit from the file; if its text was renamed, copy this target into the text's unit in "
                "a new export",
            )
            continue
        if item.id in seen:
            problem("the unit is in the file twice", "keep one of them")
            continue
        seen.add(item.id)
        if item.broken:
            problem(item.broken, item.fix)
            continue
        if item.exported is None and not force:
            problem("the unit does not record the target it was exported with", NO_RECORD_FIX)
            continue
        if item.exported is not None and target_digest(item.target) == item.exported:
            result.unchanged += 1  # left as exported: never written, whatever the data holds now
            continue
        target = item.target
        if not target.strip():
            if unit.target.strip():
                problem(
                    "empty target: importing it would delete the text",
                    "translate it, or remove the unit from the file",
                )
            else:
                result.skipped += 1
            continue
        code = first_uncarriable(target)
        if code is not None:
            what = uncarriable(code)[0]
            problem(
                f"the target holds {what} U+{code:04X}, which no page, feed or export can carry",
                f"remove {what} U+{code:04X} from the target",
            )
            continue
        if target == unit.target:
            continue
        if skip_unreviewed and item.unreviewed:
            result.left_out.append(item.id)
            continue
        source_changed = lf_breaks(item.source) != lf_breaks(unit.source)  # XML reads a CR as LF
        if source_changed and "\n" in unit.source and "\n" not in target and item.source == _folded(unit.source):
            problem(
                "the target has lost its line breaks: the file's source is the data's without them (a tool removed "
                'xml:space="preserve")',
                'put xml:space="preserve" back on the <file> element, or export again and translate in the new file',
            )
            continue
        if not force and item.exported is not None and target_digest(unit.target) != item.exported:
            problem(
                f"conflict: the target in the data changed since the export — the data now: {_shown(unit.target)}; "
                f"this file: {_shown(target)}",
                "keep the data's text (export again and translate in the new file), or import with --force to "
                "write this file's text over it",
            )
            continue
        if source_changed and not force:
            problem(
                "conflict: the source text changed since the export",
                "export again and translate the new source, or import with --force to write this target anyway",
            )
            continue
        if not unit.is_list:
            wrong = _ref_problem(unit.source, target, unit.target)
            if wrong:
                problem(wrong, "keep every [[…]] inline code of the source, once each")
                continue
            result.changes.append(Change(unit, target, target, item.unreviewed, source_changed))
        else:
            data = kb_value(kb, unit)
            new_list = _merged(data, _names(target), tgt)
            if new_list != data:
                result.changes.append(Change(unit, new_list, target, item.unreviewed, source_changed))
    if problems:
        every = sorted(problems)
        message = f"nothing imported: {len(every)} problem{'s' if len(every) != 1 else ''} in {name}"
        raise HouserulesError(message, every)
    _write_plan(result)
    return result


def _no_unit_known(kb: KnowledgeBase, name: str, live: list[Imported]) -> str:
    """Why no unit of the file is a text of the data: a file of other data (or of games removed since)."""
    where = display_path(kb.root) if kb.root is not None else "the data folder"
    games = sorted({item.id.partition(":")[0] for item in live if ":" in item.id} - set(kb.games))
    shown = ", ".join(games[:5]) + (f" and {len(games) - 5} more" if len(games) > 5 else "")
    why = (
        f"the file's units are of the game{'s' if len(games) != 1 else ''} {shown}, which the data does not have"
        if games
        else "its units name texts the data does not have"
    )
    count = len(live)
    return (
        f"{name}: nothing imported: none of its {count} unit{'s' if count != 1 else ''} is a text of the data in "
        f"{where} ({why}) — import it into the data folder it was exported from (--data DIR)"
    )


def _write_plan(result: Plan) -> None:
    """Each changed file's new text, with its entry's stamp: the fields imported as reviewed stamped,
    those imported unreviewed marked as needing review."""
    by_file: dict[Path, list[Change]] = {}
    for change in result.changes:
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
        reviewed = [c.stamped_field for c in file_changes if c.stamped_field and not (c.unreviewed or c.forced_source)]
        unreviewed = [c.stamped_field for c in file_changes if c.stamped_field and (c.unreviewed or c.forced_source)]
        if entry is not None and (reviewed or unreviewed):
            reread = read_entry(file, parse(new.lstrip("\ufeff").replace("\r\n", "\n")), entry.game)
            new, _ = stamp_text(reread, new, [result.tgt], result.src, add=True, fields=reviewed, unreviewed=unreviewed)
            if reviewed:
                result.stamped[entry.ref] = reviewed
            if unreviewed:
                result.review[entry.ref] = unreviewed
        result.files[file] = (old, new)
        for change in file_changes:
            owner, _, rest = change.unit.id.partition("/")
            result.changed.setdefault(owner, []).append(rest)


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


# -- the dry run -----------------------------------------------------------------------------------


def diff_lines(change: Change, tgt: str, columns: int = DIFF_COLUMNS) -> list[str]:
    """A change as a reader checks it: where (the entry's code and the field), then ``- old`` and ``+ new``
    lines, wrapped (names one a line).

    >>> from houserules.export.l10n import Unit
    >>> unit = Unit("demo:tower/title", Path("t.yaml"), ("title", "en"), "塔楼", "Tower")
    >>> diff_lines(Change(unit, "The Tower", "The Tower"), "en")
    ['demo:tower/title (en):', '  - Tower', '  + The Tower']
    """
    unit = change.unit
    owner, _, rest = unit.id.partition("/")
    head = f"{unit.entry.code}/{rest}" if unit.entry is not None else unit.id
    note = f" — not reviewed in the file ({change.unreviewed}): no stamp" if change.unreviewed else ""
    lines = [f"{head} ({tgt}):{note}"]
    for mark, text in (("-", unit.target), ("+", change.text)):
        if not text:
            lines.append(f"  {mark} (nothing)")
            continue
        for paragraph in text.rstrip("\n").split("\n"):
            for index, line in enumerate(wrap(paragraph, columns) or [""]):
                lines.append(f"  {mark} {line}" if index == 0 else f"    {line}")
    return lines


# -- checking and writing ----------------------------------------------------------------------------


def _shadow(source: Path, target: Path) -> None:
    """A copy of the data folder ``source`` at ``target``: its folders, regular files and links as links
    (the checker reports those); nothing else is opened (a named pipe would block)."""
    target.mkdir()
    with os.scandir(source) as children:
        for child in children:
            info = child.stat(follow_symlinks=False)
            where = target / child.name
            if stat.S_ISLNK(info.st_mode):
                os.symlink(os.readlink(child.path), where)
            elif stat.S_ISDIR(info.st_mode):
                if child.name != ".git":
                    _shadow(Path(child.path), where)
            elif stat.S_ISREG(info.st_mode):
                shutil.copy2(child.path, where)


def check_with(data_dir: Path, files: dict[Path, str]) -> list[Problem]:
    """The check's errors for the data as it would be with ``files`` (path → new text), read from a copy
    of the data folder: nothing of the data folder is written. The problems name the real files."""
    root = Path(os.path.realpath(data_dir))
    with tempfile.TemporaryDirectory(prefix="houserules-check-") as temp:
        copy = Path(temp) / root.name
        _shadow(root, copy)
        for path, text in files.items():
            rel = (Path(os.path.realpath(path.parent)) / path.name).relative_to(root)
            (copy / rel).write_bytes(text.encode("utf-8"))
        report = run_check(copy)
        shown_copy, shown_data = display_path(copy), display_path(Path(data_dir))

        def real(text: str) -> str:
            return text.replace(shown_copy, shown_data).replace(str(copy), shown_data)

        return [
            dataclasses.replace(p, path=real(p.path), problem=real(p.problem), fix=real(p.fix)) for p in report.errors
        ]


def import_file(
    kb: KnowledgeBase,
    data_dir: Path,
    path: Path,
    dry_run: bool = False,
    force: bool = False,
    skip_unreviewed: bool = False,
) -> Plan:
    """Plan, check the planned data, then (unless ``dry_run``) commit it; the caller holds the data folder
    for writing (:func:`houserules.data.authoring.transaction.writing`)."""
    result = plan(kb, path, force, skip_unreviewed)
    if dry_run or not result.files:
        return result
    fault_point("check")
    errors = check_with(data_dir, {file: new for file, (_, new) in result.files.items()})
    # An entry the new text breaks no longer loads, so every reference to it is reported too, with fixes
    # such as "create the entry": the errors of the files imported into are the ones to show.
    written = {display_path(file) for file in result.files}
    errors = [e for e in errors if e.path in written] or errors
    if errors:
        raise HouserulesError(
            f"nothing imported: the imported texts would break {len(errors)} check"
            f"{'s' if len(errors) != 1 else ''} (nothing was written)",
            errors,
        )
    commit(
        data_dir,
        {file: new.encode("utf-8") for file, (_, new) in result.files.items()},
        "l10n import",
        again="import again; nothing imported",
    )
    return result
