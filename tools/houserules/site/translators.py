"""The translators' pages: errata (per game and for all), glossary and translator notes, their links and nav."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from ..data import vocab
from ..data.model import Game
from ..render.blocks import Erratum
from ..render.html import Html
from ..render.text import escape_md, inline_html
from ..render.urls import errata_src, faq_src, glossary_src, notes_src, page_url
from .markup import SiteLinker, front_matter, html_block

if TYPE_CHECKING:
    from .context import SiteContext

#: The pages every game has, in the order they are linked: (docs path, Chinese, English).
GAME_PAGES = (
    (faq_src, "常见问题", "FAQ"),
    (glossary_src, "术语表", "Glossary"),
    (errata_src, "勘误", "Errata"),
    (notes_src, "译注", "Translator notes"),
)
ALL_ERRATA = (errata_src(None), "全部勘误", "All errata")


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
    items: list[dict[str, Any]] = [{f"{ALL_ERRATA[1]} {ALL_ERRATA[2]}": ALL_ERRATA[0]}]
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
    h = Html(ctx.kb, SiteLinker(ctx.kb, page_url(src)))
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
    h = Html(ctx.kb, linker)
    out = [
        front_matter(f"术语表 Glossary · {game.name['zh']}", f"{game.name['zh']} 中英术语对照"),
        f"# 术语表 · Glossary：{escape_md(game.name['zh'])}\n",
        html_block(
            "<p>统一译名：标题与正文使用“中文”一栏的译法；“弃用”一栏的译法由 <code>houserules check</code> 报告。"
            '<span lang="en">Preferred translations: titles and text use the Chinese column; '
            "<code>houserules check</code> reports the deprecated forms.</span></p>"
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
        "<tr><th>英文 English</th><th>中文 Chinese</th><th>其他写法 Variants</th><th>弃用 Deprecated</th>"
        "<th>说明 Note</th><th>条目 Entry</th></tr>"
    )
    out.append(html_block(f'<table class="hr-glossary"><thead>{head}</thead><tbody>{"".join(rows)}</tbody></table>'))
    return "\n".join(out)


def notes_page(ctx: SiteContext, game: Game) -> str:
    """One section per entry holding translator notes, each note as on the entry's own page."""
    linker = SiteLinker(ctx.kb, page_url(notes_src(game.id)))
    h = Html(ctx.kb, linker)
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


def makers(ctx: SiteContext) -> dict[str, Callable[[], str]]:
    """Every translators' page: docs-relative path → the function making its Markdown."""
    result: dict[str, Callable[[], str]] = {ALL_ERRATA[0]: partial(errata_page, ctx)}
    for game in ctx.kb.games.values():
        result[glossary_src(game.id)] = partial(glossary_page, ctx, game)
        result[errata_src(game.id)] = partial(errata_page, ctx, game)
        result[notes_src(game.id)] = partial(notes_page, ctx, game)
    return result
