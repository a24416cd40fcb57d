"""``houserules check`` on deliberately broken data: exact messages and exit codes.

Each case copies the known-good fixture (tests/fixtures/good), adds or replaces
files, runs the command as a user would and compares every line it prints
about problems. To refresh an expectation, run the case by hand
(``houserules check --data DIR`` in the case's folder) and read the output.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from conftest import ENTRY_TEMPLATE, GOOD, ROOT, run_cli, run_process

E = "data/demo/entries"
TAG_FIX = "remove the tag; values are plain text, numbers, true/false, lists and mappings"
BLANK_FIX = "write the text or remove the field"


def entry(id: str = "extra", code: str = "DM-X1", **replace: str) -> str:
    text = ENTRY_TEMPLATE.format(id=id, code=code)
    for old, new in replace.items():
        old = old.replace("_", " ") if old != "see_also" else old
        text = text.replace(old, new)
    return text


def with_questions(a: str, b: str) -> str:
    """An entry citing 【1】 and 【2】 with two questions (ids ``a`` and ``b``), from line 12 of the file."""
    return (
        entry().replace('"【1】"}\n', '"【1】"}\n  - {doc: seed.txt, ref: "【2】"}\n')
        + f"""questions:
  - id: {a}
    q: {{zh: 能吗？, en: "Can I?"}}
    a: {{zh: 能。, en: Yes.}}
    source: {{doc: seed.txt, ref: "【1】", clause: go-back}}
  - id: {b}
    q: {{zh: 会怎样？, en: "What happens?"}}
    a: {{zh: 停下。, en: You stop.}}
    source: {{doc: seed.txt, ref: "【2】"}}
    restates: []
"""
    )


def with_exceptions(item: str, section: str = "【1】") -> str:
    """The good game.yaml with one exception declared for ``section`` of seed.txt (the item on line 25)."""
    text = GOOD.joinpath("demo/game.yaml").read_text(encoding="utf-8")
    return text.replace(
        '"【1】": [go-back, fail-stop]\n',
        f'"【1】": [go-back, fail-stop]\n    exceptions:\n      "{section}":\n        - {item}\n',
    )


def restating(restates: str, a: str = "{zh: 再试一次。, en: Try again.}") -> str:
    """An entry citing 【1】 and the rulebook whose question answers from the rulebook (answer on line 15,
    source on line 16), with ``restates`` (a YAML value, or empty for none) on line 17."""
    return (
        entry(**{"summary: {zh: 一句话。}": "summary: {zh: 考验失败就停下。, en: Fail and you stop.}"}).replace(
            '"【1】"}\n', '"【1】"}\n  - {doc: rulebook, ref: p.10}\n'
        )
        + """questions:
  - id: again
    q: {zh: 还能再试吗？, en: "Can I try again?"}
    a: """
        + a
        + """
    source: {doc: rulebook, ref: p.10}
