"""The ``houserules`` command line.

Every command takes ``--data DIR`` (default ``rules_data/``) and exits non-zero
on failure, printing problems as ``path:line: entry: problem — fix``. Mistakes
in the data or the command line never produce a traceback.

Commands register themselves in :data:`COMMANDS`: each is a function that adds
its arguments to a sub-parser and returns the function to run.
"""

from __future__ import annotations

import argparse
import errno
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

from ..errors import (
    HouserulesError,
    display_path,
    is_write_failure,
    read_only_disk,
    visible,
    write_failure,
    write_fix,
    written_path,
)
from .common import NO_PRECOMPRESS_HELP, PROFILE_HELP, checked, emit, exportable, profiled, reading
from .lookup import entry_wanted, search_command, search_eval_command, show_command
from .publish import publish_command
from .starter import init_command

DEFAULT_DATA = Path("rules_data")
Runner = Callable[[argparse.Namespace], int]


def _cmd_check(parser: argparse.ArgumentParser) -> Runner:
    parser.add_argument("--warnings-as-errors", action="store_true", help="fail on warnings too")

    def run(args: argparse.Namespace) -> int:
        from ..check import run as run_check

        report = run_check(args.data)
        for problem in report.problems:
            print(problem, file=sys.stderr if problem.severity == "error" else sys.stdout)
        print(report.summary())
        failed = report.errors or (args.warnings_as_errors and report.warnings)
        return 1 if failed else 0

    return run


def _cmd_schema(parser: argparse.ArgumentParser) -> Runner:
    parser.add_argument("--write", action="store_true", help="refresh the committed JSON Schema files")

    def run(args: argparse.Namespace) -> int:
        from ..data.reading.schema import SCHEMAS, committed_schema_path, schema_text

        for name in SCHEMAS:
            target = committed_schema_path(name)
            if args.write:
                Path(str(target)).write_text(schema_text(name), encoding="utf-8")
                print(f"wrote {written_path(str(target))}")
            else:
                print(schema_text(name), end="")
        return 0

    return run


def _cmd_build(parser: argparse.ArgumentParser) -> Runner:
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        default=Path("site"),
        metavar="DIR",
        help="where to write the site (default: site/)",
    )
    parser.add_argument("--profile", type=Path, metavar="FILE", help=PROFILE_HELP)
    parser.add_argument("--no-precompress", action="store_true", help=NO_PRECOMPRESS_HELP)

    def run(args: argparse.Namespace) -> int:
        from ..build import build_site

        with reading(args.data, "build"):
            report = checked(args.data)
            kb, profile = profiled(report, args.profile)
            target = build_site(kb, args.data, args.output, profile=profile, precompress=not args.no_precompress)
        print(f"built {written_path(target)} ({report.summary()})")
        return 0

    return run


def _port(text: str) -> int:
    value = int(text) if text.isdigit() else -1
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"must be a port number from 0 to 65535 (0: any free port), not {text!r}")
    return value


def _cmd_serve(parser: argparse.ArgumentParser) -> Runner:
    parser.add_argument("--port", type=_port, default=8000, help="port on 127.0.0.1 (default: 8000; 0: any free port)")

    def run(args: argparse.Namespace) -> int:
        from ..serve import serve

        return serve(args.data, args.port)

    return run


def _cmd_export(parser: argparse.ArgumentParser) -> Runner:
    from ..data.reading.vocab import EXPORT_FORMATS as FORMATS
    from ..data.reading.vocab import EXPORT_TABLES as TABLES

    parser.add_argument(
        "--what",
        choices=list(TABLES),
        default="entries",
        help="entries, questions and answers (faq), errata, glossary terms, or entries needing review (default: entries)",
    )
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="json",
        help="default: json; tbx (TBX-Basic, for CAT tools) for the glossary",
    )
    parser.add_argument("--game", metavar="G", help="one game only (default: every game)")
    parser.add_argument("-o", "--output", type=Path, metavar="FILE", help="write to FILE instead of stdout")

    def run(args: argparse.Namespace) -> int:
        from ..export import check_format, export

        check_format(args.what, args.format)  # before the check: a wrong pairing needs no data
        report = exportable(args.data)
        if report is None:
            return 1
        emit(export(report.kb, args.what, args.format, args.game), args.output, f"{args.what}, {args.format}")
        return 0

    return run


