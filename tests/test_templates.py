"""The entry templates (tools/houserules/render/templates/): what they escape, and that they are all there.

The site's entry page and the print document are two outputs of the same block templates;
the golden files (tests/test_golden.py) pin what they make, this file what they must never do:
let text from the data become markup.
"""

from __future__ import annotations

import copy
import fnmatch
import html
import os
import tomllib
from pathlib import Path

import jinja2
import pytest
from markupsafe import Markup

from conftest import GOOD, ROOT, load_kb
from houserules.data.reading.model import Entry, KnowledgeBase
from houserules.print.document import PrintDocument, PrintLinker
from houserules.print.plan import PrintOptions, print_groups
from houserules.render import blocks as B
from houserules.render.templating import environment, escape, render
from houserules.site.context import SiteContext
from houserules.site.entry_page import entry_page

TEMPLATES = ROOT / "tools" / "houserules" / "render" / "templates"
SCRIPT = "<script>alert('x')</script>"
BASE = load_kb(GOOD)

#: (entry, path to a field, where it shows: "site", the "qa" and "full" print layouts; whether it shows whole)
FIELDS = [
    ("demo:tower-crossing", ("title", "zh"), {"site", "qa", "full"}, True),
    ("demo:tower-crossing", ("title", "en"), {"site", "qa", "full"}, True),
    ("demo:tower-crossing", ("summary", "zh"), {"site", "qa", "full"}, True),
    ("demo:tower-crossing", ("summary", "en"), {"site", "qa", "full"}, True),
    ("demo:tower-crossing", ("aliases", 0), {"site"}, True),
    ("demo:tower-crossing", ("questions", 0, "q", "en"), {"site", "qa", "full"}, True),
    ("demo:tower-crossing", ("questions", 0, "a", "zh"), {"site", "qa", "full"}, True),
    ("demo:tower-crossing", ("history", 0, "change"), {"site"}, True),
    ("demo:tower", ("facts", 0, "label", "zh"), {"site", "full"}, True),
    ("demo:tower-errata", ("errata", 0, "source_en"), {"site", "full"}, True),
    ("demo:tower-errata", ("errata", 0, "corrected"), {"site", "full"}, False),  # diffed: in runs
    ("demo:tower-errata", ("errata", 0, "note", "zh"), {"site", "full"}, True),
    ("demo:tower-errata", ("translator_notes", 0, "quote"), {"site"}, True),
]


def kb_with(ref: str, path: tuple, value: str) -> KnowledgeBase:
    """The fixture's knowledge base with one field of one entry replaced (the files are not touched)."""
    entries = dict(BASE.entries)
    entry = BASE.entries[ref]
    data = copy.deepcopy(entry.data)
    target = data
    for key in path[:-1]:
        target = target.setdefault(key, {}) if isinstance(target, dict) else target[key]
    target[path[-1]] = value
    entries[ref] = Entry(entry.path, type(entry.doc)(data, entry.doc.lines), game=entry.game)
    return KnowledgeBase(games=BASE.games, entries=entries, root=BASE.root)


def print_document(kb: KnowledgeBase, layout: str) -> str:
    game = kb.games["demo"]
    groups = print_groups(kb, game, None)
    linker = PrintLinker(kb, {r for _, _, refs in groups for r in refs}, "https://example.org/hr")
    return PrintDocument(kb, linker, PrintOptions(layout=layout, site_url="https://example.org/hr")).game_html(
        game, groups
    )


def outputs(kb: KnowledgeBase, ref: str) -> dict[str, str]:
    """The entry's site page and the print document in both layouts."""
    return {
        "site": entry_page(SiteContext(kb), kb.entries[ref]),
        **{layout: print_document(kb, layout) for layout in ("qa", "full")},
    }


