"""An entry's page: its blocks laid out for the site by the entry templates (``render/templates/``),
each under a stable anchor."""

from __future__ import annotations

from ..data.reading.model import Entry
from ..render import blocks as B
from ..render.html import Html, entry_html
from ..render.text import plain_text
from ..render.urls import CHANGES_PAGE, entry_url, page_url, question_code
from .context import SiteContext, entry_tags
from .markup import SiteLinker, front_matter
from .report import Report, answer_report

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
            report_for=self.report_for,
        )
        return f"{head}\n{page}"

    def badges(self) -> list[dict[str, str]]:
        """The entry's tags, each linked to its tag page."""
        return [
            {"tag": tag, "name": self.ctx.tag_names[tag]["zh"], "href": self.linker.url(f"tags/{tag}.html")}
            for tag in entry_tags(self.entry)
        ]

    def edit_links(self) -> list[dict[str, str]] | None:
        """编辑此条目: to the entry's file, when the site names its repository (the reports are beside the answers)."""
        repo = self.ctx.repo
        url = repo.edit_url(self.entry) if repo is not None else None
        return [{"url": url, "zh": "编辑此条目", "en": "Edit this entry"}] if url else None

    def report_for(self, question: str = "") -> Report:
        """The 纠错 · Report control beside the one-line answer (``question`` "") or a question's answer."""
        ctx = self.ctx
        version = str(ctx.version) if ctx.version is not None else ""
        versions = self.linker.url(page_url(CHANGES_PAGE))
        return answer_report(self.entry, question, ctx.repo, ctx.report, ctx.site_url, version, versions)


def entry_page(ctx: SiteContext, entry: Entry) -> str:
    """The Markdown of an entry's page."""
    return EntryPage(ctx, entry).markdown()
