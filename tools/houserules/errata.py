"""Errata: printed text against corrected text, for translators.

An erratum lives in the ``errata`` list of an entry (usually a ruling) and
names the component it corrects. It is shown on the entry holding it, on the
component's page, on every other entry whose ``applies_to`` names the
component, and on the errata pages (one per game, one for all games), with
the differences between the printed and the corrected text marked.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from typing import TYPE_CHECKING, Any

from . import vocab
from .pages import _front_matter, entry_url
from .textrender import escape_md, inline_html, relative_url

if TYPE_CHECKING:
    from .model import Entry, Game, KnowledgeBase
    from .pages import SiteRenderer

Record = tuple["Entry", dict[str, Any]]

#: English (and any non-Chinese text) is compared word by word; spaces and
#: punctuation are tokens of their own so a changed word does not drag them along.
_WORD = re.compile(r"\s+|\w+|[^\w\s]")


def diff_tokens(text: str, lang: str) -> list[str]:
    """The units a diff compares: characters for Chinese, words for other languages.

    >>> diff_tokens("gain 1 trait.", "en")
    ['gain', ' ', '1', ' ', 'trait', '.']
    >>> diff_tokens("上升1级", "zh-CN")
    ['上', '升', '1', '级']
    """
    return list(text) if lang.startswith("zh") else _WORD.findall(text)


def _cell(text: str) -> str:
    # A blank line would end the raw HTML block in the generated Markdown.
    return inline_html(text).replace("\n", "<br>")


def diff_html(printed: str, corrected: str, lang: str) -> tuple[str, str]:
    """The printed text with removed parts in ``<del>`` and the corrected text with added parts in ``<ins>``.

    >>> diff_html("take 1 damage", "gain 1 trait", "en")
    ('<del>take</del> 1 <del>damage</del>', '<ins>gain</ins> 1 <ins>trait</ins>')
    """
    old, new = diff_tokens(printed, lang), diff_tokens(corrected, lang)
    before, after = [], []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        removed, added = _cell("".join(old[i1:i2])), _cell("".join(new[j1:j2]))
        if op == "equal":
            before.append(removed)
            after.append(added)
            continue
        if removed:
            before.append(f"<del>{removed}</del>")
        if added:
            after.append(f"<ins>{added}</ins>")
    return "".join(before), "".join(after)


def all_errata(kb: "KnowledgeBase", game: str | None = None) -> list[Record]:
    """Every erratum with the entry holding it, in load order; ``game`` keeps one game's components."""
    return [(entry, erratum) for entry in kb.entries.values() for erratum in entry.errata
            if game is None or erratum["component"].split(":", 1)[0] == game]


def errata_for_entry(site: "SiteRenderer", entry: "Entry") -> list[Record]:
    """The errata an entry's page shows: its own, those about it, and those about what it applies to."""
    records = [(entry, erratum) for erratum in entry.errata]
    for ref in (entry.ref, *entry.applies_to):
        records += [(holder, erratum) for holder, erratum in site.errata_for.get(ref, []) if holder is not entry]
    return records


def errata_table(site: "SiteRenderer", records: list[Record], page: str) -> str:
    """A table of errata records: component, printed and corrected text (diffed), English source, status."""
    rows = []
    for entry, erratum in records:
        component = site.kb.entries.get(erratum["component"])
        name = site.link(component.ref, page) if component else inline_html(erratum["component"])
        via = "" if entry.ref == erratum["component"] else (
            f'<div class="hr-cite">见 <a href="{inline_html(relative_url(entry_url(entry), page))}">'
            f'{inline_html(entry.code)}</a></div>')
        printed, corrected = diff_html(erratum["printed"], erratum["corrected"], erratum["lang"])
        lang = "en" if erratum["lang"] == "en" else "zh"
        status = vocab.ERRATA_STATUSES[erratum["status"]]
        edition = f' · {inline_html(erratum["edition"])}' if erratum.get("edition") else ""
        game = site.kb.games[entry.game]
        sources = "".join(f'<div class="hr-cite">{site.source_label(game, s)}</div>' for s in erratum["sources"])
        note = site.bilingual(erratum.get("note"), page, "hr-cite")
        rows.append(
            f'<tr class="hr-erratum hr-erratum--{erratum["status"]}"><td>{name}{via}</td>'
            f'<td class="hr-printed" lang="{lang}">{printed}</td>'
            f'<td class="hr-corrected" lang="{lang}">{corrected}{note}</td>'
            f'<td lang="en">{_cell(erratum.get("source_en", ""))}</td>'
            f'<td>{inline_html(erratum["lang"])}{edition}<br>'
            f'<span class="hr-status">{inline_html(status["zh"])} <span lang="en">{inline_html(status["en"])}</span></span>'
            f'<br><time>{inline_html(erratum["date"])}</time>{sources}</td></tr>')
    head = ("<tr><th>配件 Component</th><th>印刷文本 Printed</th><th>更正 Corrected</th>"
            "<th>英文原文 English</th><th>版本与状态 Edition, status</th></tr>")
    return f'<table class="hr-errata"><thead>{head}</thead><tbody>{"".join(rows)}</tbody></table>\n'


def errata_src(game: "Game | None" = None) -> str:
    """The generated page of a game's errata, or of every game's when ``game`` is None."""
    return f"{game.id}/errata.md" if game else "errata.md"


def _counts(records: list[Record]) -> str:
    counts = Counter(erratum["status"] for _, erratum in records)
    parts = " · ".join(f'{vocab.ERRATA_STATUSES[s]["zh"]} {counts[s]}' for s in vocab.ERRATA_STATUSES if counts[s])
    return f'<p class="hr-cite">共 {len(records)} 条勘误 · {len(records)} errata{"：" + parts if parts else ""}</p>\n'


_INTRO = ('<p>印刷文本中删去的部分<del>划掉</del>，更正文本中新增的部分<ins>高亮</ins>：中文逐字比较，英文逐词比较。'
          '<span lang="en">Removed text is struck through in the printed column and added text highlighted in the '
          'corrected column (Chinese compared character by character, English word by word).</span></p>\n')
_NONE = '<p class="hr-cite">暂无勘误。<span lang="en">No errata yet.</span></p>\n'


def errata_page(site: "SiteRenderer", game: "Game | None" = None) -> str:
    """The errata page of one game, or of all games (one section per game)."""
    page = errata_src(game).removesuffix(".md") + ".html"
    if game is not None:
        records = all_errata(site.kb, game.id)
        out = [_front_matter(f"勘误 Errata · {game.name['zh']}"),
               f"# 勘误 · Errata：{escape_md(game.name['zh'])}\n", _INTRO, _counts(records)]
        out.append(errata_table(site, records, page) if records else _NONE)
        return "\n".join(out)
    out = [_front_matter("全部勘误 All errata"), "# 全部勘误 · All errata\n", _INTRO]
    for each in site.kb.games.values():
        records = all_errata(site.kb, each.id)
        if records:
            out.append(f"\n## {escape_md(each.name['zh'])} · {escape_md(each.name['en'])} {{ #{each.id} }}\n")
            out.append(_counts(records) + errata_table(site, records, page))
    if len(out) == 3:
        out.append(_NONE)
    return "\n".join(out)