def _cmd_stamp(parser: argparse.ArgumentParser) -> Runner:
    parser.add_argument("refs", nargs="+", metavar="REF", help="entry as game:id or code, e.g. betrayal:vault")
    parser.add_argument(
        "--lang",
        action="append",
        choices=["zh", "en"],
        help="the translation to stamp (repeatable; default: every translation of the entry)",
    )

    def run(args: argparse.Namespace) -> int:
        from ..data.authoring.stamp import stamp_entries
        from ..data.authoring.transaction import writing
        from ..data.reading.load import load

        with writing(args.data, "stamp"):
            kb = load(args.data).kb
            entries = []
            for ref in args.refs:
                entry_wanted(ref.strip())
                entry = kb.lookup(ref)
                if entry is None:
                    raise HouserulesError(
                        f"no entry '{ref}' loaded from {args.data}; run 'houserules check' if its file has problems"
                    )
                if read_only_disk(entry.path.parent):  # not the file's mode: chmod cannot help
                    raise HouserulesError(
                        f"cannot write {display_path(entry.path)}: the folder is on a read-only file system — "
                        "mount it writable and stamp again (nothing was written)"
                    )
                entries.append(entry)
            for entry, stamped in stamp_entries(args.data, entries, args.lang):
                for lang, hashes in stamped.items():
                    shown = ", ".join(f"{name}: {value}" for name, value in hashes.items())
                    print(f"stamped {entry.ref}: translations.{lang}.source_hash = {{{shown}}}")
        return 0

    return run


def _site_address(text: str) -> str:
    """``--site-url``: an http(s) address with a host, as ``$HOUSERULES_SITE_URL`` must be; every entry's
    QR code and link in the PDF starts with it, so ``javascript:…`` or ``file:…`` is refused."""
    from ..site.publishing import http_address

    if not http_address(text) or re.search(r"[\s\"'<>\\]", text):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an http(s) address — give the site's full address, such as "
            "https://your-name.github.io/houserules/"
        )
    return text


def _cmd_pdf(parser: argparse.ArgumentParser) -> Runner:
    from ..data.reading.vocab import PRINT_LAYOUTS as LAYOUTS  # not print.document: parsing must stay light

    parser.add_argument("--game", metavar="G", help="one game only (default: every game, or the profile's games)")
    parser.add_argument(
        "--profile",
        type=Path,
        metavar="FILE",
        help="a group's profile: print its house rules too (see examples/house-rules/)",
    )
    parser.add_argument(
        "--layout",
        choices=LAYOUTS,
        default="qa",
        help="qa: each entry's short answer and its questions (default); full: every detail",
    )
    parser.add_argument(
        "-o", "--output", type=Path, metavar="PATH", help="the PDF to write (default: faq.pdf or <game>.pdf)"
    )
    parser.add_argument("--paper", choices=["a4", "letter"], default="a4", help="paper size (default: a4)")
    parser.add_argument(
        "--site-url",
        type=_site_address,
        metavar="URL",
        help="public address of the site, for a QR code per entry (default: site_url of mkdocs.yml)",
    )
    parser.add_argument(
        "--changes-since",
        metavar="VERSION",
        help="an insert of what changed since this data version (as a printed cover or the site's "
        "更新记录 page names it, e.g. 3b0fbf2c): the entries added or changed and the codes removed",
    )

    def run(args: argparse.Namespace) -> int:
        from ..build import configured_site_url
        from ..print.faq import make_faq

        kb = checked(args.data).kb
        site_url = args.site_url or configured_site_url(args.data)
        target, entries, pages = make_faq(
            kb, args.output, args.game, args.profile, args.paper, site_url, args.layout, args.changes_since
        )
        print(f"wrote {written_path(target)} ({entries} entries, {pages} pages)")
        return 0

    return run


