"""Plain-text fields stay plain text in every output: a property-based test.

Titles, aliases, names, labels, glossary terms, source titles and references, history
lines… are text, never Markdown or HTML. Hypothesis writes Markdown and HTML syntax
(attribute lists, images with event handlers, links, raw tags, line breaks) into every such
field at once, a payload each; the pages and the print document made from that data must
have exactly the elements and attributes they have when every field says "x": a field may
change text, never structure. (All fields in one example: each site render checks every
field, so each field meets as many payloads as the profile has examples.)
"""

from __future__ import annotations

import copy
import functools
from collections import Counter
from html.parser import HTMLParser

import markdown
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mkdocs.utils.meta import get_data

from conftest import GOOD, load_kb
from houserules.data.reading.model import Game, Glossary, KnowledgeBase, read_entry
from houserules.data.reading.records import build
from houserules.print.document import PrintDocument, PrintLinker
from houserules.print.plan import PrintOptions, print_groups
from houserules.site.context import SiteContext
from houserules.site.pages import site_pages

#: The Markdown of mkdocs.yml: what MkDocs does to the generated pages.
MKDOCS_EXTENSIONS = ["attr_list", "admonition", "tables", "toc"]
SYNTAX = [
    '{: onclick="x" }',
    "{#id .cls onmouseover=y}",
    "![i](x){: onerror=y}",
    "[l](javascript:x)",
    "**b**",
    "<img src=x onerror=y>",
    "<script>x</script>",
    "<b>",
    "</div>",
    "\n\n",
    "\n",
    "# ",
    "- ",
    "1. ",
    "> ",
    "|a|b|",
    "`c`",
    "&amp;",
    "&#60;",
    "<!--",
    "-->",
    "[[demo:tower]]",
    "*",
    "_",
    "~~",
    "\\",
    "  ",
    '"',
    "'",
    "=",
    ":",
    "塔楼",
]
payloads = (
    st.lists(
        st.one_of(st.sampled_from(SYNTAX), st.text(alphabet="ab<>\"'&*_[](){}!#:=.-\n ", max_size=6)),
        min_size=1,
        max_size=12,
    )
    .map("".join)
    .filter(lambda t: t.strip())
)

#: (which file, path to the field) of every plain-text field that reaches a page or the PDF.
ENTRY_FIELDS = [
    ("demo:tower-crossing", ("title", "zh")),
    ("demo:tower-crossing", ("title", "en")),
    ("demo:tower-crossing", ("aliases", 0)),
    ("demo:tower-crossing", ("questions", 0, "q", "zh")),
    ("demo:tower-crossing", ("questions", 0, "q", "en")),
    ("demo:tower-crossing", ("questions", 0, "variants", 0)),
    ("demo:tower-crossing", ("sources", 0, "ref")),
    ("demo:tower-crossing", ("history", 0, "change")),
    ("demo:tower", ("facts", 0, "label", "zh")),
    ("demo:tower", ("facts", 0, "label", "en")),
    ("demo:tower-errata", ("errata", 0, "printed")),
    ("demo:tower-errata", ("errata", 0, "corrected")),
    ("demo:tower-errata", ("errata", 0, "source_en")),
    ("demo:tower-errata", ("translator_notes", 0, "quote")),
    ("demo:tower-errata", ("translator_notes", 0, "suggestion")),
    ("demo:tower-errata", ("completion", "sources", 0, "ref")),
]
GAME_FIELDS = [
    ("name", "zh"),
    ("name", "en"),
    ("sources", 0, "title", "zh"),
    ("sources", 1, "title", "en"),
    ("contents", 0, "title", "zh"),
    ("contents", 0, "title", "en"),
    ("licence", "name"),
    ("editions", 0, "name", "zh"),
    ("not_covered", 0, "name", "zh"),
    ("not_covered", 0, "name", "en"),
]
FIELDS = [("entry", ref, path) for ref, path in ENTRY_FIELDS] + [("game", "demo", path) for path in GAME_FIELDS]
BASE = load_kb(GOOD)


def _set(data: dict, path: tuple, value: str) -> None:
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


def kb_with(values: dict[tuple, str]) -> KnowledgeBase:
    """The fixture's knowledge base with each field of ``values`` (a :data:`FIELDS` item → its text)
    replaced (the files are not touched)."""
    games = {}
    for gid, game in BASE.games.items():
        data = copy.deepcopy(game.data)
        for (where, ref, path), value in values.items():
            if where == "game" and gid == ref:
                _set(data, path, value)
        gdoc = copy.deepcopy(game.glossary.doc) if game.glossary else None
        glossary = build(Glossary, gdoc.data, path=game.glossary.path, doc=gdoc, game=gid) if game.glossary else None
        doc = type(game.doc)(data, game.doc.lines)
        games[gid] = build(Game, data, path=game.path, doc=doc, glossary=glossary)
    entries = {}
    for eref, entry in BASE.entries.items():
        data = copy.deepcopy(entry.data)
        for (where, ref, path), value in values.items():
            if where == "entry" and eref == ref:
                _set(data, path, value)
        entries[eref] = read_entry(entry.path, type(entry.doc)(data, entry.doc.lines), entry.game)
    return KnowledgeBase(games=games, entries=entries, root=BASE.root)


