"""``houserules search-eval``: ranking quality on a judged query set.

The judgements file lists queries as players type them, each with the entry
(or entries) that should come back::

    queries:
      - {group: question, q: 电梯坠毁会怎样, expect: betrayal:mystic-elevator-ruling}

For each group this reports hit@1, hit@3 (an expected entry among the first one
or three hits) and the mean reciprocal rank (1/rank of the first expected hit,
0 when it is not in the first ten); the questions and situations players tell
(groups ``natural`` and ``situation-*``) are also scored by language.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import re
import sys
import threading
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeGuard

from ..data.reading.safefile import YamlError
from ..data.reading.yamlload import load as load_yaml
from ..errors import HouserulesError, Problem, display_path
from .index import SearchIndex

DEPTH = 10


@dataclass(frozen=True)
class Judgement:
    group: str
    query: str
    expect: tuple[str, ...]
    game: str | None
    line: int


@dataclass(frozen=True)
class Outcome:
    judgement: Judgement
    rank: int | None  # 1-based rank of the first expected entry, None if not in the first DEPTH

    def hit(self, k: int) -> bool:
        return self.rank is not None and self.rank <= k


def _judged_file(path: Path, what: str, option: str) -> Any:
    """The YAML document of a file of judgements; what cannot be read is a located error naming ``option``."""
    try:
        return load_yaml(path)
    except YamlError as exc:
        raise HouserulesError(
            f"cannot read {what}", [Problem(display_path(path), exc.line, "-", exc.problem, exc.fix)]
        ) from None
    except OSError as exc:
        raise HouserulesError(f"cannot read {display_path(path)}: {exc.strerror} — pass {option} FILE") from None


def _texts(value: Any) -> TypeGuard[list[str]]:
    """Whether ``value`` is a list of one text or more."""
    return isinstance(value, list) and bool(value) and all(isinstance(v, str) for v in value)


def read_judgements(path: Path) -> list[Judgement]:
    """The judged queries of ``path``; a malformed item is a located error."""
    where = display_path(path)
    doc = _judged_file(path, "the judgements", "--judgements")
    items = doc.data.get("queries") if isinstance(doc.data, dict) else None
    if not isinstance(items, list):
        raise HouserulesError(
            "no judged queries", [Problem(where, 1, "-", "no 'queries:' list", "write 'queries:' followed by items")]
        )
    result, problems = [], []
    for index, item in enumerate(items):
        line = doc.line(("queries", index))
        expect = item.get("expect") if isinstance(item, dict) else None
        expect = [expect] if isinstance(expect, str) else expect
        if not (
            isinstance(item, dict)
            and isinstance(item.get("q"), str)
            and isinstance(item.get("group"), str)
            and _texts(expect)
        ):
            problems.append(
                Problem(
                    where,
                    line,
                    "-",
                    "a judgement needs 'group', 'q' and 'expect'",
                    "write {group: G, q: QUERY, expect: game:id}",
                )
            )
            continue
        result.append(Judgement(item["group"], item["q"], tuple(expect), item.get("game"), line))
    if problems:
        raise HouserulesError("malformed judgements", problems)
    return result


def check_refs(judgements: list[Judgement], known: set[str], path: Path) -> None:
    """Fail on judgements that expect entries the data does not have."""
    problems = [
        Problem(
            display_path(path), j.line, ref, f"expected entry '{ref}' is not in the data", "use a game:id that exists"
        )
        for j in judgements
        for ref in j.expect
        if ref not in known
    ]
    if problems:
        raise HouserulesError("judgements refer to unknown entries", problems)


def evaluate(index: SearchIndex, judgements: list[Judgement]) -> list[Outcome]:
    """Run every judged query and record where its expected entry ranked."""
    outcomes = []
    for j in judgements:
        ids = [hit.record["id"] for hit in index.search(j.query, game=j.game, limit=DEPTH)]
        rank = next((i + 1 for i, ref in enumerate(ids) if ref in j.expect), None)
        outcomes.append(Outcome(j, rank))
    return outcomes


#: The groups of whole questions and situations told as players tell them (not keywords).
TOLD = ("natural", "situation")
_CJK = re.compile("[\u3400-\u9fff\uf900-\ufaff]")


def language(judgement: Judgement) -> str:
    """``told-typo`` for a misspelled group, else ``told-zh`` (Chinese, simplified or traditional) or ``told-en``."""
    if judgement.group.endswith("typo"):
        return "told-typo"
    return "told-zh" if _CJK.search(judgement.query) else "told-en"


def scores(outcomes: list[Outcome]) -> dict[str, dict[str, Any]]:
    """hit@1, hit@3 and MRR per group and ``overall``, in file order of the groups; then the
    told queries (groups :data:`TOLD` and ``TOLD-*``) by language (``told-zh``, ``told-en``,
    ``told-typo``) and together (``told``)."""
    groups: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in outcomes:
        groups[outcome.judgement.group].append(outcome)
    groups["overall"] = list(outcomes)
    told = [o for o in outcomes if o.judgement.group.split("-")[0] in TOLD]
    for name in ("told-zh", "told-en", "told-typo"):
        groups[name] = [o for o in told if language(o.judgement) == name]
    groups["told"] = told

    def summary(items: list[Outcome]) -> dict[str, Any]:
        n = len(items)
        return {
            "queries": n,
            "hit@1": sum(o.hit(1) for o in items) / n,
            "hit@3": sum(o.hit(3) for o in items) / n,
            "mrr": sum(1 / o.rank for o in items if o.rank) / n,
        }

    return {name: summary(items) for name, items in groups.items() if items}


def report(table: dict[str, dict[str, Any]], misses: list[Outcome]) -> str:
    """The scores as a table, then the queries whose expected entry was not first."""
    lines = [f"{'group':<12} {'queries':>7} {'hit@1':>6} {'hit@3':>6} {'MRR':>6}"]
    for name, row in table.items():
        lines.append(f"{name:<12} {row['queries']:>7} {row['hit@1']:>6.3f} {row['hit@3']:>6.3f} {row['mrr']:>6.3f}")
    if misses:
        lines.append("\nnot first:")
        for o in misses:
            where = "not found" if o.rank is None else f"rank {o.rank}"
            lines.append(
                f"  [{o.judgement.group}] {o.judgement.query!r}: {where} (expected {', '.join(o.judgement.expect)})"
            )
    return "\n".join(lines)


# -- the site's search box --------------------------------------------------------------

#: Where Playwright finds Chromium: Debian's ``chromium-headless-shell``, the headless build of the same
#: Chromium made for automation (what Playwright itself runs for headless pages), without the desktop
#: browser's layers: the same Blink for a third less CPU than the full browser's headless mode. Playwright
#: downloads no browser here.
CHROMIUM = "/usr/lib/chromium/chromium-headless-shell"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: The result list once the box shows results (or says there are none); the box is
#: emptied before each query, so whatever shows is the answer to the query typed.
_READ_RESULTS = """() => {
  const meta = document.querySelector(".md-search-result__meta");
  const items = [...document.querySelectorAll(".md-search-result__item")];
  if (!items.length && meta.textContent.trim() !== window.__hrText["search.result.none"]) return null;
  return items.map(item => item.querySelector("a.md-search-result__link").getAttribute("href"));
}"""
_CLEARED = """() => !document.querySelector(".md-search-result__item") &&
  document.querySelector(".md-search-result__meta").textContent.trim() === window.__hrText["search.result.placeholder"]"""


def evaluate_site(site: Path, judgements: list[Judgement], refs: set[str]) -> list[Outcome]:
    """Type every judged query into the built site's search box (headless Chromium, one
    session, the site served on 127.0.0.1) and record where the expected entry ranked.

    Needs Playwright (``pip install -e '.[test]'``) and Chromium at :data:`CHROMIUM`.
    A judgement's ``game`` keeps only that game's results (the box has no filter).
    """
    try:
        from playwright.sync_api import Error as PlaywrightError
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise HouserulesError(
            "search-eval --site needs Playwright — install the test extras: .venv/bin/pip install -e '.[test]'"
        ) from None
    if not (site / "index.html").is_file():
        raise HouserulesError(f"no site in {site} — build it first: houserules build -o {site}")
    if not Path(CHROMIUM).is_file():
        raise HouserulesError(f"Chromium not found at {CHROMIUM} — install it: apt-get install chromium-headless-shell")
    outcomes = []
    with serve_static(site) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.goto(f"{base}/index.html")
            page.evaluate(
                "() => { window.__hrText = JSON.parse(document.getElementById('__config').textContent).translations; }"
            )
            box = page.locator("input.md-search__input")
            box.click()
            for j in judgements:
                box.fill("")
                box.press("End")
                page.wait_for_function(_CLEARED, timeout=30_000)
                box.fill(j.query)
                box.press("End")
                links = page.wait_for_function(_READ_RESULTS, timeout=30_000).json_value()
                outcomes.append(site_outcome(j, links, refs))
        except PlaywrightError as exc:
            raise HouserulesError(
                f"the site search did not answer in Chromium: {exc.message.splitlines()[0]}"
            ) from None
        finally:
            browser.close()
    return outcomes


def site_outcome(judgement: Judgement, links: list[str], refs: set[str]) -> Outcome:
    """Where the expected entry ranked among the site's results, given the first link of each result
    in the order shown (entries only, and only the judgement's game when it names one)."""
    ids = [_ref_of(link) for link in links]
    ids = [ref for ref in ids if ref in refs and (judgement.game is None or ref.startswith(f"{judgement.game}:"))]
    rank = next((i + 1 for i, ref in enumerate(ids[:DEPTH]) if ref in judgement.expect), None)
    return Outcome(judgement, rank)


def _ref_of(link: str) -> str:
    """``betrayal/vault.html?h=x#open`` → ``betrayal:vault``."""
    from urllib.parse import urlsplit

    path = urlsplit(link).path.removesuffix(".html")
    game, _, slug = path.rpartition("/")
    return f"{game.rpartition('/')[2]}:{slug}"


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
        pass


class _QuietServer(http.server.ThreadingHTTPServer):
    """A browser that closes a connection mid-file (a page left, a fetch cancelled) is no error to report."""

    def handle_error(self, request: object, client_address: object) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)  # type: ignore[arg-type]


