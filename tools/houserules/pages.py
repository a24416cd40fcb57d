"""The site's generated pages, as Markdown for MkDocs: pure functions of the data.

Fixed labels and structure are written as Markdown; everything that comes
from the data goes in already rendered and sanitized (see
:mod:`houserules.textrender`), so Markdown extensions such as attribute lists
never see contributor text.
"""

from __future__ import annotations

import json
import posixpath
from collections import defaultdict
from functools import cached_property
from typing import Any, Iterable

from . import vocab
from .freshness import notice_html as freshness_notice
from .model import Entry, Game, KnowledgeBase
from .textrender import escape_md, inline_html, markdown_html, relative_url


def entry_src(entry: Entry) -> str:
    """The generated Markdown file of an entry, relative to the docs folder."""
    return f"{entry.game}/{entry.id}.md"


def entry_url(entry: Entry) -> str:
    """The entry's page in the built site (``use_directory_urls`` is off for file://)."""
    return f"{entry.game}/{entry.id}.html"


def game_src(game_id: str) -> str:
    return f"{game_id}/index.md"


def tag_src(tag: str) -> str:
    return f"tags/{tag}.md"


def _front_matter(title: str, description: str = "", **extra: Any) -> str:
    # JSON strings are valid YAML scalars, whatever the text holds. Material's templates
    # print the title and description as HTML (<title>, header, meta tag): escape them.
    lines = ["---", f"title: {json.dumps(inline_html(title), ensure_ascii=False)}"]
    if description:
        lines.append(f"description: {json.dumps(inline_html(description[:300]), ensure_ascii=False)}")
    lines += [f"{key}: {json.dumps(value, ensure_ascii=False)}" for key, value in extra.items()]
    return "\n".join(lines + ["---", ""])


def _label(key: str, table: dict[str, dict[str, str]] = vocab.SECTIONS) -> str:
    names = table[key]
    return f"{names['zh']} · {names['en']}"


#: Sections that only repeat other entries' titles: kept out of the site search so that a
#: query finds the entry itself, not every page that links to it.
UNSEARCHED = {"applies-to", "rulings", "see-also", "referenced-by", "sources", "history"}


def _heading(key: str) -> str:
    exclude = " data-search-exclude" if key in UNSEARCHED else ""
    return f"\n## {_label(key)} {{ #{key}{exclude} }}\n"


def entry_tags(entry: Entry) -> list[str]:
    """Tag slugs of an entry: its game, kind and authority, and any warning state."""
    tags = [f"game-{entry.game}", f"kind-{entry.kind}", f"authority-{entry.data['authority']}"]
    if entry.data.get("confidence") == "uncertain":
        tags.append("confidence-uncertain")
    status = entry.data.get("status", "complete")
    if status != "complete":
        tags.append(f"status-{status}")
    return tags


def tag_names(kb: KnowledgeBase) -> dict[str, dict[str, str]]:
    """Every tag slug with its bilingual name."""
    names: dict[str, dict[str, str]] = {}
    for game in kb.games.values():
        names[f"game-{game.id}"] = game.name
    for prefix, table in (("kind", vocab.KINDS), ("authority", vocab.AUTHORITIES),
                          ("status", vocab.STATUSES), ("confidence", vocab.CONFIDENCES)):
        for key, value in table.items():
            names[f"{prefix}-{key}"] = value
    return names


