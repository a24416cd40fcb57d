"""The printed FAQ: print HTML made from the entries, laid out as a PDF by WeasyPrint.

Each game is one document: a cover (game, data version, date), a table of
contents with page numbers, then its entries grouped as on its site page.
Cross-references print as the target's code and page number, so a reader can
follow them on paper. The all-games PDF is a shared cover and contents followed
by the very same pages, so every game keeps its own page numbers (the running
head names the game and the code). ``houserules build`` writes
``site/print/<game>.pdf`` and ``site/print/faq.pdf``; ``houserules pdf`` writes
one, optionally with a group's house rules (:mod:`houserules.profile`).

WeasyPrint draws empty boxes, without a warning, when no CJK font is
installed, so :func:`require_cjk_font` refuses to print without one.
"""

from __future__ import annotations

import datetime
import hashlib
import os
import re
import subprocess
from importlib import resources
from pathlib import Path
from typing import Iterable

from . import vocab
from .errata import errata_table
from .errors import HouserulesError
from .model import Entry, Game, KnowledgeBase
from .pages import SiteRenderer, entry_url
from .profile import ORIGIN, Profile
from .textrender import inline_html, relative_url

FONT_FAMILY = "WenQuanYi Micro Hei"  # must match assets/print.css
FONT_PACKAGE = "fonts-wqy-microhei"
PAPER_SIZES = {"a4": "A4", "letter": "letter"}
PRINT_DIR = "print"
PRINT_PAGE = f"{PRINT_DIR}/index.md"
ALL_GAMES = "faq"
#: Links in the PDF are written as if from ``site/print/``, where the build puts it.
PAGE = f"{PRINT_DIR}/{ALL_GAMES}.pdf"
_UNPRINTED = "#not-printed:"
_REF_LINK = re.compile(r'<a href="([^"]*)" class="hr-ref">(.*?)</a>', re.S)

Group = tuple[str, dict[str, str], list[str]]


def require_cjk_font() -> None:
    """Fail unless fontconfig finds the CJK font the print stylesheet names."""
    try:
        found = subprocess.run(["fc-list", f":family={FONT_FAMILY}", "family"],
                               capture_output=True, text=True, check=False).stdout
    except FileNotFoundError:
        found = ""
    if FONT_FAMILY not in found:
        raise HouserulesError(f"the CJK font '{FONT_FAMILY}' is not installed, so Chinese text would print as empty "
                              f"boxes — install the Debian package {FONT_PACKAGE} (tools/setup-debian.sh does)")


def anchor(entry: Entry) -> str:
    """The entry's id in the print HTML (slugs have no '--', so this is unambiguous)."""
    return f"e-{entry.game}--{entry.id}"


def data_version(kb: KnowledgeBase, entries: Iterable[Entry]) -> str:
    """The newest history date of the printed entries and a short hash of their data.

    Two PDFs with the same version print the same data, wherever the files live.
    """
    entries = list(entries)
    digest = hashlib.sha256()
    for label, path in sorted({(f"{g}:", kb.games[g].path) for g in {e.game for e in entries}}
                              | {(e.ref, e.path) for e in entries}):
        digest.update(label.encode() + b"\0" + path.read_bytes() + b"\0")
    latest = max((h["date"] for e in entries for h in e.data.get("history", [])), default="")
    return " · ".join(part for part in (latest, digest.hexdigest()[:8]) if part)


