"""Files the site carries beside its pages: the JSON API and the scripts of the links by code."""

from __future__ import annotations

from pathlib import Path

from ..data.model import KnowledgeBase
from ..export import entries_json
from ..search.site import Prepared, write_site_index
from .golinks import shard_files


def write_outputs(kb: KnowledgeBase, site_dir: Path, prepared: Prepared | None = None) -> None:
    """``api/entries.json`` (the contract of README), ``go/<prefix>.js`` and the site's search index into a built site."""
    api = site_dir / "api"
    api.mkdir(parents=True, exist_ok=True)
    (api / "entries.json").write_text(entries_json(kb), encoding="utf-8")
    for path, text in shard_files(kb).items():
        target = site_dir / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    write_site_index(kb, site_dir, prepared)
