"""An entry's page: its blocks laid out for the site, each under a stable anchor."""

from __future__ import annotations

import re
from collections.abc import Callable

from ..data.reading.model import Entry
from ..render import blocks as B
from ..render.html import Html, bilingual_label
from ..render.text import escape_md, inline_html, plain_text
from ..render.urls import entry_url, question_code
from .context import SiteContext, entry_tags
from .markup import SiteLinker, front_matter, heading, html_block

#: The blocks an entry page shows (all of them), in order.
SITE_BLOCKS = B.ORDER
COPY_LABEL = "复制链接 · Copy link"
#: The "link" icon of Material Design Icons (Apache 2.0, shipped with Material for MkDocs).
LINK_ICON = (
    '<svg viewBox="0 0 24 24" width="1em" height="1em" aria-hidden="true" fill="currentColor"><path d="M3.9 12c0-1.71 '
    "1.39-3.1 3.1-3.1h4V7H7a5 5 0 0 0 0 10h4v-1.9H7c-1.71 0-3.1-1.39-3.1-3.1M8 13h8v-2H8v2m9-6h-4v1.9h4c1.71 0 "
    '3.1 1.39 3.1 3.1s-1.39 3.1-3.1 3.1h-4V17h4a5 5 0 0 0 0-10"/></svg>'
)


def copy_button(code: str, anchor: str = "") -> str:
    """A button that copies the link by code to the entry (or to one of its questions); see houserules.js.

    ``code`` is the entry's code or a question's (``BH-A13/must-run``): the copied link is
    ``go.html#<code>``, which lands on the page and the anchor; ``anchor`` is kept for
    the page's own address should the script not know the site's root.
    """
    return (
        f'<button type="button" class="hr-copy" data-go="{inline_html(code)}" data-anchor="{inline_html(anchor)}" '
        f'title="{COPY_LABEL}" aria-label="{COPY_LABEL}">{LINK_ICON}</button>'
    )