def print_date() -> str:
    """Today, or the date of ``SOURCE_DATE_EPOCH`` for reproducible builds."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    day = datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc).date() if epoch else datetime.date.today()
    return day.isoformat()


class PrintRenderer(SiteRenderer):
    """The site's entry helpers, with references printed as codes and page numbers."""

    def __init__(self, kb: KnowledgeBase, printed: set[str], site_url: str | None = None,
                 pages: dict[str, int] | None = None):
        super().__init__(kb)
        self.printed = printed
        #: Page number of each entry's anchor, from the previous layout pass.
        self.pages = pages or {}
        self.site_url = site_url.rstrip("/") + "/" if site_url else None
        self.by_href = {self.href(e): e for e in kb.entries.values()}

    def page_of(self, entry: Entry) -> int:
        return self.pages.get(anchor(entry), 0)  # 0 only in the first layout pass

    def web_url(self, entry: Entry) -> str | None:
        """The entry's page on the public site, when its address is configured."""
        if self.site_url and entry.origin == "shared":
            return self.site_url + entry_url(entry)
        return None

    def href(self, entry: Entry) -> str:
        if entry.ref in self.printed:
            return "#" + anchor(entry)
        return self.web_url(entry) or _UNPRINTED + entry.ref

    def resolver(self, page: str, lang: str = "zh"):
        def resolve(ref: str) -> tuple[str, str] | None:
            target = self.kb.entries.get(ref)
            return None if target is None else (target.title[lang], self.href(target))
        return resolve

    def reference(self, entry: Entry, label: str, with_code: bool = True) -> str:
        """``label`` linked to the entry, followed by its code and page number (when printed here)."""
        code = f"{inline_html(entry.code)}，" if with_code else ""
        if entry.ref in self.printed:
            target = "#" + anchor(entry)
            return (f'<a class="hr-ref" href="{target}">{label}</a><span class="hr-pref">（{code}'
                    f'<a class="hr-page" href="{target}">第 {self.page_of(entry)} 页</a>）</span>')
        web = self.web_url(entry)
        text = f'<a class="hr-ref" href="{inline_html(web)}">{label}</a>' if web else f'<span class="hr-ref">{label}</span>'
        return text + (f'<span class="hr-pref">（{inline_html(entry.code)}）</span>' if with_code else "")

    def md(self, text: str | None, page: str, lang: str = "zh") -> str:
        def replace(match: re.Match[str]) -> str:
            target = self.by_href.get(match.group(1).replace("&amp;", "&"))
            return self.reference(target, match.group(2)) if target else match.group(0)

        return _REF_LINK.sub(replace, super().md(text, page, lang))

    def link(self, ref: str, page: str, with_summary: bool = False) -> str:
        target = self.kb.entries[ref]
        label = (f'<span class="hr-code">{inline_html(target.code)}</span> {inline_html(target.title["zh"])} '
                 f'<span class="hr-en" lang="en">{inline_html(target.title["en"])}</span>')
        return self.reference(target, label, with_code=False)

    def ref_line(self, key: str, refs: Iterable[str]) -> str:
        links = [self.link(ref, PAGE) for ref in refs if ref in self.kb.entries]
        if not links:
            return ""
        names = vocab.SECTIONS[key]
        return (f'<p class="hr-refs"><span class="hr-label">{names["zh"]} · {names["en"]}：</span>'
                + "；".join(links) + "</p>")

    def qr(self, entry: Entry) -> str:
        url = self.web_url(entry)
        if not url:
            return ""
        import segno  # only when the site's address is configured

        uri = segno.make(url, error="m").svg_data_uri(scale=1, border=0)
        return f'<img class="entry-qr" src="{inline_html(uri)}" alt="{inline_html(url)}">'

    # -- the document ---------------------------------------------------------------------
    def entry_html(self, entry: Entry, profile: Profile | None) -> str:
        game = self.kb.games[entry.game]
        data = entry.data
        out = [f'<article class="entry{" entry--house" if entry.origin == ORIGIN else ""}" id="{anchor(entry)}">',
               f'<h3 class="entry-title">{self.qr(entry)}<span class="entry-code">{inline_html(entry.code)}</span> · '
               f'{inline_html(entry.title["zh"])}</h3>',
               f'<p class="entry-en" lang="en">{inline_html(entry.title["en"])}</p>']
        if entry.origin == ORIGIN and profile is not None:
            out.append(f'<p class="house-mark">本组房规 · {inline_html(profile.name["zh"])}：非官方规则，仅本组使用。'
                       f'<span lang="en">House rule of {inline_html(profile.name.get("en", profile.name["zh"]))}, '
                       f'not an official rule.</span></p>')
        meta = [vocab.KINDS[entry.kind]["zh"], vocab.AUTHORITIES[data["authority"]]["zh"],
                vocab.CONFIDENCES[data["confidence"]]["zh"]]
        out.append(f'<p class="entry-meta">{" · ".join(inline_html(m) for m in dict.fromkeys(meta))}</p>')
        out.append('<div class="hr-answer"><p class="hr-answer-label">一句话答案 · Short answer</p>'
                   + self.bilingual(entry.summary, PAGE) + "</div>")
        if data.get("confidence") == "uncertain":
            out.append('<div class="hr-warning"><p class="hr-answer-label">存疑 · Uncertain</p>'
                       + self.bilingual(data.get("confidence_note"), PAGE) + "</div>")
        if data.get("status") == "stub":
            out.append('<div class="hr-warning"><p>待补充：现有资料尚未涵盖此条目的完整内容。'
                       '<span lang="en">Stub: the sources do not cover this entry in full yet.</span></p></div>')
        if entry.body:
            out.append(self.bilingual(entry.body, PAGE, "hr-body"))
        if "completion" in data:
            completion = data["completion"]
            sources = "; ".join(self.source_label(game, s) for s in completion["sources"])
            out.append('<div class="hr-completion"><p class="hr-answer-label">以下内容不在原始资料中，由其他来源补全 · '
                       'Completed from another source</p>' + self.bilingual(completion["text"], PAGE)
                       + f'<p class="hr-cite">{sources}</p></div>')
        if data.get("facts"):
            out.append(self.facts_table(entry, game, PAGE))
        # On paper an erratum prints twice only: with the entry holding it and with its component.
        errata = [(entry, e) for e in entry.errata] + [
            pair for pair in self.errata_for.get(entry.ref, []) if pair[0] is not entry]
        if errata:
            out.append(f'<p class="hr-label">{vocab.SECTIONS["errata"]["zh"]} · {vocab.SECTIONS["errata"]["en"]}</p>'
                       + errata_table(self, errata, PAGE))
        out.append(self.ref_line("applies-to", entry.applies_to))
        out.append(self.ref_line("rulings", [e.ref for e in self.applying.get(entry.ref, []) if e.ref in self.printed]))
        out.append(self.ref_line("see-also", entry.see_also))
        out.append('<p class="hr-cite entry-sources">出处 · Sources：'
                   + "；".join(self.source_label(game, s) for s in data["sources"]) + "</p>")
        out.append("</article>")
        return "\n".join(part for part in out if part)


