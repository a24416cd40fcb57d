"""An entry's page: its blocks laid out for the site by the entry templates (``render/templates/``),
each under a stable anchor."""

from __future__ import annotations

import re
from typing import Any

from ..data.reading.model import Entry
from ..render import blocks as B
from ..render.html import Html, entry_html
from ..render.text import plain_text
from ..render.urls import entry_url, question_code
from .context import SiteContext, entry_tags
from .markup import SiteLinker, front_matter

#: The blocks an entry page shows (all of them), in order.
SITE_BLOCKS = B.ORDER


class EntryPage:
    """Lays out one entry's blocks as the Markdown of its page."""

    def __init__(self, ctx: SiteContext, entry: Entry):
        self.ctx, self.entry = ctx, entry
        self.page = entry_url(entry)
        self.linker = SiteLinker(ctx.kb, self.page)
        self.h = Html(ctx.kb, self.linker, ctx.markdown)

    def markdown(self) -> str:
        entry = self.entry
        # A component's page gathers every ruling about it: the best landing page for its name.
        boost = {"search": {"boost": 2}} if entry.kind in {"component", "term"} else {}
        # the description is plain text (link previews, search engines): references by title and code
        head = front_matter(f"{entry.code} {entry.title['zh']}", plain_text(entry.summary["zh"], self.linker), **boost)
        found = {block.kind: block for block in self.ctx.blocks.blocks(entry)}
        page = entry_html(
            self.h,
            "site",
            entry,
            [found[kind] for kind in SITE_BLOCKS if kind in found],
            question_code=question_code,
            badges=self.badges(),
            edit_links=self.edit_links(),
            report=self.report(),
        )
        return f"{head}\n{page}"

    def badges(self) -> list[dict[str, str]]:
        """The entry's tags, each linked to its tag page."""
        return [
            {"tag": tag, "name": self.ctx.tag_names[tag]["zh"], "href": self.linker.url(f"tags/{tag}.html")}
            for tag in entry_tags(self.entry)
        ]

    def edit_links(self) -> list[dict[str, str]] | None:
        """编辑此条目 and 报告错误: to the entry's file and a pre-filled issue, when the site names its repository."""
        repo = self.ctx.repo
        if repo is None:
            return None
        return [
            {"url": url, "zh": zh, "en": en}
            for url, (zh, en) in (
                (repo.edit_url(self.entry), ("编辑此条目", "Edit this entry")),
                (repo.issue_url(self.entry), ("报告错误", "Suggest a correction")),
            )
            if url
        ]

    def report(self) -> dict[str, Any] | None:
        """How to report a wrong text, for a site without a repository: the group's channel (``extra.report``
        in mkdocs.yml: an address, linked, or a sentence); none when it is not set."""
        report = self.ctx.report
        if not report:
            return None
        link = re.match(r"(https?://|mailto:)\S+$", report) is not None
        return {"href": report if link else None, "shown": report.removeprefix("mailto:") if link else report}


def entry_page(ctx: SiteContext, entry: Entry) -> str:
    """The Markdown of an entry's page."""
    return EntryPage(ctx, entry).markdown()
