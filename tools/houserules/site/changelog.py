"""更新记录 · What changed: the versions of the data with the entries each added, changed and removed, and its Atom feed.

Both are pure functions of the knowledge base and its :class:`~houserules.data.versions.history.History`.
Titles, codes and commit subjects are data: they go in escaped. A long history is cut
to the newest versions, and a version that touched thousands of entries (a first
import) to its first items, so the page stays a page.
"""

from __future__ import annotations

import uuid
import xml.etree.ElementTree as etree
from collections.abc import Callable
from typing import Any

from ..check.wording import shown_subject, subject_pattern
from ..data.reading import vocab
from ..data.reading.model import Bilingual, Game, KnowledgeBase
from ..data.versions.entrychanges import EntryChange, aspect_names
from ..data.versions.history import History, Version
from ..data.versions.version import SHORT, DataVersion, game_version
from ..print.inserts import insert_path, inserts, reprint
from ..render.templating import macros, render
from ..render.text import xml_text
from ..render.urls import CHANGES_FEED, CHANGES_PAGE, entry_url, page_url, pdf_name
from .markup import front_matter

#: The newest versions the page lists and the feed carries.
PAGE_VERSIONS = 100
#: On a phone the page is read from the top: the newest versions are open, each older one is folded under the line
#: that heads it (its version as faq.pdf prints it, when it was committed, what it changed, counted; the filter box
#: and a link to it open it), and a PDF's table shows its newest printed versions with the rest folded. At 60
#: versions the page was 105,000 px tall at 375 px wide; at 91, with each older version's heading, commit and
#: summary left unfolded, 37,700 px.
OPEN_VERSIONS = 3
OPEN_PDF_ROWS = 5
FEED_VERSIONS = 30
#: The items of one kind (added, changed, removed) shown for one version.
ITEMS = 200
ATOM = "http://www.w3.org/2005/Atom"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
XML_BASE = "{http://www.w3.org/XML/1998/namespace}base"


def anchor(version: Version) -> str:
    return f"v-{version.short}"


def _item(kb: KnowledgeBase, change: EntryChange, href: Callable[[str], str]) -> dict[str, Any]:
    """One entry of a version: its code, its title (linked while it exists) and, if changed, what changed."""
    entry = kb.entries.get(change.ref)
    linked = entry is not None and change.status != "removed"
    return {
        "code": change.code,
        "title": change.title,
        "href": href(entry_url(entry)) if entry is not None and linked else None,
        "names": aspect_names(change) if change.status == "changed" and change.aspects else [],
    }


def _lists(kb: KnowledgeBase, version: Version, href: Callable[[str], str]) -> dict[str, Any]:
    """What :func:`version_html` shows of a version."""
    kinds = []
    for status, label in vocab.CHANGE_STATUSES.items():
        changes = version.of(status)
        if changes:
            items = [_item(kb, c, href) for c in changes[:ITEMS]]
            kinds.append({"status": status, "label": label, "count": len(changes), "entries": items})
            kinds[-1]["more"] = max(0, len(changes) - ITEMS)
    others = [(kb.games[g].name["zh"] if g in kb.games else g, vocab.CHANGED_FILES[kind]) for g, kind in version.others]
    return {"kinds": kinds, "others": others}


def version_html(kb: KnowledgeBase, version: Version, href: Callable[[str], str]) -> str:
    """The lists of one version: added, changed, removed (each at most :data:`ITEMS` long), then other files."""
    return str(macros("site/versions.html").lists(_lists(kb, version, href)))


def _game_versions(
    kb: KnowledgeBase, history: History, first: dict[tuple[str, str], Version], version: Version
) -> list[tuple[Game, str, str | None]] | None:
    """Each game's version under a version, as its own PDF prints it (``2026-12-02 · fa61695e``), so a game's
    printout is found on the page too (None: none is known). A game's version carries an anchor
    (``v-<game>-<hash>``) where it first appears, the oldest version holding it."""
    trees = history.trees(version)
    if not trees:
        return None
    shown = []
    for game, tree in trees.items():
        printed = history.printed(version, game) or DataVersion(tree)
        anchor_id = f"v-{game}-{tree[:SHORT]}" if first.get((game, tree)) is version else None
        shown.append((kb.games[game], str(printed), anchor_id))
    return shown


def _find_text(*parts: str) -> str:
    """What the page's filter box matches a row or a version against: its printed versions, dates and times."""
    return " ".join(" ".join(parts).lower().replace("·", " ").split())