def print_groups(site: SiteRenderer, game: Game, profile: Profile | None) -> list[Group]:
    """The game's printed entries, grouped as on its site page; a group's house rules first."""
    groups: list[Group] = []
    if profile is not None:
        own = sorted((e for e in site.kb.game_entries(game.id) if e.origin == ORIGIN), key=lambda e: e.code)
        if own:
            name = profile.name
            groups.append(("house-rules", {"zh": f"本组房规：{name['zh']}", "en": f"House rules of {name.get('en', name['zh'])}"},
                           [e.ref for e in own]))
    for key, title, refs in site.game_sections(game):
        kept = [r for r in refs if site.kb.entries[r].origin == "shared"
                and (profile is None or profile.includes(site.kb.entries[r]))]
        if kept:
            groups.append((key, title, kept))
    return groups


def _toc(site: PrintRenderer, layout: list[tuple[Game, list[Group]]]) -> str:
    out = ['<nav class="toc"><h2 class="toc-title">目录 · Contents</h2>']
    for game, groups in layout:
        first = site.kb.entries[groups[0][2][0]] if groups else None
        start = f' data-page="{site.page_of(first)}"' if first else ""
        out.append(f'<p class="toc-game"><a href="#g-{game.id}"{start}>{inline_html(game.name["zh"])} '
                   f'<span class="hr-en" lang="en">{inline_html(game.name["en"])}</span></a></p>')
        for key, title, refs in groups:
            out.append(f'<p class="toc-group toc-group--{inline_html(key)}">{inline_html(title["zh"])} · '
                       f'<span lang="en">{inline_html(title["en"])}</span></p><ul>')
            for ref in refs:
                entry = site.kb.entries[ref]
                out.append(f'<li><a href="#{anchor(entry)}" data-page="{site.page_of(entry)}">'
                           f'<span class="entry-code">{inline_html(entry.code)}</span> {inline_html(entry.title["zh"])} '
                           f'<span class="hr-en" lang="en">{inline_html(entry.title["en"])}</span></a></li>')
            out.append("</ul>")
    out.append("</nav>")
    return "\n".join(out)


def _cover(kb: KnowledgeBase, games: list[Game], printed: list[Entry], profile: Profile | None) -> str:
    if len(games) == 1:
        title, subtitle = games[0].name["zh"], games[0].name["en"]
    else:
        title, subtitle = "规则补充说明与房规", "Rulings, errata and house rules"
    names = "".join(f'<li>{inline_html(g.name["zh"])} <span lang="en">{inline_html(g.name["en"])}</span></li>'
                    for g in games)
    group = ""
    if profile is not None:
        group = (f'<p class="cover-group">含本组房规：{inline_html(profile.name["zh"])}'
                 f'<br><span lang="en">With the house rules of {inline_html(profile.name.get("en", profile.name["zh"]))}</span></p>')
    rows = [("数据版本 · Data version", data_version(kb, printed)), ("打印日期 · Printed", print_date()),
            ("条目 · Entries", str(len(printed)))]
    meta = "".join(f"<tr><th>{k}</th><td>{inline_html(v)}</td></tr>" for k, v in rows)
    return (f'<section class="cover"><p class="cover-kicker">房规速查 · houserules FAQ</p>'
            f'<h1 class="cover-title">{inline_html(title)}</h1><p class="cover-en" lang="en">{inline_html(subtitle)}</p>'
            f'<ul class="cover-games">{names}</ul>{group}<table class="cover-meta">{meta}</table></section>')


