"""Which pages a change of the data touches, so a live preview makes only those again.

Every generated page is a function of the knowledge base (:func:`~houserules.site.pages.page_makers`).
After an entry is saved, the pages that can show something of it are made again with
the new data and compared with the last build's Markdown; every other page keeps its
Markdown. What a page shows of other entries decides which pages a change touches:

- an entry's page: the entries related to it (:func:`houserules.data.versions.savediff.related`);
- a game's page, FAQ, glossary, errata and notes: that game's entries and what their texts name
  (a glossary also the entries its terms link);
- a tag page: the code, titles and one-line answer of each tagged entry (and the titles its answer names);
- the tag index, the page of all errata, the print page, the code-link page and the changes page: made
  again on every change (they are small, or, for the changes page, every change is news).

A change to a game, a glossary or the list of games touches every page. The result
equals a full build's pages (``tests/test_serve.py`` compares them).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..data.reading.model import INLINE_REF, KnowledgeBase, Text
from ..data.versions.savediff import Changes, diff
from ..render.urls import (
    CHANGES_PAGE,
    GO_PAGE,
    PRINT_PAGE,
    entry_src,
    errata_src,
    faq_src,
    game_src,
    glossary_src,
    notes_src,
    tag_src,
)
from .context import SiteContext, entry_tags
from .pages import page_makers

#: Pages made again on every change.
ALWAYS = ("tags/index.md", errata_src(None), PRINT_PAGE, GO_PAGE, CHANGES_PAGE)


@dataclass
class SiteState:
    """What a build generated: the data its pages show and each page's Markdown."""

    ctx: SiteContext
    pages: dict[str, str]


@dataclass
class Plan:
    """The pages of a build and how they differ from the last build's."""

    ctx: SiteContext
    #: Every generated page, in site order: docs path → Markdown.
    pages: dict[str, str]
    #: Pages that are new or whose Markdown differs from the last build's.
    modified: set[str] = field(default_factory=set)
    #: Pages of the last build that are gone (a removed entry, a tag no entry has any more).
    removed: set[str] = field(default_factory=set)
    #: What changed in the data since the last build; None for a first (full) build.
    changes: Changes | None = None

    @property
    def state(self) -> SiteState:
        return SiteState(self.ctx, self.pages)


def _row(
    kb: KnowledgeBase, ref: str
) -> tuple[str, Text, str, tuple[tuple[str, str | None], ...], tuple[str, ...]] | None:
    """What a tag page shows of an entry: code, titles, one-line answer (with the titles it names), tags."""
    entry = kb.entries.get(ref)
    if entry is None:
        return None
    named = tuple(
        (m.group(1).strip(), kb.entries[m.group(1).strip()].title.zh if m.group(1).strip() in kb.entries else None)
        for m in INLINE_REF.finditer(entry.summary.zh)
    )
    return entry.code, entry.title, entry.summary.zh, named, tuple(entry_tags(entry))


def touched(old: KnowledgeBase, new: KnowledgeBase, changes: Changes) -> set[str] | None:
    """The docs paths of the pages ``changes`` may alter (None: every page)."""
    if changes.everything:
        return None
    pages = set(ALWAYS)
    pages.update(entry_src(new.entries[ref]) for ref in changes.shown if ref in new.entries)
    for gid in changes.games & set(new.games):
        pages.update((game_src(gid), faq_src(gid), glossary_src(gid), errata_src(gid), notes_src(gid)))
    for game in new.games.values():  # a glossary term may link an entry of another game
        if game.glossary and any(term.entry in changes.shown for term in game.glossary.terms):
            pages.add(glossary_src(game.id))
    for ref in changes.shown:
        before, after = _row(old, ref), _row(new, ref)
        if before != after:
            pages.update(tag_src(tag) for row in (before, after) if row for tag in row[-1])
    return pages


def plan(ctx: SiteContext, last: SiteState | None) -> Plan:
    """The pages of ``ctx``: all made when there is no last build, else only those the change touches."""
    makers = page_makers(ctx)
    if last is None:
        made = {src: make() for src, make in makers.items()}
        return Plan(ctx, made, modified=set(made))
    changes = diff(last.ctx.kb, ctx.kb)
    redo = touched(last.ctx.kb, ctx.kb, changes)
    pages: dict[str, str] = {}
    modified: set[str] = set()
    for src, make in makers.items():
        before = last.pages.get(src)
        if before is None or redo is None or src in redo:
            pages[src] = make()
            if pages[src] != before:
                modified.add(src)
        else:
            pages[src] = before
    return Plan(ctx, pages, modified, set(last.pages) - set(pages), changes)
