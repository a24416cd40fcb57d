"""What every page generator needs from the knowledge base, computed once per build."""

from __future__ import annotations

from collections import defaultdict
from functools import cached_property

from ..data.reading import vocab
from ..data.reading.model import Bilingual, Entry, Game, KnowledgeBase, game_sections
from ..data.versions.history import History, load_history, print_warnings
from ..data.versions.version import DataVersion, data_version
from ..render.blocks import EntryBlocks, Erratum
from ..render.text import MarkdownRenderer
from .repo import RepoLinks


def entry_tags(entry: Entry) -> list[str]:
    """Tag slugs of an entry: its game, kind and authority, and any warning state."""
    tags = [f"game-{entry.game}", f"kind-{entry.kind}", f"authority-{entry.authority}"]
    if entry.confidence == "uncertain":
        tags.append("confidence-uncertain")
    status = entry.status or "complete"
    if status != "complete":
        tags.append(f"status-{status}")
    return tags


class SiteContext:
    """The knowledge base with the indexes the pages share (blocks, tags)."""

    def __init__(self, kb: KnowledgeBase, repo: RepoLinks | None = None):
        self.kb = kb
        self.blocks = EntryBlocks(kb)
        #: The Markdown parser and rendered texts every page of this build shares.
        self.markdown = MarkdownRenderer()
        #: Links to the entries' files and to a new issue, when the site names its repository.
        self.repo = repo
        #: Where readers report a wrong text when there is no repository (``extra.report`` in mkdocs.yml).
        self.report: str | None = None
        #: The site's public address (``site_url``), for the page an answer's report names.
        self.site_url: str | None = None

    @cached_property
    def version(self) -> DataVersion | None:
        """The data version of the build (None for a knowledge base made in memory)."""
        return data_version(self.kb) if self.kb.root is not None else None

    @cached_property
    def history(self) -> History | None:
        """The versions of the data folder from git, newest first (None for a knowledge base made in memory)."""
        if self.kb.root is None:
            return None
        history = load_history(self.kb, self.version)
        print_warnings(history)
        return history

    @cached_property
    def by_game(self) -> dict[str, list[Entry]]:
        """Each game's entries in load order (``kb.game_entries`` of every game at once)."""
        result: dict[str, list[Entry]] = {game: [] for game in self.kb.games}
        for entry in self.kb.entries.values():
            result.setdefault(entry.game, []).append(entry)
        return result

    def game_entries(self, game: str) -> list[Entry]:
        return self.by_game.get(game, [])

    def sections(self, game: Game) -> list[tuple[str, Bilingual, list[str]]]:
        """:func:`~houserules.data.reading.model.game_sections` of ``game``."""
        return game_sections(self.kb, game, self.game_entries(game.id))

    @cached_property
    def errata_by_game(self) -> dict[str, list[Erratum]]:
        """Every erratum under the game of the component it corrects, in load order."""
        result: dict[str, list[Erratum]] = defaultdict(list)
        for entry in self.kb.entries.values():
            for erratum in entry.errata:
                result[erratum.component.split(":", 1)[0]].append(Erratum(entry, erratum, "own"))
        return dict(result)

    @cached_property
    def tag_names(self) -> dict[str, Bilingual]:
        """Every tag slug with its bilingual name."""
        names: dict[str, Bilingual] = {f"game-{g.id}": g.name for g in self.kb.games.values()}
        for prefix, table in (
            ("kind", vocab.KINDS),
            ("authority", vocab.AUTHORITIES),
            ("status", vocab.STATUSES),
            ("confidence", vocab.CONFIDENCES),
        ):
            names.update({f"{prefix}-{key}": value for key, value in table.items()})
        return names

    @cached_property
    def tagged(self) -> dict[str, list[str]]:
        """Each tag in use with its entries, in load order (computed once: tags × entries adds up)."""
        result: dict[str, list[str]] = defaultdict(list)
        for entry in self.kb.entries.values():
            for tag in entry_tags(entry):
                result[tag].append(entry.ref)
        return dict(result)
