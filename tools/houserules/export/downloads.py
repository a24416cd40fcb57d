"""The files of the site's "For translators" pages: glossary, FAQ and errata tables, TBX, XLIFF and PO.

``houserules build`` writes them for all games and for each game (``translate/downloads/``);
each is what the matching ``houserules export`` or ``houserules l10n export`` writes.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..data.reading.model import KnowledgeBase
from ..render.urls import download_url
from .l10n import Unit, units
from .l10n_write import export_l10n
from .tables import export


@dataclass(frozen=True)
class Download:
    name: str
    kind: str
    what: tuple[str, str]
    use: tuple[str, str]
    command: str


#: The round trip's files first (what a translator comes for), then the glossary and the tables.
DOWNLOADS = (
    Download(
        "en-zh.xlf",
        "XLIFF 2.0",
        ("中文译文（含勘误更正）", "Chinese texts, with the errata corrections"),
        (
            "英译中：在 CAT 工具中修改中文文本和卡面更正，再用 houserules l10n import 导回。",
            "English → Chinese for CAT tools: correct the Chinese texts and card corrections, then houserules l10n import.",
        ),
        "houserules l10n export --source en",
    ),
    Download(
        "en-zh.po",
        "PO",
        ("中文译文（含勘误更正）", "Chinese texts, with the errata corrections"),
        (
            "同上，gettext 格式，给 Weblate、Crowdin、Poedit。",
            "The same as gettext PO, for Weblate, Crowdin or Poedit.",
        ),
        "houserules l10n export --source en --format po",
    ),
    Download(
        "zh-en.xlf",
        "XLIFF 2.0",
        ("英文译文", "English texts"),
        (
            "中译英：在 CAT 工具中翻译或修改英文文本，再用 houserules l10n import 导回。",
            "Chinese → English for CAT tools: translate or correct the English texts, then houserules l10n import.",
        ),
        "houserules l10n export",
    ),
    Download(
        "zh-en.po",
        "PO",
        ("英文译文", "English texts"),
        (
            "同上，gettext 格式，给 Weblate、Crowdin、Poedit。",
            "The same as gettext PO, for Weblate, Crowdin or Poedit.",
        ),
        "houserules l10n export --format po",
    ),
    Download(
        "glossary.tbx",
        "TBX",
        ("术语表", "Glossary"),
        (
            "导入 OmegaT、memoQ、Trados 的术语库：推荐译名、认可写法与弃用写法。",
            "Termbase for OmegaT, memoQ or Trados: preferred, admitted and deprecated forms.",
        ),
        "houserules export --what glossary --format tbx",
    ),
    Download(
        "glossary.csv",
        "CSV",
        ("术语表", "Glossary"),
        ("用电子表格查看或核对术语。", "The terms in a spreadsheet, to look up or review."),
        "houserules export --what glossary --format csv",
    ),
    Download(
        "faq.csv",
        "CSV",
        ("常见问题", "FAQ"),
        (
            "每个问题与答案的中英文，带引用代码和链接。",
            "Every question and answer in both languages, with its code and link.",
        ),
        "houserules export --what faq --format csv",
    ),
    Download(
        "errata.csv",
        "CSV",
        ("勘误", "Errata"),
        ("卡面印刷文本、更正文本与英文原文。", "Printed card text, corrected text and the English card text."),
        "houserules export --what errata --format csv",
    ),
)


class GameUnits:
    """The translation units of each game in each source language, made once for every download of a build:
    all games' are each game's in turn (:func:`houserules.export.l10n.units`)."""

    def __init__(self, kb: KnowledgeBase):
        self.kb = kb
        self._made: dict[tuple[str, str], list[Unit]] = {}

    def __call__(self, src: str, game: str | None) -> list[Unit]:
        if game is None:
            return [unit for each in self.kb.games for unit in self(src, each)]
        if (src, game) not in self._made:
            self._made[src, game] = units(self.kb, src, game)
        return self._made[src, game]


def download_files(
    kb: KnowledgeBase, game: str | None = None, version: str = "", made: GameUnits | None = None
) -> dict[str, bytes]:
    """Site path → bytes of every download of one game (or of all games); ``made``: the units of the build."""
    made = made or GameUnits(kb)
    files: dict[str, bytes] = {}
    for what in ("glossary", "faq", "errata"):  # each is what its command writes (the command shown beside it)
        files[download_url(game, f"{what}.csv")] = export(kb, what, "csv", game)
    files[download_url(game, "glossary.tbx")] = export(kb, "glossary", "tbx", game, version)
    for src, tgt in (("en", "zh"), ("zh", "en")):
        for fmt, ext in (("xliff", "xlf"), ("po", "po")):
            files[download_url(game, f"{src}-{tgt}.{ext}")] = export_l10n(
                kb, fmt, src, game, version=version, items=made(src, game)
            )
    return files
