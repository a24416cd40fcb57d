"""Hostile and broken input: inert rendering, safe names and paths, odd files, atomic output, odd queries.

The hostile fixture (tests/fixtures/hostile) puts script, event handlers, ``javascript:`` and ``data:``
links, raw HTML, Markdown attribute lists and invisible or reordering characters into every text field; each
payload would set ``window.__pwned``, call ``alert`` or print "pwned". It must build and show all of
that as text: in the site (checked statically and in headless Chromium), the PDF, the JSON export and
the terminal. Its entry with terminal escape sequences (tests/fixtures/hostile-escapes) is refused by
check, and the terminal still removes them when handed them.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import time
import unicodedata
from html.parser import HTMLParser
from pathlib import Path

import pytest

from conftest import ENTRY_TEMPLATE, FIXTURES, GOOD, HOUSERULES, run_cli, run_process
from houserules.build import TEMP_MARKER, build_lock, build_site
from houserules.check import run as run_check
from houserules.data.reading import safefile as files
from houserules.data.reading import yamlload
from houserules.data.reading.model import KnowledgeBase
from houserules.errors import HouserulesError

HOSTILE = FIXTURES / "hostile"
#: The hostile entry with terminal escape sequences, which check refuses (see the file).
HOSTILE_ESCAPES = FIXTURES / "hostile-escapes"
E = "data/demo/entries"
MARK = re.compile(r"pwned|alert\(", re.I)
#: Attributes whose value is a URL the browser may follow or load.
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "data", "xlink:href", "poster", "background", "ping", "cite"}
BAD_SCHEME = re.compile(r"^(javascript|vbscript|data):", re.I)
#: Elements that run, load or restyle something: none of them may carry data.
ACTIVE = {
    "script",
    "style",
    "iframe",
    "frame",
    "object",
    "embed",
    "applet",
    "base",
    "form",
    "svg",
    "math",
    "template",
    "link",
}


class LiveMarkup(HTMLParser):
    """Finds markup in a page that could run data: the static half of the hostile-content check."""

    def __init__(self, name: str):
        super().__init__(convert_charrefs=True)
        self.name = name
        self.found: list[str] = []
        self.raw: list[str] = []

    def report(self, what: str) -> None:
        self.found.append(f"{self.name}:{self.getpos()[0]}: {what[:120]}")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            value = value or ""
            bare = "".join(c for c in value if not c.isspace() and unicodedata.category(c) != "Cc")
            if name.startswith("on") or name == "srcdoc":
                self.report(f"<{tag} {name}={value!r}>")
            elif name in URL_ATTRIBUTES and BAD_SCHEME.match(bare):
                self.report(f"<{tag} {name}={value!r}>")
            elif tag == "meta" and name == "http-equiv" and value != "Content-Security-Policy":
                self.report(f"<meta http-equiv={value!r}>")
        if tag in ACTIVE and any(MARK.search(value or "") for _, value in attrs):
            self.report(f"<{tag} {attrs!r}>")
        if tag in {"script", "style"}:
            self.raw.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if self.raw and self.raw[-1] == tag:
            self.raw.pop()

    def handle_data(self, data: str) -> None:
        if self.raw and MARK.search(data):
            self.report(f"<{self.raw[-1]}> {data!r}")


def live_markup(site: Path) -> list[str]:
    found = []
    for page in sorted(site.rglob("*.html")):
        parser = LiveMarkup(str(page.relative_to(site)))
        parser.feed(page.read_text(encoding="utf-8"))
        found += parser.found
    return found


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("hostile")
    result = run_cli("build", "--data", str(HOSTILE), "-o", str(root / "site"))
    assert result.returncode == 0, result.stdout + result.stderr
    # Nothing is written beside the output folder but its lock.
    assert sorted(p.name for p in root.iterdir()) == [".site.lock", "site"]
    return root / "site"


# -- hostile content ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "html",
    [
        '<img src=x onerror="alert(1)">',
        '<a href=" java\tscript:alert(1)">x</a>',
        '<a href="data:text/html,x">x</a>',
        "<script>window.__pwned=1</script>",
        '<iframe srcdoc="x"></iframe>',
        '<meta http-equiv="refresh" content="0;url=x">',
    ],
)
def test_the_scanner_finds_live_markup(html):
    parser = LiveMarkup("page")
    parser.feed(html)
    assert parser.found


@pytest.mark.slow
def test_hostile_site_has_no_live_markup(hostile_site):
    assert live_markup(hostile_site) == []


@pytest.mark.slow
@pytest.mark.parametrize(
    "page, text",
    [
        ("evil/script-title.html", '<script>window.__pwned="title"</script>脚本'),
        ("evil/script-title.html", '</title><script>alert("pwned-summary")</script>一句话'),
        ("evil/markdown-tricks.html", "{: onclick=\"alert('pwned-paragraph')\" }"),
        ("evil/index.html", '<script>window.__pwned="game-name"</script>恶意游戏'),
        ("evil/glossary.html", '<script>alert("pwned-term")</script>'),
        ("evil/errata.html", '<script>alert("pwned-printed")</script>'),
    ],
)
def test_hostile_text_is_shown_as_text(hostile_site, page, text):
    html = (hostile_site / page).read_text(encoding="utf-8")
    shown = "".join(_text_nodes(html))
    assert text in shown


def _text_nodes(html: str) -> list[str]:
    parser = HTMLParser(convert_charrefs=True)
    parts: list[str] = []
    parser.handle_data = parts.append  # type: ignore[method-assign]
    parser.feed(html)
    return parts


@pytest.mark.slow
def test_page_titles_and_descriptions_are_escaped(hostile_site):
    """Material prints the front matter title and description as HTML: they arrive escaped."""
    html = (hostile_site / "evil/script-title.html").read_text(encoding="utf-8")
    assert "<title>EV-R01 &lt;script&gt;window.__pwned=&quot;title&quot;&lt;/script&gt;脚本" in html
    assert '<meta name="description" content="&lt;/title&gt;&lt;script&gt;' in html


@pytest.mark.browser
@pytest.mark.parametrize("scheme", ["file", "http"])
def test_no_script_from_data_runs_in_chromium(browser, hostile_site, scheme):
    """Every page and a few searches, from disk and from a local server: no script, no dialog, no request out."""
    from sitecheck import serve

    dialogs: list[str] = []
    messages: list[str] = []
    requests: list[str] = []
    pages = sorted(str(p.relative_to(hostile_site)) for p in hostile_site.rglob("*.html"))
    visits = [(page, "") for page in pages] + [("index.html", f"?q={q}") for q in ("script", "pwned", "img", "终端")]
    pwned = []
    with contextlib.ExitStack() as stack:
        base = hostile_site.as_uri() if scheme == "file" else stack.enter_context(serve(hostile_site)).rstrip("/")
        context = stack.enter_context(contextlib.closing(browser.new_context()))
        context.on("request", lambda request: requests.append(request.url))
        tab = context.new_page()
        tab.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        tab.on("console", lambda message: messages.append(message.text))
        for page, query in visits:
            tab.goto(f"{base}/{page}{query}")
            if query:
                tab.wait_for_selector(".md-search-result__meta", timeout=15000)
                tab.wait_for_timeout(300)
            else:
                tab.mouse.move(200, 300)
                tab.mouse.move(400, 500)
                tab.keyboard.press("Tab")
            if tab.evaluate("typeof window.__pwned !== 'undefined'"):
                pwned.append(page + query)
        results = tab.locator(".md-search-result__item").count()
    assert len(visits) > 20 and results > 0  # the pages and the search results were really rendered
    assert pwned == [] and dialogs == []
    assert [m for m in messages if MARK.search(m)] == []
    # Nothing leaves the disk (404.html, made for a server, asks for file:///assets/…: still the disk) or the server.
    origin = "file://" if scheme == "file" else base
    assert [url for url in requests if not url.startswith((origin, "data:", "blob:", "about:"))] == []


@pytest.mark.slow
def test_json_export_keeps_hostile_text_as_data(hostile_site):
    payload = json.loads((hostile_site / "api/entries.json").read_text(encoding="utf-8"))
    record = next(r for r in payload["entries"] if r["id"] == "evil:script-title")
    assert record["title"]["zh"] == '<script>window.__pwned="title"</script>脚本'
    assert record["url"] == "evil/script-title.html"
    exported = run_cli("export", "--data", str(HOSTILE), "--format", "json")
    assert exported.returncode == 0, exported.stderr
    assert '"<script>window.__pwned=\\"title\\"</script>脚本"' in exported.stdout


@pytest.mark.slow
def test_pdf_prints_hostile_text_as_text(tmp_path):
    result = run_cli("pdf", "--data", str(HOSTILE), "-o", str(tmp_path / "faq.pdf"))
    assert result.returncode == 0, result.stderr
    text = subprocess.run(
        ["pdftotext", "-layout", str(tmp_path / "faq.pdf"), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert '<script>window.__pwned="title"</script>脚本' in text


def _terminal_safe(text: str) -> list[str]:
    return sorted({repr(c) for c in text if c != "\n" and unicodedata.category(c) in {"Cc", "Cf", "Zl", "Zp"}})


@pytest.mark.parametrize(
    "args",
    [
        ("show", "evil:terminal-tricks"),
        ("show", "EV-R01"),
        ("search", "terminal"),
        ("search", "tricks"),
        ("check",),
    ],
    ids=" ".join,
)
def test_terminal_output_has_no_control_characters_from_data(args):
    result = run_cli(*args, "--data", str(HOSTILE))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip()
    assert _terminal_safe(result.stdout + result.stderr) == []


def test_check_messages_show_escape_sequences_as_text(tmp_path):
    make_data(tmp_path, {f"{E}/extra.yaml": entry() + '"\\u202e\\u2028x\\u200b": 1\n'})
    result = run_cli("check", "--data", "data", cwd=tmp_path)
    assert result.returncode == 1
    assert _terminal_safe(result.stderr + result.stdout) == []
    assert "unknown field '\\u202e\\u2028x\\u200b'" in result.stderr


@pytest.mark.parametrize(
    "args, quoted",
    [
        (("search", "--kind", "a\x1b[2Jb", "tower"), "unknown kind 'a\\x1b[2Jb'"),
        (("l10n", "import", "in\x1b]0;pwned\x07.po"), "cannot read in\\x1b]0;pwned\\x07.po"),
        (("export", "x\x9b2J\u202e"), "unrecognized arguments: x\\x9b2J\\u202e"),
    ],
    ids=["error-message", "file-name", "argparse"],
)
def test_error_messages_show_control_characters_of_arguments_as_text(tmp_path, args, quoted):
    """An argument (a file name from a glob, a pasted value) is quoted in the error with its
    escape sequences written out, never sent raw to the terminal."""
    result = run_cli(*args[:1], "--data", str(HOSTILE), *args[1:], cwd=tmp_path)
    assert result.returncode in (1, 2)
    assert _terminal_safe(result.stdout + result.stderr) == []
    assert quoted in result.stderr


@pytest.mark.slow
def test_escape_sequences_in_data_are_refused_by_check(tmp_path):
    """The hostile entry with terminal escape sequences: check names the first, with its line and escape."""
    data = tmp_path / "data"
    shutil.copytree(HOSTILE, data)
    shutil.copy(HOSTILE_ESCAPES / "terminal-tricks.yaml", data / "evil/entries/terminal-tricks.yaml")
    result = run_cli("check", "--data", "data", cwd=tmp_path)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert _terminal_safe(result.stderr + result.stdout) == []
    assert (
        "data/evil/entries/terminal-tricks.yaml:7: evil:terminal-tricks: the text holds the control character U+001B, "
        "which no page, feed or export can carry — remove the control character U+001B "
        "(written \\e or \\x1b in the double-quoted text)"
    ) in result.stderr.splitlines()
    built = run_cli("build", "--data", "data", "-o", "site", cwd=tmp_path)
    assert built.returncode == 1 and not (tmp_path / "site").exists()


@pytest.mark.parametrize(
    "args", [("show", "evil:terminal-tricks"), ("show", "EV-C01"), ("search", "terminal")], ids=" ".join
)
def test_the_terminal_removes_escape_sequences_handed_to_it(tmp_path, monkeypatch, capsys, args):
    """Defence in depth: were escape sequences past the reader, show and search would still not print them."""
    from houserules.cli import main

    data = tmp_path / "data"
    shutil.copytree(HOSTILE, data)
    shutil.copy(HOSTILE_ESCAPES / "terminal-tricks.yaml", data / "evil/entries/terminal-tricks.yaml")
    monkeypatch.setattr(yamlload, "carriable", lambda text, line: None)  # the reader lets them through
    # ... and the schema (a one-line field refuses control characters: tests/test_single_line_fields.py)
    monkeypatch.setattr("houserules.data.reading.readfile.validate", lambda *args: [])
    monkeypatch.setenv("HOUSERULES_CACHE", str(tmp_path / "cache"))
    assert main([*args, "--data", str(data)]) == 0
    out = capsys.readouterr()
    assert "终端" in out.out and "[2J" in out.out  # the entry is shown, its escapes' printable rest as text
    assert _terminal_safe(out.out + out.err) == []


# -- identifiers and paths ----------------------------------------------------------------------------

ID_FIX = "use lowercase letters, digits and single hyphens, e.g. mystic-elevator"
REF_FIX = "write game:id in lowercase letters, digits and hyphens, e.g. betrayal:vault"
RENAME = "rename it with lowercase letters, digits and single hyphens, e.g. mystic-elevator"


def entry(id: str = "extra", see_also: str = "demo:tower") -> str:
    return ENTRY_TEMPLATE.format(id=id, code="DM-X1").replace("[demo:tower]", f"[{see_also}]")


def make_data(tmp_path: Path, files: dict[str, str]) -> Path:
    shutil.copytree(GOOD, tmp_path / "data")
    for rel, content in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    return tmp_path / "data"


PATH_CASES = [
    # ids that try to leave their folder
    (
        "id-dotdot",
        {f"{E}/extra.yaml": entry(id="../../escape")},
        [f"{E}/extra.yaml:1: demo:extra: field 'id' value '../../escape' is not an id — {ID_FIX}"],
    ),
    (
        "id-absolute",
        {f"{E}/extra.yaml": entry(id="/etc/passwd")},
        [f"{E}/extra.yaml:1: demo:extra: field 'id' value '/etc/passwd' is not an id — {ID_FIX}"],
    ),
    (
        "id-windows",
        {f"{E}/extra.yaml": entry(id="'..\\x'")},
        [f"{E}/extra.yaml:1: demo:extra: field 'id' value '..\\\\x' is not an id — {ID_FIX}"],
    ),
    (
        "id-drive",
        {f"{E}/extra.yaml": entry(id="'C:\\x'")},
        [f"{E}/extra.yaml:1: demo:extra: field 'id' value 'C:\\\\x' is not an id — {ID_FIX}"],
    ),
    # references that try the same
    (
        "ref-dotdot",
        {f"{E}/extra.yaml": entry(see_also="demo:../tower")},
        [
            f"{E}/extra.yaml:10: demo:extra: field 'see_also.0' value 'demo:../tower' is not a reference game:id — {REF_FIX}"
        ],
    ),
    (
        "ref-slash",
        {f"{E}/extra.yaml": entry(see_also="'demo:/etc/passwd'")},
        [
            f"{E}/extra.yaml:10: demo:extra: field 'see_also.0' value 'demo:/etc/passwd' is not a reference game:id — {REF_FIX}"
        ],
    ),
    (
        "ref-backslash",
        {f"{E}/extra.yaml": entry(see_also="'demo:..\\tower'")},
        [
            f"{E}/extra.yaml:10: demo:extra: field 'see_also.0' value 'demo:..\\\\tower' is not a reference game:id — {REF_FIX}"
        ],
    ),
    (
        "ref-in-text",
        {f"{E}/extra.yaml": entry() + "body: {zh: '见 [[demo:../../etc/passwd]]'}\n"},
        [
            f"{E}/extra.yaml:1: demo:extra: orphan entry: no game contents section lists it and no entry refers to it "
            "— add 'demo:extra' to a contents section of rules_data/demo/game.yaml or refer to it from a related entry",
            f"{E}/extra.yaml:11: demo:extra: reference [[demo:../../etc/passwd]] is not of the form game:id "
            "— write it as game:id, e.g. [[betrayal:vault]]",
        ],
    ),
    # file and folder names
    (
        "file-uppercase",
        {f"{E}/Tower.yaml": entry(id="tower")},
        [
            f"{E}/Tower.yaml:1: -: name 'Tower.yaml' is not an id; it clashes with tower.yaml where case is ignored "
            f"(Windows, macOS) — {RENAME}"
        ],
    ),
    (
        "file-space",
        {f"{E}/my entry.yaml": entry(id="my-entry")},
        [f"{E}/my entry.yaml:1: -: name 'my entry.yaml' is not an id — {RENAME}"],
    ),
    (
        "file-dots",
        {f"{E}/a..b.yaml": entry(id="a-b")},
        [f"{E}/a..b.yaml:1: -: name 'a..b.yaml' is not an id — {RENAME}"],
    ),
    (
        "folder-uppercase",
        {"data/Demo/game.yaml": "id: demo\n"},
        [
            f"data/Demo:1: -: name 'Demo' is not an id; it clashes with demo where case is ignored (Windows, macOS) — {RENAME}"
        ],
    ),
]


@pytest.mark.parametrize("name, files, expected", PATH_CASES, ids=[c[0] for c in PATH_CASES])
def test_unsafe_ids_references_and_names_are_rejected(tmp_path, monkeypatch, name, files, expected):
    data = make_data(tmp_path, files)
    monkeypatch.chdir(tmp_path)
    report = run_check(data)
    assert [str(p) for p in report.errors] == expected


def test_symbolic_links_are_not_followed(tmp_path, monkeypatch):
    data = make_data(tmp_path, {})
    secret = tmp_path / "secret.yaml"
    secret.write_text(entry(id="secret"), encoding="utf-8")
    (data / "demo/entries/secret.yaml").symlink_to(secret)
    (data / "linked").symlink_to(data / "demo", target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    report = run_check(data)
    fix = "replace the link by the file itself; the build reads only real files inside rules_data/"
    assert [str(p) for p in report.errors] == [
        f"data/demo/entries/secret.yaml:1: -: symbolic link in the data folder — {fix}",
        f"data/linked:1: -: symbolic link in the data folder — {fix}",
    ]
    assert "demo:secret" not in report.kb.entries


@pytest.mark.parametrize(
    "output, problem",
    [
        (".", "holds the data folder"),
        ("..", "holds the data folder"),
        ("data", "holds the data folder"),
        ("data/demo", "is not empty and holds no built site"),
        ("keep", "is not empty and holds no built site"),
        ("keep/precious.txt", "is not a folder"),
    ],
)
def test_build_refuses_an_output_folder_it_would_destroy(tmp_path, monkeypatch, output, problem):
    make_data(tmp_path, {})
    (tmp_path / "keep").mkdir()
    (tmp_path / "keep/precious.txt").write_text("mine", encoding="utf-8")
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    monkeypatch.chdir(tmp_path)
    with pytest.raises(HouserulesError, match=problem):
        build_site(KnowledgeBase(), Path("data"), Path(output))
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before


def _pages_checkout(folder: Path, marker: bool) -> None:
    """What a GitHub Pages checkout looks like: a site's files beside its .git and drafts."""
    for rel, text in {
        "index.html": "<html></html>",
        "sitemap.xml": "<urlset/>",
        ".git/HEAD": "ref: refs/heads/main\n",
        "drafts/next-post.md": "mine",
    }.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text, encoding="utf-8")
    if marker:  # a built site copied in, marker and all
        (folder / ".houserules-site").write_text("built by houserules build\n", encoding="utf-8")


