"""更新记录 · What changed: the versions of the data with the entries each added, changed and removed, and its Atom feed.

Both are pure functions of the knowledge base and its :class:`~houserules.data.versions.history.History`.
Titles, codes and commit subjects are data: they go in escaped. A long history is cut
to the newest versions, and a version that touched thousands of entries (a first
import) to its first items, so the page stays a page.
"""

from __future__ import annotations

import re
import uuid
import xml.etree.ElementTree as etree

from ..check.wording import shown_subject, subject_pattern
from ..data.reading import vocab
from ..data.reading.model import KnowledgeBase
from ..data.versions.entrychanges import EntryChange, aspect_names
from ..data.versions.history import History, Version
from ..data.versions.version import SHORT, game_version
from ..print.inserts import insert_path, inserts
from ..render.html import bilingual_label
from ..render.text import inline_html, xml_text
from ..render.urls import CHANGES_FEED, CHANGES_PAGE, entry_url, page_url
from .markup import front_matter, html_block

#: The newest versions the page lists and the feed carries.
PAGE_VERSIONS = 100
FEED_VERSIONS = 30
#: The items of one kind (added, changed, removed) shown for one version.
ITEMS = 200
ATOM = "http://www.w3.org/2005/Atom"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
XML_BASE = "{http://www.w3.org/XML/1998/namespace}base"


def anchor(version: Version) -> str:
    return f"v-{version.short}"


def _item(kb: KnowledgeBase, change: EntryChange, href) -> str:
    """One entry of a version: its code, its title (linked while it exists) and, if changed, what changed."""
    entry = kb.entries.get(change.ref)
    title = inline_html(change.title["zh"])
    if entry is not None and change.status != "removed":
        title = f'<a href="{inline_html(href(entry_url(entry)))}">{title}</a>'
    english = (
        f' <span class="hr-en" lang="en">{inline_html(change.title["en"])}</span>' if change.title.get("en") else ""
    )
    what = ""
    if change.status == "changed" and change.aspects:
        names = aspect_names(change)
        what = (
            f'<br><span class="hr-changed">{inline_html("、".join(n["zh"] for n in names))}'
            f' · <span lang="en">{inline_html(", ".join(n["en"] for n in names))}</span></span>'
        )
    return f'<li><code class="hr-code">{inline_html(change.code)}</code> {title}{english}{what}</li>'


def version_html(kb: KnowledgeBase, version: Version, href) -> str:
    """The lists of one version: added, changed, removed (each at most :data:`ITEMS` long), then other files."""
    out = []
    for status, label in vocab.CHANGE_STATUSES.items():
        changes = version.of(status)
        if not changes:
            continue
        items = "".join(_item(kb, c, href) for c in changes[:ITEMS])
        if len(changes) > ITEMS:
            items += f'<li class="hr-cite">……另 {len(changes) - ITEMS} 条 · <span lang="en">and {len(changes) - ITEMS} more</span></li>'
        out.append(
            f'<p class="hr-change-kind hr-change-kind--{status}">{bilingual_label(label)}（{len(changes)}）</p>'
            f'<ul class="hr-changes hr-changes--{status}" data-status="{status}">{items}</ul>'
        )
    if version.others:
        names = "；".join(
            f"{inline_html(kb.games[g].name['zh'] if g in kb.games else g)} "
            f"{bilingual_label(vocab.CHANGED_FILES[kind])}"
            for g, kind in version.others
        )
        out.append(f'<p class="hr-cite hr-changed-files">另有更改 · <span lang="en">Also changed</span>：{names}</p>')
    if not out:
        out.append('<p class="hr-cite">没有条目变化。<span lang="en">No entry changed.</span></p>')
    return "".join(out)


def _heading(version: Version, current: bool) -> str:
    """``3b0fbf2c · 2026-11-30``: the version's hash and the day it was committed (or that it is not)."""
    when = "未提交 · uncommitted" if version.commit is None else version.date
    return f"{version.short} · {when}" + ("（当前 · current）" if current else "")


