"""HTML fragments of an entry's blocks shared by the site and the printed FAQ.

Each output links entries its own way (a :class:`~houserules.render.text.Linker`);
the fragments here take it from the :class:`Html` they are called on, so a fact
table or an erratum looks the same on a page and on paper.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..data.reading import vocab
from ..data.reading.model import Entry, Game, KnowledgeBase
from .blocks import Erratum
from .diff import diff_html
from .text import Linker, MarkdownRenderer, inline_html


def bilingual_label(names: dict[str, str]) -> str:
    """``中文 · English`` as HTML."""
    return f'{inline_html(names["zh"])} · <span lang="en">{inline_html(names["en"])}</span>'


class Html:
    """HTML of entry parts for one output (its linker decides where references go)."""

    def __init__(self, kb: KnowledgeBase, linker: Linker, markdown: MarkdownRenderer | None = None):
        self.kb = kb
        self.linker = linker
        #: The build's Markdown parser and cache (a new one, made when first needed, without).
        self.markdown = markdown or MarkdownRenderer()

    def md(self, text: str | None, lang: str = "zh") -> str:
        return self.markdown.html(text, self.linker, lang) if text else ""

    def bilingual(self, text: dict[str, str] | None, css: str = "") -> str:
        """Chinese, then English, each marked with its language."""
        if not text:
            return ""
        parts = [
            f'<div class="hr-lang hr-lang--{lang}" lang="{lang}">{self.md(text[lang], lang)}</div>'
            for lang in vocab.LANGS
            if text.get(lang)
        ]
        return f'<div class="{css}">' + "".join(parts) + "</div>" if css else "".join(parts)

    def entry_label(self, target: Entry) -> str:
        return (
            f'<span class="hr-code">{inline_html(target.code)}</span> {inline_html(target.title["zh"])} '
            f'<span class="hr-en" lang="en">{inline_html(target.title["en"])}</span>'
        )

    def link(self, ref: str) -> str:
        """A link to an entry: its code and both titles."""
        target = self.kb.entries[ref]
        return self.linker.link_html(target, self.entry_label(target))

    def link_list(self, refs: Iterable[str], with_summary: bool = False) -> str:
        items = []
        for ref in refs:
            if ref not in self.kb.entries:
                continue
            summary = self.md(self.kb.entries[ref].summary["zh"]) if with_summary else ""
            items.append(
                f"<li>{self.link(ref)}" + (f'<div class="hr-link-summary">{summary}</div>' if summary else "") + "</li>"
            )
        return f'<ul class="hr-links">{"".join(items)}</ul>' if items else ""

    def source_label(self, game: Game, source: dict[str, Any]) -> str:
        declared = game.source(source["doc"]) or {"title": {"zh": source["doc"], "en": source["doc"]}}
        role = source.get("role", "basis")
        role_text = (
            ""
            if role == "basis"
            else f' <span class="hr-role">（{inline_html(vocab.SOURCE_ROLES[role]["zh"])}）</span>'
        )
        # A reader sees the document's title, never its id (a file name such as 002_….txt).
        return (
            f'<span class="hr-source-title">{inline_html(declared["title"]["zh"])}</span> '
            f"{inline_html(source['ref'])}{role_text}"
        )

    def facts_table(self, game: Game, facts: list[dict[str, Any]]) -> str:
        rows = []
        for fact in facts:
            flag = (
                ' <span class="hr-flag">存疑 · <span lang="en">uncertain</span></span>'
                if fact.get("confidence") == "uncertain"
                else ""
            )
            cite = f'<div class="hr-cite">{self.source_label(game, fact["source"])}</div>' if "source" in fact else ""
            rows.append(
                f'<tr><th>{inline_html(fact["label"]["zh"])}<br><span lang="en">{inline_html(fact["label"]["en"])}</span></th>'
                f"<td>{self.bilingual(fact['value'])}{flag}{cite}</td></tr>"
            )
        return f'<table class="hr-facts">{"".join(rows)}</table>'

    def errata_table(self, records: list[Erratum]) -> str:
        """Errata records: component (and the entry holding the erratum, when another), printed and
        corrected text (diffed), English source, status."""
        rows = []
        for record in records:
            erratum, holder = record.data, record.holder
            component = self.kb.entries.get(erratum["component"])
            name = self.link(component.ref) if component else inline_html(erratum["component"])
            via = ""
            if holder.ref != erratum["component"]:
                href = self.linker.href(holder)
                code = inline_html(holder.code)
                via = f'<div class="hr-cite">见 {f"<a href={chr(34)}{inline_html(href)}{chr(34)}>{code}</a>" if href else code}</div>'
            printed, corrected = diff_html(erratum["printed"], erratum["corrected"], erratum["lang"])
            lang = "en" if erratum["lang"] == "en" else "zh"
            status = vocab.ERRATA_STATUSES[erratum["status"]]
            edition = f" · {inline_html(erratum['edition'])}" if erratum.get("edition") else ""
            game = self.kb.games[holder.game]
            sources = "".join(f'<div class="hr-cite">{self.source_label(game, s)}</div>' for s in erratum["sources"])
            note = self.bilingual(erratum.get("note"), "hr-cite")
            source_en = inline_html(erratum.get("source_en", "")).replace("&#10;", "<br>")
            rows.append(
                f'<tr class="hr-erratum hr-erratum--{inline_html(erratum["status"])}"><td>{name}{via}</td>'
                f'<td class="hr-printed" lang="{lang}">{printed}</td>'
                f'<td class="hr-corrected" lang="{lang}">{corrected}{note}</td>'
                f'<td lang="en">{source_en}</td>'
                f"<td>{inline_html(erratum['lang'])}{edition}<br>"
                f'<span class="hr-status">{inline_html(status["zh"])} <span lang="en">{inline_html(status["en"])}</span></span>'
                f"<br><time>{inline_html(erratum['date'])}</time>{sources}</td></tr>"
            )
        head = (
            "<tr><th>配件 Component</th><th>印刷文本 Printed</th><th>更正 Corrected</th>"
            "<th>英文原文 English</th><th>版本与状态 Edition, status</th></tr>"
        )
        return f'<table class="hr-errata"><thead>{head}</thead><tbody>{"".join(rows)}</tbody></table>'

    def translator_notes(self, game: Game, notes: list[dict[str, Any]]) -> str:
        items = []
        for note in notes:
            suggestion = (
                f'<p class="hr-suggestion">建议 · Suggestion: {inline_html(note["suggestion"])}</p>'
                if note.get("suggestion")
                else ""
            )
            flag = '<p class="hr-flag">存疑 · Uncertain</p>' if note.get("confidence") == "uncertain" else ""
            items.append(
                f'<li>{flag}<blockquote lang="zh">{inline_html(note["quote"])}</blockquote>'
                f"{self.bilingual(note['problem'])}{suggestion}"
                f'<p class="hr-cite">{self.source_label(game, note["source"])}</p></li>'
            )
        return f'<ul class="hr-notes">{"".join(items)}</ul>'

    def question_source(self, entry: Entry, question: dict[str, Any]) -> str:
        """Where an answer comes from: the document, the section and, for a ruling, the clause."""
        game = self.kb.games[entry.game]
        source = question["source"]
        return self.source_label(game, {"doc": source["doc"], "ref": source["ref"]})

    def licence_box(self, game: Game) -> str:
        licence = game.data["licence"]
        name = inline_html(licence["name"])
        if licence.get("url"):
            name = f'<a href="{inline_html(licence["url"])}">{name}</a>'
        return (
            f'<div class="hr-licence"><p class="hr-answer-label">版权与授权 · Licence: {name}</p>'
            f"{self.bilingual(licence['attribution'])}{self.bilingual(licence.get('changes'))}</div>"
        )
