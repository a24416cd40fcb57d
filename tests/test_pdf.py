"""The printed FAQ, read back as a reader gets it: text, fonts, contents page numbers, pictures."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from PIL import Image

from conftest import DATA, GOOD, real_check, run_cli
from houserules.check import run as run_check
from houserules.print.document import PrintDocument, PrintLinker
from houserules.print.plan import PrintOptions, print_groups

pytestmark = pytest.mark.slow

#: A line of the contents: code, title, dot leader, page number.
#: A line of the contents: the entry's code, and its page as the page's foot prints it (the game's code letters, "BH 15").
TOC_LINE = re.compile(r"^\s*([A-Z]{2,4}-[A-Z0-9]+(?:-[A-Z0-9]+)?)\s+.*?\.{3,}\s*((?:[A-Z]{2,4} )?\d+)\s*$")


def pdf_pages(pdf: Path) -> list[str]:
    """The text of each page, in layout mode (what a reader sees, line by line)."""
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return text.split("\f")[:-1]


def squeeze(text: str) -> str:
    """Text without any whitespace: titles may wrap anywhere on paper."""
    return re.sub(r"\s+", "", text)


def folio(page: str) -> str:
    """The page number printed at the foot of a page."""
    return [line for line in page.splitlines() if line.strip()][-1].strip()


def contents(pages: list[str]) -> dict[str, str]:
    """Each code in the contents with the page number printed beside it."""
    found = {}
    for page in pages:
        if "目录 · Contents" not in page:
            continue
        for line in page.splitlines():
            if match := TOC_LINE.match(line):
                found.setdefault(match.group(1), match.group(2))
    return found


def start_folio(pages: list[str], code: str, title: str) -> str:
    """The printed page number of the page where the entry's heading stands."""
    heading = squeeze(f"{code} · {title}")
    return next(folio(page) for page in pages if heading in squeeze(page) and "目录 · Contents" not in page)


