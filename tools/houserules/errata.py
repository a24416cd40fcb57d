"""Errata: printed text against corrected text, for translators."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import vocab
from .textrender import inline_html, relative_url

if TYPE_CHECKING:
    from .model import Entry
    from .pages import SiteRenderer


def errata_table(site: "SiteRenderer", records: list[tuple["Entry", dict[str, Any]]], page: str) -> str:
    """A table of errata records: component, printed, corrected, English source, status."""
    rows = []
    for entry, erratum in records:
        component = site.kb.entries.get(erratum["component"])
        name = site.link(component.ref, page) if component else inline_html(erratum["component"])
        status = vocab.ERRATA_STATUSES[erratum["status"]]["zh"]
        via = "" if entry.ref == erratum["component"] else (
            f'<div class="hr-cite">见 <a href="{inline_html(relative_url(f"{entry.game}/{entry.id}.html", page))}">'
            f'{inline_html(entry.code)}</a></div>')
        rows.append(
            f"<tr><td>{name}{via}</td>"
            f'<td class="hr-printed" lang="zh">{inline_html(erratum["printed"])}</td>'
            f'<td class="hr-corrected" lang="zh">{inline_html(erratum["corrected"])}</td>'
            f'<td lang="en">{inline_html(erratum.get("source_en", ""))}</td>'
            f'<td>{inline_html(erratum["lang"])} · {inline_html(status)} · {inline_html(erratum["date"])}</td></tr>')
    head = "<tr><th>配件 Component</th><th>印刷文本 Printed</th><th>更正 Corrected</th><th>英文原文 English</th><th>状态 Status</th></tr>"
    return f'<table class="hr-errata"><thead>{head}</thead><tbody>{"".join(rows)}</tbody></table>\n'