@pytest.mark.parametrize(
    "marker, message",
    [
        (
            False,
            "the output folder {out} is not empty and holds no built site (no .houserules-site file); "
            "the build replaces it whole, so choose an empty or new folder with -o DIR",
        ),
        (
            True,
            "the output folder {out} holds a .git repository; the build replaces the folder whole, "
            "so build into another folder with -o DIR and copy the site into the checkout",
        ),
    ],
)
def test_build_replaces_only_a_folder_it_made(tmp_path, marker, message):
    make_data(tmp_path, {})
    _pages_checkout(tmp_path / "pages", marker)
    before = {p: p.read_bytes() for p in sorted((tmp_path / "pages").rglob("*")) if p.is_file()}
    result = run_cli("build", "--data", "data", "-o", "pages", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr == f"houserules build: {message.format(out=tmp_path / 'pages')}\n"
    assert {p: p.read_bytes() for p in sorted((tmp_path / "pages").rglob("*")) if p.is_file()} == before


def test_a_bad_id_writes_nothing_anywhere(tmp_path):
    make_data(tmp_path, {f"{E}/escape.yaml": entry(id="../../../escape")})
    before = sorted(tmp_path.parent.iterdir())
    result = run_cli("build", "--data", "data", "-o", "out/site", cwd=tmp_path)
    assert result.returncode == 1
    assert "is not an id" in result.stderr
    assert not (tmp_path / "out").exists()
    assert sorted(tmp_path.parent.iterdir()) == before


# -- oversized and odd files ----------------------------------------------------------------------------

GOOD_ENTRY = entry(id="extra")
ODD_FILES = [
    # (name, file content, expected problems: None = loads)
    ("bom", b"\xef\xbb\xbf" + GOOD_ENTRY.encode(), None),
    ("crlf", GOOD_ENTRY.replace("\n", "\r\n").encode(), None),
    ("bom-and-crlf", b"\xef\xbb\xbf" + GOOD_ENTRY.replace("\n", "\r\n").encode(), None),
    ("tab-in-quoted-value", GOOD_ENTRY.replace("一句话。", '"一句\t话。"').encode(), None),
    (
        "tab-in-plain-value",
        GOOD_ENTRY.replace("一句话。", "一句\t话。").encode(),
        [
            "5: malformed YAML: found character '\\t' that cannot start any token — fix the YAML syntax (indentation, quotes, colons)"
        ],
    ),
    (
        "tab-indent",
        GOOD_ENTRY.replace("  - {doc", "\t- {doc").encode(),
        [
            "9: malformed YAML: found character '\\t' that cannot start any token — fix the YAML syntax (indentation, quotes, colons)"
        ],
    ),
    (
        "oversized",
        (GOOD_ENTRY + "body: {zh: '" + "长" * 90_000 + "'}\n").encode(),
        ["1: file is 270224 bytes, over the 262144-byte limit — split the entry or shorten it"],
    ),
    (
        "huge-string",
        (GOOD_ENTRY + "body: {zh: '" + "x" * 25_000 + "'}\n").encode(),
        ["11: field 'body.zh' is longer than 20000 characters — shorten it"],
    ),
    (
        "deep-nesting",
        (GOOD_ENTRY + "scope: " + "[" * 40 + "]" * 40 + "\n").encode(),
        ["11: nesting deeper than 32 levels — flatten the structure; no field needs that depth"],
    ),
    (
        "deep-flow-nesting",
        (GOOD_ENTRY + "scope: " + "{a: " * 40 + "1" + "}" * 40 + "\n").encode(),
        ["11: nesting deeper than 32 levels — flatten the structure; no field needs that depth"],
    ),
    (
        "merge-key",
        (GOOD_ENTRY + "scope:\n  <<: {edition: 1e}\n").encode(),
        ["12: YAML merge key '<<' is not allowed — write the fields out in full"],
    ),
    (
        "document-stream",
        (GOOD_ENTRY + "---\n" + GOOD_ENTRY).encode(),
        ["11: the file holds more than one YAML document — keep one entry per file and remove the '---' separator"],
    ),
    (
        "python-tag",
        (GOOD_ENTRY + "scope: !!python/object/apply:os.system ['true']\n").encode(),
        ["11: unsupported YAML tag 'tag:yaml.org,2002:python/object/apply:os.system' — remove the tag"],
    ),
    (
        "str-tag",
        (GOOD_ENTRY + "aliases: [!!str x]\n").encode(),
        ["11: unsupported YAML tag 'tag:yaml.org,2002:str' — remove the tag"],
    ),
    (
        "tag-on-the-document",
        ("!!map\n" + GOOD_ENTRY).encode(),
        ["1: unsupported YAML tag 'tag:yaml.org,2002:map' — remove the tag"],
    ),
    (
        "tag-after-a-flow-colon",
        (GOOD_ENTRY + 'scope: {"edition":!!str 1e}\n').encode(),
        ["11: unsupported YAML tag 'tag:yaml.org,2002:str' — remove the tag"],
    ),
    (
        "local-tag",
        (GOOD_ENTRY + "scope: !edition {edition: 1e}\n").encode(),
        ["11: unsupported YAML tag '!edition' — remove the tag"],
    ),
    (
        "deep-block-nesting",
        (GOOD_ENTRY + "scope:\n" + "".join(" " * i + "- \n" for i in range(400))).encode(),
        ["44: nesting deeper than 32 levels — flatten the structure; no field needs that depth"],
    ),
    (
        "control-character",
        GOOD_ENTRY.replace("一句话。", "一句\x07话。").encode(),
        [
            "5: the file holds the control character U+0007, which no page, feed or export can carry"
            " — remove the control character U+0007 from the file"
        ],
    ),
]


@pytest.mark.parametrize("name, content, expected", ODD_FILES, ids=[c[0] for c in ODD_FILES])
def test_odd_files_load_or_fail_with_file_and_line(tmp_path, monkeypatch, name, content, expected):
    data = make_data(tmp_path, {})
    game = data / "demo/game.yaml"
    game.write_text(
        game.read_text(encoding="utf-8").replace("demo:tower-errata]", "demo:tower-errata, demo:extra]"),
        encoding="utf-8",
    )
    (data / "demo/entries/extra.yaml").write_bytes(content)
    monkeypatch.chdir(tmp_path)
    report = run_check(data)
    errors = [str(p) for p in report.errors if "contents list 'demo:extra'" not in p.problem]
    if expected is None:
        assert errors == []
        assert report.kb.entries["demo:extra"].summary["zh"].replace("\t", "") == "一句话。"
    else:
        prefix = f"{E}/extra.yaml:"
        assert all(e.startswith(prefix) for e in errors), errors
        got = [e[len(prefix) :].replace("demo:extra: ", "", 1) for e in errors]
        assert [g.split(" — ")[0] for g in got] == [x.split(" — ")[0].rstrip("\n") for x in expected]


NOT_REGULAR_FIX = "replace it by a regular YAML file; only regular files are read"


@pytest.mark.slow
def test_deep_nesting_is_reported_and_the_other_files_still_checked(tmp_path):
    """350 '[' exhausted Python's recursion limit; 120,000 crashed libyaml's composer (C stack)."""
    make_data(tmp_path, {})
    entries = tmp_path / E
    (entries / "deep.yaml").write_text(entry(id="deep") + "scope: " + "[" * 350 + "]" * 350 + "\n", encoding="utf-8")
    (entries / "deeper.yaml").write_text(
        entry(id="deeper") + "scope: " + "[" * 120_000 + "]" * 120_000 + "\n", encoding="utf-8"
    )
    (entries / "compact.yaml").write_text(entry(id="compact") + "scope:\n" + "- " * 100_000 + "x\n", encoding="utf-8")
    (entries / "typo.yaml").write_text(entry(id="typo") + "colour: red\n", encoding="utf-8")
    # A subprocess guards against a crash or a hang; the timeout is no time limit (a loaded machine takes a minute).
    result = run_process("check", "--data", "data", cwd=tmp_path, timeout=300)
    assert result.returncode == 1, result.stderr
    deep = "nesting deeper than 32 levels — flatten the structure; no field needs that depth"
    assert [line for line in result.stderr.splitlines() if ":" in line and "colour" not in line] == [
        f"{E}/compact.yaml:12: demo:compact: {deep}",
        f"{E}/deep.yaml:11: demo:deep: {deep}",
        f"{E}/deeper.yaml:11: demo:deeper: {deep}",
    ]
    assert f"{E}/typo.yaml:11: demo:typo: unknown field 'colour'" in result.stderr


def test_a_huge_sparse_file_is_refused_before_it_is_read(tmp_path):
    make_data(tmp_path, {})
    with open(tmp_path / E / "huge.yaml", "wb") as handle:
        handle.truncate(1 << 30)  # 1 GB of nothing, no disk used
    # With 512 MB of address space, reading the file whole would fail with a MemoryError.
    limit = "import resource; resource.setrlimit(resource.RLIMIT_AS, (512 << 20, 512 << 20))"
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            f"{limit}; from houserules.cli import main; raise SystemExit(main())",
            "check",
            "--data",
            "data",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"{E}/huge.yaml:1: demo:huge: file is 1073741824 bytes, over the 262144-byte limit — split the entry or shorten it"
    ]