class Shape(HTMLParser):
    """The elements and attribute names of a page, counted; text and attribute values ignored.

    Line breaks (``<br>``) and the marks of an erratum's diff (``<del>``, ``<ins>``) follow the
    text itself by design, so they are not counted.
    """

    TEXTUAL = {"br", "del", "ins"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: Counter[tuple[str, tuple[str, ...]]] = Counter()

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag not in self.TEXTUAL:
            self.found[(tag, tuple(sorted(name for name, _ in attrs)))] += 1


def shape(html: str) -> Counter:
    parser = Shape()
    parser.feed(html)
    return parser.found


def page_shape(page: str) -> Counter:
    """The shape of a generated page once MkDocs' Markdown has made it HTML."""
    body, _ = get_data(page)
    return shape(_mkdocs_markdown().reset().convert(body))


@functools.cache
def _mkdocs_markdown() -> markdown.Markdown:
    """One converter with MkDocs' extensions, reset before each page (as MkDocs' own is between pages)."""
    return markdown.Markdown(extensions=MKDOCS_EXTENSIONS)


def print_shape_html(kb: KnowledgeBase, layout: str) -> str:
    """The print document of the fixture's game in ``layout``, as HTML."""
    game = kb.games["demo"]
    groups = print_groups(kb, game, None)
    linker = PrintLinker(kb, {r for _, _, refs in groups for r in refs})
    return PrintDocument(kb, linker, PrintOptions(layout=layout)).game_html(game, groups)


def print_shape(kb: KnowledgeBase, layout: str) -> Counter:
    return shape(print_shape_html(kb, layout))


@pytest.fixture(scope="module", autouse=True)
def _history_read_once():
    """Every example renders the changes page, which reads the fixture's git history: a history that does not
    change while these tests run. Each git command is run, and each file version parsed, once (a copy each time)."""
    from houserules.data.versions import git, history

    run_git, read_blob = git._git, history.read_blob
    answers: dict = {}
    parsed: dict = {}

    def git_once(cwd, *args, stdin=None):
        key = (str(cwd), args, stdin)
        if key not in answers:
            answers[key] = run_git(cwd, *args, stdin=stdin)
        return answers[key]

    def read_blob_once(blob):
        if blob not in parsed:
            parsed[blob] = read_blob(blob)
        return copy.deepcopy(parsed[blob])

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(git, "_git", git_once)
        patch.setattr(history, "read_blob", read_blob_once)
        yield


@functools.cache
def plain_outputs() -> tuple[dict[str, tuple[str, Counter]], dict[str, Counter]]:
    """With every field saying "x": each page's Markdown and shape, and the print document's shape per layout.

    Worked out once; each example then compares only the pages its values changed.
    """
    kb = kb_with(dict.fromkeys(FIELDS, "x"))
    pages = {src: (page, page_shape(page)) for src, page in site_pages(SiteContext(kb)).items()}
    return pages, {layout: print_shape(kb, layout) for layout in ("qa", "full")}


@given(values=st.tuples(*[payloads] * len(FIELDS)))
def test_a_plain_text_field_never_adds_an_element_or_attribute(values):
    plain_pages, plain_print = plain_outputs()
    hostile = kb_with(dict(zip(FIELDS, values)))
    pages = site_pages(SiteContext(hostile))
    assert set(pages) == set(plain_pages)
    for src, page in pages.items():
        plain_page, plain_shape = plain_pages[src]
        if page != plain_page:  # a page no field reaches is the same Markdown, so the same shape
            assert page_shape(page) == plain_shape, src
    for layout in ("qa", "full"):
        assert print_shape(hostile, layout) == plain_print[layout], layout


def test_every_field_reaches_a_page_or_the_print_document():
    """Each field of :data:`FIELDS` is really shown: with it alone changed, some page's Markdown or the print
    document differs from the all-"x" one (a field the outputs never show would be checked for nothing). A
    question's variants are not shown (only searched): the pages' search index is tested in test_hardening."""
    plain_pages, _ = plain_outputs()
    plain_printed = [print_shape_html(kb_with(dict.fromkeys(FIELDS, "x")), layout) for layout in ("qa", "full")]
    unseen = []
    for field in FIELDS:
        if field[2][-2:] == ("variants", 0):
            continue
        changed = kb_with({**dict.fromkeys(FIELDS, "x"), field: "zq"})
        pages = site_pages(SiteContext(changed))
        printed = [print_shape_html(changed, layout) for layout in ("qa", "full")]
        if all(pages[src] == plain_pages[src][0] for src in pages) and printed == plain_printed:
            unseen.append(field)
    assert unseen == []


def test_a_field_that_adds_markup_is_caught():
    """The comparison sees structure: a title that MkDocs' Markdown would turn into an element is found."""
    plain_pages, _ = plain_outputs()
    pages = site_pages(SiteContext(kb_with(dict.fromkeys(FIELDS, "x"))))
    changed = {src: page.replace("x", "**x**", 1) for src, page in pages.items() if "x" in get_data(page)[0]}
    assert any(page_shape(page) != plain_pages[src][1] for src, page in changed.items())
