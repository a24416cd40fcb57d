"""A query is analysed up to :data:`houserules.search.analysis.MAX_QUERY` characters; the rest is ignored.

The browser's worker reads the same bound from the index head (tests/test_site_search.py compares the
two analyses on queries longer than it); the go page's bound is in tests/test_golinks.py.
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import GOOD, run_cli
from houserules.search import analysis
from houserules.search.index import open_index


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOUSERULES_CACHE", str(tmp_path_factory.mktemp("cache")))
        with open_index(GOOD) as opened:
            yield opened


def test_a_long_query_is_searched_up_to_the_bound_with_a_notice(tmp_path):
    query = "塔楼 " + "x" * 9_997
    result = run_cli("search", "--data", str(GOOD), "--json", query, env={"HOUSERULES_CACHE": str(tmp_path)})
    assert result.returncode == 0, result.stderr
    assert result.stderr == (
        f"notice: the query is 10,000 characters long; only its first {analysis.MAX_QUERY} are searched\n"
    )
    assert json.loads(result.stdout)[0]["id"] == "demo:tower"


def test_a_query_at_the_bound_gets_no_notice(tmp_path):
    query = "塔楼" + "x" * (analysis.MAX_QUERY - 2)
    result = run_cli("search", "--data", str(GOOD), query, env={"HOUSERULES_CACHE": str(tmp_path)})
    assert "notice" not in result.stderr and "Traceback" not in result.stderr


def test_bounded_counts_code_points():
    astral = "𠀀" * (analysis.MAX_QUERY + 5)
    assert analysis.bounded(astral) == "𠀀" * analysis.MAX_QUERY
    assert analysis.bounded("ab") == "ab"


@given(st.text(max_size=analysis.MAX_QUERY), st.text(min_size=1, max_size=3000))
def test_what_follows_the_bound_changes_nothing(index, head, tail):
    text = (head + "塔" * analysis.MAX_QUERY)[: analysis.MAX_QUERY]
    if CUT.search(text) and CUT.match(tail):  # a word cut in two: its part is left out (the next test)
        text = CUT.sub("", text)
    assert [h.record["id"] for h in index.search(text + tail)] == [h.record["id"] for h in index.search(text)]


CUT = re.compile("[A-Za-z0-9]+$")


def test_a_word_the_bound_cuts_is_left_out_never_completed(index):
    """The bound's cut of "…tower" would leave "tow", which the last word's completion reads as "tower": the
    query would be shown as corrected, with a word the player typed in full."""
    query = "x" * (analysis.MAX_QUERY - 8) + " the tower underneath"
    assert analysis.bounded(query) == "x" * (analysis.MAX_QUERY - 8) + " the "
    assert analysis.bounded("塔" * analysis.MAX_QUERY + "room") == "塔" * analysis.MAX_QUERY
    assert index.searched_for(query) is None


def test_the_pages_script_uses_the_same_bound():
    import re

    from conftest import ROOT

    script = (ROOT / "site_overrides/assets/javascripts/houserules.js").read_text(encoding="utf-8")
    assert re.findall(r"var MAX_(?:QUERY|GO) = (\d+);", script) == [str(analysis.MAX_QUERY)] * 2


@given(st.text(alphabet="abcdeimorstuy", max_size=12), st.text(alphabet="abcdeimorstuy", min_size=1, max_size=12))
def test_words_within_the_limit_always_pass_the_alphabet_screen(a, b):
    """The screen before a game name's edit distance is a bound, never a filter: words within 1 or 2 edits
    always pass it, so a misspelt game name is found as without it."""
    from houserules.search.query import _edits, near_alphabets

    for limit in (1, 2):
        if _edits(a, b, limit) <= limit:
            assert near_alphabets(set(a), set(b), limit), (a, b, limit)
