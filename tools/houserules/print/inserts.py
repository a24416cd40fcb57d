"""Ready inserts for printed FAQs: for each of the last versions, a PDF of what changed since it.

A group holding a printout of an earlier version downloads ``print/changes-since-<version>.pdf``
from the site's 更新记录 page instead of running ``houserules pdf --changes-since``. The build
writes one for each of the :data:`INSERT_VERSIONS` versions before the current one after which
entries changed in what the printed FAQ shows (:func:`~houserules.print.plan.printed_changes`: an
insert of a version after which only a game's contents list or entries' histories changed would
print nothing new), laid out through the same cache as every other PDF. A version after which most entries
changed gets none (:func:`reprint`): the current FAQ is shorter.
"""

from __future__ import annotations

from pathlib import Path

from ..data.reading.model import KnowledgeBase
from ..data.versions.git import NoGit, git_checkout
from ..data.versions.history import History, Version, changes_between, load_history
from ..render.urls import PRINT_DIR
from .plan import Since, printed_since

#: How many versions before the current one get a ready insert.
INSERT_VERSIONS = 5
#: ... unless at least this share of the entries changed since: the insert would be as long as the current FAQ
#: (79 pages against 76 after a review of every entry), and the 更新记录 page says to print that instead.
REPRINT_SHARE = 0.5
#: ... and at least this many: a printout of a few entries is a page or two either way.
REPRINT_MIN = 20


def reprint(changed: int, entries: int) -> bool:
    """Whether a printout with ``changed`` of ``entries`` entries changed since is better printed again.

    >>> reprint(63, 126), reprint(62, 126), reprint(3, 4), reprint(0, 0)
    (True, False, False, False)
    """
    return changed >= REPRINT_MIN and changed >= REPRINT_SHARE * entries


def insert_name(version: Version) -> str:
    """The insert's file name in ``print/``.

    >>> from houserules.data.versions.version import DataVersion
    >>> insert_name(Version(DataVersion("3b0fbf2c" + "0" * 32), "1" * 40, "2026-12-01"))
    'changes-since-3b0fbf2c.pdf'
    """
    return f"changes-since-{version.short}.pdf"


def insert_path(version: Version) -> str:
    """The insert's path in the built site."""
    return f"{PRINT_DIR}/{insert_name(version)}"


def inserts(
    kb: KnowledgeBase, history: History | None = None, count: int = INSERT_VERSIONS
) -> list[tuple[Version, Since]]:
    """The last ``count`` committed versions before the current one, each with what changed since it (when anything did)."""
    if kb.root is None:
        return []
    history = history if history is not None else load_history(kb)
    if not history.from_git:
        return []
    try:
        top, _ = git_checkout(Path(kb.root))
    except NoGit:
        return []
    found = []
    for version in history.versions[1 : count + 1]:
        if version.commit is None:
            continue
        entries, _ = changes_between(kb, top, version.version.tree)
        printed = history.printed(version) or version.version  # as faq.pdf printed it, with its date
        since = printed_since(kb, str(printed), entries, "qa")  # laid out as the printed FAQ is
        if (since.changes or since.removed) and not reprint(len(since.changes), len(kb.entries)):
            found.append((version, since))
    return found
