"""``houserules pdf`` and the build's PDF step: which games, which layout, where to."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..data.reading.model import KnowledgeBase
from ..errors import HouserulesError
from ..export import OUTPUT_OPTION, check_output
from ..render.urls import PRINT_DIR, pdf_name
from .document import LAYOUTS
from .inserts import insert_name, inserts
from .pdf import copy_pdf, emoji_font_warning, require_cjk_font
from .pdfcache import PdfCache
from .plan import PrintOptions, Since, printed_since

if TYPE_CHECKING:
    from ..check.profile import Profile
    from ..data.versions.history import History


def require_fonts(kb: KnowledgeBase, games: list[str]) -> None:
    """Stop without the CJK font; say so when the games' text holds emoji and the emoji font is missing."""
    require_cjk_font()
    texts = [e.all_text for e in kb.entries.values() if e.game in games]
    texts += [name for g in games if g in kb.games for name in kb.games[g].name.values()]
    warning = emoji_font_warning(texts)
    if warning:
        print(f"houserules: {warning}", file=sys.stderr)


def build_pdfs(kb: KnowledgeBase, site_dir: Path, site_url: str | None, profile: Profile | None = None) -> list[str]:
    """``print/<game>.pdf`` for each game and ``print/faq.pdf`` from the same pages (the Q&A layout); with a
    group's ``profile`` (``kb`` holds its house rules), its games with its house rules, as ``pdf --profile``.

    Games whose printed text did not change come from the cache; returns the games laid out.
    """
    require_fonts(kb, list(kb.games))
    out = site_dir / PRINT_DIR
    out.mkdir(parents=True, exist_ok=True)
    options = PrintOptions(layout="qa", site_url=site_url, profile=profile)
    cache = PdfCache()
    parts = cache.games(kb, list(kb.games), options, "a4")
    for part in parts:
        copy_pdf(part.path, out / pdf_name(part.game))
    copy_pdf(cache.combined(kb, parts, options, "a4"), out / pdf_name(None))
    laid_out = list(cache.laid_out)
    for version, since in inserts(kb):  # the 更新记录 page links each: what changed since a printout
        print_games(kb, list(kb.games), out / insert_name(version), PrintOptions("qa", profile, site_url, None, since))
    return laid_out


def since_options(kb: KnowledgeBase, wanted: str, game: str | None, layout: str = "qa") -> Since:
    """What an insert of the changes since the version ``wanted`` prints: the version printed on any PDF (the whole
    folder's, on ``faq.pdf``: every game; a game's own, on its PDF: that game only), of one game if given; the
    entries whose change a printout in ``layout`` shows (:func:`~houserules.print.plan.printed_changes`)."""
    from ..data.versions.history import changes_since, load_history, print_warnings

    history = load_history(kb)
    print_warnings(history)
    found = history.locate(wanted)
    if found is None:
        raise HouserulesError(f"unknown data version '{wanted}' — {_printed_versions(kb, history)}")
    if found.game is not None and game is not None and found.game != game:
        raise HouserulesError(
            f"{found.printed} is the version of {pdf_name(found.game)}, not of {pdf_name(game)} — "
            f"drop --game, or give the version printed on {pdf_name(game)}"
        )
    entries, _ = changes_since(kb, history, found)
    only = game or found.game
    entries = [c for c in entries if only is None or c.ref.split(":", 1)[0] == only]
    since = printed_since(kb, str(found.printed), entries, layout, found.game)
    if not since.changes and not since.removed:
        raise HouserulesError(
            f"no entry{' of ' + only if only else ''} changed in what a printout shows since {found.printed}; "
            "nothing to print"
        )
    return since


#: How many of a PDF's versions a message lists.
LISTED = 5


def _printed_versions(kb: KnowledgeBase, history: History) -> str:
    """What a version could be: each PDF's versions, newest first (the cover of each prints one of them)."""
    pdfs: list[tuple[str, str | None]] = [
        (pdf_name(None) + ("" if history.own_pdfs else ", " + ", ".join(pdf_name(g) for g in kb.games)), None)
    ]
    if history.own_pdfs:
        pdfs += [(pdf_name(game), game) for game in kb.games]
    parts = []
    for name, game in pdfs:
        versions = history.pdf_versions(game)
        shown = ", ".join(str(p.printed) for p in versions[:LISTED])
        more = f" and {len(versions) - LISTED} older" if len(versions) > LISTED else ""
        parts.append(f"{name}: {shown}{more}")
    return (
        "no PDF of this data printed it. The version on a PDF's cover is one of: "
        + "; ".join(parts)
        + " (the site's 更新记录 page lists them all)"
    )


def make_faq(
    kb: KnowledgeBase,
    output: Path | None = None,
    game: str | None = None,
    profile_file: Path | None = None,
    paper: str = "a4",
    site_url: str | None = None,
    layout: str = "qa",
    changes_since: str | None = None,
) -> tuple[Path, int, int]:
    """``houserules pdf`` on a checked knowledge base, with a group's house rules or only the changes since a
    data version; returns (path, entries, pages)."""
    from ..check.profile import load_profile

    if layout not in LAYOUTS:
        raise HouserulesError(f"unknown layout '{layout}' — use one of: {', '.join(LAYOUTS)}")
    if changes_since is not None and profile_file is not None:
        raise HouserulesError(
            "--changes-since prints what changed in the shared data; print a group's house rules "
            "with --profile on its own"
        )
    if game is not None and game not in kb.games:
        raise HouserulesError(f"unknown game '{game}' — use one of: {', '.join(kb.games)}")
    since = since_options(kb, changes_since, game, layout) if changes_since is not None else None
    profile = None
    if profile_file is not None:
        profile, kb = load_profile(profile_file, kb)
    games = (
        [game]
        if game
        else [since.game]
        if since is not None and since.game
        else (profile.games if profile else list(kb.games))
    )
    unknown = [g for g in games if g not in kb.games]
    if unknown:
        raise HouserulesError(f"unknown game '{unknown[0]}' — use one of: {', '.join(kb.games)}")
    target = output or Path(pdf_name(game) if since is None else f"changes-since-{since.version.split()[-1]}.pdf")
    check_output(
        target, example=pdf_name(game), option=OUTPUT_OPTION
    )  # before the layout: a target it would refuse costs no work
    options = PrintOptions(layout, profile, site_url, None, since)
    pages = print_games(kb, games, target, options, paper)
    if since is not None:
        return target, len(since.changes), pages
    entries = sum(1 for e in kb.entries.values() if e.game in games and (profile is None or profile.includes(e)))
    return target, entries, pages


def print_games(kb: KnowledgeBase, games: list[str], target: Path, options: PrintOptions, paper: str = "a4") -> int:
    """Print ``games`` into ``target`` (each game laid out once, or taken from the cache); return the number of pages."""
    require_fonts(kb, games)
    if options.since is not None:  # an insert prints the games with added or changed entries only
        games = [g for g in games if any(kb.entries[r].game == g for r in options.since.changes)]
    cache = PdfCache()
    laid = cache.games(kb, games, options, paper)
    source = laid[0].path if len(games) == 1 else cache.combined(kb, laid, options, paper)
    return copy_pdf(source, target)
