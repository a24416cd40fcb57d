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
        description="Write the changed targets of an XLIFF or PO file back into the YAML files, stamp them "
        "and check the data; every file is written or none.",
    )
    _add_data(imp)
    imp.add_argument("file", type=Path, metavar="FILE", help="the XLIFF or PO file")
    imp.add_argument("--dry-run", action="store_true", help="show what would change; write nothing")
    imp.add_argument("--force", action="store_true", help="write targets whose source changed since the export")
    return lambda args: (_export if args.l10n_command == "export" else _import)(args)


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
        site_url = configured_site_url() or ""
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
    from ..errors import display_path
    from ..export.l10n_import import import_file

    report = run_check(args.data)
    if report.errors:
        for problem in report.errors:
            print(problem, file=sys.stderr)
        print(f"not imported: the data has problems; fix them first ({report.summary()})", file=sys.stderr)
        return 1
    result = import_file(report.kb, args.data, args.file, args.dry_run, args.force)
    verb = "would change" if args.dry_run else "changed"
    for owner, paths in result.changed.items():
        stamp = f" (stamped {result.tgt}: {result.stamped[owner]})" if owner in result.stamped else ""
        print(f"{verb} {owner}: {', '.join(paths)}{stamp}")
    count = sum(len(p) for p in result.changed.values())
    files = len(result.files)
    name = display_path(args.file)
    if not count:
        print(f"nothing to import from {name}: every target is as in the data")
    elif args.dry_run:
        print(f"dry run: {count} texts in {files} files would change; nothing written")
    else:
        print(f"imported {count} texts into {files} files from {name}; houserules check: ok")
    return 0