def test_a_file_that_grew_after_its_size_was_checked_is_read_only_up_to_the_limit(tmp_path, monkeypatch):
    import tracemalloc

    path = tmp_path / "grown.yaml"
    with open(path, "wb") as handle:
        handle.truncate(64 << 20)
    real_stat = os.stat
    small = os.stat_result((*real_stat(path)[:6], 10, *real_stat(path)[7:]))
    monkeypatch.setattr(files.os, "stat", lambda p, *a, **k: small if Path(p) == path else real_stat(p, *a, **k))
    tracemalloc.start()
    try:
        with pytest.raises(files.YamlError) as caught:
            files.read_bytes(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert caught.value.problem == f"file is {64 << 20} bytes, over the 262144-byte limit"
    assert peak < 2 * files.MAX_BYTES


#: What the fixture's game says when its entries are missing.
UNCITED = [
    f"data/demo/game.yaml:20: demo: section '{s}' of seed.txt is not cited by any entry — "
    f'cite it in an entry: sources: [{{doc: seed.txt, ref: "{s}"}}]'
    for s in ("【1】", "【2】")
]


def _remove(path: Path) -> None:
    path.unlink()


SPECIAL_FILES = [
    # (name, how to make the odd file, expected problems)
    (
        "entry-is-a-named-pipe",
        lambda data: os.mkfifo(data / "demo/entries/pipe.yaml"),
        [f"{E}/pipe.yaml:1: demo:pipe: this is a named pipe (FIFO), not a regular file — {NOT_REGULAR_FIX}"],
    ),
    (
        "glossary-is-a-named-pipe",
        lambda data: os.mkfifo(data / "demo/glossary.yaml"),
        [f"data/demo/glossary.yaml:1: demo: this is a named pipe (FIFO), not a regular file — {NOT_REGULAR_FIX}"],
    ),
    (
        "game-yaml-is-a-named-pipe",
        lambda data: (_remove(data / "demo/game.yaml"), os.mkfifo(data / "demo/game.yaml")),
        [f"data/demo/game.yaml:1: demo: this is a named pipe (FIFO), not a regular file — {NOT_REGULAR_FIX}"],
    ),
    (
        "game-yaml-is-a-folder",
        lambda data: (_remove(data / "demo/game.yaml"), (data / "demo/game.yaml").mkdir()),
        [f"data/demo/game.yaml:1: demo: this is a folder, not a regular file — {NOT_REGULAR_FIX}"],
    ),
    (
        "entries-is-a-file",
        lambda data: (shutil.rmtree(data / "demo/entries"), (data / "demo/entries").write_text("")),
        [
            "data/demo/entries:1: -: 'entries' is not a folder — make entries/ a folder of <id>.yaml files",
            *UNCITED,
            *[
                f"data/demo/game.yaml:22: demo: clause '{c}' of 【1】 is not answered by any question — add a question with "
                f'source: {{doc: seed.txt, ref: "【1】", clause: {c}}} to the entry citing 【1】'
                for c in ("fail-stop", "go-back")
            ],
            "data/demo/game.yaml:29: demo: contents list 'demo:tower-crossing', which does not exist — "
            "fix the reference or create the entry",
            "data/demo/game.yaml:29: demo: contents list 'demo:tower-errata', which does not exist — "
            "fix the reference or create the entry",
        ],
    ),
]


@pytest.mark.parametrize("name, make, expected", SPECIAL_FILES, ids=[c[0] for c in SPECIAL_FILES])
def test_files_that_are_not_regular_files_are_reported_not_read(tmp_path, name, make, expected):
    """A named pipe would block the check for ever; each odd file gets its own message."""
    make(make_data(tmp_path, {}))
    result = run_process("check", "--data", "data", cwd=tmp_path, timeout=60)
    assert result.returncode == 1
    assert result.stderr.splitlines() == expected


# -- unreadable files and folders ---------------------------------------------------------------------

UNREADABLE = [
    ("folder", E, f"{E}:1: -: cannot read the folder: permission denied — make it readable (chmod u+rx {E})"),
    (
        "file",
        f"{E}/tower-errata.yaml",
        f"{E}/tower-errata.yaml:1: demo:tower-errata: cannot read the file: "
        f"permission denied — make it readable (chmod u+r {E}/tower-errata.yaml)",
    ),
    (
        "game-folder",
        "data/demo",
        "data/demo:1: demo: cannot read the folder: permission denied — make it readable (chmod u+rx data/demo)",
    ),
    # a folder that can be listed but not searched (chmod a-x): nothing inside can be opened
    (
        "game-folder-not-searchable",
        "data/demo",
        "data/demo:1: demo: cannot read the folder: permission denied — make it readable (chmod u+rx data/demo)",
    ),
]


def _deny(monkeypatch, tmp_path: Path, rel: str, searchable_only: bool = False) -> None:
    """Make ``rel`` unreadable the way chmod 000 does for anyone but root: listing or opening it fails.

    ``searchable_only``: the way chmod a-x does, listing works but nothing inside can be reached.
    """
    denied = tmp_path / rel

    def refuse(path) -> None:
        if Path(path).absolute() == denied:
            raise PermissionError(13, "Permission denied", str(path))

    real_iterdir, real_open, real_lstat = Path.iterdir, os.open, os.lstat
    if not searchable_only:
        monkeypatch.setattr(Path, "iterdir", lambda self: (refuse(self), real_iterdir(self))[1])
        monkeypatch.setattr(
            os, "open", lambda path, *args, **kwargs: (refuse(path), real_open(path, *args, **kwargs))[1]
        )
    else:
        monkeypatch.setattr(
            os, "lstat", lambda path, *args, **kwargs: (refuse(Path(path).parent), real_lstat(path, *args, **kwargs))[1]
        )


@pytest.mark.parametrize("name, rel, message", UNREADABLE, ids=[c[0] for c in UNREADABLE])
def test_unreadable_files_and_folders_are_problems_in_check_and_show(tmp_path, monkeypatch, capsys, name, rel, message):
    from houserules.cli import main

    make_data(tmp_path, {})
    monkeypatch.chdir(tmp_path)
    _deny(monkeypatch, tmp_path, rel, searchable_only=name.endswith("not-searchable"))
    assert main(["check", "--data", "data"]) == 1
    # (the game then also misses the entries it lists and cites)
    assert [line for line in capsys.readouterr().err.splitlines() if not line.startswith("data/demo/game.yaml")] == [
        message
    ]
    code = main(["show", "--data", "data", "demo:tower"])
    out, err = capsys.readouterr()
    assert message in err.splitlines() and "Traceback" not in err
    if name == "file":  # the other entries still load
        assert code == 0 and "塔楼" in out
    else:
        assert code == 1 and err.splitlines()[-1].startswith("houserules show: no entry 'demo:tower'")


def _as_a_reader(folder: Path) -> list[str]:
    """Who runs the command: the test's own user, or (as root, whom chmod does not stop) ``nobody``."""
    if os.geteuid() != 0:
        return []
    for path in (folder, *folder.parents):  # let nobody reach the data
        if path != Path("/"):
            path.chmod(path.stat().st_mode | 0o005)
    return ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]


