"""Links by code: ``go.html#BH-A13`` opens the entry, ``go.html#BH-A13/must-run`` the answer of that question.

The go page carries only the list of code prefixes; the codes of one prefix are a
script of their own (``go/bh.js``), loaded when a code of that prefix is asked for,
so no page carries the map of every code (5,000 entries and 15,000 questions would
be half a megabyte). Scripts rather than JSON, because a page opened from
``file://`` may load a script but not fetch a file. The resolving itself is in
``houserules.js`` (codes are case-insensitive, spaces and missing hyphens
tolerated; an unknown code shows the closest codes and a search link).
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from ..data.reading.model import KnowledgeBase
from ..render.templating import render
from ..render.urls import entry_url, game_src, go_shard, page_url
from .markup import front_matter

SHARD_CALLBACK = "houserulesGoShard"


def script_json(value: Any) -> str:
    """JSON that is safe inside a ``<script>`` element or a script file: no ``<``, ``>``, ``&`` or line separators.

    >>> script_json({"t": "</script><b>&"})
    '{"t":"\\\\u003c/script\\\\u003e\\\\u003cb\\\\u003e\\\\u0026"}'
    """
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for char, escape in (
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("&", "\\u0026"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(char, escape)
    return text


def shards(kb: KnowledgeBase) -> dict[str, dict[str, list[Any]]]:
    """Per code prefix: code suffix → [page, Chinese title, question ids, {clause: question id}].

    A question is cited by its id (``BH-A13/must-move``); a link naming the clause of the
    ruling it answers (``BH-A13/must-run``, as the game declares its clauses) lands on the
    first question answering that clause.
    """
    found: dict[str, dict[str, list[Any]]] = defaultdict(dict)
    for entry in kb.entries.values():
        prefix, _, suffix = entry.code.partition("-")
        ids = [q["id"] for q in entry.questions]
        clauses: dict[str, str] = {}
        for question in entry.questions:
            clause = question["source"].get("clause")
            if clause and clause not in ids:
                clauses.setdefault(clause, question["id"])
        found[prefix][suffix] = [entry_url(entry), entry.title["zh"], ids, clauses]
    return dict(found)


def shard_files(kb: KnowledgeBase) -> dict[str, str]:
    """Site path → the script of one prefix's codes."""
    return {
        go_shard(prefix): f"/* houserules: the codes {prefix}-… for go.html (generated) */\n"
        f"window.{SHARD_CALLBACK}&&window.{SHARD_CALLBACK}({script_json(prefix)},"
        f"{script_json(codes)});\n"
        for prefix, codes in sorted(shards(kb).items())
    }


def prefixes(kb: KnowledgeBase) -> dict[str, list[Any]]:
    """Each code prefix with the games using it."""
    result: dict[str, list[Any]] = {}
    for game in kb.games.values():
        result.setdefault(game.code_prefix, []).append(game)
    return result


def go_page(kb: KnowledgeBase) -> str:
    """The Markdown of ``go.md``: a status line, a box to type a code, and the games' code prefixes.

    The list of prefixes is what the script reads (``data-prefix``, ``data-shard``), so the
    page holds no data inside a script element.
    """
    example = next(iter(kb.entries.values()), None)
    found = [
        (prefix, go_shard(prefix), [(g, page_url(game_src(g.id))) for g in games])
        for prefix, games in sorted(prefixes(kb).items())
    ]
    return front_matter("按代码打开 Open by code", search={"exclude": True}) + render(
        "site/go.html", search=page_url("index.md"), sample=example.code if example else "BH-A13", prefixes=found
    )
