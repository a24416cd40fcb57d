"""Helpers for tests of the built site: parse pages, resolve links, serve it on loopback."""

from __future__ import annotations

import functools
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

from houserules.search.evaluate import CHROMIUM, CHROMIUM_ARGS, serve_static  # noqa: F401 (the browser fixtures launch with these)

#: Serve a built site on 127.0.0.1 at a free port while the block runs (yields its base URL).
serve = serve_static

#: Options of a browser context without the offline app, for the tests of something else: served over http,
#: a context's first page would have the service worker fetch the whole site into the context's cache
#: (over three hundred files, about two seconds of both processes' time) while the test runs. The offline app
#: has its own tests (tests/test_offline.py, tests/test_publishing.py); from file:// it never starts anyway.
NO_OFFLINE_APP = {"service_workers": "block"}


class PageLinks(HTMLParser):
    """Collects the ids of a page and every URL it links to or loads."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[tuple[str, str, str]] = []  # (tag, attribute, url)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(values["id"])
        for attribute in ("href", "src"):
            if values.get(attribute):
                self.links.append((tag, attribute, values[attribute]))


@functools.cache
def parse(path: Path) -> PageLinks:
    parser = PageLinks()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def broken_links(site: Path) -> list[str]:
    """Every internal link or anchor in ``site`` that does not resolve."""
    problems = []
    for page in sorted(site.rglob("*.html")):
        for tag, attribute, url in parse(page).links:
            parts = urlsplit(url)
            if parts.scheme or url.startswith("//"):
                continue
            if not parts.path:
                target = page
            elif parts.path.startswith("/"):  # 404.html links from the site root
                target = site / unquote(parts.path).lstrip("/")
            else:
                target = (page.parent / unquote(parts.path)).resolve()
            if target.is_dir():
                target = target / "index.html"
            name = f"{page.relative_to(site)}: {tag}[{attribute}]={url}"
            if not target.exists():
                problems.append(f"{name}: missing file")
            elif parts.fragment and target.suffix == ".html" and unquote(parts.fragment) not in parse(target).ids:
                problems.append(f"{name}: missing anchor")
    return problems


def external_resources(site: Path) -> list[str]:
    """Resources (scripts, styles, images, fonts) a page would load from the network."""
    found = []
    for page in sorted(site.rglob("*.html")):
        for tag, attribute, url in parse(page).links:
            loads = tag in {"script", "img", "iframe", "source"} or (
                tag == "link" and attribute == "href" and url.endswith((".css", ".js", ".woff2"))
            )
            if loads and (urlsplit(url).scheme or url.startswith("//")):
                found.append(f"{page.relative_to(site)}: {tag} {url}")
    return found


#: Opens the search as its button or the keyboard does (Material's toggle, then the focus in the box).
OPEN_SEARCH = """() => {
    const toggle = document.getElementById('__search');
    toggle.checked = true;
    toggle.dispatchEvent(new Event('change'));
    document.querySelector('input.md-search__input').focus();
}"""


def typed_results(page, home: str, query: str) -> list[str]:
    """The titles of the results of ``query`` typed into the search box of the page ``home``, as an input method
    commits a word (one input event). The page is loaded only when it shows another address, so the searches of
    a module are typed one after another into one page; the box is emptied first, and the results waited for
    are those of ``query``."""
    if page.url != home:
        page.goto(home)
    if not page.evaluate("() => document.getElementById('__search').checked"):
        page.evaluate(OPEN_SEARCH)
    page.fill("input.md-search__input", "")
    page.wait_for_function("() => !document.querySelector('.md-search-result__item')")
    page.focus("input.md-search__input")
    page.keyboard.insert_text(query)
    page.wait_for_selector(".md-search-result__item", timeout=15000)
    titles = page.locator(".md-search-result__item .md-search-result__article h1").all_inner_texts()
    return [t.replace("\u200b", "") for t in titles]
