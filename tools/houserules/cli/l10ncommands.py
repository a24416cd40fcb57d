"""``houserules l10n export|import``: the data's texts for CAT tools and translation platforms, and back.

Only argparse is imported here; the export and import code (and translate-toolkit) load
when the command runs.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

Runner = Callable[[argparse.Namespace], int]


def add(parser: argparse.ArgumentParser) -> Runner:
    sub = parser.add_subparsers(dest="l10n_command", required=True, metavar="ACTION")
    export = sub.add_parser(
        "export",
        help="write every translatable text as XLIFF 2.0 or PO",
        description="Write every translatable text (titles, aliases, summaries, bodies, questions, variants, "
        "answers, errata corrections, glossary terms and notes) as XLIFF 2.0 or gettext PO.",
    )
    _add_data(export)
    export.add_argument("--game", metavar="G", help="one game only (default: every game)")
    export.add_argument("--format", choices=["xliff", "po"], default="xliff", help="default: xliff (XLIFF 2.0)")
    export.add_argument(
        "--source",
        choices=["zh", "en"],
        default="zh",
        help="the language translated from (default: zh, into English; en: into Chinese, with the errata)",
    )
    export.add_argument("-o", "--output", type=Path, metavar="FILE", help="write to FILE instead of stdout")
    imp = sub.add_parser(
        "import",
        help="write the translated texts of an XLIFF or PO file back into the data",
        description="Write the targets the translator changed in an XLIFF or PO file back into the YAML files, "
        "stamp the fields they translate and check the data; every file is written or none. A target the data "
        "changed since the export too is a conflict.",
    )
    _add_data(imp)
    imp.add_argument("file", type=Path, metavar="FILE", help="the XLIFF or PO file")
    imp.add_argument("--dry-run", action="store_true", help="show each text's old and new version; write nothing")
    imp.add_argument(
        "--force",
        action="store_true",
        help="write changed targets whose source or data target changed since the export (the file's text wins), "
        "or from a file that records no exported targets",
    )
    imp.add_argument(
        "--skip-unreviewed",
        action="store_true",
        help="leave out targets the file marks as not reviewed (PO fuzzy, XLIFF state initial); by default they "
        "are imported without a stamp",
    )
    return lambda args: (_export if args.l10n_command == "export" else _import)(args)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' if n != 1 else ''}"


def _add_data(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--data", type=Path, default=argparse.SUPPRESS, metavar="DIR", help="the data folder (default: rules_data/)"
    )


def _export(args: argparse.Namespace) -> int:
    from ..build import configured_site_url
    from ..export.l10n_write import export_l10n
    from .common import emit, exportable

    report = exportable(args.data)
    if report is None:
        return 1
    try:
        site_url = configured_site_url(args.data) or ""
    except OSError:
        site_url = ""
    target = "en" if args.source == "zh" else "zh"
    emit(
        export_l10n(report.kb, args.format, args.source, args.game, site_url),
        args.output,
        f"{args.format}, {args.source} → {target}",
    )
    return 0


def _import(args: argparse.Namespace) -> int:
    from ..check import run as run_check
    from ..data.authoring.transaction import writing
    from ..errors import display_path
    from ..export.l10n_import import diff_lines, import_file

    with writing(args.data, "l10n import"):
        report = run_check(args.data)
        if report.errors:
            for problem in report.errors:
                print(problem, file=sys.stderr)
            print(f"not imported: the data has problems; fix them first ({report.summary()})", file=sys.stderr)
            return 1
        result = import_file(report.kb, args.data, args.file, args.dry_run, args.force, args.skip_unreviewed)
    name = display_path(args.file)
    if args.dry_run:
        for change in result.changes:
            print("\n".join(diff_lines(change, result.tgt)))
    verb = "would change" if args.dry_run else "changed"
    for owner, paths in result.changed.items():
        stamps = []
        if owner in result.stamped:
            stamps.append(f"stamped {result.tgt}: {', '.join(result.stamped[owner])}")
        if owner in result.review:
            stamps.append(f"marked for review {result.tgt}: {', '.join(result.review[owner])}")
        print(f"{verb} {owner}: {', '.join(paths)}" + (f" ({'; '.join(stamps)})" if stamps else ""))
    unreviewed = result.unreviewed
    if unreviewed:
        ids = ", ".join(c.unit.id for c in unreviewed)
        why = sorted({c.unreviewed or "its source changed since the export" for c in unreviewed})
        print(
            f"{len(unreviewed)} target{'s' if len(unreviewed) != 1 else ''} not reviewed in {name} "
            f"({', '.join(why)}) {'would be ' if args.dry_run else ''}imported without a stamp: {ids}; a title, "
            "summary or body among them shows as needing review until 'houserules stamp' "
            "(--skip-unreviewed leaves them out)"
        )
    if result.left_out:
        print(
            f"left out {len(result.left_out)} unreviewed target{'s' if len(result.left_out) != 1 else ''} "
            f"(--skip-unreviewed): {', '.join(result.left_out)}"
        )
    if result.obsolete:
        entries, are, it = ("entry", "is", "it") if len(result.obsolete) == 1 else ("entries", "are", "one")
        print(
            f"left out {len(result.obsolete)} obsolete {entries} (#~) of {name}, which {are} never imported: "
            f"{', '.join(result.obsolete)} (to import {it}, remove its #~ marks)"
        )
    count = sum(len(p) for p in result.changed.values())
    files = len(result.files)
    if not count:
        print(f"nothing to import from {name}: every target is as exported or as in the data")
    elif args.dry_run:
        print(f"dry run: {_count(count, 'text')} in {_count(files, 'file')} would change; nothing written")
    else:
        print(f"imported {_count(count, 'text')} into {_count(files, 'file')} from {name}; houserules check: ok")
    return 0