class SiteRenderer:
    """Renders every generated page of one knowledge base."""

    def __init__(self, kb: KnowledgeBase):
        self.kb = kb
        self.backlinks = kb.backlinks()
        self.applying: dict[str, list[Entry]] = defaultdict(list)
        self.errata_for: dict[str, list[tuple[Entry, dict[str, Any]]]] = defaultdict(list)
        for entry in kb.entries.values():
            for ref in entry.applies_to:
                self.applying[ref].append(entry)
            for erratum in entry.errata:
                self.errata_for[erratum["component"]].append((entry, erratum))
        self.tags = tag_names(kb)
        self._html: dict[tuple[str, str, str], str] = {}

    # -- helpers -------------------------------------------------------------------------
    def resolver(self, page: str, lang: str = "zh"):
        """Links to entries, relative to ``page``, labelled with the title in ``lang``."""
        def resolve(ref: str) -> tuple[str, str] | None:
            target = self.kb.entries.get(ref)
            if target is None:
                return None
            return target.title[lang], relative_url(entry_url(target), page)
        return resolve

    def md(self, text: str | None, page: str, lang: str = "zh") -> str:
        if not text:
            return ""
        # A summary shows on many pages (its entry, the game, tags, rulings lists); its HTML
        # depends on the page only through relative links, so on the page's folder.
        key = (text, posixpath.dirname(page), lang)
        if key not in self._html:
            self._html[key] = markdown_html(text, self.resolver(page, lang))
        return self._html[key]

    def bilingual(self, text: dict[str, str] | None, page: str, css: str = "") -> str:
        """Chinese, then English, each marked with its language."""
        if not text:
            return ""
        parts = []
        for lang in vocab.LANGS:
            if text.get(lang):
                parts.append(f'<div class="hr-lang hr-lang--{lang}" lang="{lang}">{self.md(text[lang], page, lang)}</div>')
        return f'<div class="{css}">' + "".join(parts) + "</div>" if css else "".join(parts)

    def link(self, ref: str, page: str, with_summary: bool = False) -> str:
        target = self.kb.entries[ref]
        url = relative_url(entry_url(target), page)
        html = (f'<a class="hr-link" href="{inline_html(url)}"><span class="hr-code">{inline_html(target.code)}</span> '
                f'{inline_html(target.title["zh"])} <span class="hr-en" lang="en">{inline_html(target.title["en"])}</span></a>')
        if with_summary:
            html += f'<div class="hr-link-summary">{self.md(target.summary["zh"], page)}</div>'
        return html

    def link_list(self, refs: Iterable[str], page: str, with_summary: bool = False) -> str:
        items = "".join(f"<li>{self.link(ref, page, with_summary)}</li>" for ref in refs if ref in self.kb.entries)
        return f'<ul class="hr-links">{items}</ul>\n' if items else ""

    def badges(self, entry: Entry, page: str) -> str:
        spans = []
        for tag in entry_tags(entry):
            url = relative_url(f"tags/{tag}.html", page)
            name = self.tags[tag]
            spans.append(f'<a class="hr-badge hr-badge--{inline_html(tag)}" href="{inline_html(url)}">'
                         f'{inline_html(name["zh"])}</a>')
        return '<p class="hr-badges">' + " ".join(spans) + "</p>\n"

    def source_label(self, game: Game, source: dict[str, Any]) -> str:
        declared = game.source(source["doc"]) or {"title": {"zh": source["doc"], "en": source["doc"]}}
        role = source.get("role", "basis")
        role_text = "" if role == "basis" else f' <span class="hr-role">（{inline_html(vocab.SOURCE_ROLES[role]["zh"])}）</span>'
        return (f'<span class="hr-source-title">{inline_html(declared["title"]["zh"])}</span> '
                f'<code>{inline_html(source["doc"])}</code> {inline_html(source["ref"])}{role_text}')

    # -- entry page ------------------------------------------------------------------------
    def entry_page(self, entry: Entry) -> str:
        page = entry_url(entry)
        game = self.kb.games[entry.game]
        data = entry.data
        # A component's page gathers every ruling about it, so it is the best landing
        # page when someone types the component's name.
        boost = {"search": {"boost": 2}} if entry.kind in {"component", "term"} else {}
        out = [_front_matter(f"{entry.code} {entry.title['zh']}", entry.summary["zh"], **boost)]
        # The English title sits in the heading so that site search weighs it as a title.
        out.append(f"# {escape_md(entry.code)} · {escape_md(entry.title['zh'])} "
                   f'<small class="hr-title-en" lang="en">{inline_html(entry.title["en"])}</small>\n')
        out.append(self.badges(entry, page))
        out.append('<div class="hr-answer"><p class="hr-answer-label">一句话答案 · Short answer</p>'
                   + self.bilingual(entry.summary, page) + "</div>\n")
        if entry.aliases:
            out.append('<p class="hr-aliases"><span class="hr-answer-label">别名 · Aliases</span> ' + " · ".join(
                f"<span>{inline_html(a)}</span>" for a in entry.aliases) + "</p>\n")
        if data.get("confidence") == "uncertain":
            out.append('<div class="hr-warning"><p class="hr-answer-label">存疑 · Uncertain</p>'
                       + self.bilingual(data.get("confidence_note"), page) + "</div>\n")
        out.append(freshness_notice(entry))
        if data.get("status") == "stub":
            out.append('<div class="hr-warning hr-warning--stub"><p>待补充：现有资料尚未涵盖此条目的完整内容。'
                       '<span lang="en">Stub: the sources do not cover this entry in full yet.</span></p></div>\n')
        if entry.body:
            out.append(_heading("details") + self.bilingual(entry.body, page, "hr-body") + "\n")
        if "completion" in data:
            completion = data["completion"]
            sources = "; ".join(self.source_label(game, s) for s in completion["sources"])
            out.append(_heading("completion"))
            out.append('<div class="hr-completion"><p class="hr-answer-label">以下内容不在原始资料中，由其他来源补全 · '
                       'Not in the source document: completed from another source</p>'
                       + self.bilingual(completion["text"], page) + f'<p class="hr-cite">{sources}</p></div>\n')
        if data.get("facts"):
            out.append(_heading("facts") + self.facts_table(entry, game, page))
        from .errata import errata_for_entry, errata_table  # the translators' view of errata
        errata = errata_for_entry(self, entry)
        if errata:
            out.append(_heading("errata") + errata_table(self, errata, page))
        if entry.applies_to:
            out.append(_heading("applies-to") + self.link_list(entry.applies_to, page))
        applying = [e.ref for e in self.applying.get(entry.ref, [])]
        if applying:
            out.append(_heading("rulings") + self.link_list(applying, page, with_summary=True))
        if entry.see_also:
            out.append(_heading("see-also") + self.link_list(entry.see_also, page))
        if self.backlinks.get(entry.ref):
            out.append(_heading("referenced-by") + self.link_list(self.backlinks[entry.ref], page))
        if data.get("translator_notes"):
            out.append(_heading("translator-notes") + self.translator_notes(entry, game, page))
        out.append(_heading("sources") + "<ul class=\"hr-sources\">" + "".join(
            f"<li>{self.source_label(game, s)}</li>" for s in data["sources"]) + "</ul>\n")
        out.append(self.meta_block(entry, game))
        if data.get("history"):
            out.append(_heading("history") + "<ul class=\"hr-history\">" + "".join(
                f"<li><time>{inline_html(h['date'])}</time> {inline_html(h['change'])}</li>"
                for h in data["history"]) + "</ul>\n")
        return "\n".join(out)

    def meta_block(self, entry: Entry, game: Game) -> str:
        data = entry.data
        rows = [
            ("引用代码 · Code", f'<code class="hr-code">{inline_html(entry.code)}</code>'),
            ("类型 · Kind", inline_html(vocab.KINDS[entry.kind]["zh"])),
            ("权威性 · Authority", inline_html(vocab.AUTHORITIES[data["authority"]]["zh"])),
            ("可信度 · Confidence", inline_html(vocab.CONFIDENCES[data["confidence"]]["zh"])),
        ]
        scope = data.get("scope", {})
        names = {item["id"]: item["name"]["zh"] for key in ("editions", "expansions") for item in game.data.get(key, [])}
        if scope:
            rows.append(("适用范围 · Scope", inline_html(" / ".join(names.get(v, v) for k, v in scope.items() if k != "note"))))
        cells = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows)
        return f'<table class="hr-meta" data-search-exclude>{cells}</table>\n'

    def facts_table(self, entry: Entry, game: Game, page: str) -> str:
        rows = []
        for fact in entry.data["facts"]:
            flag = ' <span class="hr-flag">存疑</span>' if fact.get("confidence") == "uncertain" else ""
            cite = f'<div class="hr-cite">{self.source_label(game, fact["source"])}</div>' if "source" in fact else ""
            rows.append(f'<tr><th>{inline_html(fact["label"]["zh"])}<br><span lang="en">{inline_html(fact["label"]["en"])}</span></th>'
                        f"<td>{self.bilingual(fact['value'], page)}{flag}{cite}</td></tr>")
        return f'<table class="hr-facts">{"".join(rows)}</table>\n'

    def translator_notes(self, entry: Entry, game: Game, page: str) -> str:
        items = []
        for note in entry.data["translator_notes"]:
            suggestion = (f'<p class="hr-suggestion">建议 · Suggestion: {inline_html(note["suggestion"])}</p>'
                          if note.get("suggestion") else "")
            flag = '<p class="hr-flag">存疑 · Uncertain</p>' if note.get("confidence") == "uncertain" else ""
            items.append(f'<li>{flag}<blockquote lang="zh">{inline_html(note["quote"])}</blockquote>'
                         f'{self.bilingual(note["problem"], page)}{suggestion}'
                         f'<p class="hr-cite">{self.source_label(game, note["source"])}</p></li>')
        return f'<ul class="hr-notes">{"".join(items)}</ul>\n'

    # -- game, home and tag pages ----------------------------------------------------------------
    def game_page(self, game: Game) -> str:
        page = f"{game.id}/index.html"
        out = [_front_matter(f"{game.name['zh']} {game.name['en']}", (game.data.get("description") or {}).get("zh", ""))]
        out.append(f"# {escape_md(game.name['zh'])}\n")
        out.append(f'<p class="hr-title-en" lang="en">{inline_html(game.name["en"])}</p>\n')
        if game.data.get("description"):
            out.append(self.bilingual(game.data["description"], page) + "\n")
        out.append(self.licence_box(game, page))
        from .translators import game_links
        out.append(game_links(game, page))
        for anchor, title, refs in self.game_sections(game):
            out.append(f"\n## {escape_md(title['zh'])} · {escape_md(title['en'])} {{ #{anchor} }}\n")
            out.append(self.entry_table(refs, page))
        out.append("\n## 资料来源 · Source documents { #sources }\n")
        out.append(self.sources_list(game, page))
        return "\n".join(out)

    def game_sections(self, game: Game) -> list[tuple[str, dict[str, str], list[str]]]:
        """The game's entries grouped as its page shows them: (anchor, title, refs).

        The sections of ``contents`` first, then every other entry by kind, by code.
        The printed FAQ uses the same grouping.
        """
        sections = []
        listed: set[str] = set()
        for section in game.contents:
            refs = [r for r in section["entries"] if r in self.kb.entries]
            listed.update(refs)
            sections.append((section["id"], section["title"], refs))
        by_kind: dict[str, list[str]] = defaultdict(list)
        for entry in self.kb.game_entries(game.id):
            if entry.ref not in listed:
                by_kind[entry.kind].append(entry.ref)
        for kind, refs in by_kind.items():
            sections.append((f"more-{kind}", vocab.KINDS[kind], sorted(refs, key=lambda r: self.kb.entries[r].code)))
        return sections

    def entry_table(self, refs: list[str], page: str) -> str:
        rows = []
        for ref in refs:
            entry = self.kb.entries[ref]
            url = inline_html(relative_url(entry_url(entry), page))
            rows.append(f'<tr><td><code class="hr-code">{inline_html(entry.code)}</code></td>'
                        f'<td><a href="{url}">{inline_html(entry.title["zh"])}</a><br>'
                        f'<span class="hr-en" lang="en">{inline_html(entry.title["en"])}</span></td>'
                        f'<td>{self.md(entry.summary["zh"], page)}</td></tr>')
        return ('<table class="hr-entries" data-search-exclude><thead><tr><th>代码</th><th>条目</th><th>一句话答案</th></tr></thead>'
                f'<tbody>{"".join(rows)}</tbody></table>\n')

    def licence_box(self, game: Game, page: str) -> str:
        licence = game.data["licence"]
        name = inline_html(licence["name"])
        if licence.get("url"):
            name = f'<a href="{inline_html(licence["url"])}">{name}</a>'
        changes = self.bilingual(licence.get("changes"), page)
        return (f'<div class="hr-licence"><p class="hr-answer-label">版权与授权 · Licence: {name}</p>'
                f'{self.bilingual(licence["attribution"], page)}{changes}</div>\n')

    def sources_list(self, game: Game, page: str) -> str:
        items = []
        for source in game.data["sources"]:
            kind = vocab.SOURCE_KINDS[source["kind"]]["zh"]
            note = self.bilingual(source.get("note"), page)
            items.append(f'<li><strong>{inline_html(source["title"]["zh"])}</strong> '
                         f'<span lang="en">{inline_html(source["title"]["en"])}</span> '
                         f'<code>{inline_html(source["id"])}</code> · {inline_html(kind)}{note}</li>')
        return f'<ul class="hr-sources">{"".join(items)}</ul>\n'

    def home_cards(self, page: str = "index.html") -> str:
        cards = []
        for game in self.kb.games.values():
            count = len(self.kb.game_entries(game.id))
            kinds = defaultdict(int)
            for entry in self.kb.game_entries(game.id):
                kinds[entry.kind] += 1
            kind_text = " · ".join(f"{vocab.KINDS[k]['zh']} {n}" for k, n in kinds.items())
            seeds = "、".join(s["title"]["zh"] for s in game.data["sources"] if s["kind"] in {"seed", "srd"})
            url = inline_html(relative_url(f"{game.id}/index.html", page))
            cards.append(f'<a class="hr-card" href="{url}"><span class="hr-card-title">{inline_html(game.name["zh"])}</span>'
                         f'<span class="hr-card-en" lang="en">{inline_html(game.name["en"])}</span>'
                         f'<span class="hr-card-count">{count} 条 · {inline_html(kind_text)}</span>'
                         f'<span class="hr-card-src">{inline_html(seeds)}</span></a>')
        return f'<div class="hr-cards">{"".join(cards)}</div>'

    def licences(self, page: str) -> str:
        return "".join(f"\n### {escape_md(g.name['zh'])} · {escape_md(g.name['en'])}\n\n" + self.licence_box(g, page)
                       for g in self.kb.games.values())

    @cached_property
    def tagged(self) -> dict[str, list[str]]:
        """Each tag in use with its entries, in load order (computed once: tags × entries adds up)."""
        result: dict[str, list[str]] = defaultdict(list)
        for entry in self.kb.entries.values():
            for tag in entry_tags(entry):
                result[tag].append(entry.ref)
        return dict(result)

    def tag_index(self) -> str:
        page = "tags/index.html"
        counts = {tag: len(refs) for tag, refs in self.tagged.items()}
        items = "".join(f'<li><a href="{inline_html(relative_url(f"tags/{t}.html", page))}">{inline_html(self.tags[t]["zh"])}'
                        f' <span lang="en">{inline_html(self.tags[t]["en"])}</span></a> ({n})</li>'
                        for t, n in sorted(counts.items()))
        return _front_matter("标签 Tags", search={"exclude": True}) + "# 标签 · Tags\n\n" + f'<ul class="hr-tags">{items}</ul>\n'

    def tag_page(self, tag: str) -> str:
        page = f"tags/{tag}.html"
        refs = self.tagged[tag]
        name = self.tags[tag]
        return (_front_matter(f"{name['zh']} {name['en']}", search={"exclude": True}) + f"# {escape_md(name['zh'])} · {escape_md(name['en'])}\n\n"
                + self.entry_table(refs, page))

    def pages(self) -> dict[str, str]:
        """Every generated page: docs-relative path → Markdown."""
        result = {entry_src(e): self.entry_page(e) for e in self.kb.entries.values()}
        result.update({game_src(g.id): self.game_page(g) for g in self.kb.games.values()})
        used = set(self.tagged)
        result["tags/index.md"] = self.tag_index()
        from .translators import pages as translator_pages  # they import this module
        result.update(translator_pages(self))
        result.update({tag_src(t): self.tag_page(t) for t in sorted(used)})
        return result