def _pdfs(
    kb: KnowledgeBase, history: History, shown: list[Version], ready: set[str], anchors: set[str]
) -> list[dict[str, Any]]:
    """Each PDF (``faq.pdf``, then each game's own when it prints one) with the versions it printed, newest first:
    the version as its cover prints it, when it came (the commit's day and minute), how many of its entries
    changed since, a link to the data version where it came (what that version changed) and the ready insert."""
    index = {id(v): n for n, v in enumerate(history.versions)}
    # the entries of each game changed in the versions newer than each version (a printout of it lacks them)
    seen: dict[str | None, set[str]] = {None: set(), **{g: set() for g in kb.games}}
    newer: dict[str | None, list[int]] = {game: [] for game in seen}
    for version in shown:
        for game, refs in seen.items():
            newer[game].append(len(refs))
        for change in version.entries:
            seen[None].add(change.ref)
            if change.ref.split(":", 1)[0] in seen:
                seen[change.ref.split(":", 1)[0]].add(change.ref)
    pdfs: list[tuple[str | None, str, Bilingual]] = [(None, pdf_name(None), {"zh": "全部游戏", "en": "All games"})]
    if history.own_pdfs:
        pdfs += [(g.id, pdf_name(g.id), g.name.as_dict()) for g in kb.games.values()]
    else:
        pdfs[0] = (None, ", ".join([pdf_name(None)] + [pdf_name(g) for g in kb.games]), pdfs[0][2])
    found = []
    for game, name, title in pdfs:
        entries = sum(1 for e in kb.entries.values() if game is None or e.game == game)  # what the PDF prints
        rows = []
        for printed in history.pdf_versions(game):
            position = index[id(printed.version)]
            if position >= len(shown):
                continue
            version = printed.version
            current = position == 0 or (game is not None and history.games.get(game) == printed.printed)
            since = 0 if current else newer[game][position]
            rows.append(
                {
                    "printed": str(printed.printed),
                    "when": "未提交 · uncommitted" if version.commit is None else version.when,
                    "href": f"#{anchor(version)}" if anchor(version) in anchors else None,
                    "since": since,
                    "current": current,
                    "reprint": not current and reprint(since, entries),
                    "insert": insert_path(version)
                    if game is None and version.version.tree in ready and position
                    else None,
                    "find": _find_text(str(printed.printed), version.when, name, version.short),
                }
            )
        if rows:
            found.append(
                {
                    "name": name,
                    "title": title,
                    "id": f"pdf-{game or 'faq'}",
                    "rows": rows[:OPEN_PDF_ROWS],
                    "older_rows": rows[OPEN_PDF_ROWS:],
                }
            )
    return found


def changes_page(kb: KnowledgeBase, history: History | None, offered: list[Version] | None = None) -> str:
    """The Markdown of ``changes.md``; ``offered``: the versions with a ready insert (default: :func:`inserts`)."""
    words = subject_pattern(kb)

    def href(path: str) -> str:
        return path  # the page is at the site root

    head = front_matter("更新记录 What changed", "每个数据版本新增、更改和删除的条目", search={"exclude": True})
    if history is None:
        return head + "\n" + render("site/changes.html", current=None)
    current = history.versions[0]
    games = (
        [(g, str(game_version(kb, g.id)), None) for g in kb.games.values()] if kb.root is not None else None
    )  # each game's current version, as its own PDF's cover prints it
    view = {"version": current.version, "games": games, "note": None if history.from_git else history.note}
    if not history.from_git:
        return head + "\n" + render("site/changes.html", current=view, feed=CHANGES_FEED)
    ready = {v.version.tree for v in (offered if offered is not None else [v for v, _ in inserts(kb, history)])}
    shown = history.versions[:PAGE_VERSIONS]
    first: dict[tuple[str, str], Version] = {}
    for version in shown:  # newest first: the last one seen is the oldest holding a game's version
        for game, tree in history.trees(version).items():
            first[(game, tree)] = version
    versions: list[dict[str, Any]] = []
    changed_since: set[str] = set()  # the entries changed in the versions newer than the one at hand
    for version in shown:
        printed = history.printed(version) or version.version
        games_of = _game_versions(kb, history, first, version)
        versions.append(
            {
                "anchor": anchor(version),
                "short": version.short,
                # its heading: the version as faq.pdf's cover prints it (the day its newest entry changed, then the
                # hash: a group finds its printout by it), then when it was committed (the minute, UTC)
                "printed": str(printed),
                "current": version is current,
                "when": version.when,
                # the commit under the version's heading: its short id and subject (a commit subject is data:
                # escaped, and shown neutral when it uses a production word)
                "commit": version.commit[:10] if version.commit is not None else None,
                "subject": shown_subject(version.subject, words) if version.subject else None,
                "games": games_of,
                "insert": insert_path(version) if version.version.tree in ready and version is not current else None,
                # most entries changed since: the current FAQ is shorter than an insert would be
                "reprint": len(changed_since)
                if version is not current and reprint(len(changed_since), len(kb.entries))
                else 0,
                "lists": _lists(kb, version, href),
                "open": len(versions) < OPEN_VERSIONS,
                "find": _find_text(str(printed), version.when, *(p for _, p, _ in games_of or [])),
            }
        )
        changed_since.update(change.ref for change in version.entries)
    pdfs = _pdfs(kb, history, shown, ready, {v["anchor"] for v in versions})
    older = max(0, len(history.versions) - PAGE_VERSIONS)
    return (
        head
        + "\n"
        + render("site/changes.html", current=view, feed=CHANGES_FEED, versions=versions, older=older, pdfs=pdfs)
    )