def _cmd_new(parser: argparse.ArgumentParser) -> Runner:
    from ..data.reading.vocab import KINDS

    parser.add_argument("game", metavar="GAME", help="the game's id, e.g. betrayal")
    parser.add_argument("kind", metavar="KIND", help=f"one of: {', '.join(KINDS)}")
    parser.add_argument("--zh", required=True, metavar="标题", help="the Chinese title")
    parser.add_argument("--en", required=True, metavar="TITLE", help="the English title (the id is made from it)")
    parser.add_argument("--id", metavar="ID", help="the entry's id instead of one made from the English title")
    parser.add_argument(
        "--section",
        metavar="ID",
        help="the contents section to list it in (default: the one with most entries of its kind)",
    )

    def run(args: argparse.Namespace) -> int:
        from ..check import run as run_check
        from ..data.authoring.scaffold import new_entry
        from ..data.authoring.transaction import writing
        from ..data.reading.load import load

        with writing(args.data, "new"):
            created = new_entry(load(args.data).kb, args.game, args.kind, args.zh, args.en, args.id, args.section)
        where = written_path(created.path)
        print(
            f"wrote {where}: {created.ref}, code {created.code} ({args.kind}), listed in contents section "
            f"'{created.section}' of {written_path(created.path.parent.parent / 'game.yaml')}"
        )
        todo = [p for p in run_check(args.data).problems if p.entry == created.ref]
        if todo:
            print("Still to write ('houserules check' reports each one until it is done):")
            for problem in todo:
                print(f"  {written_path(problem.path)}:{problem.line}: {problem.problem} — {problem.fix}")
        print(
            "Also check 'authority' and 'confidence', and add what the entry needs: aliases, body, questions, "
            "applies_to, see_also (README: Adding an entry). Then run: houserules check"
        )
        return 0

    return run


def _cmd_new_game(parser: argparse.ArgumentParser) -> Runner:
    parser.add_argument("game", metavar="SLUG", help="the game's id: lowercase letters, digits, hyphens (its folder)")
    parser.add_argument("--zh", required=True, metavar="名称", help="the game's Chinese name")
    parser.add_argument("--en", required=True, metavar="NAME", help="the game's English name")
    parser.add_argument("--code", required=True, metavar="XX", help="2 to 4 letters every entry's code starts with")
    parser.add_argument(
        "--source", type=Path, metavar="FILE", help="a document the entries will cite: its name and title are declared"
    )

    def run(args: argparse.Namespace) -> int:
        from ..check import run as run_check
        from ..data.authoring.newgame import new_game
        from ..data.reading.load import load

        made = new_game(load(args.data).kb, args.data, args.game, args.zh, args.en, args.code, args.source)
        where = written_path(made.folder)
        print(
            f"wrote {where}/: game.yaml ({made.game_id}, code letters {made.code}, contents sections rules and "
            "rulings), an empty glossary.yaml and synonyms.yaml"
        )
        todo = [p for p in run_check(args.data).problems if p.entry == made.game_id]
        if todo:
            print(
                "Still to fill in ('houserules check' warns about each one, 'houserules publish --check' refuses them):"
            )
            for problem in todo:
                print(f"  {written_path(problem.path)}:{problem.line}: {problem.problem} — {problem.fix}")
        if made.source is not None and made.source.title:
            print(f"  {where}/game.yaml: the source's title was taken from {display_path(args.source)}: check it")
        data = "" if args.data == DEFAULT_DATA else f" --data {args.data}"
        print(
            f"The game is on the site's home page and in its navigation (houserules serve{data}). "
            f"Add its entries: houserules new {made.game_id} rule --zh 标题 --en Title{data}"
        )
        return 0

    return run


def _cmd_l10n(parser: argparse.ArgumentParser) -> Runner:
    from .l10ncommands import add

    return add(parser)