@contextlib.contextmanager
def serve_static(site: Path, handler: type[http.server.SimpleHTTPRequestHandler] | None = None) -> Iterator[str]:
    """Serve the folder ``site`` on 127.0.0.1 at a free port while the block runs; yields its base URL.
    ``handler``: how a request is answered (a file as it is, quietly, by default)."""
    server = _QuietServer(("127.0.0.1", 0), functools.partial(handler or _QuietHandler, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def report_both(cli: dict[str, dict[str, Any]], site: dict[str, dict[str, Any]]) -> str:
    """The CLI's and the site's scores side by side."""
    lines = [
        f"{'':<12} {'':>7}  {'command line':^20}  {'site search box':^20}",
        f"{'group':<12} {'queries':>7}  {'hit@1':>6} {'hit@3':>6} {'MRR':>6}  {'hit@1':>6} {'hit@3':>6} {'MRR':>6}",
    ]
    for name, row in cli.items():
        other = site.get(name, {"hit@1": 0.0, "hit@3": 0.0, "mrr": 0.0})
        lines.append(
            f"{name:<12} {row['queries']:>7}  {row['hit@1']:>6.3f} {row['hit@3']:>6.3f} {row['mrr']:>6.3f}"
            f"  {other['hit@1']:>6.3f} {other['hit@3']:>6.3f} {other['mrr']:>6.3f}"
        )
    return "\n".join(lines)


# -- what a result shows first, and whether a ruling answers ---------------------------------------------------

DEFAULT_LEADS = Path("tests/lead_judgements.yaml")


@dataclass(frozen=True)
class Lead:
    """A told question, the entry that answers it and what of that entry answers it first: question ids,
    or ``summary`` for the entry's one-line answer."""

    query: str
    entry: str
    shows: tuple[str, ...]
    game: str | None
    line: int


@dataclass(frozen=True)
class Leads:
    leads: list[Lead]
    unanswered: list[str]


def read_leads(path: Path) -> Leads:
    """The judged leads of ``path`` (``leads:`` and ``unanswered:``); a malformed item is a located error."""
    where = display_path(path)
    doc = _judged_file(path, "the lead judgements", "--leads")
    data = doc.data if isinstance(doc.data, dict) else {}
    leads, problems = [], []
    for index, item in enumerate(data.get("leads") or []):
        shows = item.get("shows") if isinstance(item, dict) else None
        if not (
            isinstance(item, dict)
            and isinstance(item.get("q"), str)
            and isinstance(item.get("entry"), str)
            and _texts(shows)
        ):
            problems.append(
                Problem(
                    where,
                    doc.line(("leads", index)),
                    "-",
                    "a lead needs 'q', 'entry' and 'shows'",
                    "write {q: QUESTION, entry: game:id, shows: [question-id or summary]}",
                )
            )
            continue
        leads.append(Lead(item["q"], item["entry"], tuple(shows), item.get("game"), doc.line(("leads", index))))
    unanswered = data.get("unanswered") or []
    if not leads or not all(isinstance(q, str) for q in unanswered):
        problems.append(
            Problem(where, 1, "-", "no 'leads:' list, or an unanswered item that is no text", "see the file's header")
        )
    if problems:
        raise HouserulesError("malformed lead judgements", problems)
    return Leads(leads, list(unanswered))


def shown_first(hit: Any) -> str:
    """What a hit shows first: the id of the question that leads, else ``summary``."""
    question = hit.record.get("question")
    return str(question["id"]) if question else "summary"


def evaluate_leads(index: SearchIndex, judged: Leads) -> dict[str, Any]:
    """How often the first result reads right (its entry, and the judged text shown first), and how well
    ``answered`` tells the told questions no ruling answers (precision and recall of saying so)."""
    right = entry_right = 0
    wrong: list[tuple[str, str, tuple[str, ...]]] = []
    said_answered: list[bool | None] = []
    for lead in judged.leads:
        found = index.find(lead.query, game=lead.game, limit=DEPTH)
        first = found.hits[0] if found.hits else None
        said_answered.append(found.answered)
        if first is None or first.record["id"] != lead.entry:
            continue
        entry_right += 1
        shows = shown_first(first)
        if shows in lead.shows:
            right += 1
        else:
            wrong.append((lead.query, shows, lead.shows))
    flagged_unanswered = [index.find(q, limit=DEPTH).answered is False for q in judged.unanswered]
    false_alarms = sum(1 for a in said_answered if a is False)
    caught = sum(flagged_unanswered)
    return {
        "leads": len(judged.leads),
        "lead right": right / len(judged.leads),
        "lead right, entry first": right / entry_right if entry_right else 0.0,
        "unanswered": len(judged.unanswered),
        "nothing-answers precision": caught / (caught + false_alarms) if caught + false_alarms else 1.0,
        "nothing-answers recall": caught / len(judged.unanswered) if judged.unanswered else 1.0,
        "said of answerable questions": false_alarms,
        "misread": wrong,
    }


def report_leads(table: dict[str, Any]) -> str:
    """The lead judgements' scores as lines, then the first results that read wrong."""
    lines = [
        f"{name:<28} {value:.3f}" if isinstance(value, float) else f"{name:<28} {value}"
        for name, value in table.items()
        if name != "misread"
    ]
    if table["misread"]:
        lines.append("\nshows first something else:")
        lines += [f"  {q!r}: {shows} (judged {', '.join(judged)})" for q, shows, judged in table["misread"]]
    return "\n".join(lines)