def _uuid(name: str) -> str:
    """A stable id for ``name``; what no XML can carry (a lone surrogate UTF-8 cannot encode) is left out first."""
    return f"urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, 'houserules:' + xml_text(name))}"


def _sub(parent: etree.Element, tag: str, text: str | None = None, **attributes: str) -> etree.Element:
    element = etree.SubElement(parent, f"{{{ATOM}}}{tag}", attributes)
    if text is not None:
        element.text = xml_text(text)
    return element


def _updated(version: Version) -> str:
    """When a version came, for the feed (RFC 3339): the commit's time, or the build's day for uncommitted changes."""
    return version.time or f"{version.date}T00:00:00Z"


def _summary(version: Version) -> str:
    counts = [
        f"{label['zh']} {len(version.of(status))}"
        for status, label in vocab.CHANGE_STATUSES.items()
        if version.of(status)
    ]
    return "，".join(counts) or "没有条目变化"


def changes_feed(kb: KnowledgeBase, history: History | None, site_name: str, site_url: str | None) -> str:
    """``changes.xml``: one Atom entry per version, newest first, with the same lists as the page.

    Links are relative to the feed (which sits beside the pages); with ``site_url`` the
    feed says so in ``xml:base``, so a reader that copies an entry keeps working links.
    """
    etree.register_namespace("", ATOM)
    words = subject_pattern(kb)
    versions = history.versions[:FEED_VERSIONS] if history else []
    feed = etree.Element(f"{{{ATOM}}}feed", {XML_LANG: "zh"})
    if site_url:
        feed.set(XML_BASE, site_url.rstrip("/") + "/")
    _sub(feed, "title", f"{site_name} · 更新记录 What changed")
    _sub(
        feed, "subtitle", "每个数据版本新增、更改和删除的条目 · Entries added, changed and removed in each data version"
    )
    _sub(feed, "id", _uuid(f"feed:{site_url or site_name}"))
    _sub(feed, "updated", _updated(versions[0]) if versions else "1970-01-01T00:00:00Z")
    _sub(feed, "link", rel="alternate", type="text/html", href=page_url(CHANGES_PAGE))
    _sub(feed, "link", rel="self", type="application/atom+xml", href=CHANGES_FEED)
    author = _sub(feed, "author")
    _sub(author, "name", site_name)
    _sub(feed, "generator", "houserules")
    for version in versions:
        entry = _sub(feed, "entry")
        if history is not None and not history.from_git:  # the current version alone: its changes are unknown
            _sub(entry, "title", f"数据版本 {version.version}")
            _sub(entry, "id", _uuid(f"data:{version.version.tree}"))
            _sub(entry, "updated", _updated(version))
            _sub(entry, "link", rel="alternate", type="text/html", href=page_url(CHANGES_PAGE))
            _sub(entry, "content", str(macros("site/versions.html").feed_no_history(history.note)), type="html")
            continue
        printed = history.printed(version) if history is not None else None
        _sub(entry, "title", f"数据版本 {printed or version.version}：{_summary(version)}")
        _sub(entry, "id", _uuid(f"data:{version.version.tree}"))
        _sub(entry, "updated", _updated(version))
        _sub(entry, "link", rel="alternate", type="text/html", href=f"{page_url(CHANGES_PAGE)}#{anchor(version)}")
        subject = shown_subject(version.subject, words) if version.subject else None
        content = macros("site/versions.html").feed_content(subject, _lists(kb, version, lambda path: path))
        _sub(entry, "content", str(content), type="html")
    etree.indent(feed)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + etree.tostring(feed, encoding="unicode") + "\n"
