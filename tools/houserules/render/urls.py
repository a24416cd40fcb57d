"""Where things live in the built site: one place for every path and anchor.

``use_directory_urls`` is off (the site opens from ``file://``), so pages are
``<game>/<id>.html``. A question's anchor is its id on its entry's page.
"""

from __future__ import annotations

import posixpath
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..data.reading.model import Entry

PRINT_DIR = "print"
#: The PDF of every game; each game also has ``print/<game>.pdf``.
ALL_GAMES_PDF = "faq"


def entry_src(entry: Entry) -> str:
    """The generated Markdown file of an entry, relative to the docs folder."""
    return f"{entry.game}/{entry.id}.md"


def entry_url(entry: Entry) -> str:
    """The entry's page in the built site."""
    return f"{entry.game}/{entry.id}.html"


def question_url(entry: Entry, question_id: str) -> str:
    """The answer of one question: its anchor on the entry's page.

    >>> from types import SimpleNamespace
    >>> question_url(SimpleNamespace(game="betrayal", id="vault"), "open")
    'betrayal/vault.html#open'
    """
    return f"{entry_url(entry)}#{question_id}"


def page_url(src: str) -> str:
    """The HTML page MkDocs writes for a Markdown source path.

    >>> page_url("betrayal/index.md"), page_url("tags/kind-rule.md")
    ('betrayal/index.html', 'tags/kind-rule.html')
    """
    return src.removesuffix(".md") + ".html"


def game_src(game_id: str) -> str:
    return f"{game_id}/index.md"


def faq_src(game_id: str) -> str:
    return f"{game_id}/faq.md"


def tag_src(tag: str) -> str:
    return f"tags/{tag}.md"


def glossary_src(game_id: str) -> str:
    return f"{game_id}/glossary.md"


def errata_src(game_id: str | None = None) -> str:
    """A game's errata page, or the page of every game's errata when ``game_id`` is None."""
    return f"{game_id}/errata.md" if game_id else "errata.md"


def notes_src(game_id: str) -> str:
    return f"{game_id}/notes.md"


PRINT_PAGE = f"{PRINT_DIR}/index.md"


def pdf_name(game_id: str | None) -> str:
    """The file name of a game's PDF, or of the all-games PDF."""
    return f"{game_id or ALL_GAMES_PDF}.pdf"


@lru_cache(maxsize=65536)
def relative_url(target: str, page: str) -> str:
    """A site path made relative to the page that links to it.

    >>> relative_url("mausritter/saves.html", "betrayal/vault.html")
    '../mausritter/saves.html'
    >>> relative_url("betrayal/vault.html#open", "betrayal/index.html")
    'vault.html#open'
    """
    path, hash_, fragment = target.partition("#")
    base = posixpath.dirname(page) or "."
    return posixpath.relpath(path, base) + hash_ + fragment


def question_code(entry: Entry, question_id: str) -> str:
    """How a question is cited: its entry's code and its id (``BH-A13/must-run``), printed and linkable."""
    return f"{entry.code}/{question_id}"


#: The page that opens an entry or a question by its code: ``go.html#BH-A13``, ``go.html#BH-A13/must-run``.
GO_PAGE = "go.md"
#: The codes of one prefix, loaded by the go page only: ``go/bh.js``.
GO_DIR = "go"


def go_url(code: str, question_id: str | None = None) -> str:
    """The link by code that lands on an entry, or on one question's answer.

    >>> go_url("BH-A13"), go_url("BH-A13", "must-run")
    ('go.html#BH-A13', 'go.html#BH-A13/must-run')
    """
    return page_url(GO_PAGE) + "#" + (f"{code}/{question_id}" if question_id else code)


def go_shard(prefix: str) -> str:
    """The script holding the codes of one code prefix (scripts, not JSON: they load from file:// too)."""
    return f"{GO_DIR}/{prefix.lower()}.js"


#: 更新记录 · What changed, and its Atom feed (at the site root).
CHANGES_PAGE = "changes.md"
CHANGES_FEED = "changes.xml"
#: The data version of the build as a script (``window.houserulesDataVersion``): what a report's citation names,
#: loaded when one is opened, so that no page changes with every data version (scripts load from file:// too).
DATA_VERSION_SCRIPT = "version.js"


#: The translators' pages and their downloads (written by the build, not by MkDocs).
TRANSLATE_DIR = "translate"
DOWNLOADS_DIR = f"{TRANSLATE_DIR}/downloads"


def translators_src(game_id: str | None = None) -> str:
    """The "For translators" page of one game, or of all games.

    >>> translators_src(), translators_src("betrayal")
    ('translate/index.md', 'translate/betrayal.md')
    """
    return f"{TRANSLATE_DIR}/{game_id or 'index'}.md"


def download_url(game_id: str | None, name: str) -> str:
    """A translators' download: ``translate/downloads/<game or houserules>-<name>``.

    >>> download_url(None, "glossary.tbx"), download_url("betrayal", "zh-en.po")
    ('translate/downloads/houserules-glossary.tbx', 'translate/downloads/betrayal-zh-en.po')
    """
    return f"{DOWNLOADS_DIR}/{game_id or 'houserules'}-{name}"
