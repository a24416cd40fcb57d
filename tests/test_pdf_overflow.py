"""Every text of the printed FAQ stays inside the page, and every character of it is printed.

A word without spaces, a 120-character address, a 2,000-character title, a long label in a facts
table or a long word in an erratum's table cell ran off the page and was lost; emoji, and their
ZWJ sequences (👨‍👩‍👧, 🏳️‍🌈, 👍🏽), printed as empty boxes. Here one entry holds every such text in
every kind of block (title, alias, summary, body, facts, questions, errata, sources, the game's
name), is printed in both layouts, and the PDF is read back: every word's box (``pdftotext
-bbox``) lies inside its page, every character of each text is in the text, and the emoji are
drawn with the emoji font (``pdffonts``).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import unicodedata
from pathlib import Path

import pytest

from conftest import GOOD, run_cli
from houserules.print import pdf as pdf_module

WORD = "Pneumonoultramicroscopicsilicovolcanoconiosis" * 6  # 270 letters, no space
URL = "https://example.org/" + "a" * 100  # 120 characters
TITLE = "长标题" * 666 + "终"  # 1,999 characters
EMOJI = "👨\u200d👩\u200d👧 🏳\ufe0f\u200d🌈 👍🏽 😀"
NUMBERS = "1234567890" * 30  # digits without a break


def hostile_data(folder: Path) -> tuple[Path, dict[str, str]]:
    """The good fixture with one entry whose every kind of text is too long for a line; and those texts."""
    data = folder / "data"
    shutil.copytree(GOOD, data)
    texts = {
        "title.zh": "塔楼" + TITLE,
        "title.en": "Tower" + WORD,
        "summary.zh": f"有障碍的房间{EMOJI}，穿过需要力量考验。",
        "summary.en": "A barrier room; crossing takes a Might roll.",
        # the summary is held to two lines of a phone by the checker: the long texts go in the body
        "body.zh": f"考验的点数：{NUMBERS}",
        "body.en": f"See {URL} for the roll.",
        "label": "Floor" + WORD,
        "value": f"Upper, {URL}",
        "q": "过塔楼" + WORD + "？",
        "a": f"力量考验{EMOJI}。{URL}",
        "game": "演示游戏" + WORD,
    }
    entry = data / "demo/entries/tower.yaml"
    text = entry.read_text(encoding="utf-8")
    for old, new in [
        ("title: {zh: 塔楼, en: Tower}", f'title: {{zh: "{texts["title.zh"]}", en: "{texts["title.en"]}"}}'),
        ("aliases: [塔樓, tower room]", f'aliases: [塔樓, "{WORD[:200]}"]'),
        (
            "summary: {zh: 有障碍的房间，穿过需要力量考验。, en: A barrier room; crossing takes a Might roll.}",
            f'summary: {{zh: "{texts["summary.zh"]}", en: "{texts["summary.en"]}"}}\n'
            f'body: {{zh: "{texts["body.zh"]}", en: "{texts["body.en"]}"}}',
        ),
        ("label: {zh: 楼层, en: Floor}", f'label: {{zh: 楼层, en: "{texts["label"]}"}}'),
        ("value: {zh: 上层, en: Upper}", f'value: {{zh: 上层, en: "{texts["value"]}"}}'),
        ('q: {zh: 过塔楼要考什么？, en: "Which roll crosses the Tower?"}', f'q: {{zh: "{texts["q"]}", en: "Which?"}}'),
        ("a: {zh: 力量考验。, en: A Might roll.}", f'a: {{zh: "{texts["a"]}", en: A Might roll.}}'),
    ]:
        assert old in text, old
        text = text.replace(old, new)
    entry.write_text(text, encoding="utf-8")
    errata = data / "demo/entries/tower-errata.yaml"
    errata.write_text(
        errata.read_text(encoding="utf-8").replace("printed: 受到1点肉体损伤", f"printed: 受到1点肉体损伤{WORD}"),
        encoding="utf-8",
    )
    texts["printed"] = "受到1点肉体损伤" + WORD
    game = data / "demo/game.yaml"
    game_text = game.read_text(encoding="utf-8")
    name = re.search(r"(?m)^name: \{zh: ([^,]+),", game_text)
    assert name
    game.write_text(game_text.replace(name.group(0), f'name: {{zh: "{texts["game"]}",', 1), encoding="utf-8")
    return data, texts


def words_outside(pdf: Path) -> list[tuple[int, str]]:
    """The words whose box (pdftotext -bbox) is not inside their page, with the page number."""
    html = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    outside = []
    pages = re.findall(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', html, re.S)
    assert pages
    for number, (width, height, body) in enumerate(pages, 1):
        for x0, y0, x1, y1, word in re.findall(
            r'<word xMin="([-\d.]+)" yMin="([-\d.]+)" xMax="([-\d.]+)" yMax="([-\d.]+)">(.*?)</word>', body
        ):
            if not (0 <= float(x0) <= float(x1) <= float(width) and 0 <= float(y0) <= float(y1) <= float(height)):
                outside.append((number, word[:40]))
    return outside


def printed(text: str) -> str:
    """What of a text is read back from the PDF: no spaces, no format characters (ZWJ, variation selectors)."""
    return "".join(c for c in text if not c.isspace() and unicodedata.category(c) not in {"Cf", "Mn"})


@pytest.fixture(scope="module")
def hostile_pdfs(tmp_path_factory) -> tuple[dict[str, Path], dict[str, str]]:
    folder = tmp_path_factory.mktemp("pdf-overflow")
    data, texts = hostile_data(folder)
    pdfs = {}
    for layout in ("qa", "full"):
        out = folder / f"{layout}.pdf"
        result = run_cli("pdf", "--data", str(data), "--layout", layout, "-o", str(out), cwd=folder, timeout=600)
        assert result.returncode == 0, result.stderr
        pdfs[layout] = out
    return pdfs, texts


@pytest.mark.slow
@pytest.mark.parametrize("layout", ["qa", "full"])
def test_every_word_is_inside_its_page(hostile_pdfs, layout):
    pdfs, _ = hostile_pdfs
    assert words_outside(pdfs[layout]) == []


@pytest.mark.slow
@pytest.mark.parametrize("layout", ["qa", "full"])
def test_every_character_is_printed(hostile_pdfs, layout):
    pdfs, texts = hostile_pdfs
    # In drawing order (-raw): a table's cells one after the other, not their lines side by side.
    text = subprocess.run(
        ["pdftotext", "-raw", str(pdfs[layout]), "-"], capture_output=True, text=True, check=True
    ).stdout
    flat = printed(text)
    shown = {"qa": ["title.zh", "title.en", "summary.zh", "summary.en", "q", "a", "game"]}.get(layout, list(texts))
    for name in shown:
        assert printed(texts[name]) in flat, name


@pytest.mark.slow
def test_emoji_and_their_zwj_sequences_are_drawn_with_the_emoji_font(hostile_pdfs):
    pdfs, _ = hostile_pdfs
    fonts = subprocess.run(["pdffonts", str(pdfs["qa"])], capture_output=True, text=True, check=True).stdout
    assert "Noto-Color-Emoji" in fonts and "WenQuanYi-Micro-Hei" in fonts


def test_the_stylesheet_breaks_every_text():
    css = pdf_module.stylesheet()
    assert re.search(r"(?m)^html \{[^}]*overflow-wrap: anywhere", css)
    assert "overflow-wrap: normal" not in css and "word-break: keep-all" not in css
    # one line that does not wrap: the running head, which ends in an ellipsis instead
    assert css.count("white-space: nowrap") == 1 and "text-overflow: ellipsis" in css


@pytest.mark.slow
def test_digits_and_spaces_keep_the_cjk_font_beside_emoji(tmp_path):
    """Named in the stylesheet, the emoji font drew digits and spaces too (Unicode counts them as emoji)."""
    out = tmp_path / "digits.pdf"
    pdf_module.render("<p>DM-A1 · CC BY 4.0</p>", "a4").write_pdf(out)
    fonts = subprocess.run(["pdffonts", str(out)], capture_output=True, text=True, check=True).stdout
    assert "WenQuanYi-Micro-Hei" in fonts and "Emoji" not in fonts


def test_without_the_emoji_font_emoji_are_a_warning_not_silent_boxes(monkeypatch):
    monkeypatch.setattr(pdf_module, "_installed", lambda family: family != pdf_module.EMOJI_FAMILY)
    assert pdf_module.emoji_font_warning(["塔楼", "a 👨\u200d👩\u200d👧 b"]) == (
        "warning: the text holds emoji (U+1F468) and the font 'Noto Color Emoji' is not installed, so they print "
        "as empty boxes — install the Debian package fonts-noto-color-emoji (tools/setup-debian.sh does)"
    )
    assert pdf_module.emoji_font_warning(["塔楼", "no emoji"]) is None
    monkeypatch.setattr(pdf_module, "_installed", lambda family: True)
    assert pdf_module.emoji_font_warning(["😀"]) is None
