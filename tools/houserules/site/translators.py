"""The translators' pages: errata (per game and for all), glossary and translator notes, their links and nav."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from ..data.reading import vocab
from ..data.reading.model import Game
from ..render.blocks import Erratum
from ..render.html import Html
from ..render.text import escape_md, inline_html
from ..render.urls import download_url, errata_src, faq_src, glossary_src, notes_src, page_url, translators_src
from .markup import SiteLinker, front_matter, html_block

if TYPE_CHECKING:
    from .context import SiteContext

#: The pages every game has, in the order they are linked: (docs path, Chinese, English).
GAME_PAGES = (
    (faq_src, "常见问题", "FAQ"),
    (glossary_src, "术语表", "Glossary"),
    (errata_src, "勘误", "Errata"),
    (notes_src, "译注", "Translator notes"),
    (translators_src, "译者下载", "For translators"),
)
ALL_ERRATA = (errata_src(None), "全部勘误", "All errata")
ALL_TRANSLATORS = (translators_src(None), "译者 · 全部游戏", "For translators: all games")


def game_links(game: Game, linker: SiteLinker, questions: int) -> str:
    """The line of links from a game's page to its FAQ and translators' pages."""
    links = " · ".join(
        f'<a href="{inline_html(linker.url(page_url(src(game.id))))}">{zh} <span lang="en">{en}</span>'
        + (f" ({questions})" if src is faq_src else "")
        + "</a>"
        for src, zh, en in GAME_PAGES
    )
    return f'<p class="hr-translators">{links}</p>'


def nav(kb: Any) -> list[dict[str, Any]]:
    """A nav section with the errata of all games and each game's FAQ and translators' pages."""
    items: list[dict[str, Any]] = [
        {f"{ALL_TRANSLATORS[1]} {ALL_TRANSLATORS[2]}": ALL_TRANSLATORS[0]},
        {f"{ALL_ERRATA[1]} {ALL_ERRATA[2]}": ALL_ERRATA[0]},
    ]
    for game in kb.games.values():
        items.append(
            {f"{game.name['zh']} {game.name['en']}": [{f"{zh} {en}": src(game.id)} for src, zh, en in GAME_PAGES]}
        )
    return [{"译者 Translators": items}]


def _errata(ctx: SiteContext, game_id: str) -> list[Erratum]:
    return ctx.errata_by_game.get(game_id, [])


def _counts(records: list[Erratum]) -> str:
    counts = Counter(record.data["status"] for record in records)
    parts = " · ".join(f"{vocab.ERRATA_STATUSES[s]['zh']} {counts[s]}" for s in vocab.ERRATA_STATUSES if counts[s])
    return f'<p class="hr-cite">共 {len(records)} 条勘误 · {len(records)} errata{"：" + parts if parts else ""}</p>'


_INTRO = (
    "<p>印刷文本中删去的部分<del>划掉</del>，更正文本中新增的部分<ins>高亮</ins>：中文逐字比较，英文逐词比较。"
    '<span lang="en">Removed text is struck through in the printed column and added text highlighted in the '
    "corrected column (Chinese compared character by character, English word by word).</span></p>"
)
_NONE = '<p class="hr-cite">暂无勘误。<span lang="en">No errata yet.</span></p>'


def errata_page(ctx: SiteContext, game: Game | None = None) -> str:
    """The errata page of one game, or of all games (one section per game)."""
    src = errata_src(game.id if game else None)
    h = Html(ctx.kb, SiteLinker(ctx.kb, page_url(src)), ctx.markdown)
    if game is not None:
        records = _errata(ctx, game.id)
        return "\n".join(
            [
                front_matter(f"勘误 Errata · {game.name['zh']}"),
                f"# 勘误 · Errata：{escape_md(game.name['zh'])}\n",
                html_block(_INTRO),
                html_block(_counts(records)),
                html_block(h.errata_table(records) if records else _NONE),
            ]
        )
    out = [front_matter("全部勘误 All errata"), "# 全部勘误 · All errata\n", html_block(_INTRO)]
    found = False
    for each in ctx.kb.games.values():
        records = _errata(ctx, each.id)
        if records:
            found = True
            out.append(f"\n## {escape_md(each.name['zh'])} · {escape_md(each.name['en'])} {{ #{each.id} }}\n")
            out.append(html_block(_counts(records) + h.errata_table(records)))
    if not found:
        out.append(html_block(_NONE))
    return "\n".join(out)


def glossary_page(ctx: SiteContext, game: Game) -> str:
    """A table of every term of a game, sorted by English name, for translators to scan and search."""
    linker = SiteLinker(ctx.kb, page_url(glossary_src(game.id)))
    h = Html(ctx.kb, linker, ctx.markdown)
    out = [
        front_matter(f"术语表 Glossary · {game.name['zh']}", f"{game.name['zh']} 中英术语对照"),
        f"# 术语表 · Glossary：{escape_md(game.name['zh'])}\n",
        html_block(
            "<p>统一译名：标题与正文使用“中文”一栏的译法；“弃用写法”一栏的译法由 <code>houserules check</code> 报告。"
            '<span lang="en">Preferred translations: titles and text use the Chinese column; '
            "<code>houserules check</code> reports the deprecated forms.</span></p>"
            f'<p>下载术语表（TBX、CSV）与全部译文文件：<a href="{inline_html(linker.url(page_url(translators_src(game.id))))}">'
            f'译者下载 <span lang="en">For translators</span></a></p>'
        ),
    ]
    glossary = game.glossary.terms if game.glossary else []
    if not glossary:
        out.append(html_block('<p class="hr-cite">暂无术语表。<span lang="en">No glossary yet.</span></p>'))
        return "\n".join(out)
    rows = []
    for term in sorted(glossary, key=lambda t: t["en"].casefold()):
        variants = "、".join(inline_html(v) for v in term.get("variants", []))
        deprecated = "、".join(f"<del>{inline_html(d)}</del>" for d in term.get("deprecated", []))
        target = ctx.kb.entries.get(term.get("entry", ""))
        link = (
            f'<a href="{inline_html(linker.href(target))}"><code class="hr-code">{inline_html(target.code)}</code></a>'
            if target
            else ""
        )
        rows.append(
            f'<tr id="term-{inline_html(term["id"])}"><td lang="en">{inline_html(term["en"])}</td>'
            f'<td lang="zh"><strong>{inline_html(term["zh"])}</strong></td><td lang="zh">{variants}</td>'
            f'<td class="hr-printed" lang="zh">{deprecated}</td>'
            f"<td>{h.bilingual(term.get('note'))}</td><td>{link}</td></tr>"
        )
    head = (
        "<tr><th>英文 English</th><th>中文 Chinese</th><th>认可写法 Admitted</th><th>弃用写法 Deprecated</th>"
        "<th>说明 Note</th><th>条目 Entry</th></tr>"
    )
    out.append(html_block(f'<table class="hr-glossary"><thead>{head}</thead><tbody>{"".join(rows)}</tbody></table>'))
    return "\n".join(out)


def notes_page(ctx: SiteContext, game: Game) -> str:
    """One section per entry holding translator notes, each note as on the entry's own page."""
    linker = SiteLinker(ctx.kb, page_url(notes_src(game.id)))
    h = Html(ctx.kb, linker, ctx.markdown)
    holders = [e for e in ctx.game_entries(game.id) if e.data.get("translator_notes")]
    count = sum(len(e.data["translator_notes"]) for e in holders)
    out = [
        front_matter(f"译注 Translator notes · {game.name['zh']}"),
        f"# 译注 · Translator notes：{escape_md(game.name['zh'])}\n",
        html_block(
            '<p>原始资料中有误或存疑的段落：原文引文、问题与建议。<span lang="en">Passages of the source '
            "documents that are wrong or uncertain: the quotation, the problem and a suggestion.</span></p>"
            f'<p class="hr-cite">共 {count} 条 · {count} notes</p>'
        ),
    ]
    if not holders:
        out.append(html_block('<p class="hr-cite">暂无译注。<span lang="en">No translator notes yet.</span></p>'))
    for entry in holders:
        out.append(f"\n## {escape_md(entry.code)} · {escape_md(entry.title['zh'])} {{ #{entry.id} }}\n")
        out.append(
            html_block(
                f'<p><a href="{inline_html(linker.href(entry))}">{inline_html(entry.title["zh"])}</a> '
                f'<span class="hr-en" lang="en">{inline_html(entry.title["en"])}</span></p>'
                + h.translator_notes(game, entry.data["translator_notes"])
            )
        )
    return "\n".join(out)


