"""Files the site carries beside its pages: the JSON API and the search index."""

from __future__ import annotations

from pathlib import Path

from ..export import entries_json
from ..data.model import KnowledgeBase


def write_outputs(kb: KnowledgeBase, site_dir: Path) -> None:
    """``api/entries.json`` (the contract of README) into a built site."""
    api = site_dir / "api"
    api.mkdir(parents=True, exist_ok=True)
    (api / "entries.json").write_text(entries_json(kb), encoding="utf-8")