def _demo_pdf(folder: Path, layout: str, pages: int) -> Path:
    out = folder / f"demo-{layout}.pdf"
    result = run_cli("pdf", "--data", str(GOOD), "--game", "demo", "--layout", layout, "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"wrote {out} (3 entries, {pages} pages)"
    return out


@pytest.fixture(scope="module")
def demo_pdf(tmp_path_factory) -> Path:
    """The default layout: each entry's short answer and its questions."""
    return _demo_pdf(tmp_path_factory.mktemp("pdf"), "qa", 4)


@pytest.fixture(scope="module")
def demo_full_pdf(tmp_path_factory) -> Path:
    return _demo_pdf(tmp_path_factory.mktemp("pdf-full"), "full", 4)


def _printed(site: Path, kb, name: str) -> tuple[Path, list]:
    games = list(kb.games) if name == "faq" else [name]
    return site / "print" / f"{name}.pdf", [e for e in kb.entries.values() if e.game in games]


@pytest.fixture(scope="module")
def real_kb():
    return real_check().kb


@pytest.fixture(scope="module")
def good_kb():
    return run_check(GOOD).kb


def built_pdfs(built_site, built_fixture_full, real_kb, good_kb) -> list[tuple[Path, list]]:
    """Every PDF the builds wrote, with the entries each must hold."""
    out = [_printed(built_fixture_full, good_kb, name) for name in ("faq", "demo")]
    out += [_printed(built_site, real_kb, name) for name in ("faq", *real_kb.games)]
    return out


def test_build_writes_a_pdf_per_game_and_one_for_all(built_site, real_kb):
    printed = sorted(p.name for p in (built_site / "print").glob("*.pdf") if not p.name.startswith("changes-since-"))
    assert printed == sorted([f"{g}.pdf" for g in real_kb.games] + ["faq.pdf"])  # beside the ready inserts


def test_every_entry_code_and_chinese_title_is_in_the_text(built_site, built_fixture_full, real_kb, good_kb):
    for pdf, entries in built_pdfs(built_site, built_fixture_full, real_kb, good_kb):
        text = squeeze("".join(pdf_pages(pdf)))
        missing = [e.ref for e in entries if e.code not in text or squeeze(e.title["zh"]) not in text]
        assert not missing, f"{pdf.name}: {missing}"


def test_the_cjk_font_is_embedded(built_site, built_fixture_full, real_kb, good_kb, demo_pdf):
    for pdf in [demo_pdf] + [p for p, _ in built_pdfs(built_site, built_fixture_full, real_kb, good_kb)]:
        listing = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout
        fonts = [line.split() for line in listing.splitlines()[2:]]
        assert fonts and all("WenQuanYi" in f[0] for f in fonts), listing
        # columns from the right: emb sub uni object ID
        assert all(f[-5] == "yes" for f in fonts), listing


def test_contents_page_numbers_are_where_entries_start(built_site, built_fixture_full, real_kb, good_kb):
    for pdf, entries in built_pdfs(built_site, built_fixture_full, real_kb, good_kb):
        pages = pdf_pages(pdf)
        listed = contents(pages)
        assert sorted(listed) == sorted(e.code for e in entries), pdf.name
        wrong = {
            e.code: (listed[e.code], start_folio(pages, e.code, e.title["zh"]))
            for e in entries
            if listed[e.code] != start_folio(pages, e.code, e.title["zh"])
        }
        assert not wrong, f"{pdf.name}: contents page vs actual page {wrong}"
        # Several games in one PDF: no two pages of games print the same number, and a viewer's page box reads
        # as the foot does ("BH 15"), not the page's place in the file.
        from pypdf import PdfReader

        labels = PdfReader(pdf).page_labels
        games = [(label, folio(page)) for label, page in zip(labels, pages) if " " in label]
        if len({e.game for e in entries}) > 1:
            assert games and all(label == foot for label, foot in games), pdf.name
            assert len({label for label, _ in games}) == len(games), pdf.name


def test_the_qa_layout_prints_every_question_and_answer_under_its_entry(demo_pdf, demo_full_pdf, good_kb):
    pages = pdf_pages(demo_pdf)
    text = squeeze("".join(pages[2:]))
    for entry in good_kb.entries.values():
        start = text.index(squeeze(f"{entry.code} · {entry.title['zh']}"))
        for question in entry.questions:
            at = text.index(squeeze(question.q.zh), start)
            assert text.index(squeeze(f"{entry.code}/{question.id}"), at) > at  # its citation code follows
            assert squeeze(question.a.zh).split("[[")[0] in text[at:]
    # The Q&A layout leaves the details (here: a completion) out; the full layout has them.
    assert squeeze("补全的句子。") not in text
    assert squeeze("补全的句子。") in squeeze("".join(pdf_pages(demo_full_pdf)))


def test_questions_link_their_references_in_print(demo_pdf, good_kb):
    pages = pdf_pages(demo_pdf)
    tower = good_kb.entries["demo:tower"]
    page = start_folio(pages, tower.code, tower.title["zh"])
    assert page.startswith("DM ")  # the foot: the game's code letters and the page
    assert squeeze(f"能。进入塔楼（DM-R01，第 {page.split()[-1]} 页）后可以原路返回。") in squeeze("".join(pages))


def test_cross_references_print_the_code_and_page(demo_full_pdf, good_kb):
    pages = pdf_pages(demo_full_pdf)
    tower = good_kb.entries["demo:tower"]
    page = start_folio(pages, tower.code, tower.title["zh"]).split()[-1]
    # DM-A1's body says "进入[[demo:tower]]后可以原路返回。"
    assert squeeze(f"进入塔楼（DM-R01，第 {page} 页）后可以原路返回。") in squeeze("".join(pages))
    assert "[[" not in "".join(pages)


def test_running_heads_carry_game_and_code(demo_full_pdf):
    entry_pages = pdf_pages(demo_full_pdf)[2:]
    heads = [page.strip().splitlines()[0].split() for page in entry_pages]
    assert heads == [["演示游戏", "Demo", "Game", "DM-A1"], ["演示游戏", "Demo", "Game", "DM-R01"]]


@pytest.mark.parametrize(
    "paper, size",
    [
        ("a4", "595.276 x 841.89 pts (A4)"),
        ("letter", "612 x 792 pts (letter)"),
    ],
)
def test_paper_size(tmp_path, paper, size):
    out = tmp_path / "demo.pdf"
    result = run_cli("pdf", "--data", str(GOOD), "--paper", paper, "-o", str(out))
    assert result.returncode == 0, result.stderr
    info = subprocess.run(["pdfinfo", str(out)], capture_output=True, text=True, check=True).stdout
    assert re.search(r"Page size:\s+(.*)", info).group(1) == size


def ink(png: Path) -> float:
    """Share of the page's pixels that are not white."""
    image = Image.open(png).convert("L")
    histogram = image.histogram()
    return 1 - sum(histogram[250:]) / (image.width * image.height)


@pytest.mark.parametrize("page, name", [(1, "cover"), (2, "contents"), (3, "entries")])
def test_pages_render_to_pictures_that_are_not_blank(demo_pdf, page, name):
    prefix = demo_pdf.parent / name
    subprocess.run(
        ["pdftoppm", "-png", "-r", "50", "-f", str(page), "-l", str(page), "-singlefile", str(demo_pdf), str(prefix)],
        check=True,
    )
    assert ink(prefix.with_suffix(".png")) > 0.01


def test_missing_cjk_font_fails_loudly(tmp_path):
    config = tmp_path / "fonts.conf"
    config.write_text("<?xml version='1.0'?><fontconfig></fontconfig>\n", encoding="utf-8")
    out = tmp_path / "demo.pdf"
    result = run_cli("pdf", "--data", str(GOOD), "-o", str(out), env={"FONTCONFIG_FILE": str(config)})
    assert result.returncode == 1
    assert result.stderr.strip() == (
        "houserules pdf: the CJK font 'WenQuanYi Micro Hei' is not installed, so Chinese text would print as empty "
        "boxes — install the Debian package fonts-wqy-microhei (tools/setup-debian.sh does)"
    )
    assert not out.exists()


def test_unknown_game_is_refused(tmp_path):
    result = run_cli("pdf", "--data", str(GOOD), "--game", "nosuch", "-o", str(tmp_path / "x.pdf"))
    assert result.returncode == 1
    assert result.stderr.strip() == "houserules pdf: unknown game 'nosuch' — use one of: demo"


def test_qr_codes_only_with_a_site_address(good_kb):
    printed = {r for _, _, refs in print_groups(good_kb, good_kb.games["demo"], None) for r in refs}
    entry = good_kb.entries["demo:tower"]

    def entry_html(site_url):
        return PrintDocument(
            good_kb, PrintLinker(good_kb, printed, site_url), PrintOptions(site_url=site_url)
        ).entry_html(entry)

    with_url = entry_html("https://example.org/hr")
    assert 'class="entry-qr" src="data:image/svg+xml' in with_url
    assert (
        'alt="https://example.org/hr/go.html#DM-R01"' in with_url
    )  # the link by code, as the site's copy button gives
    assert "entry-qr" not in entry_html(None)


def test_the_site_links_the_pdfs(built_fixture_full):
    page = (built_fixture_full / "print" / "index.html").read_text(encoding="utf-8")
    links = re.findall(r'<a href="([^"]+\.pdf)"', page)
    assert links == ["faq.pdf", "demo.pdf"]
    assert all((built_fixture_full / "print" / link).is_file() for link in links)


@pytest.mark.parametrize(
    "output, message",
    [
        ("a-folder", "houserules pdf: cannot write {out}: it is a folder; give a file name, e.g. -o {out}/faq.pdf"),
        (
            "missing/dir/x.pdf",
            "houserules pdf: cannot write {out}: the folder {parent} does not exist; "
            "create it first or choose another path with -o FILE",
        ),
        (
            "a-link.pdf",
            "houserules pdf: cannot write {out}: it is a symbolic link (to /dev/null); "
            "give the path of the file itself, or remove the link",
        ),
    ],
)
def test_an_unusable_output_is_a_clear_message_and_leaves_nothing(tmp_path, output, message):
    (tmp_path / "a-folder").mkdir()
    (tmp_path / "a-link.pdf").symlink_to("/dev/null")
    before = sorted(tmp_path.rglob("*"))
    result = run_cli("pdf", "--data", str(GOOD), "-o", output, cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.strip() == message.format(out=output, parent="missing/dir")
    assert sorted(tmp_path.rglob("*")) == before


def test_a_pdf_that_fails_half_way_leaves_the_previous_file_and_no_partial_file(tmp_path, monkeypatch):
    import shutil

    from houserules.errors import HouserulesError
    from houserules.print import pdf

    def disk_full(source, target):
        target.write(b"%PDF-1.7 half")
        raise OSError(28, "No space left on device")

    source, out = tmp_path / "cached.pdf", tmp_path / "faq.pdf"
    source.write_bytes(b"%PDF-1.7 whole")
    out.write_bytes(b"the previous PDF")
    monkeypatch.setattr(shutil, "copyfileobj", disk_full)
    with pytest.raises(HouserulesError, match=rf"cannot write {out}: the disk is full \(no space left on device\)"):
        pdf.copy_pdf(source, out)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cached.pdf", "faq.pdf"]
    assert out.read_bytes() == b"the previous PDF"


def test_a_games_pdf_prints_its_own_version_and_the_faq_the_whole_folders(built_site, real_kb):
    from houserules.data.versions.version import tree_hash

    assert f"· {tree_hash(DATA)[:8]}" in pdf_pages(built_site / "print/faq.pdf")[0]
    for game in real_kb.games:
        assert f"· {tree_hash(DATA / game)[:8]}" in pdf_pages(built_site / f"print/{game}.pdf")[0], game


@pytest.mark.parametrize(
    "url", ["javascript:alert(1)//", "data:text/html,x", "file:///etc/passwd", "//host/x", 'https://x/"><img>']
)
def test_a_site_url_that_is_no_http_address_is_refused_before_printing(tmp_path, url):
    """Every QR code and link to the site starts with ``--site-url``: it is checked as the environment's
    ``HOUSERULES_SITE_URL`` is, before any page is laid out."""
    target = tmp_path / "faq.pdf"
    result = run_cli("pdf", "--data", str(GOOD), "--site-url", url, "-o", str(target), cwd=tmp_path)
    assert result.returncode == 2
    assert f"argument --site-url: {url!r} is not an http(s) address — give the site's full address" in result.stderr
    assert not target.exists()