@pytest.mark.parametrize("name, rel, message", UNREADABLE, ids=[c[0] for c in UNREADABLE])
def test_unreadable_files_and_folders_with_chmod(tmp_path, name, rel, message):
    make_data(tmp_path, {})
    prefix = _as_a_reader(tmp_path)
    (tmp_path / rel).chmod(0o644 if name.endswith("not-searchable") else 0)
    try:
        for command in (("check",), ("show", "demo:tower")):
            result = subprocess.run(
                [*prefix, str(HOUSERULES), *command, "--data", "data"],
                cwd=tmp_path,
                capture_output=True,
                text=True,
                timeout=120,
                env={**os.environ, "HOME": str(tmp_path), "NO_MKDOCS_2_WARNING": "1"},
            )
            assert message in result.stderr.splitlines()
            assert "Traceback" not in result.stderr
    finally:
        (tmp_path / rel).chmod(0o755)


# -- atomic output ----------------------------------------------------------------------------------


def _snapshot(site: Path) -> dict[str, bytes]:
    return {str(p.relative_to(site)): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def good_site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("good") / "site"
    result = run_cli("build", "--data", str(GOOD), "-o", str(out))
    assert result.returncode == 0, result.stderr
    return out


@pytest.fixture
def previous_site(good_site, tmp_path) -> Path:
    """A copy of a finished build: what the next build must keep or replace whole."""
    return Path(shutil.copytree(good_site, tmp_path / "site"))


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith((".site-new-", ".site-old-")))