"""
        + (f"    restates: {restates}\n" if restates else "")
    )


SYNONYM_FIX = "write a title, alias, glossary term or words the entries use, or remove the synonym"

CASES = [
    # -- the search's synonym tables ---------------------------------------------------------------
    (
        "synonym-points-at-nothing",
        {
            "data/demo/synonyms.yaml": "synonyms:\n"
            "  - {say: [高塔], means: 塔楼}\n"
            "  - {say: [独角兽], means: 麒麟}\n"
            "  - {say: [crossing], means: tower unicorn}\n"
        },
        [
            "data/demo/synonyms.yaml:3: demo: synonym '麒麟' points at nothing: it is no title, alias or glossary "
            f"term of game 'demo'; the entries never use '麒麟' — {SYNONYM_FIX}",
            "data/demo/synonyms.yaml:4: demo: synonym 'tower unicorn' points at nothing: it is no title, alias or "
            f"glossary term of game 'demo'; the entries never use 'unicorn' — {SYNONYM_FIX}",
        ],
    ),
    (
        "synonym-of-every-game",
        {"data/synonyms.yaml": "synonyms:\n  - {say: [过塔楼], means: 穿过}\n  - {say: [what], means: the}\n"},
        [
            "data/synonyms.yaml:3: -: synonym 'the' points at nothing: it is no title, alias or glossary term "
            f"of any game — {SYNONYM_FIX}",
        ],
    ),
    (
        # The same word with the same meaning twice says nothing more; with another meaning it is a second reading.
        "synonym-said-twice",
        {
            "data/demo/synonyms.yaml": "synonyms:\n"
            "  - {say: [高塔, 尖塔], means: 塔楼}\n"
            "  - {say: [高塔], means: 穿过}\n"
            "  - {say: [瞭望塔, 尖塔], means: 塔楼}\n"
        },
        [
            "data/demo/synonyms.yaml:4: demo: synonym '尖塔' → '塔楼' is said again (first on line 2) — keep one of "
            "the two and remove the other",
        ],
    ),
    (
        "synonym-without-meaning",
        {"data/demo/synonyms.yaml": "synonyms:\n  - {say: [高塔]}\n"},
        [
            "data/demo/synonyms.yaml:2: demo: missing required field 'means' in synonyms.0 — add 'means:' (see CONTRIBUTING.md)",
        ],
    ),
    # -- files that cannot be read as data --------------------------------------------------------
    (
        "malformed-yaml",
        {f"{E}/extra.yaml": "id: extra\ntitle: {zh: 标题\ncode: DM-X1\n"},
        [
            f"{E}/extra.yaml:3: demo:extra: malformed YAML: expected ',' or '}}', but got ':' — fix the YAML syntax (indentation, quotes, colons)"
        ],
    ),
    (
        "yaml-alias",
        {
            f"{E}/extra.yaml": entry().replace(
                "title: {zh: 标题, en: Title}", "title: &t {zh: 标题, en: Title}\naliases: *t"
            )
        },
        [
            f"{E}/extra.yaml:4: demo:extra: YAML anchor '&t' is not allowed — remove the anchor and write each value out in full"
        ],
    ),
    (
        "yaml-alias-only",
        {f"{E}/extra.yaml": entry() + "aliases: *nothing\n"},
        [
            f"{E}/extra.yaml:11: demo:extra: YAML alias '*nothing' is not allowed — write the value out in full; data files are read by people"
        ],
    ),
    (
        "duplicate-key",
        {f"{E}/extra.yaml": entry() + "code: DM-X2\n"},
        [
            f"{E}/extra.yaml:11: demo:extra: duplicate key 'code' (first on line 2) — keep one of the two; YAML would silently drop the first"
        ],
    ),
    (
        "not-utf8",
        {f"{E}/extra.yaml": entry().replace("标题", "TITLE").encode("utf-8") + "title2: 标题\n".encode("gbk")},
        [f"{E}/extra.yaml:11: demo:extra: not valid UTF-8 (byte 0xb1 at offset 216) — save the file as UTF-8"],
    ),
    (
        "empty-file",
        {f"{E}/extra.yaml": ""},
        [f"{E}/extra.yaml:1: demo:extra: the file is empty — write the entry, or delete the file"],
    ),
    (
        "not-a-mapping",
        {f"{E}/extra.yaml": "- id: extra\n"},
        [
            f"{E}/extra.yaml:1: demo:extra: the file holds a list, not a mapping of fields — write the fields as 'name: value' lines"
        ],
    ),
    # every explicit tag, even the standard ones (libyaml's fast path must not let them through)
    (
        "yaml-tag-str",
        {f"{E}/extra.yaml": entry() + "aliases: [!!str x]\n"},
        [f"{E}/extra.yaml:11: demo:extra: unsupported YAML tag 'tag:yaml.org,2002:str' — {TAG_FIX}"],
    ),
    (
        "yaml-tag-map",
        {f"{E}/extra.yaml": entry() + "scope: !!map {edition: 1e}\n"},
        [f"{E}/extra.yaml:11: demo:extra: unsupported YAML tag 'tag:yaml.org,2002:map' — {TAG_FIX}"],
    ),
    (
        "yaml-tag-seq",
        {f"{E}/extra.yaml": entry().replace("see_also: [demo:tower]", "see_also: !!seq [demo:tower]")},
        [f"{E}/extra.yaml:10: demo:extra: unsupported YAML tag 'tag:yaml.org,2002:seq' — {TAG_FIX}"],
    ),
    (
        "yaml-tag-bare",
        {f"{E}/extra.yaml": "! " + entry()},
        [f"{E}/extra.yaml:1: demo:extra: unsupported YAML tag '!' — {TAG_FIX}"],
    ),
    # nesting deep enough to exhaust Python's recursion limit
    (
        "deep-brackets",
        {f"{E}/extra.yaml": entry() + "scope: " + "[" * 350 + "]" * 350 + "\n"},
        [
            f"{E}/extra.yaml:11: demo:extra: nesting deeper than 32 levels — flatten the structure; no field needs that depth"
        ],
    ),
]
LOAD_FAILURES = {c[0] for c in CASES}
CASES += [
    # -- the reviewed Traditional forms of the search -----------------------------------------------------
    (
        "traditional-forms",
        {
            "data/traditional.yaml": "terms:\n"
            "  - {zh: 塔楼, hant: 塔樓, note: what OpenCC writes anyway}\n"
            "  - {zh: 塔楼, hant: 高樓, note: a second form}\n"
            "  - {zh: 原路, hant: 原道, note: not the same text}\n"
            "  - {zh: 麒麟台, hant: 麒麟台, note: in no text}\n"
        },
        [
            "data/traditional.yaml:2: -: OpenCC already writes '塔楼' as '塔樓' — remove the row",
            "data/traditional.yaml:3: -: '塔楼' has two Traditional forms (also item 1) — keep one row for it",
            "data/traditional.yaml:4: -: '原道' folds to '原道', not to its simplified text '原路' — write a Traditional "
            "form of '原路', character for character",
            "data/traditional.yaml:5: -: '麒麟台' stands in no title, answer, question or alias a result shows — remove "
            "the row, or write the simplified text as the entries write it",
        ],
    ),
    (
        "traditional-form-unknown-field",
        {"data/traditional.yaml": "terms:\n  - {zh: 塔楼, hant: 塔樓}\n"},
        ["data/traditional.yaml:2: -: missing required field 'note' in terms.0 — add 'note:' (see CONTRIBUTING.md)"],
    ),
    (
        "measure-word-after-digits",  # 只 after digits converts to 只 ("only"), not the measure word 隻
        {f"{E}/extra.yaml": entry(**{"summary: {zh: 一句话。}": "summary: {zh: 例如 4 只鼠带回 100p。, en: 2 mice.}"})},
        [
            f"{E}/extra.yaml:5: demo:extra: field 'summary.zh' writes '4 只': in Traditional characters 只 after digits "
            "reads as 'only' (只), not as the measure word 隻 — write the number in characters (两只, 四只)"
        ],
    ),
]


CASES += [
    # -- schema -----------------------------------------------------------------------------------------
    (
        "wrong-type",
        {f"{E}/extra.yaml": entry().replace("see_also: [demo:tower]", "see_also: demo:tower")},
        [f"{E}/extra.yaml:10: demo:extra: field 'see_also' must be a list, not str — write 'see_also' as a list"],
    ),
    (
        "missing-required",
        {f"{E}/extra.yaml": entry().replace("confidence: confirmed\n", "")},
        [
            f"{E}/extra.yaml:1: demo:extra: missing required field 'confidence' — add 'confidence:' (see CONTRIBUTING.md)"
        ],
    ),
    (
        "unknown-field",
        {f"{E}/extra.yaml": entry() + "colour: red\n"},
        [
            f"{E}/extra.yaml:11: demo:extra: unknown field 'colour' — remove it or use one of: aliases, applies_to, authority, body, code, completion, confidence, confidence_note, errata, facts, history, id, kind, overrides, questions, scope, see_also, sources, status, summary, title, translations, translator_notes"
        ],
    ),
    (
        "bad-enum",
        {f"{E}/extra.yaml": entry().replace("kind: ruling", "kind: rulling")},
        [
            f"{E}/extra.yaml:3: demo:extra: field 'kind' has 'rulling', which is not allowed — use one of: ruling, rule, component, term, house-rule"
        ],
    ),
    (
        "uncertain-without-note",
        {f"{E}/extra.yaml": entry().replace("confidence: confirmed", "confidence: uncertain")},
        [
            f"{E}/extra.yaml:1: demo:extra: missing required field 'confidence_note' — add 'confidence_note:' (see CONTRIBUTING.md)"
        ],
    ),
    # patterns match whole strings: a trailing newline makes no id or code
    (
        "impostor-id",
        {f"{E}/extra.yaml": entry(id='"extra\\n"')},
        [
            f"{E}/extra.yaml:1: demo:extra: field 'id' value 'extra\\n' is not an id — use lowercase letters, digits and "
            "single hyphens, e.g. mystic-elevator"
        ],
    ),
    (
        "impostor-code",
        {f"{E}/extra.yaml": entry(code='"DM-X1\\n"')},
        [
            f"{E}/extra.yaml:2: demo:extra: field 'code' value 'DM-X1\\n' is not a code — write the game's prefix, a hyphen "
            "and capital letters or digits, e.g. BH-A13"
        ],
    ),
    # text that shows nothing
    (
        "blank-title",
        {f"{E}/extra.yaml": entry().replace("en: Title", 'en: "\\u200b"')},
        [f"{E}/extra.yaml:4: demo:extra: field 'title.en' has no visible text — {BLANK_FIX}"],
    ),
    (
        "blank-summary",
        {f"{E}/extra.yaml": entry().replace("一句话。", '"\\u200d"')},
        [f"{E}/extra.yaml:5: demo:extra: field 'summary.zh' has no visible text — {BLANK_FIX}"],
    ),
    (
        "blank-alias",
        {f"{E}/extra.yaml": entry() + 'aliases: [塔, "   ", "\\u3000\\u2003\\u2060"]\n'},
        [
            f"{E}/extra.yaml:11: demo:extra: field 'aliases.1' has no visible text — {BLANK_FIX}",
            f"{E}/extra.yaml:11: demo:extra: field 'aliases.2' has no visible text — {BLANK_FIX}",
        ],
    ),
    (
        "blank-source-ref",
        {f"{E}/extra.yaml": entry().replace('ref: "【1】"', 'ref: "\\u3164"')},
        [f"{E}/extra.yaml:9: demo:extra: field 'sources.0.ref' has no visible text — {BLANK_FIX}"],
    ),
    # -- questions ------------------------------------------------------------------------------------
    (
        "question-duplicate-id",
        {f"{E}/extra.yaml": with_questions("same", "same")},
        [
            f"{E}/extra.yaml:17: demo:extra: duplicate question id 'same' (first on line 13) — give each question of the entry an id of its own"
        ],
    ),
    (
        "question-id-is-a-section",
        {f"{E}/extra.yaml": with_questions("sources", "ok")},
        [
            f"{E}/extra.yaml:13: demo:extra: question id 'sources' is the anchor of a section of the page — choose another id "
            "(taken: applies-to, completion, details, errata, facts, history, questions, referenced-by, rulings, see-also, sources, translator-notes)"
        ],
    ),
    (
        "question-source-not-cited",
        {
            f"{E}/extra.yaml": with_questions("a", "b").replace(
                'source: {doc: seed.txt, ref: "【2】"}', 'source: {doc: seed.txt, ref: "【9】"}'
            )
        },
        [
            f"{E}/extra.yaml:20: demo:extra: question 'b' cites seed.txt 【9】, which the entry does not cite — cite one of the entry's sources (or add it to sources)"
        ],
    ),
    (
        "question-without-clause",
        {f"{E}/extra.yaml": with_questions("a", "b").replace(", clause: go-back", "")},
        [
            f"{E}/extra.yaml:16: demo:extra: question 'a' names no clause of 【1】 — name the clause it answers, one of: go-back, fail-stop"
        ],
    ),
    (
        "question-unknown-clause",
        {f"{E}/extra.yaml": with_questions("a", "b").replace("clause: go-back", "clause: go-home")},
        [
            f"{E}/extra.yaml:16: demo:extra: question 'a' names clause 'go-home' of 【1】 — name the clause it answers, one of: go-back, fail-stop"
        ],
    ),
    (
        "question-clause-undeclared",
        {
            f"{E}/extra.yaml": with_questions("a", "b").replace(
                'source: {doc: seed.txt, ref: "【2】"}', 'source: {doc: seed.txt, ref: "【2】", clause: x}'
            )
        },
        [
            f"{E}/extra.yaml:20: demo:extra: question 'b' names clause 'x', but game 'demo' declares no clauses for 【2】 — remove 'clause', or declare the clauses in the game's sources"
        ],
    ),
    (
        "question-blank-answer",
        {f"{E}/extra.yaml": with_questions("a", "b").replace("zh: 能。", 'zh: "\\u3000"')},
        [f"{E}/extra.yaml:15: demo:extra: field 'questions.0.a.zh' has no visible text — {BLANK_FIX}"],
    ),
    (
        "question-unresolved-ref",
        {f"{E}/extra.yaml": with_questions("a", "b").replace("zh: 能。", 'zh: "能，见 [[demo:nowhere]]。"')},
        [
            f"{E}/extra.yaml:15: demo:extra: reference [[demo:nowhere]] does not resolve — create rules_data/demo/entries/nowhere.yaml or fix the id"
        ],
    ),
    (
        "clause-unanswered",
        {
            "data/demo/game.yaml": GOOD.joinpath("demo/game.yaml")
            .read_text(encoding="utf-8")
            .replace("[go-back, fail-stop]", "[go-back, fail-stop, jump]")
        },
        [
            "data/demo/game.yaml:22: demo: clause 'jump' of 【1】 is not answered by any question — add a question with "
            'source: {doc: seed.txt, ref: "【1】", clause: jump} to the entry citing 【1】'
        ],
    ),
    # -- variants: each phrasing belongs to one question of its game -------------------------------------
    (
        "variant-under-two-questions",
        {
            f"{E}/extra.yaml": with_questions("a", "b")
            .replace('en: "Can I?"}\n', 'en: "Can I?"}\n    variants: [能回去吗]\n')
            .replace('en: "What happens?"}\n', 'en: "What happens?"}\n    variants: [能回去吗]\n')
        },
        [
            f"{E}/extra.yaml:20: demo:extra: variant '能回去吗' of question 'b' is also a variant of question 'a' of "
            "demo:extra (line 15) — keep it under the one question it asks, and word the other question's variant its own way"
        ],
    ),
    (
        "variant-is-another-question",
        {
            f"{E}/extra.yaml": with_questions("a", "b").replace(
                'en: "What happens?"}\n', 'en: "What happens?"}\n    variants: [can i]\n'
            )
        },
        [
            f"{E}/extra.yaml:19: demo:extra: variant 'can i' of question 'b' is the question 'a' of demo:extra "
            "— remove the variant: search finds that question by its own words"
        ],
    ),
    # -- exceptions a clause keeps (sources[].exceptions) ----------------------------------------------
    (
        "exception-missing-in-answer",
        {
            "data/demo/game.yaml": with_exceptions(
                "{id: unless-failed, clauses: [go-back], clause: fail-stop, zh: [失败], en: [fail]}"
            )
        },
        [
            f"{E}/tower-crossing.yaml:21: demo:tower-crossing: question 'go-back' does not state the exception 'unless-failed' of 【1】 in its zh answer — say it (失败)",
            f"{E}/tower-crossing.yaml:22: demo:tower-crossing: question 'go-back' does not state the exception 'unless-failed' of 【1】 in its en answer — say it (fail)",
        ],
    ),
    (
        "exception-missing-in-summary",
        {
            "data/demo/game.yaml": with_exceptions(
                '{id: way-back, clauses: [go-back], zh: [原路], en: [go back], entry: "demo:tower-crossing"}'
            )
        },
        [
            f"{E}/tower-crossing.yaml:6: demo:tower-crossing: summary.en states the rule without the exception 'way-back' of 【1】, which its question 'go-back' keeps — say it (go back) or link [[demo:tower-crossing]], which holds it, or say that it has exceptions (exception / unless / except) and leave them to the answers",
            f"{E}/tower-crossing.yaml:6: demo:tower-crossing: summary.zh states the rule without the exception 'way-back' of 【1】, which its question 'go-back' keeps — say it (原路) or link [[demo:tower-crossing]], which holds it, or say that it has exceptions (例外 / 除非 / 除了 / 另有) and leave them to the answers",
        ],
    ),
    (
        # A question answering from another document (the rulebook) that restates a clause of 【1】 keeps
        # that clause's exceptions, as a question citing 【1】 itself does.
        "exception-of-a-restated-clause",
        {
            "data/demo/game.yaml": with_exceptions(
                "{id: stay-there, clauses: [fail-stop], zh: [原地], en: [stop]}"
            ).replace("demo:tower-errata]", "demo:tower-errata, demo:extra]"),
            f"{E}/extra.yaml": restating('[{doc: seed.txt, ref: "【1】", clause: fail-stop}]')
            .replace("考验失败就停下。", "考验失败就停下来。")
            .replace("Fail and you stop.", "On a failure you wait."),
        },
        [
            f"{E}/extra.yaml:5: demo:extra: summary.en states the rule without the exception 'stay-there' of 【1】, which its question 'again' keeps — say it (stop), or say that it has exceptions (exception / unless / except) and leave them to the answers",
            f"{E}/extra.yaml:5: demo:extra: summary.zh states the rule without the exception 'stay-there' of 【1】, which its question 'again' keeps — say it (原地), or say that it has exceptions (例外 / 除非 / 除了 / 另有) and leave them to the answers",
            f"{E}/extra.yaml:15: demo:extra: question 'again' does not state the exception 'stay-there' of 【1】 in its en answer — say it (stop)",
            f"{E}/extra.yaml:15: demo:extra: question 'again' does not state the exception 'stay-there' of 【1】 in its zh answer — say it (原地)",
        ],
    ),
    (
        "restates-not-said",
        {f"{E}/extra.yaml": restating("")},
        [
            f"{E}/extra.yaml:16: demo:extra: question 'again' cites rulebook p.10, which declares no clauses, in an entry that also cites 【1】: it does not say which of their clauses its answer states — name them (restates: [{{doc: seed.txt, ref: \"【1】\", clause: ...}}]), or write restates: [] if it states none",
        ],
    ),
    (
        "restates-what-is-not-there",
        {
            f"{E}/extra.yaml": restating(
                '[{doc: seed.txt, ref: "【2】", clause: go-back}, {doc: rulebook, ref: p.10, clause: go-back}, '
                '{doc: seed.txt, ref: "【1】", clause: jump}]'
            )
        },
        [
            f"{E}/extra.yaml:17: demo:extra: question 'again' restates a clause of p.10, which declares no clauses — name a clause of a section that declares them, or remove the item",
            f"{E}/extra.yaml:17: demo:extra: question 'again' restates clause 'jump', which 【1】 does not declare — name one of: go-back, fail-stop",
            f"{E}/extra.yaml:17: demo:extra: question 'again' restates seed.txt 【2】, which the entry does not cite — cite it in the entry's sources (role: context) or remove the item",
        ],
    ),
    (
        "restates-beside-a-clause",
        {
            f"{E}/extra.yaml": restating("[]").replace(
                "source: {doc: rulebook, ref: p.10}\n    restates",
                'source: {doc: seed.txt, ref: "【1】", clause: go-back}\n    restates',
            )
        },
        [
            f"{E}/extra.yaml:17: demo:extra: question 'again' names clauses it restates, but its own source 【1】 declares clauses — remove 'restates' and name the clause it answers in 'source'",
        ],
    ),
    (
        "exception-unknown-clause",
        {"data/demo/game.yaml": with_exceptions("{id: x, clauses: [go-home], clause: jump, zh: [失败], en: [fail]}")},
        [
            "data/demo/game.yaml:25: demo: exception 'x' names clause 'go-home', which 【1】 does not declare — name a clause of 【1】 (one of: go-back, fail-stop)",
            "data/demo/game.yaml:25: demo: exception 'x' names clause 'jump', which 【1】 does not declare — name a clause of 【1】 (one of: go-back, fail-stop)",
        ],
    ),
    (
        "exception-unknown-entry",
        {
            "data/demo/game.yaml": with_exceptions(
                '{id: x, clauses: [fail-stop], zh: [停], en: [stop], entry: "demo:nowhere"}'
            )
        },
        [
            "data/demo/game.yaml:25: demo: exception 'x' names entry demo:nowhere, which is not an entry of demo — name the game:id of the entry that states the exception, or remove 'entry'"
        ],
    ),
    (
        "exception-keyword-unknown-to-its-entry",
        {
            "data/demo/game.yaml": with_exceptions(
                '{id: retry, clauses: [fail-stop], zh: [再试], en: [try again], entry: "demo:tower"}'
            )
        },
        [
            "data/demo/game.yaml:25: demo: exception 'retry' is held by demo:tower, which uses none of its en keywords (try again) — add the wording demo:tower uses to 'en', or state the exception in demo:tower",
            "data/demo/game.yaml:25: demo: exception 'retry' is held by demo:tower, which uses none of its zh keywords (再试) — add the wording demo:tower uses to 'zh', or state the exception in demo:tower",
        ],
    ),
    (
        "exception-unknown-section",
        {"data/demo/game.yaml": with_exceptions("{id: x, zh: [停], en: [stop]}", section="【3】")},
        [
            "data/demo/game.yaml:24: demo: exceptions given for '【3】', which is not a section of seed.txt — add it to 'sections' or fix the name"
        ],
    ),
    # -- the one-line answer fits two lines of the answer box on a phone (SUMMARY_COLUMNS) -------------
    (
        "summary-too-long",
        {
            f"{E}/extra.yaml": entry(
                **{
                    "summary: {zh: 一句话。}": "summary:\n  zh: 不能。过[[demo:tower]]要先通过力量考验，失败就停在原地，下回合再试；怪物不用考验。\n"
                    '  en: "**No.** Crossing the [[demo:tower]] takes a Might roll first; on a failure you stop and try again."'
                }
            )
        },
        [
            f"{E}/extra.yaml:6: demo:extra: summary.zh is 72 columns wide as shown, over the 70 that two lines of the "
            "answer box hold on a 375 px phone — keep the direct answer a player needs first (about 35 Chinese "
            "characters) and move the rest into body.zh",
            f"{E}/extra.yaml:7: demo:extra: summary.en is 85 columns wide as shown, over the 76 that two lines of the "
            "answer box hold on a 375 px phone — keep the direct answer a player needs first (about 76 characters) "
            "and move the rest into body.en",
        ],
    ),
    # -- the two languages name the same entries ------------------------------------------------------
    (
        "references-differ",
        {
            f"{E}/extra.yaml": entry(
                **{"summary: {zh: 一句话。}": "summary:\n  zh: 见[[demo:tower]]。\n  en: See the tower."}
            )
        },
        [
            f"{E}/extra.yaml:7: demo:extra: summary.en does not name [[demo:tower]], which summary.zh names — name "
            "the same entries in both languages (add the reference to en, or take it out of zh)",
        ],
    ),
    # -- the two languages say the same certainty (CERTAINTY) -----------------------------------------
    (
        "certainty-differs",
        {
            f"{E}/extra.yaml": entry(
                **{
                    "summary: {zh: 一句话。}": "summary: {zh: 补全的结尾很可能就是这个意思。, "
                    "en: The completed ending almost certainly meant this.}\n"
                    "body: {zh: 推测是扩展内容。, en: It is probably from an expansion.}"
                }
            )
        },
        [
            f"{E}/extra.yaml:5: demo:extra: summary.en says 'almost certainly' (almost certain) and summary.zh does "
            "not, it says '很可能' (probable) — say it with the same certainty in both languages (almost certain: "
            "几乎可以肯定 / almost certainly)",
            f"{E}/extra.yaml:5: demo:extra: summary.zh says '很可能' (probable) and summary.en does not, it says "
            "'almost certainly' (almost certain) — say it with the same certainty in both languages (probable: "
            "很可能 / probably)",
            f"{E}/extra.yaml:6: demo:extra: body.en says 'probably' (probable) and body.zh does not, it says '推测' "
            "(presumed) — say it with the same certainty in both languages (probable: 很可能 / probably)",
            f"{E}/extra.yaml:6: demo:extra: body.zh says '推测' (presumed) and body.en does not, it says 'probably' "
            "(probable) — say it with the same certainty in both languages (presumed: 推测 / presumed)",
        ],
    ),
    # -- production words in shown text (production_words in game.yaml; file-name source ids) ----------
    (
        "production-word",
        {
            "data/demo/game.yaml": GOOD.joinpath("demo/game.yaml")
            .read_text(encoding="utf-8")
            .replace("demo:tower-errata]", "demo:tower-errata, demo:extra]")
            + "production_words: [种子, seed]\n",
            f"{E}/extra.yaml": entry(**{"一句话。": "种子译文没有这一页。", "en: Title": "en: Title in the Seed"})
            + "history:\n  - {date: 2026-11-30, change: created from seed.txt}\n",
        },
        [
            f"{E}/extra.yaml:4: demo:extra: field 'title.en' uses the production word 'Seed' — say it in the reader's words (本中文译本 / this translation; the document's title) — the list is production_words in rules_data/demo/game.yaml",
            f"{E}/extra.yaml:5: demo:extra: field 'summary.zh' uses the production word '种子' — say it in the reader's words (本中文译本 / this translation; the document's title) — the list is production_words in rules_data/demo/game.yaml",
            f"{E}/extra.yaml:12: demo:extra: field 'history.0.change' uses the production word 'seed.txt' — say it in the reader's words (本中文译本 / this translation; the document's title) — the list is production_words in rules_data/demo/game.yaml",
        ],
    ),
    # -- identity ---------------------------------------------------------------------------------------
    (
        "id-not-file-name",
        {f"{E}/extra.yaml": entry(id="other")},
        [
            f"{E}/extra.yaml:1: demo:extra: id 'other' differs from the file name 'extra.yaml' — set 'id: extra' or rename the file to other.yaml"
        ],
    ),
    (
        "duplicate-id",
        {f"{E}/tower-copy.yaml": entry(id="tower")},
        [
            f"{E}/tower-copy.yaml:1: demo:tower-copy: duplicate id 'tower' (also in {E}/tower.yaml) — give each entry an id of its own",
            f"{E}/tower-copy.yaml:1: demo:tower-copy: id 'tower' differs from the file name 'tower-copy.yaml' — set 'id: tower-copy' or rename the file to tower.yaml",
        ],
    ),
    (
        "duplicate-code",
        {f"{E}/extra.yaml": entry(code="DM-R01")},
        [
            f"{E}/tower.yaml:2: demo:tower: duplicate code 'DM-R01' (also demo:extra) — give this entry a code of its own; codes are printed and cited"
        ],
    ),
    (
        "reserved-id",
        {f"{E}/errata.yaml": entry(id="errata")},
        [
            f"{E}/errata.yaml:1: demo:errata: id 'errata' is reserved for a page of the game — choose another id (reserved: api, errata, glossary, index, notes, print, tags)"
        ],
    ),
    # -- references -------------------------------------------------------------------------------------
    (
        "unresolved-field-ref",
        {f"{E}/extra.yaml": entry().replace("[demo:tower]", "[demo:towr]")},
        [
            f"{E}/extra.yaml:10: demo:extra: reference 'demo:towr' does not resolve — create rules_data/demo/entries/towr.yaml or fix the id"
        ],
    ),
    (
        "unresolved-text-ref",
        {f"{E}/extra.yaml": entry() + "body:\n  zh: |\n    第一行\n    见 [[demo:nowhere]]。\n"},
        [
            f"{E}/extra.yaml:14: demo:extra: reference [[demo:nowhere]] does not resolve — create rules_data/demo/entries/nowhere.yaml or fix the id"
        ],
    ),
    (
        "malformed-text-ref",
        {f"{E}/extra.yaml": entry() + "body: {zh: '见 [[塔楼]]。'}\n"},
        [
            f"{E}/extra.yaml:11: demo:extra: reference [[塔楼]] is not of the form game:id — write it as game:id, e.g. [[betrayal:vault]]"
        ],
    ),
    (
        "self-reference",
        {f"{E}/extra.yaml": entry().replace("[demo:tower]", "[demo:tower, demo:extra]")},
        [f"{E}/extra.yaml:10: demo:extra: the entry refers to itself ('demo:extra') — remove the self-reference"],
    ),
    (
        "unknown-game-ref",
        {f"{E}/extra.yaml": entry().replace("[demo:tower]", "[chess:castling]")},
        [f"{E}/extra.yaml:10: demo:extra: reference 'chess:castling' names unknown game 'chess' — use one of: demo"],
    ),
    # -- games and sources ---------------------------------------------------------------------------
    (
        "unknown-game",
        {"data/chess/entries/castling.yaml": entry(id="castling")},
        [
            "data/chess/entries/castling.yaml:1: chess:castling: unknown game 'chess': data/chess/game.yaml is missing — add the game's game.yaml, or move the entry into a declared game's folder"
        ],
    ),
    (
        "undeclared-source",
        {f"{E}/extra.yaml": entry().replace("doc: seed.txt", "doc: forum-post.txt")},
        [
            f"{E}/extra.yaml:9: demo:extra: source document 'forum-post.txt' is not declared by game 'demo' — add it to the sources of rules_data/demo/game.yaml or use one of: rulebook, seed.txt"
        ],
    ),
    (
        "undeclared-scope",
        {f"{E}/extra.yaml": entry() + "scope: {edition: 3e}\n"},
        [f"{E}/extra.yaml:11: demo:extra: edition '3e' is not declared by game 'demo' — use one of: 1e"],
    ),
    (
        "orphan",
        {f"{E}/extra.yaml": entry()},
        [
            f"{E}/extra.yaml:1: demo:extra: orphan entry: no game contents section lists it and no entry refers to it — add 'demo:extra' to a contents section of rules_data/demo/game.yaml or refer to it from a related entry"
        ],
    ),
    (
        "stray-file",
        {f"{E}/notes.txt": "hello"},
        [f"{E}/notes.txt:1: -: only <id>.yaml files belong in entries/ — rename it to <id>.yaml or move it out"],
    ),
    (
        "folder-named-like-an-entry",
        {f"{E}/x.yaml/notes.txt": "hello"},
        [
            f"{E}/x.yaml:1: -: folder 'x.yaml' in entries/, where only <id>.yaml files belong — "
            "move it out; an entry is one <id>.yaml file"
        ],
    ),
]


#: Cases whose entry fails the schema or identity checks and is therefore not loaded.
NOT_KEPT = {
    "wrong-type",
    "missing-required",
    "unknown-field",
    "bad-enum",
    "uncertain-without-note",
    "impostor-id",
    "impostor-code",
    "id-not-file-name",
    "duplicate-id",
}


def make_data(tmp_path: Path, files: dict[str, str | bytes], list_extra: bool = True) -> Path:
    """The good fixture plus ``files``; added entries are listed in the game's contents."""
    shutil.copytree(GOOD, tmp_path / "data")
    if list_extra:
        added = [f"demo:{Path(rel).stem}" for rel in files if rel.startswith(E) and rel.endswith(".yaml")]
        game = tmp_path / "data/demo/game.yaml"
        text = game.read_text(encoding="utf-8")
        game.write_text(
            text.replace("demo:tower-errata]", ", ".join(["demo:tower-errata", *added]) + "]"), encoding="utf-8"
        )
    for rel, content in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return tmp_path


