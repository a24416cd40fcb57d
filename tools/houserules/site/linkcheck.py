"""The link check of a built site, run before it is published (``houserules publish --check``).

Every internal link and resource of every page must reach a file of the site, and a
link with an anchor an element with that id (or an ``<a name>``); every file the
service worker lists in ``offline.json`` must exist, or the worker fails to install
and the site never works offline. Links to other sites are not followed: the check
runs without a network. Each problem is one line naming the page, the link, what is
wrong and what to do.
"""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

from ..errors import display_path, visible
from .offline import LIST

#: Links that leave the site or are no link at all.
_OUTSIDE = ("http:", "https:", "mailto:", "tel:", "data:", "blob:", "javascript:", "//")


class _Page(HTMLParser):
    """The ids of a page and every URL it links to or loads."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(values["id"] or "")
        if tag == "a" and values.get("name"):
            self.ids.add(values["name"] or "")
        for attribute in ("href", "src"):
            url = values.get(attribute)
            if url:
                self.links.append(url.strip())


class LinkCheck:
    """Checks one built site; :meth:`problems` lists every broken link, anchor and listed file."""

    def __init__(self, site: Path, site_url: str | None = None):
        self.site = site
        #: Where the site is served: links from its root (the theme's 404 page) start with this path.
        self.base = "/" + urlsplit(site_url or "/").path.strip("/")
        self.base = self.base.rstrip("/") + "/"
        self.name = display_path(site)
        self._pages: dict[Path, _Page] = {}
        #: The pages and internal links checked so far.
        self.pages = 0
        self.links = 0

    def _page(self, path: Path) -> _Page:
        found = self._pages.get(path)
        if found is None:
            found = self._pages[path] = _Page()
            found.feed(path.read_text(encoding="utf-8", errors="replace"))
            found.close()
        return found

    def _where(self, path: Path) -> str:
        return f"{self.name}/{path.relative_to(self.site).as_posix()}"

    def _target(self, page: Path, path: str) -> Path:
        if not path:
            return page
        if path.startswith("/"):  # the theme's 404 page links from the site's root, under site_url's path
            if not path.startswith(self.base):
                return self.site.parent  # outside the site: reported as leaving it
            return self.site / unquote(path[len(self.base) :])
        return Path(*(page.parent / unquote(path)).parts)

    def _inside(self, target: Path) -> bool:
        try:
            target.resolve().relative_to(self.site.resolve())
        except ValueError:
            return False
        return True

    def page_problems(self, page: Path) -> list[str]:
        problems = []
        for url in dict.fromkeys(self._page(page).links):  # each link once per page
            if url.lower().startswith(_OUTSIDE) or url == "#":
                continue
            self.links += 1
            parts = urlsplit(url)
            target = self._target(page, parts.path)
            if target.is_dir():
                target = target / "index.html"
            where = f"{self._where(page)}: link to {visible(url)}"
            if not self._inside(target):
                problems.append(
                    f"{where}: leaves the site (served at {self.base}) — link to a page of the site or a full "
                    "https address"
                )
            elif not target.is_file():
                problems.append(
                    f"{where}: no such file — fix the link, or add "
                    f"{visible(target.resolve().relative_to(self.site.resolve()).as_posix())} to the site"
                )
            elif parts.fragment and target.suffix == ".html" and unquote(parts.fragment) not in self._page(target).ids:
                problems.append(
                    f"{where}: no such anchor — fix the link, or give an element of "
                    f'{self._where(target).removeprefix(self.name + "/")} id="{visible(unquote(parts.fragment))}"'
                )
        return problems

    def worker_problems(self) -> list[str]:
        """Every file ``offline.json`` lists must exist (a site built without the offline app has none)."""
        listing = self.site / LIST
        if not listing.is_file():
            return []
        where = self._where(listing)
        try:
            files = json.loads(listing.read_text(encoding="utf-8"))["files"]
        except (ValueError, KeyError, TypeError):
            return [f"{where}: not the service worker's list of files — rebuild the site with houserules build"]
        return [
            f"{where}: the service worker lists {visible(path)}: no such file — rebuild the site with "
            "houserules build (the worker could not install, and the site would not work offline)"
            for path in files
            if not self._inside(self.site / path) or not (self.site / path).is_file()
        ]

    def problems(self) -> list[str]:
        found = []
        for page in sorted(self.site.rglob("*.html")):
            if not any(part.startswith(".") for part in page.relative_to(self.site).parts):
                self.pages += 1
                found += self.page_problems(page)
        return found + self.worker_problems()


def check_links(site: Path, site_url: str | None = None) -> list[str]:
    """Every broken internal link, anchor and service-worker file of the built ``site``, one line each.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     _ = (Path(tmp) / "a.html").write_text('<a href="b.html#x">b</a> <a href="#top" id="top">top</a>')
    ...     _ = (Path(tmp) / "b.html").write_text('<h2 id="y">y</h2>')
    ...     [p.split(": ", 1)[1] for p in check_links(Path(tmp))]
    ['link to b.html#x: no such anchor — fix the link, or give an element of b.html id="x"']
    """
    return LinkCheck(site, site_url).problems()
