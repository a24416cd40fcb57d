"""The translator notes page of a game: every uncertain or wrong passage of its source documents."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .pages import _front_matter, entry_url
from .textrender import escape_md, inline_html, relative_url

if TYPE_CHECKING:
    from .model import Game
    from .pages import SiteRenderer


def notes_src(game: "Game") -> str:
    return f"{game.id}/notes.md"


def notes_page(site: "SiteRenderer", game: "Game") -> str:
    """One section per entry holding translator notes, each note as on the entry's own page."""
    page = f"{game.id}/notes.html"
    holders = [e for e in site.kb.game_entries(game.id) if e.data.get("translator_notes")]
    count = sum(len(e.data["translator_notes"]) for e in holders)
    out = [_front_matter(f"译注 Translator notes · {game.name['zh']}"),
           f"# 译注 · Translator notes：{escape_md(game.name['zh'])}\n",
           '<p>原始资料中有误或存疑的段落：原文引文、问题与建议。'
           '<span lang="en">Passages of the source documents that are wrong or uncertain: the quotation, '
           f'the problem and a suggestion.</span></p>\n<p class="hr-cite">共 {count} 条 · {count} notes</p>\n']
    if not holders:
        out.append('<p class="hr-cite">暂无译注。<span lang="en">No translator notes yet.</span></p>\n')
    for entry in holders:
        url = inline_html(relative_url(entry_url(entry), page))
        out.append(f"\n## {escape_md(entry.code)} · {escape_md(entry.title['zh'])} {{ #{entry.id} }}\n")
        out.append(f'<p><a href="{url}">{inline_html(entry.title["zh"])}</a> '
                   f'<span class="hr-en" lang="en">{inline_html(entry.title["en"])}</span></p>\n')
        out.append(site.translator_notes(entry, game, page))
    return "\n".join(out)
