"""What a reader sees in the terminal: references named by title and code, sources by title.

``houserules show`` and ``houserules search`` print a ``[[game:id]]`` reference as the
target's title and code (``楼层封闭 (BH-T06)``), as the site and the PDF do, and a
source as its document's title, never a file name such as ``002_….txt``.
"""

from __future__ import annotations

import json
import re

from conftest import run_cli
from houserules.data.reading.model import INLINE_REF


def unwrapped(out: str) -> str:
    """The terminal text with its wrapped lines joined again (Chinese with nothing between, English with a space)."""
    out = re.sub(r"(?<=[^ -~])\n +(?=[^ -~])", "", out)
    return re.sub(r"\n +(?=\S)", " ", out)


def test_show_names_references_and_sources():
    result = run_cli("show", "BH-A13", env={"COLUMNS": "200"})
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "[[" not in out and "]]" not in out
    assert out.count("楼层封闭 (BH-T06)") >= 3 and "Sealed floor (BH-T06)" in out
    assert "山屋惊魂规则补充说明4（A. 房间卡） 【13】" in out
    assert ".txt" not in out


def test_search_names_references_in_answers():
    env = {"COLUMNS": "200"}  # the real data's index in the run's cache (tests/conftest.py), built once
    query = ("search", "进了魔梯一定要让它动吗", "--limit", "5")
    hits = json.loads(run_cli(*query, "--json", env=env).stdout)
    shown = [(h.get("question") or {}).get("answer") or h["summary"] for h in hits]
    refs = {m.group(1) for texts in shown for text in texts.values() for m in INLINE_REF.finditer(text)}
    assert "betrayal:sealed-floor" in refs, "the JSON keeps the exact text, with the reference"
    result = run_cli(*query, env=env)
    assert result.returncode == 0, result.stderr
    assert "[[" not in result.stdout
    shown_text = unwrapped(result.stdout)
    assert "楼层封闭 (BH-T06)" in shown_text and "Sealed floor (BH-T06)" in shown_text
    assert not re.search(r"\n +\([A-Z]+-[A-Z0-9]+\)", result.stdout), "a code never starts a line"


def test_a_question_shown_before_its_entry_names_the_references_of_both_answers():
    """A hit led by its question shows the question's answer, then the entry's one-line answer below it: the
    references of both are named by title and code in the reader's language, never left as ``game:id``."""
    from types import SimpleNamespace

    from houserules.render.terminal import format_hits, shown_refs

    record = {
        "id": "demo:minion",
        "code": "DM-T01",
        "title": {"zh": "怪物", "en": "Minion"},
        "summary": {"zh": "首领可能有多张，见 [[demo:boss]]。", "en": "A boss may have several, see [[demo:boss]]."},
        "url": "demo/minion.html#big",
        "lead": "question",
        "question": {
            "question": {"zh": "大怪占几格？", "en": "How much room does a big minion take?"},
            "answer": {"zh": "一整格，见 [[demo:space]]。", "en": "A whole space, see [[demo:space]]."},
        },
    }
    hit = SimpleNamespace(record=record)
    assert shown_refs([hit]) == {"demo:boss", "demo:space"}
    names = {
        "demo:boss": {"title": {"zh": "首领", "en": "Boss"}, "code": "DM-R04"},
        "demo:space": {"title": {"zh": "区域", "en": "Space"}, "code": "DM-R05"},
    }
    shown = format_hits([hit], 200, names)
    assert "首领 (DM-R04)" in shown and "区域 (DM-R05)" in shown and "Space (DM-R05)" in shown
    assert shown.index("一整格") < shown.index("DM-T01") < shown.index("首领可能有多张")
    english = format_hits([hit], 200, names, "en")
    assert "Boss (DM-R04)" in english and "首领可能有多张" not in english
    assert english.index("A whole space") < english.index("一整格")
    assert "demo:boss" not in shown + english and "demo:space" not in shown + english
