"""Every generated page of the site, as Markdown: a pure function of the knowledge base."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import partial

from ..data.reading import vocab
from ..data.reading.model import Game
from ..render.html import Html
from ..render.text import escape_md, inline_html
from ..render.urls import (
    CHANGES_PAGE,
    GO_PAGE,
    PRINT_DIR,
    PRINT_PAGE,
    entry_src,
    faq_src,
    game_src,
    page_url,
    pdf_name,
    question_url,
    tag_src,
)
from . import translators
from .changelog import changes_page
from .context import SiteContext
from .entry_page import entry_page
from .golinks import go_page
from .markup import SiteLinker, front_matter, html_block


def _page(ctx: SiteContext, src: str) -> tuple[SiteLinker, Html]:
    linker = SiteLinker(ctx.kb, page_url(src))
    return linker, Html(ctx.kb, linker, ctx.markdown)


def entry_table(ctx: SiteContext, refs: list[str], src: str) -> str:
    """A table of entries: code, titles (linked) and the one-line answer."""
    linker, h = _page(ctx, src)
    rows = []
    for ref in refs:
        entry = ctx.kb.entries[ref]
        rows.append(
            f'<tr><td><code class="hr-code">{inline_html(entry.code)}</code></td>'
            f'<td><a href="{inline_html(linker.href(entry))}">{inline_html(entry.title["zh"])}</a><br>'
            f'<span class="hr-en" lang="en">{inline_html(entry.title["en"])}</span></td>'
            f"<td>{h.md(entry.summary['zh'])}</td></tr>"
        )
    return (
        '<table class="hr-entries"><thead><tr><th>代码</th><th>条目</th><th>一句话答案</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def game_page(ctx: SiteContext, game: Game) -> str:
    src = game_src(game.id)
    linker, h = _page(ctx, src)
    questions = sum(len(e.questions) for e in ctx.game_entries(game.id))
    out = [
        front_matter(f"{game.name['zh']} {game.name['en']}", (game.data.get("description") or {}).get("zh", "")),
        f"# {escape_md(game.name['zh'])}\n",
        html_block(f'<p class="hr-title-en" lang="en">{inline_html(game.name["en"])}</p>'),
        html_block(h.bilingual(game.data.get("description"), "hr-description")),
        html_block(h.licence_box(game)),
        html_block(translators.game_links(game, linker, questions)),
    ]
    for anchor, title, refs in ctx.sections(game):
        out.append(f"\n## {escape_md(title['zh'])} · {escape_md(title['en'])} {{ #{anchor} }}\n")
        out.append(html_block(entry_table(ctx, refs, src)))
    out.append("\n## 资料来源 · Source documents { #sources }\n")
    out.append(html_block(sources_list(game, h)))
    return "\n".join(out)


def sources_list(game: Game, h: Html) -> str:
    items = []
    for source in game.data["sources"]:
        kind = vocab.SOURCE_KINDS[source["kind"]]["zh"]
        items.append(
            f"<li><strong>{inline_html(source['title']['zh'])}</strong> "
            f'<span lang="en">{inline_html(source["title"]["en"])}</span> '
            f"· {inline_html(kind)}{h.bilingual(source.get('note'))}</li>"
        )
    return f'<ul class="hr-sources">{"".join(items)}</ul>'


def faq_page(ctx: SiteContext, game: Game) -> str:
    """All of a game's questions with their answers, grouped as on the game page: the page a group bookmarks."""
    src = faq_src(game.id)
    linker, h = _page(ctx, src)
    entries = [e for e in ctx.game_entries(game.id) if e.questions]
    count = sum(len(e.questions) for e in entries)
    out = [
        front_matter(f"常见问题 FAQ · {game.name['zh']}", f"{game.name['zh']}：{count} 个常见问题与答案"),
        f"# 常见问题 · FAQ：{escape_md(game.name['zh'])}\n",
        html_block(
            f'<p class="hr-cite">共 {count} 个问题 · {count} questions. '
            f'<a href="{inline_html(linker.url(page_url(game_src(game.id))))}">全部条目 · All entries</a></p>'
        ),
    ]
    if not entries:
        out.append(html_block('<p class="hr-cite">暂无问题。<span lang="en">No questions yet.</span></p>'))
    for anchor, title, refs in ctx.sections(game):
        holders = [ctx.kb.entries[r] for r in refs if ctx.kb.entries[r].questions]
        if not holders:
            continue
        out.append(f"\n## {escape_md(title['zh'])} · {escape_md(title['en'])} {{ #{anchor} }}\n")
        for entry in holders:
            out.append(f"\n### {escape_md(entry.code)} · {escape_md(entry.title['zh'])} {{ #{entry.id} }}\n")
            items = []
            for question in entry.questions:
                href = inline_html(linker.url(question_url(entry, question["id"])))
                flag = ' <span class="hr-flag">存疑</span>' if question.get("confidence") == "uncertain" else ""
                items.append(
                    f'<div class="hr-faq-item" id="{entry.id}--{question["id"]}">'
                    f'<p class="hr-faq-q"><a href="{href}">{inline_html(question["q"]["zh"])}</a>{flag}'
                    f'<br><span class="hr-en" lang="en">{inline_html(question["q"]["en"])}</span></p>'
                    f'<div class="hr-faq-a">{h.bilingual(question["a"])}</div></div>'
                )
            out.append(html_block(f'<div class="hr-faq">{"".join(items)}</div>'))
    return "\n".join(out)


