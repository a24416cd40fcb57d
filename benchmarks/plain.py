"""The baseline: the same site as plain MkDocs, with every page already written as Markdown.

The pages are exactly what the hook generates (``on_files``), the home page's
markers are filled in (``on_page_markdown``), and ``mkdocs.yml`` is the
project's with the hook removed and the hook's navigation written out. Timing
``mkdocs build`` on it and on the real project in the same run isolates what
the project adds: loading and checking the data, rendering the pages and
writing the export. Its search is Material's own (lunr, jieba at build time):
the theme overrides are copied without ``main.html``, which points the search
box at the project's worker; so the plain site is also the baseline of
``benchmarks/site_search_bench.py``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[1]
MKDOCS_YML = ROOT / "mkdocs.yml"


def _drop_block(text: str, key: str) -> str:
    """``text`` without the top-level ``key:`` and its indented or list lines."""
    return re.sub(rf"^{key}:.*\n(?:(?:[ \-#].*)?\n)*", "", text, flags=re.M)


def write(data_dir: Path, target: Path) -> Path:
    """Write the plain project into ``target`` and return its ``mkdocs.yml``."""
    from mkdocs.config import load_config
    from mkdocs.structure.files import get_files

    from houserules import mkdocs_hook

    os.environ[mkdocs_hook.DATA_ENV] = str(data_dir.resolve())
    config = mkdocs_hook.on_config(load_config(str(MKDOCS_YML)))
    config.plugins._current_plugin = "houserules"  # what MkDocs sets while it runs a hook
    files = mkdocs_hook.on_files(get_files(config), config)
    docs = target / "docs"
    shutil.copytree(ROOT / config["docs_dir"], docs)
    for file in files:
        if file.generated_by:
            out = docs / file.src_uri
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(file.content_string, encoding="utf-8")
        elif file.src_uri.endswith(".md"):
            text = (docs / file.src_uri).read_text(encoding="utf-8")
            page = SimpleNamespace(file=SimpleNamespace(url=file.url))
            (docs / file.src_uri).write_text(mkdocs_hook.on_page_markdown(text, page, config, files), encoding="utf-8")
    text = MKDOCS_YML.read_text(encoding="utf-8")
    for key in ("hooks", "nav", "watch", "docs_dir", "site_dir"):
        text = _drop_block(text, key)
    overrides = target / "overrides"
    shutil.copytree(ROOT / "site_overrides", overrides, ignore=shutil.ignore_patterns("main.html"))
    text = text.replace("custom_dir: site_overrides", f"custom_dir: {overrides}")
    text += f"\ndocs_dir: docs\nnav: {json.dumps(config.nav, ensure_ascii=False)}\n"
    yml = target / "mkdocs.yml"
    yml.write_text(text, encoding="utf-8")
    return yml
