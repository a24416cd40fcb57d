"""The site as an installable app that works offline: the web app manifest and the service worker.

Written after MkDocs and its plugins have written every page and asset (the
search index included), from the files actually in the site: ``offline.json``
lists each file the service worker keeps with a hash of its content, and
``sw.js`` carries the version (the data version and a hash of that list), so a
build that changes any file is a new version and one that changes nothing is not.
The PDFs under ``print/`` are left out of the list: the worker keeps each one
once it is opened. See ``tools/houserules/assets/sw.js`` for the worker itself.
"""

from __future__ import annotations

import hashlib
import json
import os
from importlib import resources
from pathlib import Path
from typing import Any

from ..render.urls import PRINT_DIR

#: Material's brown (``--md-primary-fg-color`` of ``primary: brown``): the header's colour.
THEME_COLOR = "#795649"
BACKGROUND = "#ffffff"
MANIFEST = "manifest.webmanifest"
WORKER = "sw.js"
LIST = "offline.json"
ICONS = "assets/images"
#: Not kept for offline use: source maps (for developers), the sitemap (for crawlers), the JSON API
#: (for programs), the PDFs (kept when opened), the worker's own files and the compressed copies of files a
#: host may send in their place (:mod:`houserules.site.precompress`; the build writes them after this list).
SKIPPED_SUFFIXES = (".map", ".pdf", ".gz", ".br")
SKIPPED_NAMES = {"sitemap.xml", "sitemap.xml.gz", WORKER, LIST}
SKIPPED_FOLDERS = {"api"}
#: The translators' downloads (for desktop tools, not for reading offline).
SKIPPED_PREFIXES = ("translate/downloads/",)


def manifest(name: str, short_name: str, description: str) -> dict[str, Any]:
    """The web app manifest: what a phone needs to install the site and start it without the browser's bars."""
    return {
        "name": name,
        "short_name": short_name,
        "description": description,
        "lang": "zh",
        "dir": "ltr",
        "start_url": "index.html",
        "scope": "./",
        "display": "standalone",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND,
        "icons": [
            {"src": f"{ICONS}/icon-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any"},
            {"src": f"{ICONS}/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any"},
            {"src": f"{ICONS}/icon-maskable-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
        ],
    }


def kept(path: str) -> bool:
    """Whether the service worker keeps the site file ``path`` from the first visit.

    >>> [kept(p) for p in ("index.html", "search/search_index.json", "assets/x.js.map", "print/faq.pdf", "api/entries.json")]
    [True, True, False, False, False]
    """
    parts = path.split("/")
    return not (
        parts[0] in SKIPPED_FOLDERS
        or path in SKIPPED_NAMES
        or path.endswith(SKIPPED_SUFFIXES)
        or any(part.startswith(".") for part in parts)
        or (parts[0] == PRINT_DIR and path.endswith(".pdf"))
        or path.startswith(SKIPPED_PREFIXES)
    )


def precache_files(site_dir: Path) -> dict[str, str]:
    """Every file the worker keeps, as a site path with a short hash of its content, sorted."""
    files = {}
    for folder, dirs, names in os.walk(site_dir):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in names:
            path = Path(folder) / name
            relative = path.relative_to(site_dir).as_posix()
            if kept(relative):
                files[relative] = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    return dict(sorted(files.items()))


def build_id(files: dict[str, str]) -> str:
    """One hash of every kept file and its content: the same files give the same build."""
    digest = hashlib.sha256()
    for path, sha in files.items():
        digest.update(f"{path}\0{sha}\n".encode())
    return digest.hexdigest()[:12]


def worker_script(version: dict[str, str]) -> str:
    template = resources.files("houserules").joinpath("assets", WORKER).read_text(encoding="utf-8")
    return template.replace("/*VERSION*/{}", json.dumps(version, ensure_ascii=False, sort_keys=True), 1)


#: A worker that removes what an earlier one kept and unregisters itself: for the live preview, whose
#: pages must never come from a cache (they register no worker, but one may remain from a built site
#: served at the same address).
RETIRED_WORKER = """/* houserules: no offline copy for this site (live preview); remove an earlier one. */
"use strict";
self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) {
  var prefix = "houserules " + new URL(self.registration.scope).pathname + " ";
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n.indexOf(prefix) === 0; }).map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.registration.unregister(); }));
});
"""


def write_offline(
    site_dir: Path,
    data_version: str,
    data_label: str,
    name: str,
    short_name: str,
    description: str,
    enabled: bool = True,
) -> dict[str, str] | None:
    """The manifest, the worker and its list of files, into a built site; returns the version (None when off)."""
    (site_dir / MANIFEST).write_text(
        json.dumps(manifest(name, short_name, description), ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    if not enabled:
        (site_dir / WORKER).write_text(RETIRED_WORKER, encoding="utf-8")
        return None
    files = precache_files(site_dir)
    version = {"data": data_version, "build": build_id(files), "label": data_label}
    (site_dir / LIST).write_text(
        json.dumps({"build": version["build"], "files": files}, separators=(",", ":")) + "\n", encoding="utf-8"
    )
    (site_dir / WORKER).write_text(worker_script(version), encoding="utf-8")
    return version
