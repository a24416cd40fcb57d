"""The ``.gz`` and ``.br`` copies a full build writes beside the site's text files, for hosts that send them."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import brotli
import pytest

from conftest import run_cli
from houserules.site.precompress import MIN_BYTES, write_compressed

PAGE = ("<p>回合结束时，每位英雄依次行动。 At the end of the round each hero acts in turn.</p>\n" * 60).encode()


def decompressed(copy: Path) -> bytes:
    data = copy.read_bytes()
    return gzip.decompress(data) if copy.suffix == ".gz" else brotli.decompress(data)


def a_site(folder: Path) -> Path:
    (folder / "demo").mkdir(parents=True)
    (folder / "index.html").write_bytes(PAGE)
    (folder / "demo/tower.html").write_bytes(PAGE.replace(b"round", b"turn"))
    (folder / "search").mkdir()
    (folder / "search/head.js").write_bytes(b"var head = " + json.dumps(list(range(2000))).encode() + b";\n")
    (folder / "tiny.css").write_bytes(b"a{color:red}" * 10)  # under MIN_BYTES
    (folder / "assets").mkdir()
    (folder / "assets/icon.png").write_bytes(bytes(4096))  # compresses well, but not text
    noise = random.Random(7)
    (folder / "noise.json").write_bytes(bytes(noise.randrange(256) for _ in range(4096)))  # saves nothing
    (folder / "sitemap.xml").write_bytes(b"<urlset>" + b"<url><loc>x</loc></url>" * 100 + b"</urlset>")
    (folder / "sitemap.xml.gz").write_bytes(b"the site's own copy")
    (folder / "translate/downloads").mkdir(parents=True)  # for desktop tools, not a visit: left as it is
    (folder / "translate/downloads/demo-zh-en.xlf").write_bytes(PAGE)
    (folder / "translate/glossary.csv").write_bytes(PAGE)  # beside the downloads: compressed
    return folder


def test_each_text_file_gets_copies_that_decompress_to_it_and_nothing_else_does(tmp_path):
    site = a_site(tmp_path / "site")
    written = write_compressed(site)
    copies = sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.suffix in (".gz", ".br"))
    assert copies == [
        "demo/tower.html.br",
        "demo/tower.html.gz",
        "index.html.br",
        "index.html.gz",
        "search/head.js.br",
        "search/head.js.gz",
        "sitemap.xml.br",
        "sitemap.xml.gz",
        "translate/glossary.csv.br",
        "translate/glossary.csv.gz",
    ]
    assert written == 9  # the sitemap's .gz was there
    assert (site / "sitemap.xml.gz").read_bytes() == b"the site's own copy"
    for name in copies:
        if name != "sitemap.xml.gz":
            copy = site / name
            assert decompressed(copy) == (site / name[:-3]).read_bytes(), name
            assert copy.stat().st_size < (site / name[:-3]).stat().st_size / 2
    assert (site / "tiny.css").stat().st_size < MIN_BYTES


def test_a_file_larger_than_a_chunk_is_compressed_a_chunk_at_a_time_into_the_same_text(tmp_path, monkeypatch):
    from houserules.site import precompress

    monkeypatch.setattr(precompress, "CHUNK", 100)  # the page is about 60 chunks
    site = a_site(tmp_path / "site")
    write_compressed(site)
    for suffix in (".gz", ".br"):
        assert decompressed(site / f"index.html{suffix}") == PAGE


def test_the_copies_are_the_same_bytes_from_one_build_to_the_next(tmp_path):
    first, second = a_site(tmp_path / "a"), a_site(tmp_path / "b")
    write_compressed(first, workers=1)
    write_compressed(second, workers=3)
    for copy in first.rglob("*.[gb][zr]"):
        assert copy.read_bytes() == (second / copy.relative_to(first)).read_bytes(), copy


@pytest.mark.slow
def test_a_full_build_writes_a_copy_of_each_text_file_and_the_offline_app_lists_none(built_fixture_full):
    copies = {p for p in built_fixture_full.rglob("*") if p.suffix in (".gz", ".br") and p.name != "sitemap.xml.gz"}
    pages = list(built_fixture_full.rglob("*.html"))
    assert {p.with_name(p.name + ".br") for p in pages if p.stat().st_size >= MIN_BYTES} <= copies
    for copy in copies:
        assert decompressed(copy) == copy.with_name(copy.stem).read_bytes(), copy
    listed = json.loads((built_fixture_full / "offline.json").read_text(encoding="utf-8"))["files"]
    assert not [name for name in listed if name.endswith((".gz", ".br"))]


@pytest.mark.slow
def test_no_precompress_builds_the_site_without_copies(tmp_path):
    from conftest import GOOD

    out = tmp_path / "site"
    result = run_cli("build", "--data", str(GOOD), "-o", str(out), "--no-precompress")
    assert result.returncode == 0, result.stderr
    assert "compressed copies" not in result.stderr
    assert (out / "index.html").is_file()
    assert [p for p in out.rglob("*") if p.suffix == ".br"] == []