_HOW = (
    "<p>这些文件由 <code>houserules build</code> 随网站一起生成，内容与同名命令的输出相同。"
    "XLIFF 与 PO 文件里每一段文字都有稳定的编号（<code>game:id/字段</code>）、条目代码、页面链接和其中出现的术语；"
    "<code>[[…]]</code> 是条目引用，CAT 工具把它当作不可拆分的标记。改好后用 "
    "<code>houserules l10n import 文件</code> 导回数据：只改动译文本身，并记录译文对应的原文版本。"
    '<span lang="en">These files are built with the site by <code>houserules build</code> and hold what the '
    "command shown writes. In the XLIFF and PO files every text has a stable id (<code>game:id/field</code>), the "
    "entry's code, its page and the glossary terms it contains; <code>[[…]]</code> references are inline codes a "
    "CAT tool keeps whole. Bring the work back with <code>houserules l10n import FILE</code>: only the texts "
    "change, stamped with the source they were translated from.</span></p>"
)


def translators_page(ctx: SiteContext, game: Game | None = None) -> str:
    """The downloads for translators (of one game, or of all games) and what each one is for."""
    from ..export.downloads import DOWNLOADS

    src = translators_src(game.id if game else None)
    linker = SiteLinker(ctx.kb, page_url(src))
    name = f"{game.name['zh']}" if game else "全部游戏"
    name_en = game.name["en"] if game else "all games"
    rows = []
    for item in DOWNLOADS:
        url = download_url(game.id if game else None, item.name)
        file_name = url.rsplit("/", 1)[-1]
        # Raw HTML links: the files are written after MkDocs, so its link check must not see them.
        rows.append(
            f'<tr><td><a href="{inline_html(linker.url(url))}" download>{inline_html(file_name)}</a></td>'
            f"<td>{inline_html(item.kind)}</td>"
            f'<td>{inline_html(item.what[0])}<br><span lang="en">{inline_html(item.what[1])}</span></td>'
            f'<td>{inline_html(item.use[0])}<br><span lang="en">{inline_html(item.use[1])}</span></td>'
            f"<td><code>{inline_html(item.command + (f' --game {game.id}' if game else ''))}</code></td></tr>"
        )
    head = "<tr><th>文件 File</th><th>格式 Format</th><th>内容 Contents</th><th>用途 Use</th><th>命令 Command</th></tr>"
    pages = ""
    if game is not None:
        pages = " · ".join(
            f'<a href="{inline_html(linker.url(page_url(page(game.id))))}">{zh} <span lang="en">{en}</span></a>'
            for page, zh, en in GAME_PAGES
            if page is not translators_src
        )
        pages = f'<p class="hr-translators">{pages}</p>'
    else:
        pages = "".join(
            f'<li><a href="{inline_html(linker.url(page_url(translators_src(g.id))))}">{inline_html(g.name["zh"])} '
            f'<span lang="en">{inline_html(g.name["en"])}</span></a></li>'
            for g in ctx.kb.games.values()
        )
        pages = f'<p>每个游戏 · Each game:</p><ul class="hr-translators">{pages}</ul>'
    return "\n".join(
        [
            front_matter(f"译者 For translators · {name}"),
            f"# 译者 · For translators：{escape_md(name)}\n",
            html_block(f'<p class="hr-title-en" lang="en">{inline_html(name_en)}</p>'),
            html_block(_HOW),
            html_block(f'<table class="hr-downloads"><thead>{head}</thead><tbody>{"".join(rows)}</tbody></table>'),
            html_block(pages),
        ]
    )


def makers(ctx: SiteContext) -> dict[str, Callable[[], str]]:
    """Every translators' page: docs-relative path → the function making its Markdown."""
    result: dict[str, Callable[[], str]] = {
        ALL_ERRATA[0]: partial(errata_page, ctx),
        ALL_TRANSLATORS[0]: partial(translators_page, ctx),
    }
    for game in ctx.kb.games.values():
        result[glossary_src(game.id)] = partial(glossary_page, ctx, game)
        result[errata_src(game.id)] = partial(errata_page, ctx, game)
        result[notes_src(game.id)] = partial(notes_page, ctx, game)
        result[translators_src(game.id)] = partial(translators_page, ctx, game)
    return result