def _document(title: str, body: list[str]) -> str:
    return (f'<!DOCTYPE html><html lang="zh"><head><meta charset="utf-8"><title>{inline_html(title)}</title></head>'
            f'<body>{"".join(body)}</body></html>')


def _title(games: list[Game]) -> str:
    return "房规速查 FAQ — " + "、".join(g.name["zh"] for g in games)


def game_html(site: PrintRenderer, game: Game, groups: list[Group], profile: Profile | None) -> str:
    """One game's print document: cover, contents, then its entries group by group."""
    printed = [site.kb.entries[r] for _, _, refs in groups for r in refs]
    body = [_cover(site.kb, [game], printed, profile), _toc(site, [(game, groups)]),
            f'<section class="game" id="g-{game.id}"><h1 class="game-title">{inline_html(game.name["zh"])} '
            f'<span class="hr-en" lang="en">{inline_html(game.name["en"])}</span></h1>' + site.licence_box(game, PAGE)]
    for key, title, refs in groups:
        body.append(f'<section class="group group--{inline_html(key)}"><h2 class="group-title">{inline_html(title["zh"])} · '
                    f'<span lang="en">{inline_html(title["en"])}</span></h2>')
        body += [site.entry_html(site.kb.entries[r], profile) for r in refs]
        body.append("</section>")
    body.append("</section>")
    return _document(_title([game]), body)


def stylesheet(paper: str = "a4") -> str:
    css = resources.files("houserules").joinpath("assets", "print.css").read_text(encoding="utf-8")
    return css + f"\n@page {{ size: {PAPER_SIZES[paper]}; }}\n"


def _render(html: str, paper: str):
    from weasyprint import CSS, HTML  # slow to import: only when printing

    return HTML(string=html).render(stylesheets=[CSS(string=stylesheet(paper))])


def _anchor_pages(document) -> dict[str, int]:
    """Where each anchor starts (an element split over pages is anchored on each of them)."""
    found: dict[str, int] = {}
    for number, page in enumerate(document.pages, 1):
        for name in page.anchors:
            found.setdefault(name, number)
    return found


class PrintedGame:
    """One game laid out with the page numbers of its own document (cover = page 1).

    WeasyPrint's ``target-counter()`` re-lays out every later page for each forward
    reference (minutes for a hundred entries), so page numbers are printed as plain
    text instead: a first pass finds where each entry lands, the next prints those
    numbers, and layout repeats until the numbers printed are the numbers found.
    """

    MAX_PASSES = 4

    def __init__(self, kb: KnowledgeBase, game: Game, profile: Profile | None, site_url: str | None, paper: str):
        self.game = game
        self.groups = print_groups(SiteRenderer(kb), game, profile)
        self.entries = [kb.entries[r] for _, _, refs in self.groups for r in refs]
        pages: dict[str, int] = {}
        for _ in range(self.MAX_PASSES):
            self.site = PrintRenderer(kb, {e.ref for e in self.entries}, site_url, pages)
            self.document = _render(game_html(self.site, game, self.groups, profile), paper)
            found = _anchor_pages(self.document)
            if all(found.get(anchor(e)) == pages.get(anchor(e)) for e in self.entries):
                break
            pages = found
        else:
            raise HouserulesError(f"the page numbers of {game.id} did not settle after {self.MAX_PASSES} layouts")
        self.pages = found

    @property
    def body(self) -> list:
        """The pages after the cover and contents."""
        start = self.pages[f"g-{self.game.id}"]
        return self.document.pages[start - 1:]


def combine(kb: KnowledgeBase, parts: list[PrintedGame], profile: Profile | None, paper: str):
    """One document of several games: a shared cover and contents, then each game's own pages.

    Each game keeps its page numbers (the running head names the game), so the
    per-game PDFs and the combined one print the very same pages.
    """
    printed = [e for part in parts for e in part.entries]
    pages = {name: n for part in parts for name, n in part.pages.items()}
    site = PrintRenderer(kb, {e.ref for e in printed}, None, pages)
    games = [part.game for part in parts]
    html = _document(_title(games), [_cover(kb, games, printed, profile), _toc(site, [(p.game, p.groups) for p in parts])])
    front = _render(html, paper)
    return front.copy([*front.pages, *(page for part in parts for page in part.body)])


