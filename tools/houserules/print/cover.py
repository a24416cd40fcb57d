"""The front of a print document: its cover and contents, and the HTML page each part is printed on."""

from __future__ import annotations

import datetime
import os
from collections.abc import Callable, Iterable

from markupsafe import Markup

from ..data.reading import vocab
from ..data.reading.model import Entry, Game, KnowledgeBase
from ..data.versions.version import data_version, game_version
from ..render.templating import render
from .plan import FRONT_LINK, Group, PrintOptions, anchor


class FrontMatter:
    """The cover and contents of a print document; ``page_of`` gives each printed entry's page number."""

    def __init__(self, kb: KnowledgeBase, options: PrintOptions, page_of: Callable[[Entry], int]):
        self.kb, self.options, self.page_of = kb, options, page_of

    def toc(self, layout: Iterable[tuple[Game, list[Group]]], link: str = "#", title: bool = True) -> str:
        """The contents; ``link`` prefixes each anchor (:data:`FRONT_LINK` when the entries are in other files).

        ``title=False``: a continuation of the contents, without its heading.
        """
        games = []
        for game, groups in layout:
            first = self.page_of(self.kb.entries[groups[0][2][0]]) if groups else None
            entries = [
                (key, heading, [(e, self.page_of(e)) for e in (self.kb.entries[r] for r in refs)])
                for key, heading, refs in groups
            ]
            games.append((game, first, entries))
        return render("print/toc.html", games=games, link=link, title=title, anchor=anchor)

    def cover(self, games: list[Game], printed: list[Entry]) -> str:
        profile, since = self.options.profile, self.options.since
        if len(games) == 1:
            title, subtitle = games[0].name["zh"], games[0].name["en"]
        else:
            title, subtitle = "规则补充说明与房规", "Rulings, errata and house rules"
        if since is not None:
            title, subtitle = f"自 {since.version} 以来的更改", f"Changes since {since.version}"
        group = None
        if profile is not None:
            group = {"zh": profile.name["zh"], "en": profile.name.get("en", profile.name["zh"])}
        layout = {"qa": ("问答版", "Questions and answers"), "full": ("完整版", "Full details")}[self.options.layout]
        questions = sum(len(e.questions) for e in printed)
        # One game's PDF prints that game's own version (a change elsewhere leaves it, and its cached layout, as it
        # was); several games print the whole folder's. --changes-since finds either.
        alone = len(games) == 1 and len(self.kb.games) > 1
        version = self.options.version or str(game_version(self.kb, games[0].id) if alone else data_version(self.kb))
        rows = [
            ("数据版本 · Data version", version),
            ("打印日期 · Printed", print_date()),
            ("版式 · Layout", f"{layout[0]} · {layout[1]}"),
            ("条目 · Entries", str(len(printed))),
            ("问题 · Questions", str(questions)),
        ]
        if since is not None:
            counts = [
                f"{vocab.CHANGE_STATUSES[status]['zh']} {n}"
                for status, n in (
                    ("added", sum(c.status == "added" for c in since.changes.values())),
                    ("changed", sum(c.status == "changed" for c in since.changes.values())),
                    ("removed", len(since.removed)),
                )
                if n
            ]
            rows.insert(1, ("更改自 · Changes since", since.version))
            rows.insert(2, ("更改 · Changes", "，".join(counts) or "—"))
        return render(
            "print/cover.html",
            title=title,
            subtitle=subtitle,
            games=games,
            group=group,
            rows=rows,
            insert=since is not None,
            removed=since.removed if since is not None else [],
        )

    def front_html(self, parts: list[tuple[Game, list[Group]]]) -> str:
        """The cover and contents of several games (their pages follow, from each game's own document)."""
        printed = [self.kb.entries[r] for _, groups in parts for _, _, refs in groups for r in refs]
        games = [game for game, _ in parts]
        return document(title_of(games), [self.cover(games, printed), self.toc(parts, FRONT_LINK)])

    def front_chunks(self, parts: list[tuple[Game, list[Group]]], entries: int) -> list[Callable[[int], str]]:
        """The cover, then the contents of several games as documents of about ``entries`` contents lines each.

        WeasyPrint holds a whole document's layout, about 0.25 MB per line of contents: thousands
        of entries are laid out a chunk of games at a time. The cover is a document of its own (it
        names the data version, which every change moves: the contents after it stay in the cache
        while their page numbers stay). Each document starts a new page; its HTML is made with the
        page number it starts on (a function of it), which the documents before it decide.
        """
        chunks: list[list[tuple[Game, list[Group]]]] = [[]]
        size = 0
        for part in parts:
            count = sum(len(refs) for _, _, refs in part[1])
            if chunks[-1] and size + count > entries:
                chunks.append([])
                size = 0
            chunks[-1].append(part)
            size += count
        printed = [self.kb.entries[r] for _, groups in parts for _, _, refs in groups for r in refs]
        games = [game for game, _ in parts]
        title = title_of(games)
        made: list[Callable[[int], str]] = [
            lambda first_page: document(title, [self.cover(games, printed)]),
            lambda first_page: document(title, [self.toc(chunks[0], FRONT_LINK)], first_page),
        ]
        for chunk in chunks[1:]:
            made.append(self._contents_continued(title, chunk))
        return made

    def _contents_continued(self, title: str, chunk: list[tuple[Game, list[Group]]]) -> Callable[[int], str]:
        """A document continuing the contents with ``chunk``, numbered from the page it is given."""
        return lambda first_page: document(title, [self.toc(chunk, FRONT_LINK, title=False)], first_page)


def document(title: str, body: list[str], first_page: int = 1) -> str:
    """A print document; ``first_page`` numbers its first page (a continuation of another document)."""
    return render("print/document.html", title=title, body=[Markup(part) for part in body], first_page=first_page)


def title_of(games: list[Game]) -> str:
    return "房规速查 FAQ — " + "、".join(g.name["zh"] for g in games)


def print_date() -> str:
    """Today, or the date of ``SOURCE_DATE_EPOCH`` for reproducible builds."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    day = datetime.datetime.fromtimestamp(int(epoch), datetime.UTC).date() if epoch else datetime.date.today()
    return day.isoformat()