class EntryPage:
    """Lays out one entry's blocks as the Markdown of its page."""

    def __init__(self, ctx: SiteContext, entry: Entry):
        self.ctx, self.entry = ctx, entry
        self.page = entry_url(entry)
        self.linker = SiteLinker(ctx.kb, self.page)
        self.h = Html(ctx.kb, self.linker, ctx.markdown)
        self.game = ctx.kb.games[entry.game]

    def markdown(self) -> str:
        entry = self.entry
        # A component's page gathers every ruling about it: the best landing page for its name.
        boost = {"search": {"boost": 2}} if entry.kind in {"component", "term"} else {}
        out = [
            # the description is plain text (link previews, search engines): references by title and code
            front_matter(f"{entry.code} {entry.title['zh']}", plain_text(entry.summary["zh"], self.linker), **boost),
            f"# {escape_md(entry.code)} · {escape_md(entry.title['zh'])} "
            f'<small class="hr-title-en" lang="en">{escape_md(entry.title["en"])}</small>\n',
            html_block(f'<p class="hr-badges">{self.badges()} {copy_button(entry.code)}</p>'),
        ]
        found = {block.kind: block for block in self.ctx.blocks.blocks(entry)}
        out += [LAYOUT[kind](self, found[kind]) for kind in SITE_BLOCKS if kind in found]
        out.append(self.edit_links())
        return "\n".join(out)

    def edit_links(self) -> str:
        """编辑此条目 and 报告错误: to the entry's file and a pre-filled issue, when the site names its repository."""
        repo = self.ctx.repo
        if repo is None:
            return self.report_line()
        links = [
            (url, label)
            for url, label in (
                (repo.edit_url(self.entry), ("编辑此条目", "Edit this entry")),
                (repo.issue_url(self.entry), ("报告错误", "Suggest a correction")),
            )
            if url
        ]
        if not links:
            return ""
        items = " · ".join(
            f'<a href="{inline_html(url)}">{zh} <span lang="en">{en}</span></a>' for url, (zh, en) in links
        )
        return html_block(f'<p class="hr-edit" data-block="edit">{items}</p>')

    def report_line(self) -> str:
        """How to report a wrong text, for a site without a repository: the entry's code and the group's channel
        (``extra.report`` in mkdocs.yml: an address or a sentence); nothing when neither is set."""
        report = self.ctx.report
        if not report:
            return ""
        code = f'<code class="hr-code">{inline_html(self.entry.code)}</code>'
        if re.match(r"(https?://|mailto:)\S+$", report):
            where = f'<a href="{inline_html(report)}">{inline_html(report.removeprefix("mailto:"))}</a>'
        else:
            where = inline_html(report)
        return html_block(
            f'<p class="hr-edit" data-block="report">发现错误？请注明代码 {code} 告诉我们：{where}'
            f'<br><span lang="en">Found a mistake? Tell us, citing {code}: {where}</span></p>'
        )

    # -- helpers ------------------------------------------------------------------------------
    def badges(self) -> str:
        spans = []
        for tag in entry_tags(self.entry):
            name = self.ctx.tag_names[tag]
            spans.append(
                f'<a class="hr-badge hr-badge--{inline_html(tag)}" href="{inline_html(self.linker.url(f"tags/{tag}.html"))}">'
                f"{inline_html(name['zh'])}</a>"
            )
        return " ".join(spans)

    def boxed(self, block: B.Block, css: str, inner: str) -> str:
        return html_block(
            f'<div class="{css}" data-block="{block.kind}"><p class="hr-answer-label">'
            f"{bilingual_label(block.label)}</p>{inner}</div>"
        )

    def section(self, block: B.Block, inner: str) -> str:
        anchor = "details" if block.kind == "body" else block.kind
        return heading(2, block.label, anchor, block.kind) + html_block(inner)

    # -- one method per block -------------------------------------------------------------------
    def answer(self, block: B.Block) -> str:
        return self.boxed(block, "hr-answer", self.h.bilingual(block.data))

    def questions(self, block: B.Block) -> str:
        out = [self.section(block, "")]
        for question in block.data:
            flag = (
                '<span class="hr-flag">存疑 · <span lang="en">uncertain</span></span> '
                if question.get("confidence") == "uncertain"
                else ""
            )
            out.append(f"\n### {escape_md(question['q']['zh'])} {{ #{question['id']} .hr-question }}\n")
            out.append(
                html_block(
                    f'<div class="hr-qa"><p class="hr-q-en" lang="en">{inline_html(question["q"]["en"])}</p>'
                    f'<div class="hr-qa-answer">{self.h.bilingual(question["a"])}</div>'
                    f'<p class="hr-cite">{flag}出处 · Source: {self.h.question_source(self.entry, question)} '
                    f"{copy_button(question_code(self.entry, question['id']), question['id'])}</p></div>"
                )
            )
        return "".join(out)

    def aliases(self, block: B.Block) -> str:
        names = " · ".join(f"<span>{inline_html(a)}</span>" for a in block.data)
        return html_block(
            f'<p class="hr-aliases" data-block="aliases"><span class="hr-answer-label">'
            f"{bilingual_label(block.label)}</span> {names}</p>"
        )

    def uncertain(self, block: B.Block) -> str:
        return self.boxed(block, "hr-warning", self.h.bilingual(block.data))

    def stale(self, block: B.Block) -> str:
        return self.notice(block, "hr-warning hr-warning--stale")

    def stub(self, block: B.Block) -> str:
        return self.notice(block, "hr-warning hr-warning--stub")

    def notice(self, block: B.Block, css: str) -> str:
        text = B.NOTICES[block.kind]
        return html_block(
            f'<div class="{css}" data-block="{block.kind}"><p>{inline_html(text["zh"])}'
            f'<span lang="en">{inline_html(text["en"])}</span></p></div>'
        )

    def body(self, block: B.Block) -> str:
        return self.section(block, self.h.bilingual(block.data, "hr-body"))

    def completion(self, block: B.Block) -> str:
        sources = "; ".join(self.h.source_label(self.game, s) for s in block.data["sources"])
        note = B.NOTICES["completion"]
        return self.section(
            block,
            f'<div class="hr-completion"><p class="hr-answer-label">{inline_html(note["zh"])} · '
            f'<span lang="en">{inline_html(note["en"])}</span></p>'
            f'{self.h.bilingual(block.data["text"])}<p class="hr-cite">{sources}</p></div>',
        )

    def facts(self, block: B.Block) -> str:
        return self.section(block, self.h.facts_table(self.game, block.data))

    def errata(self, block: B.Block) -> str:
        return self.section(block, self.h.errata_table(block.data))

    def links(self, block: B.Block) -> str:
        return self.section(block, self.h.link_list(block.data, with_summary=block.kind == "rulings"))

    def translator_notes(self, block: B.Block) -> str:
        return self.section(block, self.h.translator_notes(self.game, block.data))

    def sources(self, block: B.Block) -> str:
        items = "".join(f"<li>{self.h.source_label(self.game, s)}</li>" for s in block.data)
        return self.section(block, f'<ul class="hr-sources">{items}</ul>')

    def meta(self, block: B.Block) -> str:
        data = block.data
        rows = [
            ("引用代码 · Code", f'<code class="hr-code">{inline_html(data["code"])}</code>'),
            ("类型 · Kind", inline_html(data["kind"]["zh"])),
            ("权威性 · Authority", inline_html(data["authority"]["zh"])),
            ("可信度 · Confidence", inline_html(data["confidence"]["zh"])),
        ]
        if data["scope"]:
            rows.append(("适用范围 · Scope", inline_html(" / ".join(name["zh"] for name in data["scope"]))))
        cells = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows)
        return html_block(f'<table class="hr-meta" data-block="meta">{cells}</table>')

    def history(self, block: B.Block) -> str:
        items = "".join(
            f"<li><time>{inline_html(h['date'])}</time> {inline_html(h['change'])}</li>" for h in block.data
        )
        return self.section(block, f'<ul class="hr-history">{items}</ul>')


LAYOUT: dict[str, Callable[[EntryPage, B.Block], str]] = {
    "answer": EntryPage.answer,
    "questions": EntryPage.questions,
    "aliases": EntryPage.aliases,
    "uncertain": EntryPage.uncertain,
    "stale": EntryPage.stale,
    "stub": EntryPage.stub,
    "body": EntryPage.body,
    "completion": EntryPage.completion,
    "facts": EntryPage.facts,
    "errata": EntryPage.errata,
    "applies-to": EntryPage.links,
    "rulings": EntryPage.links,
    "see-also": EntryPage.links,
    "referenced-by": EntryPage.links,
    "translator-notes": EntryPage.translator_notes,
    "sources": EntryPage.sources,
    "meta": EntryPage.meta,
    "history": EntryPage.history,
}
assert set(LAYOUT) == set(B.ORDER), "every block needs a site layout"


def entry_page(ctx: SiteContext, entry: Entry) -> str:
    """The Markdown of an entry's page."""
    return EntryPage(ctx, entry).markdown()
