"""Pages in Traditional characters: the site's table converts every text of its pages as OpenCC's Taiwan standard
and the reviewed regional terms do (the search's Traditional results), and the browser converts as the table says."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import DATA, load_kb
from houserules.site.hantpages import TABLE_SCRIPT, convert, page_runs, site_runs, table
from houserules.text.chinese import to_traditional

# Characters OpenCC writes otherwise by the word they are in (后: 之後 but 皇后; 干: 乾燥, 幹部, 干涉), and common ones.
_TRICKY = "后干发里只台面系准复几冲尽并钟松折划才制历丑斗谷范"
_COMMON = "皇天之来了部头燥涉你我们的是在有人上下进入魔梯不能要就"
RUNS = st.lists(st.text(alphabet=_TRICKY + _COMMON, min_size=1, max_size=12), min_size=1, max_size=30)


def _table_of(found: str) -> dict:
    return json.loads(found[found.index("{") : found.rindex("}") + 1])


@given(RUNS)
def test_the_table_converts_every_run_as_opencc(runs):
    made = table(runs, to_traditional)
    for run in runs:
        assert convert(run, made["chars"], made["phrases"], made["longest"]) == to_traditional(run), run


def test_only_page_text_is_read():
    runs = page_runs(
        '<p title="标题">正文<!-- 注释 --></p><script>"脚本"</script><style>p::after{content:"样式"}</style>'
    )
    assert runs == {"标题", "正文"}


@pytest.mark.slow
def test_every_text_of_the_built_site_converts_as_opencc_with_the_regional_terms(built_site):
    """Every run of Chinese characters of every page: the table the build wrote converts it as the search's
    Traditional results do (OpenCC's Taiwan standard, then the reviewed terms of rules_data/traditional.yaml)."""
    made = _table_of((built_site / TABLE_SCRIPT).read_text(encoding="utf-8"))
    terms = load_kb(DATA).traditional_terms()
    runs = site_runs(built_site)
    assert len(runs) > 1000
    wrong = [r for r in runs if convert(r, made["chars"], made["phrases"], made["longest"]) != to_traditional(r, terms)]
    assert wrong == []
    # The reviewed terms are the site's too: a run of the pages that starts with a term of traditional.yaml reads
    # as reviewed, where OpenCC alone would write it otherwise.
    starting = [
        (run, zh, hant) for zh, hant in terms if to_traditional(zh) != hant for run in runs if run.startswith(zh)
    ]
    assert starting
    for run, zh, hant in starting:
        assert convert(run, made["chars"], made["phrases"], made["longest"]).startswith(hant), (run, zh, hant)