COMMANDS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], Runner]]] = {
    "check": ("validate schema, ids, references, sources and contents", _cmd_check),
    "build": ("check, then build the site, search index, export and printed FAQ into site/", _cmd_build),
    "publish": ("build the site and check its links and offline files, as CI does before publishing", publish_command),
    "serve": ("live preview on 127.0.0.1 that rebuilds when the data changes", _cmd_serve),
    "schema": ("print (or --write) the JSON Schemas of the data files", _cmd_schema),
    "export": ("write entries, errata, the glossary or the review list as CSV or JSON", _cmd_export),
    "pdf": ("print the FAQ as a PDF (one game or all), optionally with a group's house rules", _cmd_pdf),
    "new": ("write a new entry file with the next free id and code, and list it in its game's contents", _cmd_new),
    "new-game": ("write a new game's folder: game.yaml, an empty glossary and synonyms file", _cmd_new_game),
    "init": (
        "start a new, empty knowledge base for a group in a new folder (its site, data and commands)",
        init_command,
    ),
    "l10n": ("export the texts for translators (XLIFF, PO) and import their translations", _cmd_l10n),
    "stamp": ("record that an entry's translation matches its current source text", _cmd_stamp),
    "search": ("ranked entries for words, titles, aliases, questions or codes", search_command),
    "show": ("one entry in the terminal, by game:id or code", show_command),
    "search-eval": ("hit@1, hit@3 and MRR of the search on the judged queries", search_eval_command),
}


def _shown(message: str) -> str:
    """A message for the terminal: a control or format character in it (from an argument, a file
    name, quoted data) shown as an escape, its own line breaks kept."""
    return "\n".join(visible(line) for line in message.split("\n"))


class _Parser(argparse.ArgumentParser):
    """argparse quotes a mistyped argument in its error: shown as escapes, never as raw control characters."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {_shown(message)}\n")


def build_parser(only: str | None = None) -> tuple[argparse.ArgumentParser, dict[str, Runner]]:
    """The parser of every command, or of the command ``only`` (each sub-parser costs a start-up
    a query notices: argparse looks its messages' translations up on disk for each one)."""
    parser = _Parser(prog="houserules", description="House-rules knowledge base for tabletop games.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    runners: dict[str, Runner] = {}
    for name, (help_text, add) in COMMANDS.items():
        if only is not None and name != only:
            continue
        command = sub.add_parser(name, help=help_text, description=help_text)
        command.add_argument(
            "--data", type=Path, default=DEFAULT_DATA, metavar="DIR", help="the data folder (default: rules_data/)"
        )
        runners[name] = add(command)
    return parser, runners


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # A known command first: build its parser alone (help, a mistyped command: every parser).
    parser, runners = build_parser(argv[0] if argv and argv[0] in COMMANDS else None)
    args = parser.parse_args(argv)
    from ..data.authoring.transaction import Interrupted, recover

    try:
        if getattr(args, "data", None) is not None:
            recover(args.data)  # a commit into the data folder that was interrupted: finished or undone
        return runners[args.command](args)
    except HouserulesError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        print(_shown(f"houserules {args.command}: {exc}"), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except Interrupted as exc:
        return 128 + exc.signum
    except BrokenPipeError:
        # The reader went away (`houserules search x | head`): stop quietly, as other tools do.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except OSError as exc:
        # A full disk, a read-only folder: one message, whatever command met it (each command
        # leaves nothing half-written: its writes go through a new file renamed into place).
        if not is_write_failure(exc):
            raise
        verb = "open" if exc.errno in (errno.EACCES, errno.EPERM) else "write"  # a read may be refused too
        print(
            _shown(f"houserules {args.command}: {write_failure(exc, verb=verb)} — {write_fix(exc)} and run it again"),
            file=sys.stderr,
        )
        return 1


#: Commands that, once their output is flushed, have nothing left to write, close or remove:
#: their process may end without freeing what they built. A search has closed its index (and
#: written the index and the fingerprint's memo, when it made them) before :func:`main` returns.
HARD_EXIT = frozenset({"check", "search"})


def console() -> NoReturn:
    """The ``houserules`` console script: :func:`main` with the command line, then exit with its status.

    After a command of :data:`HARD_EXIT` the process ends at once, once its output is flushed
    (``os._exit``, as mypy does): freeing a large knowledge base object by object, and the
    interpreter's tear-down around it, is time for nothing (0.07 s of a check of 5,000
    entries; a fifth of a cold search's CPU, about 0.04 s, most of it the tear-down of Whoosh's
    modules and of the standard library they import). Every other command, or an output that
    cannot be flushed (a closed pipe), exits as usual. :func:`main` itself never ends the process (tests call it).
    """
    code = main()
    argv = sys.argv[1:]
    if argv and argv[0] in HARD_EXIT:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except (OSError, ValueError):
            sys.exit(code)  # the interpreter's own exit reports it, as for any command
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":
    console()
