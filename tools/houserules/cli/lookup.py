"""The lookup commands: ``houserules search``, ``show`` and ``search-eval``.

Each function adds its arguments to a sub-parser and returns the function to
run (the shape of :data:`houserules.cli.COMMANDS`). Imports happen inside the
runners so that a query loads only what it needs (Whoosh and the analyzer, not
the loader, MkDocs or jieba).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

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


#: What to do about a query that searches for nothing.
TYPE_SOMETHING = "type a word, a title, a code or a question, e.g. houserules search 魔梯"


def _not_blank(text: str) -> None:
    """Refuse a query that shows nothing: spaces, zero-width or other invisible characters only (a
    pasted U+200B run), which is an empty query, not one that no entry matches."""
    from ..data.reading.visibletext import has_visible_text

    if not text:
        raise HouserulesError(f"empty query — {TYPE_SOMETHING}")
    if not has_visible_text(text):
        raise HouserulesError(
            f"empty query: it holds only invisible characters ({_code_points(text)}) — {TYPE_SOMETHING}"
        )


def entry_wanted(wanted: str) -> None:
    """Refuse an entry reference (``show``, ``stamp``) that shows nothing: an empty one, not one no entry has."""
    from ..data.reading.visibletext import has_visible_text

    if not has_visible_text(wanted):
        held = f" (it holds only {_code_points(wanted)})" if wanted else ""
        raise HouserulesError(
            f"empty entry reference{held} — give an entry as game:id or its code, e.g. betrayal:vault or BH-R06"
        )


def _code_points(text: str, most: int = 4) -> str:
    """The distinct code points of ``text``, as U+XXXX: ``U+200B, U+2060``."""
    found = list(dict.fromkeys(f"U+{ord(c):04X}" for c in text if c != " "))
    return ", ".join(found[:most]) + (", …" if len(found) > most else "")


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
        "--as-typed",
        action="store_true",
        help='search the words as typed, without correcting a typo (the same as the query in quotes: "elevatr")',
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help='print a JSON array of hits (each with "lang", "answered" for a question, and "corrected": the '
        "words searched for, when a word was corrected)",
    )

    def run(args: argparse.Namespace) -> int:
        from ..data.reading import vocab
        from ..render.linebreak import fit
        from ..render.terminal import clean, format_hits, no_match, nothing_answers, shown_refs, terminal_columns
        from ..search.index import open_index

        text = " ".join(args.query).strip()
        _not_blank(text)
        from ..search.analysis import MAX_QUERY, as_typed

        if len(text) > MAX_QUERY:
            print(
                f"notice: the query is {len(text):,} characters long; only its first {MAX_QUERY} are searched",
                file=sys.stderr,
            )
        if args.as_typed and as_typed(text) is None:
            text = f'"{text}"'
        if args.kind and args.kind not in vocab.KINDS:
            raise HouserulesError(f"unknown kind '{args.kind}' — use one of: {', '.join(vocab.KINDS)}")
        with open_index(args.data) as index:
            _report_data_problems(index.problems)
            if args.game and args.game not in index.games:
                raise HouserulesError(f"unknown game '{args.game}' — use one of: {', '.join(index.games)}")
            found = index.find(text, game=args.game, kind=args.kind, limit=args.limit)
            hits = found.hits
            if not hits and not index.searchable(text):
                # Not "no entries match": nothing of it was searched for.
                raise HouserulesError(
                    f"nothing to search for in {clean(text)!r}: it holds no word, name or code, only "
                    f"punctuation, symbols or words too common to search — {TYPE_SOMETHING}"
                )
            names = index.names(shown_refs(hits))
            searched = index.searched_for(text)
        if searched is not None:
            # Corrections are never silent: the words searched for, and how to search for what was typed.
            typed = " ".join(clean(text).split())
            print(
                f"Showing results for: {clean(searched)} — search instead for: {typed} "
                f"(houserules search --as-typed {shlex.quote(typed)})",
                file=sys.stderr,
            )
        if args.json:
            print(terminal_json([_hit_json(hit, found, searched) for hit in hits]))
        elif hits:
            columns = terminal_columns()
            lead = nothing_answers(found.lang, found.outside) if found.answered is False else []
            shown = format_hits(hits, columns, names, found.lang, answers=found.answered is True)
            print(fit("\n".join([*lead, *([""] if lead else []), shown]), columns))
        else:
            print(no_match(found.lang, repr(clean(text))), file=sys.stderr)
        return 0

    return run


def _hit_json(hit: Any, found: Any, searched: str | None) -> dict[str, Any]:
    """A hit of ``houserules search --json`` (README, Contracts): the record, ``lang``, ``answered`` for a
    question, ``corrected``; for a query in Traditional characters each Chinese text shown also as ``zh-Hant``."""
    record = hit.to_json()
    hant = hit.traditional
    if hant:
        record["title"] = {**record["title"], "zh-Hant": hant["title"]}
        record["summary"] = {**record["summary"], "zh-Hant": hant["summary"]}
        if "question" in record:
            question = record["question"]
            record["question"] = {
                **question,
                "question": {**question["question"], "zh-Hant": hant["question"]},
                "answer": {**question["answer"], "zh-Hant": hant["answer"]},
            }
    record["lang"] = found.lang
    if found.answered is not None:
        record["answered"] = found.answered
    if found.outside:
        record["outside"] = list(found.outside)
    if searched is not None:
        record["corrected"] = searched
    return dict(record)


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
        entry_wanted(wanted)
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
        print(fit(format_entry(entry, kb, url, columns, asked=question), columns))
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
        "--leads",
        type=Path,
        nargs="?",
        const=Path("tests/lead_judgements.yaml"),
        metavar="FILE",
        help="instead, what the first result shows first and whether the search says no ruling answers, "
        "on the judged told questions (default: tests/lead_judgements.yaml)",
    )
    parser.add_argument(
        "--site",
        type=Path,
        metavar="DIR",
        help="also type every query into the search box of the site built in DIR "
        "(headless Chromium through Playwright, the test extras) and print both",
    )

    def run(args: argparse.Namespace) -> int:
        from ..search.evaluate import (
            Judgement,
            check_refs,
            evaluate,
            evaluate_site,
            read_judgements,
            report,
            report_both,
            scores,
        )
        from ..search.index import open_index

        if args.leads is not None:
            from ..search.evaluate import evaluate_leads, read_leads, report_leads

            judged = read_leads(args.leads)
            with open_index(args.data) as index:
                _report_data_problems(index.problems)
                check_refs(
                    [Judgement("leads", lead.query, (lead.entry,), None, lead.line) for lead in judged.leads],
                    index.refs(),
                    args.leads,
                )
                table = evaluate_leads(index, judged)
            print(json.dumps(table, indent=1, ensure_ascii=False) if args.json else report_leads(table))
            return 0

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