def home_cards(ctx: SiteContext, page: str = "index.html") -> str:
    cards = []
    for game in ctx.kb.games.values():
        entries = ctx.game_entries(game.id)
        kinds = Counter(entry.kind for entry in entries)
        questions = sum(len(e.questions) for e in entries)
        kind_text = " · ".join(f"{vocab.KINDS[k]['zh']} {n}" for k, n in kinds.items())
        seeds = "、".join(s["title"]["zh"] for s in game.data["sources"] if s["kind"] in {"seed", "srd"})
        url = inline_html(SiteLinker(ctx.kb, page).url(page_url(game_src(game.id))))
        cards.append(
            f'<a class="hr-card" href="{url}"><span class="hr-card-title">{inline_html(game.name["zh"])}</span>'
            f'<span class="hr-card-en" lang="en">{inline_html(game.name["en"])}</span>'
            f'<span class="hr-card-count">{len(entries)} 条 · {questions} 问 · {inline_html(kind_text)}</span>'
            f'<span class="hr-card-src">{inline_html(seeds)}</span></a>'
        )
    return f'<div class="hr-cards">{"".join(cards)}</div>'


def licences(ctx: SiteContext, page: str) -> str:
    h = Html(ctx.kb, SiteLinker(ctx.kb, page), ctx.markdown)
    return "".join(
        f"\n### {escape_md(g.name['zh'])} · {escape_md(g.name['en'])}\n" + html_block(h.licence_box(g))
        for g in ctx.kb.games.values()
    )


def tag_index(ctx: SiteContext) -> str:
    linker = SiteLinker(ctx.kb, "tags/index.html")
    items = "".join(
        f'<li><a href="{inline_html(linker.url(page_url(tag_src(t))))}">{inline_html(ctx.tag_names[t]["zh"])}'
        f' <span lang="en">{inline_html(ctx.tag_names[t]["en"])}</span></a> ({len(refs)})</li>'
        for t, refs in sorted(ctx.tagged.items())
    )
    return (
        front_matter("标签 Tags", search={"exclude": True})
        + "# 标签 · Tags\n"
        + html_block(f'<ul class="hr-tags">{items}</ul>')
    )


def tag_page(ctx: SiteContext, tag: str) -> str:
    name = ctx.tag_names[tag]
    return (
        front_matter(f"{name['zh']} {name['en']}", search={"exclude": True})
        + f"# {escape_md(name['zh'])} · {escape_md(name['en'])}\n"
        + html_block(entry_table(ctx, ctx.tagged[tag], tag_src(tag)))
    )


def print_page(ctx: SiteContext) -> str:
    """The site's ``print/index.md``: the PDFs and how to print a group's own FAQ."""
    kb = ctx.kb
    linker = SiteLinker(kb, page_url(PRINT_PAGE))
    rows = [(pdf_name(None), "全部游戏", "All games", len(kb.entries))]
    rows += [(pdf_name(g.id), g.name["zh"], g.name["en"], len(ctx.game_entries(g.id))) for g in kb.games.values()]
    # Raw HTML links: the PDFs are written after MkDocs, so its link check must not see them.
    items = "".join(
        f'<li><a href="{inline_html(linker.url(f"{PRINT_DIR}/{name}"))}">'
        f'{inline_html(zh)} <span lang="en">{inline_html(en)}</span> (PDF)</a> · {count} 条</li>'
        for name, zh, en, count in rows
    )
    return (
        front_matter("打印版 Printed FAQ") + "# 打印版 · Printed FAQ\n\n"
        "A4 PDF：封面、带页码的目录，按网站分组的条目与常见问题；条目间的引用印成代码和页码，方便在纸上查找。"
        "从浏览器打印任何页面也会得到干净的版面。\n\n"
        "*A4 PDFs with a cover, a table of contents with page numbers, and each entry's short answer and questions, "
        "grouped as on the site; cross-references print as codes and page numbers. Printing any page from the "
        "browser also gives a clean page.*\n"
        + html_block(f'<ul class="hr-print-list">{items}</ul>')
        + "\n用 `houserules pdf --layout full` 打印含全部细节的版本，`--profile FILE` 加入本组房规，"
        "`--paper letter` 打印 US Letter。*`houserules pdf --layout full` prints every detail, `--profile FILE` "
        "adds your group's house rules, `--paper letter` prints US Letter.*\n"
    )


def page_makers(ctx: SiteContext) -> dict[str, Callable[[], str]]:
    """Every generated page, in site order: docs-relative path → the function making its Markdown.

    A live preview makes only the pages a change touches (:mod:`houserules.site.incremental`).
    """
    kb = ctx.kb
    makers: dict[str, Callable[[], str]] = {entry_src(e): partial(entry_page, ctx, e) for e in kb.entries.values()}
    for game in kb.games.values():
        makers[game_src(game.id)] = partial(game_page, ctx, game)
        makers[faq_src(game.id)] = partial(faq_page, ctx, game)
    makers["tags/index.md"] = partial(tag_index, ctx)
    makers.update({tag_src(t): partial(tag_page, ctx, t) for t in sorted(ctx.tagged)})
    makers.update(translators.makers(ctx))
    makers[PRINT_PAGE] = partial(print_page, ctx)
    makers[GO_PAGE] = partial(go_page, kb)
    makers[CHANGES_PAGE] = partial(changes_page, kb, ctx.history)
    return makers


def site_pages(ctx: SiteContext) -> dict[str, str]:
    """Every generated page: docs-relative path → Markdown."""
    return {src: make() for src, make in page_makers(ctx).items()}
