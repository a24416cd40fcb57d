"""The lookup commands: ``houserules search``, ``show`` and ``search-eval``.

Each function adds its arguments to a sub-parser and returns the function to
run (the shape of :data:`houserules.cli.COMMANDS`). Imports happen inside the
runners so that a query loads only what it needs (Whoosh and the analyzer, not
the loader, MkDocs or jieba).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

from ..errors import HouserulesError

Runner = Callable[[argparse.Namespace], int]
DEFAULT_JUDGEMENTS = Path("tests/search_judgements.yaml")


def _positive(text: str) -> int:
    value = int(text) if text.isdigit() else 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, not {text!r}")
    return value


def _report_data_problems(problems: list[str]) -> None:
    # The index holds what loaded; say what did not, in `houserules check`'s words.
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(
            f"warning: {len(problems)} data problems; those files are left out of the search (run 'houserules check')",
            file=sys.stderr,
        )


def terminal_json(value: object) -> str:
    r"""``value`` as JSON for a terminal: Chinese as written, every invisible character as an escape.

    json.dumps escapes control characters; format characters (bidirectional overrides, zero-width
    characters) and line separators are escaped here too, so the printed text cannot reorder or
    hide what a terminal shows, and a JSON reader still gets the exact text.

    >>> print(terminal_json({"zh": "控制\u202e字符\x1b"}))
    {
     "zh": "控制\u202e字符\u001b"
    }
    """
    import unicodedata

    def escape(char: str) -> str:
        data = char.encode("utf-16-be")
        return "".join(f"\\u{int.from_bytes(data[i : i + 2], 'big'):04x}" for i in range(0, len(data), 2))

    text = json.dumps(value, ensure_ascii=False, indent=1)
    return "".join(escape(c) if unicodedata.category(c) in {"Cf", "Zl", "Zp", "Co"} else c for c in text)


def search_command(parser: argparse.ArgumentParser) -> Runner:
    parser.add_argument("query", nargs="+", help="words, a title, an alias, a question or a code")
    parser.add_argument("--game", metavar="G", help="only entries of this game (its id)")
    parser.add_argument("--kind", metavar="K", help="only entries of this kind (ruling, rule, component, ...)")
    parser.add_argument("--limit", type=_positive, default=10, metavar="N", help="at most N hits (default: 10)")
    parser.add_argument(
        "--json",
        action="store_true",
        help='print a JSON array of hits (each with "corrected": the words searched for, when a word was corrected)',
    )

    def run(args: argparse.Namespace) -> int:
        from ..data.reading import vocab
        from ..render.linebreak import fit
        from ..render.terminal import clean, format_hits, shown_refs, terminal_columns
        from ..search.index import open_index

        text = " ".join(args.query).strip()
        if not text:
            raise HouserulesError(
                "empty query — type a word, a title, a code or a question, e.g. houserules search 魔梯"
            )
        from ..search.analysis import MAX_QUERY

        if len(text) > MAX_QUERY:
            print(
                f"notice: the query is {len(text):,} characters long; only its first {MAX_QUERY} are searched",
                file=sys.stderr,
            )
        if args.kind and args.kind not in vocab.KINDS:
            raise HouserulesError(f"unknown kind '{args.kind}' — use one of: {', '.join(vocab.KINDS)}")
        with open_index(args.data) as index:
            _report_data_problems(index.problems)
            if args.game and args.game not in index.games:
                raise HouserulesError(f"unknown game '{args.game}' — use one of: {', '.join(index.games)}")
            hits = index.search(text, game=args.game, kind=args.kind, limit=args.limit)
            names = index.names(shown_refs(hits))
            searched = index.searched_for(text)
        if searched is not None:
            # Corrections are never silent: the words searched for, and what was typed.
            print(f"Searched for: {clean(searched)} (you typed {clean(text)})", file=sys.stderr)
        if args.json:
            extra = {"corrected": searched} if searched is not None else {}
            print(terminal_json([{**hit.to_json(), **extra} for hit in hits]))
        elif hits:
            columns = terminal_columns()
            print(fit(format_hits(hits, columns, names), columns))
        else:
            print(f"no entries match {clean(text)!r}", file=sys.stderr)
        return 0

    return run


def show_command(parser: argparse.ArgumentParser) -> Runner:
    parser.add_argument("ref", help="an entry as game:id or its code (e.g. betrayal:vault or BH-R06)")

    def run(args: argparse.Namespace) -> int:
        from ..data.reading.codes import find_code, parse_code
        from ..data.reading.load import load
        from ..render.entrytext import close_matches, format_entry
        from ..render.linebreak import fit
        from ..render.terminal import clean, terminal_columns
        from ..render.urls import entry_url

        result = load(args.data)
        _report_data_problems([str(p) for p in result.problems if p.severity == "error"])
        kb = result.kb
        wanted = args.ref.strip()
        entry = kb.lookup(wanted) or kb.lookup(wanted.lower())
        question = ""
        if entry is None:  # a code as the go page takes it: "bh a13", "bha13", "BH-A13/must-run"
            entry, question = find_code(kb, wanted)
            asked = parse_code(wanted).question
            if entry is not None and asked and not question:
                ids = ", ".join(q.id for q in entry.questions) or "none"
                raise HouserulesError(
                    f"{entry.code} has no question {clean(asked)!r} — its questions: {ids} (houserules show {entry.code})"
                )
        if entry is None:
            near = close_matches(wanted, kb)
            hint = f" — did you mean: {'; '.join(near)}" if near else " — try 'houserules search WORDS'"
            raise HouserulesError(f"no entry {clean(wanted)!r}{hint}")
        url = entry_url(entry) + (f"#{question}" if question else "")
        columns = terminal_columns()
        print(fit(format_entry(entry, kb, url, columns), columns))
        return 0

    return run


def search_eval_command(parser: argparse.ArgumentParser) -> Runner:
    parser.add_argument(
        "--judgements",
        type=Path,
        default=DEFAULT_JUDGEMENTS,
        metavar="FILE",
        help=f"the judged queries (default: {DEFAULT_JUDGEMENTS})",
    )
    parser.add_argument("--json", action="store_true", help="print the scores as JSON")
    parser.add_argument(
        "--site",
        type=Path,
        metavar="DIR",
        help="also type every query into the search box of the site built in DIR "
        "(headless Chromium through Playwright, the test extras) and print both",
    )

    def run(args: argparse.Namespace) -> int:
        from ..search.evaluate import check_refs, evaluate, evaluate_site, read_judgements, report, report_both, scores
        from ..search.index import open_index

        judgements = read_judgements(args.judgements)
        with open_index(args.data) as index:
            _report_data_problems(index.problems)
            refs = index.refs()
            check_refs(judgements, refs, args.judgements)
            outcomes = evaluate(index, judgements)
        table = scores(outcomes)
        if args.site is None:
            print(json.dumps(table, indent=1) if args.json else report(table, [o for o in outcomes if o.rank != 1]))
            return 0
        site_outcomes = evaluate_site(args.site, judgements, refs)
        site_table = scores(site_outcomes)
        if args.json:
            print(json.dumps({"cli": table, "site": site_table}, indent=1))
        else:
            print(report_both(table, site_table))
            differ = [(o, s) for o, s in zip(outcomes, site_outcomes) if o.rank != s.rank]
            if differ:
                print("\nranked differently (command line, site):")
                for o, s in differ:
                    print(f"  [{o.judgement.group}] {o.judgement.query!r}: {o.rank}, {s.rank}")
        return 0

    return run