def problems(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith("data/")]


def test_good_fixture_is_clean():
    result = run_process("check", "--data", str(GOOD))  # end to end: the installed command
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "ok: 3 entries, 3 references, 1 game"


@pytest.mark.parametrize("name, files, expected", CASES, ids=[c[0] for c in CASES])
def test_broken_fixture_reports_exact_messages(tmp_path, name, files, expected):
    make_data(tmp_path, files, list_extra=name not in LOAD_FAILURES | NOT_KEPT | {"orphan"})
    result = run_cli("check", "--data", "data", cwd=tmp_path)
    assert result.returncode == 1
    assert problems(result.stderr) == expected
    assert "Traceback" not in result.stderr
    count = "1 problem" if len(expected) == 1 else f"{len(expected)} problems"
    assert result.stdout.strip().endswith(count)


def _console(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """``houserules ARGS`` as the console script named in pyproject.toml runs it, in a process of its own."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    module, function = project["project"]["scripts"]["houserules"].split(":")
    return subprocess.run(
        [sys.executable, "-c", f"from {module} import {function}; {function}()", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )


@pytest.mark.parametrize("broken", [False, True], ids=["clean", "broken"])
def test_the_console_script_ends_a_check_with_its_whole_output_and_exact_status(tmp_path, broken):
    # A check ends its process without tearing the knowledge base down: what it printed must
    # all be there (flushed to a pipe first), with the status main() returned.
    make_data(tmp_path, {f"{E}/extra.yaml": entry() + "colour: red\n"} if broken else {})
    console = _console("check", "--data", "data", cwd=tmp_path)
    inside = run_cli("check", "--data", "data", cwd=tmp_path)
    assert (console.returncode, console.stdout, console.stderr) == (inside.returncode, inside.stdout, inside.stderr)
    assert console.returncode == (1 if broken else 0)
    assert ("unknown field 'colour'" in console.stderr) == broken
    summary = "3 entries, 3 references, 1 game"  # the broken entry is not loaded: its listing is a problem too
    assert console.stdout.strip().splitlines()[-1] == (f"{summary}: 2 problems" if broken else f"ok: {summary}")


def test_the_console_script_exits_as_usual_after_other_commands(tmp_path):
    make_data(tmp_path, {})
    result = _console("export", "--data", "data", "--what", "entries", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert '"demo:' in result.stdout


def test_all_broken_files_are_reported_in_one_run(tmp_path):
    """One bad file never hides the next: every case's file is reported in a single run."""
    files: dict[str, str | bytes] = {}
    expected_files: set[str] = set()
    for name, case_files, case_expected in CASES:
        if name in {"orphan", "unknown-game", "stray-file", "reserved-id", "duplicate-id"}:
            continue
        if name.startswith("exception-missing"):  # one game.yaml: the last case's declaration wins
            continue
        for rel, content in case_files.items():
            if isinstance(content, str):
                content = content.replace("id: extra", f"id: {name}").replace("DM-X1", f"DM-C{len(files)}")
            files[rel.replace("/extra.yaml", f"/{name}.yaml")] = content
        expected_files |= {m.split(":", 1)[0].replace("/extra.yaml", f"/{name}.yaml") for m in case_expected}
    make_data(tmp_path, files, list_extra=False)
    result = run_cli("check", "--data", "data", cwd=tmp_path)
    assert result.returncode == 1
    reported = problems(result.stderr)
    assert expected_files <= {line.split(":", 1)[0] for line in reported}
    assert reported == sorted(reported, key=lambda line: (line.split(":")[0], int(line.split(":")[1])))


def test_missing_data_folder_is_a_clear_message(tmp_path):
    result = run_cli("check", "--data", "nowhere", cwd=tmp_path)
    assert result.returncode == 1
    assert "nowhere:1: -: data folder not found — pass --data DIR pointing at the rules_data folder" in result.stderr


# -- text that shows nothing, in the other files ------------------------------------------------------

BLANK_FILES = [
    (
        "game",
        "data/demo/game.yaml",
        lambda text: text.replace("{zh: 测试用的小游戏。,", '{zh: "\\u2800\\ufe0f",'),
        "data/demo/game.yaml:6: demo: field 'description.zh' has no visible text — write the text or remove the field",
    ),
    (
        "glossary",
        "data/demo/glossary.yaml",
        lambda _: 'terms:\n  - {id: tower, en: Tower, zh: 塔楼, variants: ["\\u200b\\u200c"]}\n',
        "data/demo/glossary.yaml:2: demo: field 'terms.0.variants.0' has no visible text — write the text or remove the field",
    ),
]


@pytest.mark.parametrize("name, rel, change, expected", BLANK_FILES, ids=[c[0] for c in BLANK_FILES])
def test_text_with_nothing_visible_is_reported_in_games_and_glossaries(tmp_path, name, rel, change, expected):
    make_data(tmp_path, {}, list_extra=False)
    path = tmp_path / rel
    path.write_text(change(path.read_text(encoding="utf-8") if path.exists() else ""), encoding="utf-8")
    result = run_cli("check", "--data", "data", cwd=tmp_path)
    assert result.returncode == 1
    assert problems(result.stderr) == [expected]


# -- the one-line answer's measure, and a short answer that says it has exceptions --------------------


def _summary_check(tmp_path: Path, zh: str, en: str) -> list[str]:
    make_data(
        tmp_path, {f"{E}/extra.yaml": entry(**{"summary: {zh: 一句话。}": f"summary: {{zh: '{zh}', en: '{en}'}}"})}
    )
    return problems(run_cli("check", "--data", "data", cwd=tmp_path).stderr)


@pytest.mark.parametrize("extra, over", [(0, []), (1, ["en", "zh"])], ids=["at-the-limit", "one-over"])
def test_a_summary_may_fill_two_lines_and_no_more(tmp_path, extra, over):
    """The limit counts the text as shown: a reference as its target's title (塔楼, Tower), Markdown marks not at all."""
    zh = "[[demo:tower]]" + "能" * (35 - 2 + extra)  # 35 Chinese characters: 70 columns
    en = "**Yes**, cross the [[demo:tower]]" + "." * (76 - len("Yes, cross the Tower") + extra)
    found = _summary_check(tmp_path, zh, en)
    assert [line.split("summary.")[1][:2] for line in found] == over


def test_a_short_answer_that_says_it_has_exceptions_leaves_them_to_the_answers(tmp_path):
    """Under an exception of 【1】 the summary may say "unless…" instead of the exception; the answer must still state it."""
    game = with_exceptions("{id: way-back, clauses: [go-back], zh: [原路], en: [go back]}")
    crossing = GOOD.joinpath("demo/entries/tower-crossing.yaml").read_text(encoding="utf-8")
    qualified = crossing.replace("考验失败就停在原地，下回合再试。", "考验失败就停在原地（有例外，见下）。").replace(
        "Fail the roll and you stop; try again next turn.", "Fail the roll and you stop unless you turn back."
    )
    make_data(tmp_path, {"data/demo/game.yaml": game, f"{E}/tower-crossing.yaml": qualified}, list_extra=False)
    assert problems(run_cli("check", "--data", "data", cwd=tmp_path).stderr) == []
    unanswered = qualified.replace("可以原路返回。\n      en", "可以回去。\n      en")
    (tmp_path / E / "tower-crossing.yaml").write_text(unanswered, encoding="utf-8")
    assert problems(run_cli("check", "--data", "data", cwd=tmp_path).stderr) == [
        f"{E}/tower-crossing.yaml:21: demo:tower-crossing: question 'go-back' does not state the exception 'way-back' "
        "of 【1】 in its zh answer — say it (原路)"
    ]


def test_the_checks_measure_as_the_terminal_does():
    """The checker's display width is the terminal's (render.linebreak.width) on every text of the real data."""
    from conftest import real_check
    from houserules.check.shortanswer import columns
    from houserules.render.linebreak import width

    texts = [text for e in real_check().kb.entries.values() for _, text in e.texts]
    assert len(texts) > 1000
    assert [columns(t) for t in texts] == [width(t) for t in texts]


def test_a_not_covered_topic_an_entry_names_or_the_search_cannot_match_is_a_warning(tmp_path):
    """A topic listed as not covered that an entry is named (a question about it is told nothing answers, wrongly),
    and a name of one Chinese character (the search matches nothing by it): warnings on the topic's line."""
    game = GOOD.joinpath("demo/game.yaml").read_text(encoding="utf-8")
    topics = "aliases: [lake room]}\n  - {name: {zh: 塔楼, en: Tower}}\n  - {name: {zh: 湖, en: Lake}}"
    make_data(tmp_path, {"data/demo/game.yaml": game.replace("aliases: [lake room]}", topics)})
    result = run_cli("check", "--data", "data", cwd=tmp_path)
    covered = (
        "is listed as not covered, but an entry, a glossary term or a synonym of the game is named so — remove the "
        "name from not_covered: what it names answers questions about it"
    )
    assert sorted(problems(result.stdout)) == [
        f"data/demo/game.yaml:32: demo: warning: 'Tower' {covered}",
        f"data/demo/game.yaml:32: demo: warning: '塔楼' {covered}",
        "data/demo/game.yaml:33: demo: warning: '湖' names nothing the search can match (a name of one Chinese "
        "character) — write the topic's whole name",
    ]
    assert problems(run_cli("check", "--data", str(GOOD), cwd=tmp_path).stdout) == []