@pytest.mark.slow
def test_an_exception_in_a_build_step_keeps_the_previous_site(previous_site):
    before = _snapshot(previous_site)

    def broken_step(kb: KnowledgeBase, data: Path, site: Path) -> None:
        raise RuntimeError("rendering failed")

    with pytest.raises(RuntimeError):
        build_site(KnowledgeBase(), GOOD, previous_site, steps=[broken_step])
    assert _snapshot(previous_site) == before
    assert _leftovers(previous_site.parent) == []


KILLED_BUILD = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from houserules.build import build_site
    from houserules.data.reading.model import KnowledgeBase

    def stall(kb, data, site):
        Path(sys.argv[3]).write_text(str(site))
        time.sleep(60)

    build_site(KnowledgeBase(), Path(sys.argv[1]), Path(sys.argv[2]), steps=[stall])
""")


@pytest.mark.slow
def test_a_killed_build_keeps_the_previous_site_and_the_next_build_cleans_up(previous_site, tmp_path):
    before = _snapshot(previous_site)
    flag = tmp_path / "building"
    process = subprocess.Popen(
        [sys.executable, "-c", KILLED_BUILD, str(GOOD), str(previous_site), str(flag)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while not flag.exists() and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert flag.exists(), "the build never reached its last step"
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()
    assert _snapshot(previous_site) == before
    assert _leftovers(previous_site.parent) == [Path(flag.read_text()).parent.name]  # the half-built folder
    result = run_cli("build", "--data", str(GOOD), "-o", str(previous_site))
    assert result.returncode == 0, result.stderr
    assert _leftovers(previous_site.parent) == []


@pytest.mark.slow
def test_a_build_killed_between_the_renames_gets_its_site_back(previous_site):
    before = _snapshot(previous_site)
    moved = previous_site.parent / ".site-old-abc123"
    moved.mkdir()
    (moved / TEMP_MARKER).write_text("")
    previous_site.rename(moved / "site")  # what a kill between the two renames of swap_in leaves
    (previous_site.parent / ".site-new-def456").mkdir()
    (previous_site.parent / ".site-new-def456" / TEMP_MARKER).write_text("")

    def stop(kb: KnowledgeBase, data: Path, site: Path) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build_site(KnowledgeBase(), GOOD, previous_site, steps=[stop])
    assert _snapshot(previous_site) == before
    assert _leftovers(previous_site.parent) == []


@pytest.mark.slow
def test_a_second_build_at_the_same_time_fails_with_a_clear_message(previous_site):
    before = _snapshot(previous_site)
    with build_lock(previous_site.absolute()):
        result = run_cli("build", "--data", str(GOOD), "-o", str(previous_site))
    assert result.returncode == 1
    assert f"houserules build: another build of {previous_site} is running" in result.stderr
    assert "Traceback" not in result.stderr
    assert _snapshot(previous_site) == before


# -- queries ----------------------------------------------------------------------------------------

QUERIES = [
    # (query, the entry expected among the hits, or None when any answer or none is right)
    ("", None),
    ("   ", None),
    ("?!.,;:", None),
    ("…—·、。", None),
    ("塔楼" * 5000, "demo:tower"),
    ('"tower', "demo:tower"),
    ("tower'", "demo:tower"),
    ("(tower", "demo:tower"),
    ("tower))", "demo:tower"),
    ("tower AND OR NOT", "demo:tower"),
    ("title:tower", "demo:tower"),
    ("tow*", None),
    ("?ower", None),
    ("tower~2^3", "demo:tower"),
    ("🎲🐭 tower", "demo:tower"),
    ("\x1b[2J tower \x00\x07", "demo:tower"),
    ("\u202etower", "demo:tower"),
    ("<script>alert(1)</script>", None),
]


@pytest.fixture(scope="module")
def search_index():
    from houserules.search.index import open_index

    with open_index(GOOD) as index:  # in the session's cache folder (conftest)
        yield index


@pytest.mark.parametrize("query, expected", QUERIES, ids=[repr(q[:20]) for q, _ in QUERIES])
def test_odd_queries_give_results_not_errors(search_index, query, expected):
    hits = search_index.search(query, limit=5)
    assert len(hits) <= 5
    refs = [hit.record["id"] for hit in hits]
    if expected:
        assert expected in refs


@pytest.mark.parametrize(
    "query, expected",
    [
        ("", "houserules search: empty query"),
        ("   ", "houserules search: empty query"),
        ("?!.,;:", "nothing to search for in '?!.,;:'"),  # punctuation only: no term, tests/test_messages.py
        ("\x1b[2J\x07", "no entries match '[2J'"),
    ],
)
def test_odd_queries_on_the_command_line_give_a_clear_message(tmp_path, query, expected):
    result = run_cli("search", "--data", str(GOOD), query, env={"HOUSERULES_CACHE": str(tmp_path)})
    assert expected in result.stderr
    assert "Traceback" not in result.stderr
    assert _terminal_safe(result.stdout + result.stderr) == []


def test_a_long_query_on_the_command_line_answers(tmp_path):
    result = run_cli("search", "--data", str(GOOD), "--json", "(塔楼 " * 2000, env={"HOUSERULES_CACHE": str(tmp_path)})
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)[0]["id"] == "demo:tower"


def test_the_strict_reader_names_the_line_of_a_problem():
    with pytest.raises(yamlload.YamlError) as caught:
        yamlload.parse("id: a\nlist: [1, 2\n")
    assert caught.value.line == 3
