"""纠错 · Report: the control beside every answer of an entry page (its one-line answer and each question's).

Where it leads, in order: a new issue on the site's repository (``repo_url`` in mkdocs.yml, GitHub's or
GitLab's form: :meth:`~houserules.site.repo.RepoLinks.issue_url`), prefilled with the entry's code, the
question's citation (``BH-A13/must-move``), the page and the data version; else the group's channel,
``extra.report`` in mkdocs.yml: an address, ``https://…`` or ``mailto:…``, where ``{cite}``, ``{code}``,
``{question}``, ``{title}``, ``{page}`` and ``{version}`` are filled in (a ``mailto:`` without them gets a
subject and a body), or a sentence ("在群里 @管理员"); with neither, the citation itself (code, question,
page, data version) to copy and hand on. The citation's data version comes from ``version.js`` when it is
opened, so the pages stay the same from one data version to the next (a live preview and a build into an
earlier site render only the pages a change shows); an issue's body and ``{version}`` name it in the address. So the control is never absent. What the data gives (titles,
questions) is percent-encoded whole into an address, and the page escapes the rest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import quote

from ..data.reading.model import Entry
from ..render.urls import entry_url, question_url
from .repo import RepoLinks

#: What a channel's address may name, each filled in percent-encoded.
PLACEHOLDERS = ("cite", "code", "question", "title", "page", "version")
_PLACEHOLDER = re.compile(r"\{(" + "|".join(PLACEHOLDERS) + r")\}")
#: A channel that is an address (anything else is a sentence, shown as text).
_ADDRESS = re.compile(r"(?:https?://|mailto:)\S+\Z")


@dataclass(frozen=True)
class Report:
    """The control of one answer: where it leads, or the citation to copy."""

    #: ``issue`` (a new issue), ``channel`` (the group's address) or ``cite`` (the citation to copy).
    kind: str
    href: str | None
    #: ``BH-A13`` or ``BH-A13/must-move``.
    cite: str
    #: The citation's parts: the code and question (or title), the page (the public address with ``site_url``,
    #: else the page's path in the site, which the copy button completes from the address the reader has
    #: open), the data version ("" without one). The page shows the version from ``version.js`` (loaded when
    #: a citation opens), never written into it: no page changes with every data version.
    head: str
    page: str
    version: str
    #: The answer's anchor on the page ("" for the one-line answer).
    anchor: str
    #: The group's channel when it is a sentence, not an address.
    channel: str | None = None
    #: The changes page from the entry's page (the data version, for a reader without script).
    versions: str = ""

    @property
    def text(self) -> str:
        """The whole citation: what the reader copies and hands on."""
        version = f"数据版本 · Data version {self.version}" if self.version else ""
        return " · ".join(part for part in (self.head, self.page, version) if part)


def channel_url(channel: str, fields: dict[str, str]) -> str | None:
    """The group's channel (``extra.report``) as an address for one answer; None when it is a sentence.

    >>> channel_url("https://example.org/form?about={cite}&p={page}", {"cite": "BH-A13/x", "page": "a.html#x"})
    'https://example.org/form?about=BH-A13%2Fx&p=a.html%23x'
    >>> channel_url("mailto:group@example.org", {"cite": "BH-A13", "title": "魔梯 & <b>"})
    'mailto:group@example.org?subject=%5BBH-A13%5D%20%E9%AD%94%E6%A2%AF%20%26%20%3Cb%3E'
    >>> channel_url("在群里 @管理员", {}) is None
    True
    """
    channel = channel.strip()
    if not _ADDRESS.match(channel):
        return None
    if _PLACEHOLDER.search(channel):
        return _PLACEHOLDER.sub(lambda m: quote(fields.get(m.group(1), ""), safe=""), channel)
    if channel.startswith("mailto:") and "?" not in channel:
        subject = f"[{fields.get('cite', '')}] {fields.get('title', '')}".strip()
        body = fields.get("body")
        return f"{channel}?subject={quote(subject, safe='')}" + (f"&body={quote(body, safe='')}" if body else "")
    return channel


def answer_report(
    entry: Entry,
    question: str,
    repo: RepoLinks | None,
    channel: str | None,
    site_url: str | None,
    version: str,
    versions: str = "",
) -> Report:
    """The control beside one answer of ``entry``: its one-line answer (``question`` "") or a question's."""
    asked = next((q for q in entry.questions if q.id == question), None) if question else None
    cite = f"{entry.code}/{question}" if asked else entry.code
    page = question_url(entry, question) if asked else entry_url(entry)
    page = (site_url.rstrip("/") + "/" + page) if site_url else page
    title = f"{asked.q['zh']} · {asked.q['en']}" if asked else f"{entry.title['zh']} · {entry.title['en']}"
    head = f"{cite} {title}"
    anchor = question if asked else ""
    issue = repo.issue_url(entry, question if asked else "") if repo is not None else None
    if issue:
        return Report("issue", issue, cite, head, page, version, anchor)
    if channel:
        fields = {
            "cite": cite,
            "code": entry.code,
            "question": question if asked else "",
            "title": title,
            "page": page,
            "version": version,
        }
        fields["body"] = Report("cite", None, cite, head, page, "", anchor).text  # {version} names it
        href = channel_url(channel, fields)
        if href is not None:
            return Report("channel", href, cite, head, page, version, anchor)
        return Report("cite", None, cite, head, page, version, anchor, channel.strip(), versions)
    return Report("cite", None, cite, head, page, version, anchor, None, versions)
