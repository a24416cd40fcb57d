"""The site's search index is made in memory, with the postings, scores and tables a written index holds."""

from __future__ import annotations

import filecmp
from pathlib import Path

import pytest

from conftest import FIXTURES
from houserules.data.reading.load import load
from houserules.search import siteindex
from houserules.search.documents import documents, schema
from houserules.search.index import SearchIndex
from houserules.search.indexcache import index_meta, write_index
from houserules.search.postings import MemoryPostings, Postings
from houserules.search.shards import export

DATA_FOLDERS = ["good", "two-games", "hostile"]


def _kb(name: str):
    loaded = load(FIXTURES / name)
    return loaded.kb


@pytest.mark.parametrize("name", DATA_FOLDERS)
def test_every_term_scores_in_memory_as_in_the_written_index(tmp_path, name):
    """Every field's terms in order, each term's documents and BM25F scores (to the bit), its frequencies, and
    every stored record: the same from memory as from Whoosh's written index."""
    kb = _kb(name)
    docs = list(documents(kb))
    disk = Postings(write_index(tmp_path / "index", docs, index_meta(kb, [])))
    memory = MemoryPostings(schema(), docs)
    try:
        assert memory.doc_count() == disk.doc_count() > 0
        assert memory.fields() == disk.fields()
        compared = 0
        for field in sorted(disk.fields()):
            assert list(memory.terms(field)) == list(disk.terms(field)), field
            for term in disk.terms(field):
                assert memory.scores(field, term) == disk.scores(field, term), (field, term)
                assert memory.frequency(field, term) == disk.frequency(field, term)
                assert memory.docs(field, term) == disk.docs(field, term)
                compared += 1
        assert compared > 100
        assert [memory.stored(d) for d in range(disk.doc_count())] == [disk.stored(d) for d in range(disk.doc_count())]
        ref = next(iter(disk.terms("ref")))
        assert memory.document(ref=ref) == disk.document(ref=ref)
        word = next(t for t in disk.terms("words") if t.isascii() and len(t) > 4)
        typo = word[:-1] + ("x" if word[-1] != "x" else "y")
        assert set(memory.within("words", typo, 1)) == set(disk.within("words", typo, 1)) >= {word}
    finally:
        disk.close()


def test_a_changed_score_is_noticed(tmp_path):
    """The comparison above fails when one posting's weight differs (what it guards)."""
    kb = _kb("good")
    docs = list(documents(kb))
    disk = Postings(write_index(tmp_path / "index", docs, index_meta(kb, [])))
    memory = MemoryPostings(schema(), docs)
    term = next(iter(disk.terms("title")))
    postings = memory._postings["title"][term]  # noqa: SLF001 - the test breaks one on purpose
    postings[0] = (postings[0][0], postings[0][1] + 1.0)
    try:
        assert memory.scores("title", term) != disk.scores("title", term)
    finally:
        disk.close()


@pytest.mark.parametrize("name", DATA_FOLDERS)
def test_the_site_index_is_the_written_indexs_export_byte_for_byte(tmp_path, name):
    kb = _kb(name)
    meta = index_meta(kb, [])
    glossary_docs = list(siteindex.glossary_documents(kb))
    glossary = SearchIndex(write_index(tmp_path / "glossary", glossary_docs, meta)) if glossary_docs else None
    with SearchIndex(write_index(tmp_path / "index", documents(kb), meta)) as written:
        export(written, tmp_path / "from-disk", glossary)
    if glossary is not None:
        glossary.close()
    siteindex.build_index(kb, tmp_path / "from-memory")
    files = sorted(p.relative_to(tmp_path / "from-disk") for p in (tmp_path / "from-disk").rglob("*") if p.is_file())
    assert files == sorted(
        p.relative_to(tmp_path / "from-memory") for p in (tmp_path / "from-memory").rglob("*") if p.is_file()
    )
    match, mismatch, errors = filecmp.cmpfiles(tmp_path / "from-disk", tmp_path / "from-memory", files, shallow=False)
    assert (mismatch, errors) == ([], []) and len(match) == len(files) > 3


def test_a_search_of_an_index_made_in_memory_finds_what_the_written_one_finds(tmp_path):
    from houserules.search.indexcache import memory_index

    kb = _kb("good")
    meta = index_meta(kb, [])
    with (
        SearchIndex(write_index(tmp_path / "index", documents(kb), meta)) as written,
        SearchIndex(memory_index(documents(kb), meta)) as made,
    ):
        for query in ("塔楼", "tower", "电梯坠毁会怎样", "towr", "塔樓"):
            assert [h.to_json() for h in made.search(query)] == [h.to_json() for h in written.search(query)], query


def test_the_site_index_writes_no_whoosh_index(tmp_path, monkeypatch):
    """Building the site's index creates no Whoosh index anywhere."""
    from whoosh import index as whoosh_index

    def refuse(*args, **kwargs):
        raise AssertionError("a Whoosh index was written")

    monkeypatch.setattr(whoosh_index, "create_in", refuse)
    head = siteindex.build_index(_kb("good"), tmp_path / "site-index")
    assert head and any((tmp_path / "site-index").iterdir())
    assert Path(tmp_path / "site-index").is_dir()