def _cite(version: Version, words: re.Pattern[str]) -> str:
    """The commit under a version's heading: its short id and subject (a commit subject is data: escaped, and
    shown neutral when it uses a production word)."""
    if version.commit is None:
        return '<p class="hr-cite">工作目录中尚未提交的更改 · <span lang="en">changes not committed yet</span></p>'
    subject = f" · {inline_html(shown_subject(version.subject, words))}" if version.subject else ""
    return f'<p class="hr-cite">提交 · <span lang="en">commit</span> <code>{inline_html(version.commit[:10])}</code>{subject}</p>'


def game_trees(kb: KnowledgeBase, history: History, version: Version) -> dict[str, str]:
    """Each game's folder hash in ``version`` (what that game's own PDF prints), in the order of the games."""
    if version.commit is None or version is history.versions[0]:
        trees = {g: game_version(kb, g).tree for g in kb.games} if kb.root is not None else {}
    else:
        trees = history.game_trees.get(version.commit, {})
    return {g: trees[g] for g in kb.games if g in trees}


def _game_versions(kb: KnowledgeBase, trees: dict[str, str], first: dict[tuple[str, str], Version], version) -> str:
    """The line under a version naming each game's version, so a game's printout is found on the page too.

    A game's version carries an anchor (``v-<game>-<hash>``) where it first appears, the oldest version holding it.
    """
    if not trees:
        return ""
    items = []
    for game, tree in trees.items():
        short = tree[:SHORT]
        anchor_id = f' id="v-{inline_html(game)}-{short}"' if first.get((game, tree)) is version else ""
        name = kb.games[game].name
        items.append(
            f'{inline_html(name["zh"])} <span lang="en">{inline_html(name["en"])}</span> '
            f'<code class="hr-code"{anchor_id}>{short}</code>'
        )
    return (
        '<p class="hr-cite hr-game-versions" data-block="game-versions">各游戏的版本 · <span lang="en">'
        f"Each game's version</span>：{'；'.join(items)}</p>"
    )


def _insert_link(version: Version) -> str:
    """The ready PDF of what changed since ``version``, for a group whose printout names it."""
    return (
        f'<p class="hr-insert" data-block="insert"><a class="md-button" href="{insert_path(version)}" download>'
        f"下载自 {version.short} 以来的更改（PDF）· "
        f'<span lang="en">Changes since {version.short} (PDF)</span></a> '
        f'<br><span class="hr-cite">夹进印有此版本的打印版 · <span lang="en">for a printout of this version</span></span></p>'
    )


