"""Printouts that agree with the group: ``--changes-since`` takes the version printed on any PDF and lists only
that PDF's games, and an insert says only what its layout prints.

The repository holds the two-games fixture through three commits: both games (v1); a changed answer of the
other game (v2); a changed one-line answer of the demo game (v3). So the demo game's PDF printed one version
through v1 and v2 and the other game's PDF one through v2 and v3.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import DATA, FIXTURES, ROOT, load_kb, run_cli
from houserules.errors import HouserulesError
from houserules.print.faq import since_options

TWO = FIXTURES / "two-games"


def commit(repo: Path, message: str, when: str) -> None:
    """Commit everything as a fixed author at ``when`` (author and committer time)."""
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.org",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.org",
        "GIT_COMMITTER_DATE": when,
        "GIT_AUTHOR_DATE": when,
    }
    for args in (["add", "-A"], ["commit", "-q", "-m", message]):
        subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


def rev(repo: Path, name: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), "rev-parse", name], check=True, capture_output=True, text=True
    ).stdout.strip()


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def add_history(path: Path, date: str, change: str) -> None:
    text = path.read_text(encoding="utf-8")
    if "history:\n" in text:
        path.write_text(text.replace("history:\n", f"history:\n  - {{date: {date}, change: {change}}}\n"), "utf-8")
    else:
        path.write_text(text + f"history:\n  - {{date: {date}, change: {change}}}\n", encoding="utf-8")


def make_two_games_repo(root: Path) -> tuple[Path, dict[str, str]]:
    """The repository and each version's hashes: ``v1`` (the folder's), ``demo1`` (the demo game's folder)..."""
    repo = root / "repo"
    data = repo / "rules_data"
    shutil.copytree(TWO, data)
    add_history(data / "demo/entries/tower-crossing.yaml", "2026-11-30", "created")
    add_history(data / "other/entries/floor-ruling.yaml", "2026-11-29", "created")
    subprocess.run(["git", "-C", str(repo), "init", "-q", "-b", "main"], check=True)
    commit(repo, "v1: two games", "2026-12-01T09:05:00+00:00")
    floor = data / "other/entries/floor-ruling.yaml"
    edit(floor, "a: {zh: 不能。, en: No.}", 'a: {zh: 不能，每回合一层。, en: "No, one floor per turn."}')
    add_history(floor, "2026-12-01", "a clearer answer")
    commit(repo, "v2: the other game's answer", "2026-12-01T10:40:00+00:00")
    crossing = data / "demo/entries/tower-crossing.yaml"
    edit(crossing, "下回合再试。, en: Fail", "下回合重掷。, en: Fail")
    add_history(crossing, "2026-12-01", "a clearer summary")
    commit(repo, "v3: the demo game's summary", "2026-12-01T19:20:00+08:00")
    names = {}
    for n, back in ((1, 2), (2, 1), (3, 0)):
        names[f"v{n}"] = rev(repo, f"HEAD~{back}:rules_data")[:8]
        for game in ("demo", "other"):
            names[f"{game}{n}"] = rev(repo, f"HEAD~{back}:rules_data/{game}")[:8]
    return data, names


@pytest.fixture(scope="module")
def two_games(tmp_path_factory):
    data, names = make_two_games_repo(tmp_path_factory.mktemp("two-games-history"))
    return data, load_kb(data), names


def test_the_fixture_has_a_version_per_game_pdf(two_games):
    _, _, n = two_games
    assert n["demo1"] == n["demo2"] != n["demo3"] and n["other1"] != n["other2"] == n["other3"]
    assert len({n["v1"], n["v2"], n["v3"]}) == 3


@pytest.mark.parametrize(
    "printed, game, version, changed",
    [
        # a game's own PDF: what changed in that game only, whatever changed in the other since
        ("{demo1}", "demo", "2026-11-30 · {demo1}", ["demo:tower-crossing"]),
        ("2026-11-30 · {demo2}", "demo", "2026-11-30 · {demo1}", ["demo:tower-crossing"]),
        ("{other1}", "other", "2026-11-29 · {other1}", ["other:floor-ruling"]),
        # faq.pdf prints the whole folder's version: every game
        ("{v1}", None, "2026-11-30 · {v1}", ["demo:tower-crossing", "other:floor-ruling"]),
        ("{v2}", None, "2026-12-01 · {v2}", ["demo:tower-crossing"]),
    ],
)
def test_changes_since_the_version_on_any_pdf_lists_that_pdfs_games(two_games, printed, game, version, changed):
    _, kb, n = two_games
    since = since_options(kb, printed.format(**n), None)
    assert (since.game, since.version, sorted(since.changes)) == (game, version.format(**n), changed)


@pytest.mark.parametrize(
    "printed, game, message",
    [
        # the other game's PDF printed v2 is still its current version: the demo game's change is not its
        (
            "{other2}",
            None,
            "nothing changed in the game 'other' since 2026-12-01 · {other3}: it is the current version of that "
            "game's own PDF",
        ),
        ("{v3}", None, "nothing changed since 2026-12-01 · {v3}: it is the current data version"),
        (
            "{other1}",
            "demo",
            "2026-11-29 · {other1} is the version of other.pdf, not of demo.pdf — drop --game, or give the version "
            "printed on demo.pdf",
        ),
        (
            "feedbeef",
            None,
            "unknown data version 'feedbeef' — no PDF of this data printed it. The version on a PDF's cover is one "
            "of: faq.pdf: 2026-12-01 · {v3}, 2026-12-01 · {v2}, 2026-11-30 · {v1}; demo.pdf: 2026-12-01 · {demo3}, "
            "2026-11-30 · {demo1}; other.pdf: 2026-12-01 · {other2}, 2026-11-29 · {other1} (the site's 更新记录 "
            "page lists them all)",
        ),
    ],
)
def test_a_version_no_pdf_printed_or_the_current_one_is_a_clear_message(two_games, tmp_path, printed, game, message):
    data, _, n = two_games
    out = tmp_path / "x.pdf"
    args = ["pdf", "--data", str(data), "--changes-since", printed.format(**n), "-o", str(out)]
    result = run_cli(*args, *(["--game", game] if game else []))
    assert (result.returncode, result.stderr) == (1, f"houserules pdf: {message.format(**n)}\n")
    assert not out.exists()


def pdftotext(path: Path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout


@pytest.mark.slow
def test_an_insert_since_a_games_printed_version_prints_that_game_only(two_games, tmp_path):
    data, _, n = two_games
    out = tmp_path / "insert.pdf"
    result = run_cli("pdf", "--data", str(data), "--changes-since", n["other1"], "-o", str(out))
    assert result.returncode == 0, result.stderr
    text = pdftotext(out)
    assert f"Changes since 2026-11-29 · {n['other1']}" in " ".join(text.split("\f")[0].split())
    assert re.findall(r"\b(?:DM|OT)-[A-Z]+\d+\b", "\f".join(text.split("\f")[1:])) and "DM-" not in text
    assert "OT-A1 · 一回合能建两层吗" in text


# -- an insert says only what its layout prints -------------------------------------------------------------------
GOOD = FIXTURES / "good"
CROSSING = "demo/entries/tower-crossing.yaml"

#: Changes of an entry's file, each one field or one key of a question: (name, old text, new text).
EDITS = [
    ("title", "{zh: 穿过塔楼, en: Crossing the Tower}", "{zh: 穿越塔楼, en: Crossing the Tower}"),
    ("aliases", "aliases: [过塔]", "aliases: [过塔, 穿塔]"),
    ("summary", "下回合再试。, en: Fail", "下回合重掷。, en: Fail"),
    ("body", "后可以原路返回。\n", "后可以沿原路返回。\n"),
    ("applies_to", "applies_to: [demo:tower]", "applies_to: [demo:tower]\nsee_also: [demo:tower-errata]"),
    ("scope", "scope: {edition: 1e, expansion: base}\n", ""),
    ("kind", "kind: ruling", "kind: rule"),
    (
        "confidence",
        "confidence: confirmed",
        "confidence: uncertain\nconfidence_note: {zh: 未证实。, en: Not confirmed.}",
    ),
    (
        "sources",
        '  - {doc: seed.txt, ref: "【1】"}\nquestions',
        '  - {doc: seed.txt, ref: "【1】", note: {zh: 第一条}}\nquestions',
    ),
    ("history", "  - {date: 2026-11-30, change: created}", "  - {date: 2026-11-30, change: created from the rules}"),
    ("translations", "history:", 'translations:\n  en: {from: zh, source_hash: "000000000000"}\nhistory:'),
    ("question variants", "variants: [塔楼能退回去吗]", "variants: [塔楼能退回去吗, 能退回去吗]"),
    ("question source", 'ref: "【1】", clause: go-back}', 'ref: "【1】", clause: fail-stop}'),
    ("question text", "q: {zh: 过塔考验失败会怎样？", "q: {zh: 过塔的考验失败了会怎样？"),
    ("question answer", "a: {zh: 停在原地，下回合再试。", "a: {zh: 停在原地，下回合重掷。"),
    (
        "question added",
        "history:",
        '  - id: stay\n    q: {zh: 可以留在塔楼吗？, en: "Can I stay?"}\n    a: {zh: 可以。, en: Yes.}\n'
        '    source: {doc: seed.txt, ref: "【1】", clause: go-back}\nhistory:',
    ),
    ("question order", "  - id: go-back\n", "  - id: go-back-2\n"),
]


def _changed(tmp_path: Path, old: str, new: str):
    """The fixture with one edit of the crossing entry: its knowledge base and the entry's data before and after."""
    from houserules.data.versions.entrychanges import read_blob

    data = tmp_path / "data"
    shutil.copytree(GOOD, data)
    path = data / CROSSING
    before = path.read_bytes()
    edit(path, old, new)
    return load_kb(data), read_blob(before), read_blob(path.read_bytes())


def _article(kb, layout: str) -> str:
    from houserules.print.document import PrintDocument, PrintLinker
    from houserules.print.plan import PrintOptions

    linker = PrintLinker(kb, set(kb.entries), None, {})
    return PrintDocument(kb, linker, PrintOptions(layout=layout)).entry_html(kb.entries["demo:tower-crossing"])


@pytest.mark.parametrize("layout", ["qa", "full"])
@pytest.mark.parametrize("name, old, new", EDITS, ids=[e[0] for e in EDITS])
def test_an_insert_names_a_change_exactly_when_its_layout_prints_it(tmp_path, monkeypatch, layout, name, old, new):
    """Whatever field changed, the insert lists the entry (and names what changed) if and only if the entry's
    printed text in that layout changed."""
    from houserules.data.versions.entrychanges import entry_change
    from houserules.print.plan import printed_names

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764460800")
    before = _article(load_kb(GOOD), layout)
    kb, old_data, new_data = _changed(tmp_path, old, new)
    names = printed_names(entry_change("demo:tower-crossing", "changed", old_data, new_data), layout)
    assert bool(names) == (_article(kb, layout) != before), (name, names)


@pytest.mark.parametrize(
    "old, new, layout, said",
    [
        ("下回合再试。, en: Fail", "下回合重掷。, en: Fail", "qa", ["一句话答案 · one-line answer"]),
        (
            "a: {zh: 停在原地，下回合再试。",
            "a: {zh: 停在原地，下回合重掷。",
            "qa",
            ["答案更改 DM-A1/failed-roll · answer changed DM-A1/failed-roll"],
        ),
        (
            "q: {zh: 过塔考验失败会怎样？",
            "q: {zh: 过塔的考验失败了会怎样？",
            "full",
            ["问题措辞 DM-A1/failed-roll · question reworded DM-A1/failed-roll"],
        ),
        (
            "  - id: go-back\n",
            "  - id: back\n",
            "qa",
            [
                "新增问题 DM-A1/back · question added DM-A1/back",
                "删除问题 DM-A1/go-back · question removed DM-A1/go-back",
            ],
        ),
        ("后可以原路返回。\n", "后可以沿原路返回。\n", "full", ["说明 · details"]),
        ("后可以原路返回。\n", "后可以沿原路返回。\n", "qa", []),
        ("variants: [塔楼能退回去吗]", "variants: [塔楼能退回去吗, 能退回去吗]", "full", []),
    ],
)
def test_an_insert_names_what_changed_as_its_layout_shows_it(tmp_path, old, new, layout, said):
    from houserules.data.versions.entrychanges import entry_change
    from houserules.print.plan import printed_names

    _, old_data, new_data = _changed(tmp_path, old, new)
    names = printed_names(entry_change("demo:tower-crossing", "changed", old_data, new_data), layout)
    assert [f"{n['zh']} · {n['en']}" for n in names] == said


def test_every_layout_says_which_fields_it_prints():
    from houserules.print.document import PRINT_BLOCKS
    from houserules.print.plan import PRINTED_PARTS

    assert set(PRINTED_PARTS) == set(PRINT_BLOCKS)


# -- a house rule says what it overrides, and the overridden rulings say so ------------------------------------
PROFILE = FIXTURES / "profile"
SHORTCUT = "entries/demo/tower-shortcut.yaml"


def _profile_with(tmp_path: Path, overrides: str) -> Path:
    folder = tmp_path / "profile"
    shutil.copytree(PROFILE, folder)
    edit(
        folder / SHORTCUT,
        "overrides: [demo:tower-crossing, demo:tower-crossing/failed-roll]",
        f"overrides: {overrides}",
    )
    return folder / "group.yaml"


@pytest.mark.parametrize(
    "overrides, problems",
    [
        (
            "[demo:tower-crossing/no-such-question]",
            [
                "overrides the question 'no-such-question' of demo:tower-crossing, which has no such question — "
                "use one of its question ids (go-back, failed-roll), or 'demo:tower-crossing' for its one-line answer"
            ],
        ),
        (
            "[demo:nothing/x]",
            ["reference 'demo:nothing' does not resolve — create rules_data/demo/entries/nothing.yaml or fix the id"],
        ),
        ("[demo:tower-shortcut]", ["refers to itself"]),
        (
            "[demo:Tower]",
            [
                "field 'overrides.0' value 'demo:Tower' is not an entry or question game:id or game:id/question-id — "
                "write game:id (its one-line answer) or game:id/question-id"
            ],
        ),
    ],
)
def test_what_a_house_rule_overrides_is_checked(tmp_path, overrides, problems):
    result = run_cli(
        "pdf", "--data", str(GOOD), "--profile", str(_profile_with(tmp_path, overrides)), "-o", str(tmp_path / "x.pdf")
    )
    assert result.returncode == 1 and not (tmp_path / "x.pdf").exists()
    lines = result.stderr.splitlines()
    assert all(line.startswith(f"{tmp_path}/profile/{SHORTCUT}:") for line in lines[:-1]), lines
    for problem in problems:
        assert any(problem in line for line in lines[:-1]), (problem, lines)


def test_a_house_rule_of_one_game_does_not_override_another_games_ruling(tmp_path):
    from houserules.check import run as run_check
    from houserules.check.profile import load_profile

    folder = tmp_path / "profile"
    shutil.copytree(PROFILE, folder)
    edit(folder / "group.yaml", "games: [demo]", "games: [demo, other]")
    edit(
        folder / SHORTCUT,
        "overrides: [demo:tower-crossing, demo:tower-crossing/failed-roll]",
        "overrides: [other:floor-ruling]",
    )
    with pytest.raises(HouserulesError) as caught:
        load_profile(folder / "group.yaml", run_check(TWO).kb)
    assert [(p.line, p.problem, p.fix) for p in caught.value.problems] == [
        (
            10,
            "overrides 'other:floor-ruling', an entry of another game (other)",
            "name an entry of demo, or keep the house rule in other/ of the profile",
        )
    ]


def test_an_entry_of_the_shared_data_overrides_nothing(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(GOOD, data)
    edit(data / "demo/entries/tower.yaml", "authority:", "overrides: [demo:tower-crossing]\nauthority:")
    result = run_cli("check", "--data", str(data))
    assert result.returncode == 1
    assert [line for line in result.stderr.splitlines() if "overrides" in line] == [
        f"{data}/demo/entries/tower.yaml:{_line(data / 'demo/entries/tower.yaml', 'overrides:')}: demo:tower: an entry "
        "of the shared data overrides official rulings — remove 'overrides': only a group's house rule (an entry of "
        "its profile) overrides a ruling"
    ]


def _line(path: Path, start: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if line.startswith(start))


def test_every_ruling_a_house_rule_overrides_says_so_and_points_to_it():
    """The example profile's house rule BH-HR1 (no crash) and the real rulings saying a 0 means a crash."""
    from houserules.check import run as run_check
    from houserules.check.profile import load_profile
    from houserules.render.blocks import EntryBlocks
    from houserules.site.context import SiteContext
    from houserules.site.entry_page import entry_page

    _, kb = load_profile(ROOT / "examples/house-rules/profile.yaml", run_check(DATA).kb)
    rule = kb.entries["betrayal:gentle-elevator"]
    assert rule.overrides  # every one of them, whatever the example lists
    ctx = SiteContext(kb)
    for target in rule.overrides:
        ref, _, question = target.partition("/")
        page = entry_page(ctx, kb.entries[ref])
        mark = 'data-block="overridden-question"' if question else 'data-block="overridden"'
        at = page.index(f"{{ #{question} .hr-question }}") if question else 0
        notice = page[page.index(mark, at) :].split("</div>", 1)[0]
        assert "本组房规" in notice and "改变了这一裁定" in notice and "Your group's house rule" in notice
        assert 'href="gentle-elevator.html"' in notice and "BH-HR1" in notice
        if question:  # before that question's answer, under its heading
            assert page.index(mark, at) < page.index('class="hr-qa-answer"', at)
    # an entry no house rule overrides says nothing of the kind
    untouched = [e for e in kb.entries.values() if e.ref not in {t.split("/")[0] for t in rule.overrides}]
    assert all(EntryBlocks(kb).blocks(e)[0].kind != "overridden" for e in untouched)


@pytest.mark.slow
def test_the_groups_pdf_marks_each_ruling_its_house_rule_changes_with_the_rules_page(tmp_path):
    from test_pdf import pdf_pages, squeeze, start_folio

    out = tmp_path / "group.pdf"
    result = run_cli("pdf", "--data", str(GOOD), "--profile", str(PROFILE / "group.yaml"), "-o", str(out))
    assert result.returncode == 0, result.stderr
    pages = pdf_pages(out)
    rule_page = start_folio(pages, "DM-HR1", "塔楼捷径").split()[-1]  # the foot: "DM 3"
    notice = squeeze(f"本组房规 DM-HR1 塔楼捷径（第 {rule_page} 页） 改变了这一裁定。")
    crossing = next(p for p in pages if squeeze("DM-A1 · 穿过塔楼") in squeeze(p) and "目录" not in p)
    # on the one-line answer (before it) and on the question about a failed roll (between it and its answer)
    text = squeeze(crossing)
    text = text[text.index(squeeze("DM-A1 · 穿过塔楼")) :]
    assert text.count(notice) == 2 and text.count("Yourgroup'shouseruleDM-HR1changesthis.") == 2
    assert text.index(notice) < text.index("一句话答案")
    second = text.index(notice, text.index(notice) + 1)
    question = text.index("过塔考验失败会怎样")
    assert question < second < text.index("停在原地，下回合再试", question)
    # the shared PDF has no such notice
    shared = tmp_path / "shared.pdf"
    assert run_cli("pdf", "--data", str(GOOD), "-o", str(shared)).returncode == 0
    assert "本组房规" not in "".join(pdf_pages(shared))


@pytest.mark.slow
def test_a_site_built_with_a_profile_shows_the_house_rules_and_what_they_change(tmp_path, built_fixture_full):
    from test_pdf import pdf_pages, squeeze

    out = tmp_path / "site"
    result = run_cli(
        "publish", "--check", "--data", str(GOOD), "--profile", str(PROFILE / "group.yaml"), "-o", str(out)
    )
    assert result.returncode == 0, result.stderr
    assert "ready to publish" in result.stdout  # every link and anchor resolves, the house rule's page too
    assert "DM-HR1" in (out / "demo/tower-shortcut.html").read_text(encoding="utf-8")
    page = (out / "demo/tower-crossing.html").read_text(encoding="utf-8")
    notices = re.findall(r'<div class="hr-warning hr-override" data-block="overridden(?:-question)?".*?</div>', page)
    assert len(notices) == 2 and all('href="tower-shortcut.html"' in n and "改变了这一裁定" in n for n in notices)
    # the site's PDFs are the group's: its house rules first, the ruling they change marked
    for name in ("demo.pdf", "faq.pdf"):
        text = squeeze("".join(pdf_pages(out / "print" / name)))
        assert squeeze("本组房规：测试小组") in text and squeeze("改变了这一裁定") in text, name
    # the same data without the profile: no house rule, no notice
    assert not (built_fixture_full / "demo/tower-shortcut.html").exists()
    assert "hr-override" not in (built_fixture_full / "demo/tower-crossing.html").read_text(encoding="utf-8")
    assert "本组房规" not in "".join(pdf_pages(built_fixture_full / "print/demo.pdf"))


# -- 更新记录: versions by printed PDF, found by the version or date on a cover ---------------------------------
def _rows(page: str) -> dict[str, list[tuple[str, str, str | None, str]]]:
    """Each PDF's rows on the changes page: (printed version, when, link, since)."""
    found = {}
    for pdf_id, block in re.findall(r'<div class="hr-pdf-versions" id="pdf-([a-z-]+)"(.*?)</table>', page, re.S):
        rows = []
        for row in re.findall(r"<tr data-find=.*?</tr>", block, re.S):
            printed = re.search(r'<code class="hr-code">([^<]+)</code>', row).group(1)
            when = re.search(r"<time>([^<]+)</time>", row).group(1)
            link = re.search(r'<a href="(#v-[0-9a-f]{8})">', row)
            since = re.sub(r"<[^>]+>", "", row.rsplit("<td>", 1)[1]).split(" · ")[-1]
            rows.append((printed, when, link.group(1) if link else None, since))
        found[pdf_id] = rows
    return found


def test_the_changes_page_lists_each_pdfs_versions_with_date_time_and_a_link(two_games):
    from houserules.data.versions.history import load_history
    from houserules.site.changelog import changes_page

    data, kb, n = two_games
    page = changes_page(kb, load_history(kb), offered=[])
    rows = {
        pdf: [tuple(x.format(**n) if x else x for x in row) for row in expected]
        for pdf, expected in {
            "faq": [
                ("2026-12-01 · {v3}", "2026-12-01 11:20 UTC", "#v-{v3}", "current"),
                ("2026-12-01 · {v2}", "2026-12-01 10:40 UTC", "#v-{v2}", "1 entry changed"),
                ("2026-11-30 · {v1}", "2026-12-01 09:05 UTC", "#v-{v1}", "2 entries changed"),
            ],
            "demo": [
                ("2026-12-01 · {demo3}", "2026-12-01 11:20 UTC", "#v-{v3}", "current"),
                ("2026-11-30 · {demo1}", "2026-12-01 09:05 UTC", "#v-{v1}", "1 entry changed"),
            ],
            "other": [
                ("2026-12-01 · {other2}", "2026-12-01 10:40 UTC", "#v-{v2}", "current"),
                ("2026-11-29 · {other1}", "2026-12-01 09:05 UTC", "#v-{v1}", "1 entry changed"),
            ],
        }.items()
    }
    found = _rows(page)
    assert found == rows
    # every link lands on a data version, whose heading says when it was committed
    for pdf_rows in found.values():
        for _, when, link, _ in pdf_rows:
            assert re.search(
                rf'<details class="hr-fold hr-version" id="{link[1:]}"[^>]*><summary>.*?<time>{when}</time>', page
            ), link
    # each version's section names what each PDF printed then
    v1 = page.split(f'id="v-{n["v1"]}"', 1)[1]
    assert f"2026-11-29 · {n['other1']}" in v1 and f"2026-11-30 · {n['demo1']}" in v1


def test_the_changes_page_golden(two_games):
    from conftest import assert_golden
    from houserules.data.versions.history import load_history
    from houserules.site.changelog import changes_page

    _, kb, n = two_games
    page = changes_page(kb, load_history(kb), offered=[])
    names = {}  # each hash by its name in the fixture, commits by order of appearance
    for name, value in sorted(n.items()):
        page = page.replace(value, f"<{name}>")
    for commit in re.findall(r"<code>([0-9a-f]{10})</code>", page):
        page = page.replace(commit, names.setdefault(commit, f"<commit {len(names) + 1}>"))
    assert_golden(FIXTURES / "golden" / "site" / "two-games--changes.md", page)


@pytest.fixture(scope="module")
def two_games_site(two_games, tmp_path_factory):
    """The pages of the two-games repository (no PDFs): its changes page with the filter box."""
    from houserules.build import build_site, site_step

    data, kb, _ = two_games
    return build_site(kb, data, tmp_path_factory.mktemp("two-games-site") / "site", steps=[site_step])


FILTERED = """() => ({
  rows: [...document.querySelectorAll('.hr-pdf-versions tr[data-find]')].filter(r => r.checkVisibility())
        .map(r => r.closest('.hr-pdf-versions').id + ' ' + r.querySelector('code').textContent),
  versions: [...document.querySelectorAll('details.hr-version')].filter(d => d.checkVisibility()).map(d => d.id),
  status: document.getElementById('hr-version-found').textContent,
})"""


@pytest.mark.browser
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_filter_box_finds_a_printed_version_or_a_date_from_disk(browser, two_games, two_games_site, scheme):
    from axecheck import describe, violations

    _, _, n = two_games
    context = browser.new_context(color_scheme=scheme, viewport={"width": 375, "height": 667}, is_mobile=True)
    page = context.new_page()
    page.goto((two_games_site / "changes.html").as_uri())
    box = page.get_by_label("打印版封面上的版本或日期 · The version or date on your printout's cover")
    assert box.is_visible()
    everything = page.evaluate(FILTERED)
    assert len(everything["rows"]) == 7 and len(everything["versions"]) == 3

    box.fill(f"2026-11-29 · {n['other1']}")  # as the other game's PDF printed it
    shown = page.evaluate(FILTERED)
    assert shown["rows"] == [f"pdf-other 2026-11-29 · {n['other1']}"]
    assert shown["versions"] == [f"v-{n['v1']}"] and "1 printed version found" in shown["status"]
    assert not page.locator("#pdf-demo").is_visible() and not page.locator("#pdf-faq").is_visible()

    box.fill("2026-12-01 10:40")  # a date and time
    assert page.evaluate(FILTERED)["rows"] == [
        f"pdf-faq 2026-12-01 · {n['v2']}",
        f"pdf-other 2026-12-01 · {n['other2']}",
    ]
    found = violations(page)
    box.fill("")
    assert page.evaluate(FILTERED)["rows"] == everything["rows"]
    page.goto((two_games_site / "changes.html").as_uri() + f"?v={n['demo1']}")  # a link that looks one up
    assert page.evaluate(FILTERED)["rows"] == [f"pdf-demo 2026-11-30 · {n['demo1']}"]
    context.close()
    assert found == [], describe(found)


FOLDS = """() => [...document.querySelectorAll('details.hr-fold')].map(d =>
  (d.closest('.hr-pdf-versions') || d).id + (d.open ? ' open' : ''))"""


#: Each data version as a phone shows it: its id, whether it is open, its heading's text and height, its height.
VERSIONS = """() => [...document.querySelectorAll('details.hr-version')].map(d => ({
  id: d.id, open: d.open, heading: d.querySelector('summary').innerText,
  line: d.querySelector('summary').getBoundingClientRect().height, height: d.getBoundingClientRect().height}))"""


@pytest.mark.browser
def test_older_versions_fold_and_what_is_found_or_linked_opens(browser, two_games, tmp_path, monkeypatch):
    """On a phone the page is read from the top: the newest versions open, each older one folded under its heading
    (its version as faq.pdf's cover prints it, when it was committed, what it changed), and each PDF's older rows
    folded too; the filter box and a link to a version, or to a game's version inside one, open them."""
    from houserules.build import build_site, site_step
    from houserules.site import changelog

    monkeypatch.setattr(changelog, "OPEN_VERSIONS", 1)
    monkeypatch.setattr(changelog, "OPEN_PDF_ROWS", 1)
    data, kb, n = two_games
    site = build_site(kb, data, tmp_path / "site", steps=[site_step])
    context = browser.new_context(viewport={"width": 375, "height": 667}, is_mobile=True)
    page = context.new_page()
    page.goto((site / "changes.html").as_uri())
    v1, v2, v3 = f"v-{n['v1']}", f"v-{n['v2']}", f"v-{n['v3']}"
    assert sorted(page.evaluate(FOLDS)) == sorted(["pdf-faq", "pdf-demo", "pdf-other", v1, v2, f"{v3} open"])
    shown = page.evaluate(FILTERED)
    assert shown["rows"] == [
        f"pdf-faq 2026-12-01 · {n['v3']}",
        f"pdf-demo 2026-12-01 · {n['demo3']}",
        f"pdf-other 2026-12-01 · {n['other2']}",
    ]
    versions = page.evaluate(VERSIONS)
    assert [(v["id"], v["open"]) for v in versions] == [(v3, True), (v2, False), (v1, False)]  # newest first
    assert [v["heading"].splitlines()[0] for v in versions] == [
        f"2026-12-01 · {n['v3']}（当前 · current）",
        f"2026-12-01 · {n['v2']}",
        f"2026-11-30 · {n['v1']}",  # as faq.pdf printed it, though committed on 2026-12-01
    ]
    assert "committed 2026-12-01 09:05 UTC" in versions[2]["heading"] and "新增 5 · 5 added" in versions[2]["heading"]
    for folded in versions[1:]:  # a thumb's target, and nothing but its heading shows
        assert 44 <= folded["line"] and folded["height"] <= folded["line"] + 4, folded
    assert not page.locator(f"#{v1} .hr-changes").is_visible()

    page.get_by_label("打印版封面上的版本或日期 · The version or date on your printout's cover").fill(n["other1"])
    assert page.evaluate(FILTERED)["rows"] == [f"pdf-other 2026-11-29 · {n['other1']}"]
    assert sorted(page.evaluate(FOLDS)) == sorted(
        ["pdf-faq", "pdf-demo", "pdf-other open", f"{v1} open", v2, f"{v3} open"]
    )
    assert page.evaluate(FILTERED)["versions"] == [v1]  # the others hidden
    assert page.locator(f"#{v1} .hr-game-versions").is_visible()  # what that version printed
    box = page.get_by_label("打印版封面上的版本或日期 · The version or date on your printout's cover")
    box.fill(n["v3"])  # the newest: in the rows shown, none in the fold, which goes while the box holds it
    assert page.locator("#pdf-faq").is_visible() and not page.locator("#pdf-faq details.hr-fold").is_visible()
    box.fill("")
    assert page.locator("#pdf-faq details.hr-fold").is_visible()

    page.goto((site / "changes.html").as_uri() + f"#{v2}")  # a PDF's row (and the feed) links its version
    assert f"{v2} open" in page.evaluate(FOLDS) and page.locator(f"#{v2} .hr-changes").is_visible()
    page.goto((site / "changes.html").as_uri() + f"#v-other-{n['other1']}")  # a game's version, inside v1
    assert f"{v1} open" in page.evaluate(FOLDS) and page.locator(f"#v-other-{n['other1']}").is_visible()
    width = page.evaluate("() => document.documentElement.scrollWidth")
    context.close()
    assert width <= 375


def test_a_printout_most_of_whose_entries_changed_is_printed_again_not_patched(two_games, monkeypatch):
    """An insert of what changed since a version after which most entries changed would be as long as the current
    FAQ (79 pages against 76 after a review of every entry): that version gets none, and the page says to print
    the current FAQ again, in its section and in each PDF's row."""
    from houserules.data.versions.history import load_history
    from houserules.print import inserts
    from houserules.site.changelog import changes_page

    data, kb, n = two_games
    history = load_history(kb)
    monkeypatch.setattr(inserts, "REPRINT_MIN", 1)
    monkeypatch.setattr(inserts, "REPRINT_SHARE", 1.5 / len(kb.entries))  # 2 entries changed since v1, 1 since v2
    offered = [version.short for version, _ in inserts.inserts(kb, history)]
    assert offered == [n["v2"]]  # v1: reprint
    page = changes_page(kb, history)
    v1 = page.split(f'id="v-{n["v1"]}"', 1)[1].split("</details>", 1)[0]
    v2 = page.split(f'id="v-{n["v2"]}"', 1)[1].split("</details>", 1)[0]
    assert 'data-block="reprint"' in v1 and "Most entries (2) changed since" in v1 and "changes-since-" not in v1
    assert 'data-block="reprint"' not in v2 and f"changes-since-{n['v2']}.pdf" in v2
    rows = {row[0]: row for row in _rows(page)["faq"]}
    assert rows[f"2026-11-30 · {n['v1']}"][3] == "print it again"
    assert rows[f"2026-12-01 · {n['v2']}"][3] == "insert ready"