def _write(document, target: Path) -> int:
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.partial")  # never a half-written PDF at target
    document.write_pdf(partial)
    partial.replace(target)
    return len(document.pages)


def write_faq(kb: KnowledgeBase, games: list[str], target: Path, profile: Profile | None = None,
              paper: str = "a4", site_url: str | None = None) -> int:
    """Print ``games`` into ``target``; return the number of pages."""
    require_cjk_font()
    parts = [PrintedGame(kb, kb.games[g], profile, site_url, paper) for g in games]
    document = parts[0].document if len(parts) == 1 else combine(kb, parts, profile, paper)
    return _write(document, target)


def configured_site_url() -> str | None:
    """``site_url`` of mkdocs.yml, if set (the PDF then carries QR codes to the entry pages)."""
    from mkdocs.utils.yaml import yaml_load

    from .build import MKDOCS_YML

    with open(MKDOCS_YML, encoding="utf-8") as handle:
        return yaml_load(handle).get("site_url") or None


def pdf_name(game: str | None) -> str:
    return f"{game or ALL_GAMES}.pdf"


def build_step(site_dir: Path, data_dir: Path) -> None:
    """``houserules build`` step: ``print/<game>.pdf`` for each game and ``print/faq.pdf`` from the same pages."""
    from .load import load

    require_cjk_font()
    kb = load(data_dir).kb  # already checked by the build
    site_url = configured_site_url()
    out = site_dir / PRINT_DIR
    parts = [PrintedGame(kb, game, None, site_url, "a4") for game in kb.games.values()]
    for part in parts:
        _write(part.document, out / pdf_name(part.game.id))
    _write(combine(kb, parts, None, "a4"), out / pdf_name(None))


def print_page(kb: KnowledgeBase) -> str:
    """The site's ``print/index.md``: the PDFs and how to print a group's own FAQ."""
    rows = [(pdf_name(None), "全部游戏", "All games", len(kb.entries))]
    rows += [(pdf_name(g.id), g.name["zh"], g.name["en"], len(kb.game_entries(g.id))) for g in kb.games.values()]
    # Raw HTML links: the PDFs are written after MkDocs, so its link check must not see them.
    items = "".join(f'<li><a href="{inline_html(relative_url(f"{PRINT_DIR}/{name}", PRINT_PAGE.replace(".md", ".html")))}">'
                    f'{inline_html(zh)} <span lang="en">{inline_html(en)}</span> (PDF)</a> · {count} 条</li>'
                    for name, zh, en, count in rows)
    return ("---\ntitle: \"打印版 Printed FAQ\"\n---\n\n# 打印版 · Printed FAQ\n\n"
            "A4 PDF：封面、带页码的目录、按网站分组的全部条目；条目间的引用印成代码和页码，方便在纸上查找。"
            "从浏览器打印任何页面也会得到干净的版面。\n\n"
            "*A4 PDFs with a cover, a table of contents with page numbers and every entry, grouped as on the site; "
            "cross-references print as codes and page numbers. Printing any page from the browser also gives a clean page.*\n\n"
            f'<ul class="hr-print-list">{items}</ul>\n\n'
            "用 `houserules pdf --profile FILE` 打印含本组房规的版本，`--paper letter` 打印 US Letter。"
            "*Print your group's own house rules with `houserules pdf --profile FILE`; `--paper letter` for US Letter.*\n")


def make_faq(data_dir: Path, output: Path | None = None, game: str | None = None, profile_file: Path | None = None,
             paper: str = "a4", site_url: str | None = None) -> tuple[Path, int, int]:
    """``houserules pdf``: check the data, add a group's house rules, print; return (path, entries, pages)."""
    from .check import run as run_check
    from .profile import load_profile

    report = run_check(data_dir)
    if report.errors:
        raise HouserulesError(f"the data has {len(report.errors)} problems; fix them first ({report.summary()})",
                              report.errors)
    kb, profile = report.kb, None
    if profile_file is not None:
        profile, kb = load_profile(profile_file, kb)
    games = [game] if game else (profile.games if profile else list(kb.games))
    unknown = [g for g in games if g not in kb.games]
    if unknown:
        raise HouserulesError(f"unknown game '{unknown[0]}' — use one of: {', '.join(kb.games)}")
    target = output or Path(pdf_name(game))
    pages = write_faq(kb, games, target, profile, paper, site_url)
    entries = sum(1 for e in kb.entries.values() if e.game in games and (profile is None or profile.includes(e)))
    return target, entries, pages