def changes_page(kb: KnowledgeBase, history: History | None, offered: list[Version] | None = None) -> str:
    """The Markdown of ``changes.md``; ``offered``: the versions with a ready insert (default: :func:`inserts`)."""
    words = subject_pattern(kb)

    def href(path: str) -> str:
        return path  # the page is at the site root

    out = [
        front_matter("更新记录 What changed", "每个数据版本新增、更改和删除的条目", search={"exclude": True}),
        "# 更新记录 · What changed\n",
    ]
    if history is None:
        out.append(html_block('<p class="hr-cite">没有数据版本。<span lang="en">No data version.</span></p>'))
        return "\n".join(out)
    current = history.versions[0]
    out.append(
        html_block(
            f'<div class="hr-answer" data-block="data-version"><p class="hr-answer-label">当前数据版本 · '
            f'<span lang="en">Current data version</span></p><p><code class="hr-code">{inline_html(str(current.version))}'
            f"</code></p>{_current_games(kb)}"
            f'<p class="hr-cite">打印版封面印有它的版本（全部游戏的打印版印整个文件夹的版本，单个游戏的打印版印该游戏的版本），'
            f"在下面找到它，下载此后的更改；或运行 <code>houserules pdf --changes-since 版本</code>。"
            f"<span lang=\"en\">A printed FAQ's cover names its version (the all-games PDF the whole folder's, "
            f"a game's PDF that game's): find it below and download what changed since, or run <code>houserules pdf "
            f"--changes-since VERSION</code>.</span> "
            f'<a href="{CHANGES_FEED}" type="application/atom+xml">订阅 · Atom feed</a></p></div>'
        )
    )
    if not history.from_git:
        out.append(
            html_block(
                f'<div class="hr-warning" data-block="no-history"><p>此站点构建时没有数据的 git 历史，只显示当前版本。'
                f'<span lang="en">This site was built without the git history of the data ({inline_html(history.note)}), '
                f"so only the current version is shown.</span></p></div>"
            )
        )
        return "\n".join(out)
    ready = {v.version.tree for v in (offered if offered is not None else [v for v, _ in inserts(kb, history)])}
    shown = history.versions[:PAGE_VERSIONS]
    trees = {id(v): game_trees(kb, history, v) for v in shown}
    first: dict[tuple[str, str], Version] = {}
    for version in shown:  # newest first: the last one seen is the oldest holding a game's version
        for game, tree in trees[id(version)].items():
            first[(game, tree)] = version
    for version in shown:
        out.append(f"\n## {inline_html(_heading(version, version is current))} {{ #{anchor(version)} }}\n")
        insert = _insert_link(version) if version.version.tree in ready and version is not current else ""
        out.append(
            html_block(
                f'<div class="hr-version" data-block="version">{_cite(version, words)}'
                f"{_game_versions(kb, trees[id(version)], first, version)}{insert}"
                f"{version_html(kb, version, href)}</div>"
            )
        )
    if len(history.versions) > PAGE_VERSIONS:
        older = len(history.versions) - PAGE_VERSIONS
        out.append(
            html_block(
                f'<p class="hr-cite">更早的 {older} 个版本见 git 历史。'
                f'<span lang="en">{older} older versions: see the git history.</span></p>'
            )
        )
    return "\n".join(out)


def _current_games(kb: KnowledgeBase) -> str:
    """Each game's current version as its own PDF's cover prints it."""
    if kb.root is None:
        return ""
    items = "；".join(
        f'{inline_html(g.name["zh"])} <span lang="en">{inline_html(g.name["en"])}</span> '
        f'<code class="hr-code">{inline_html(str(game_version(kb, g.id)))}</code>'
        for g in kb.games.values()
    )
    return (
        f'<p class="hr-cite hr-game-versions">各游戏的版本 · <span lang="en">Each game\'s version</span>：{items}</p>'
    )


def _uuid(name: str) -> str:
    """A stable id for ``name``; what no XML can carry (a lone surrogate UTF-8 cannot encode) is left out first."""
    return f"urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, 'houserules:' + xml_text(name))}"


def _sub(parent: etree.Element, tag: str, text: str | None = None, **attributes: str) -> etree.Element:
    element = etree.SubElement(parent, f"{{{ATOM}}}{tag}", attributes)
    if text is not None:
        element.text = xml_text(text)
    return element


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
    _sub(feed, "updated", f"{versions[0].date}T00:00:00Z" if versions else "1970-01-01T00:00:00Z")
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
            _sub(entry, "updated", f"{version.date}T00:00:00Z")
            _sub(entry, "link", rel="alternate", type="text/html", href=page_url(CHANGES_PAGE))
            _sub(
                entry,
                "content",
                f"<p>没有数据的 git 历史，无法列出更改。No git history of the data "
                f"({inline_html(history.note)}): the changes are not listed.</p>",
                type="html",
            )
            continue
        _sub(entry, "title", f"数据版本 {version.version}：{_summary(version)}")
        _sub(entry, "id", _uuid(f"data:{version.version.tree}"))
        _sub(entry, "updated", f"{version.date}T00:00:00Z")
        _sub(entry, "link", rel="alternate", type="text/html", href=f"{page_url(CHANGES_PAGE)}#{anchor(version)}")
        subject = f"<p>{inline_html(shown_subject(version.subject, words))}</p>" if version.subject else ""
        _sub(entry, "content", subject + version_html(kb, version, lambda path: path), type="html")
    etree.indent(feed)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + etree.tostring(feed, encoding="unicode") + "\n"