@pytest.mark.parametrize("ref, path, shown, whole", FIELDS, ids=[f"{r}:{'.'.join(map(str, p))}" for r, p, *_ in FIELDS])
def test_a_script_in_an_entry_is_text_in_the_site_and_in_print(ref, path, shown, whole):
    """Plain text (a title, an alias) is escaped, data Markdown (an answer, a note) sanitized: either way the
    script is text a reader sees, in the site's page (whose headings are Markdown) and on paper."""
    plain = outputs(BASE, ref)
    for output, text in outputs(kb_with(ref, path, SCRIPT), ref).items():
        assert "<script" not in text.lower(), (output, path)
        if output in shown:
            assert text != plain[output], (output, path)  # the field is shown there...
            assert "script&" in text.replace("script&#62;", "script&gt;"), (output, path)  # ...escaped
            if whole:
                assert SCRIPT in html.unescape(text), (output, path)


def test_the_check_above_sees_a_script_that_would_run(monkeypatch):
    """Were a question printed unescaped, the test above would find the script."""
    monkeypatch.setattr(environment(), "finalize", lambda value: Markup(value))
    environment().cache.clear()
    try:
        text = outputs(kb_with("demo:tower-crossing", ("questions", 0, "q", "en"), SCRIPT), "demo:tower-crossing")
    finally:
        monkeypatch.undo()
        environment().cache.clear()
    assert all(SCRIPT in page for page in text.values())


def test_templates_escape_every_value_as_inline_html_does():
    assert escape('<a href="x">\'&\n\x1b') == "&lt;a href=&quot;x&quot;&gt;&#x27;&amp;&#10;"
    assert escape(Markup("<b>")) == "<b>"
    assert escape(3) == "3"
    with pytest.raises(TypeError, match="printed None"):
        escape(None)


def test_a_value_a_template_does_not_get_is_an_error():
    with pytest.raises(jinja2.UndefinedError):
        render("print/game.html", game=BASE.games["demo"], groups=[])


def test_the_line_breaks_of_a_template_are_not_output():
    template = environment().from_string("<p>\n    {{ a }}\n    <b>{{ b }}</b>\n</p>{{ nl }}")
    assert template.render(a="<", b="x\ny") == "<p>&lt;<b>x&#10;y</b></p>\n"


def test_every_kind_of_block_has_a_template():
    names = {p.stem for p in (TEMPLATES / "blocks").glob("*.html")}
    aliases = {"applies-to": "links", "rulings": "links", "see-also": "links", "referenced-by": "links"}
    aliases |= {"stale": "notice", "stub": "notice"}
    assert {aliases.get(kind, kind) for kind in B.ORDER} == names


def test_the_templates_are_package_data():
    """Every template is installed with the package (pyproject.toml's package-data)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["houserules"]
    package = ROOT / "tools" / "houserules"
    files = [Path(os.path.relpath(p, package)).as_posix() for p in TEMPLATES.rglob("*") if p.is_file()]
    assert files
    assert [
        f for f in files if not any(fnmatch.fnmatchcase(f, p) and f.count("/") == p.count("/") for p in patterns)
    ] == []


def test_no_template_marks_a_value_as_safe():
    """Only h.md and other templates make markup: a template never turns a value into markup itself."""
    found = [
        (p.relative_to(TEMPLATES).as_posix(), word)
        for p in TEMPLATES.rglob("*.html")
        for word in ("|safe", "| safe", "Markup", "autoescape")
        if word in p.read_text(encoding="utf-8")
    ]
    assert found == []


#: The HTML still written in Python: the sanitizing Markdown renderer's own paragraphs (render/text.py, the one
#: place data text becomes markup) and the Content-Security-Policy tag put into MkDocs' built pages.
HTML_IN_PYTHON = {"render/text.py": 2, "adapter/csp.py": 1}


def test_html_is_written_in_templates():
    package = ROOT / "tools" / "houserules"
    found = {}
    for path in package.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        count = text.count('f"<') + text.count("f'<")
        if count:
            found[path.relative_to(package).as_posix()] = count
    assert found == HTML_IN_PYTHON
