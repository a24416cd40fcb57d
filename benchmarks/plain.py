"""The baseline: the same site as plain MkDocs, with every page already written as Markdown.

The pages are exactly what the plugin generates (:func:`houserules.site.pages.site_pages`),
the home page's markers are filled in, and ``mkdocs.yml`` is the project's with
the plugin removed and the plugin's navigation written out. Timing
``mkdocs build`` on it and on the real project in the same run isolates what
the project adds: loading and checking the data, rendering the pages and
writing the export. Its search is Material's own (lunr, jieba at build time):
the theme overrides are copied without ``main.html``, which points the search
box at the project's worker; so the plain site is also the baseline of
``benchmarks/site_search_bench.py``.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MKDOCS_YML = ROOT / "mkdocs.yml"


def _drop_block(text: str, key: str) -> str:
    """``text`` without the top-level ``key:`` and its indented or list lines."""
    return re.sub(rf"^{key}:.*\n(?:(?:[ \-#].*)?\n)*", "", text, flags=re.M)


def write(data_dir: Path, target: Path) -> Path:
    """Write the plain project into ``target`` and return its ``mkdocs.yml``."""
    from mkdocs.config import load_config

    from houserules.check import run as run_check
    from houserules.site.context import SiteContext
    from houserules.site.nav import site_nav
    from houserules.site.pages import home_cards, licences, site_pages

    kb = run_check(data_dir).kb
    ctx = SiteContext(kb)
    docs = target / "docs"
    shutil.copytree(ROOT / "content", docs)
    for src, markdown in site_pages(ctx).items():
        out = docs / src
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(markdown, encoding="utf-8")
    markers = {"<!-- houserules:games -->": home_cards, "<!-- houserules:licences -->": licences}
    for page in docs.glob("*.md"):
        text = page.read_text(encoding="utf-8")
        for marker, render in markers.items():
            text = text.replace(marker, render(ctx, page.name.removesuffix(".md") + ".html"))
        page.write_text(text, encoding="utf-8")
    nav = site_nav(kb, load_config(str(MKDOCS_YML)).nav or [])
    text = MKDOCS_YML.read_text(encoding="utf-8")
    for key in ("nav", "watch", "docs_dir", "site_dir"):
        text = _drop_block(text, key)
    text = re.sub(r"^  - houserules:\n(?:    .*\n)*", "", text, flags=re.M)  # the plugin, and its options
    overrides = target / "overrides"
    shutil.copytree(ROOT / "site_overrides", overrides, ignore=shutil.ignore_patterns("main.html"))
    text = text.replace("custom_dir: site_overrides", f"custom_dir: {overrides}")
    text += f"\ndocs_dir: docs\nnav: {json.dumps(nav, ensure_ascii=False)}\n"
    yml = target / "mkdocs.yml"
    yml.write_text(text, encoding="utf-8")
    return yml
