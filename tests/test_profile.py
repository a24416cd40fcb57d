"""A group's own house rules: profile validation, the combined checks, and the printed result."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import DATA, FIXTURES, GOOD, ROOT, run_cli
from houserules.check import run as run_check
from houserules.check.profile import load_profile
from houserules.errors import HouserulesError
from houserules.print.plan import print_groups

PROFILES = FIXTURES / "profile"
GROUP = PROFILES / "group.yaml"
P = "tests/fixtures/profile"


def pdf_text(pdf: Path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize(
    "profile, expected",
    [
        # schema: missing and unknown fields, located in the profile file
        (
            "bad-schema.yaml",
            [
                f"{P}/bad-schema.yaml:1: profile:bad-schema: missing required field 'entries' — add 'entries:' (see CONTRIBUTING.md)",
                f"{P}/bad-schema.yaml:3: profile:bad-schema: unknown field 'include.every' — remove it or use one of: all, kinds, refs",
                f"houserules pdf: the profile {P}/bad-schema.yaml is not valid",
            ],
        ),
        # the profile's games and refs, the folders of its entries, and the entries themselves
        (
            "bad-refs.yaml",
            [
                f"{P}/bad-entries/demo/wrong-kind.yaml:2: demo:wrong-kind: duplicate code 'DM-A1' (also demo:tower-crossing) — "
                "give this entry a code of its own; codes are printed and cited",
                f"{P}/bad-entries/demo/wrong-kind.yaml:3: demo:wrong-kind: a group's entry has kind 'ruling' — set 'kind: house-rule'",
                f"{P}/bad-entries/demo/wrong-kind.yaml:6: demo:wrong-kind: reference [[demo:nothing]] does not resolve — "
                "create rules_data/demo/entries/nothing.yaml or fix the id",
                f"{P}/bad-entries/demo/wrong-kind.yaml:7: demo:wrong-kind: a group's entry has authority 'clarification' — "
                "set 'authority: house-rule'",
                f"{P}/bad-entries/other:1: profile:bad-refs: 'other' is not the folder of a game the profile lists — "
                "keep entries in <game>/<id>.yaml with a game of: demo, nosuch",
                f"{P}/bad-refs.yaml:2: profile:bad-refs: unknown game 'nosuch' — use one of: demo",
                f"{P}/bad-refs.yaml:4: profile:bad-refs: included entry 'demo:missing' does not exist in the shared data — "
                "fix the reference (game:id of a shared entry)",
                f"houserules pdf: the profile {P}/bad-refs.yaml has 7 problems",
            ],
        ),
    ],
)
def test_bad_profiles_report_every_problem_located(tmp_path, profile, expected):
    out = tmp_path / "x.pdf"
    result = run_cli("pdf", "--data", "tests/fixtures/good", "--profile", f"{P}/{profile}", "-o", str(out))
    assert result.returncode == 1
    assert result.stderr.splitlines() == expected
    assert not out.exists()


def test_shared_entries_may_not_refer_to_house_rules(tmp_path):
    shared = tmp_path / "data"
    shutil.copytree(GOOD, shared)
    entry = shared / "demo" / "entries" / "tower.yaml"
    entry.write_text(entry.read_text(encoding="utf-8") + "see_also: [demo:tower-shortcut]\n", encoding="utf-8")
    kb = run_check(shared).kb  # fails on its own (the ref does not resolve); the profile must not repair it
    with pytest.raises(HouserulesError) as caught:
        load_profile(GROUP, kb)
    problems = [p.problem for p in caught.value.problems]
    assert problems == ["shared entry refers to the house rule 'demo:tower-shortcut' of a group"]


def test_loading_a_profile_leaves_the_shared_data_alone():
    shared = run_check(GOOD).kb
    before = (dict(shared.entries), {g: list(game.data["sources"]) for g, game in shared.games.items()})
    profile, combined = load_profile(GROUP, shared)
    assert (dict(shared.entries), {g: list(game.data["sources"]) for g, game in shared.games.items()}) == before
    assert sorted(set(combined.entries) - set(shared.entries)) == ["demo:tower-shortcut"]
    assert combined.entries["demo:tower-shortcut"].origin == "profile"
    assert profile.name == {"zh": "测试小组", "en": "Test group"}


def test_a_profile_text_with_nothing_visible_is_a_problem(tmp_path, monkeypatch):
    shutil.copytree(PROFILES / "entries", tmp_path / "entries")
    profile_file = tmp_path / "group.yaml"
    profile_file.write_text(
        GROUP.read_text(encoding="utf-8").replace("en: Test group", 'en: "\\u3164 "'), encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    with pytest.raises(HouserulesError) as caught:
        load_profile(profile_file, run_check(GOOD).kb)
    assert [str(p) for p in caught.value.problems] == [
        "group.yaml:1: profile:group: field 'name.en' has no visible text — write the text or remove the field"
    ]


@pytest.mark.parametrize(
    "include, printed",
    [
        ({"all": True}, ["DM-HR1", "DM-A1", "DM-A2", "DM-R01"]),
        ({"kinds": ["component"]}, ["DM-HR1", "DM-R01"]),
        ({"refs": ["demo:tower-errata"]}, ["DM-HR1", "DM-A2"]),
    ],
)
def test_include_selects_the_shared_entries(tmp_path, include, printed):
    shutil.copytree(PROFILES / "entries", tmp_path / "entries")
    profile_file = tmp_path / "group.yaml"
    flow = json.dumps(include)  # JSON is YAML
    profile_file.write_text(
        GROUP.read_text(encoding="utf-8").replace("include: {all: true}", f"include: {flow}"), encoding="utf-8"
    )
    profile, kb = load_profile(profile_file, run_check(GOOD).kb)
    groups = print_groups(kb, kb.games["demo"], profile)
    assert [kb.entries[r].code for _, _, refs in groups for r in refs] == printed
    assert groups[0][:2] == ("house-rules", {"zh": "本组房规：测试小组", "en": "House rules of Test group"})


@pytest.mark.slow
def test_house_rule_is_printed_and_marked_only_in_the_groups_pdf(tmp_path):
    group, shared = tmp_path / "group.pdf", tmp_path / "shared.pdf"
    assert (
        run_cli("pdf", "--data", str(GOOD), "--profile", str(GROUP), "--layout", "full", "-o", str(group)).returncode
        == 0
    )
    assert run_cli("pdf", "--data", str(GOOD), "-o", str(shared)).returncode == 0
    pages = pdf_text(group).split("\f")
    start = next(page for page in pages if "DM-HR1 · 塔楼捷径" in page and "目录" not in page)
    assert "本组房规：测试小组 · House rules of Test group" in start
    assert "本组房规 · 测试小组：非官方规则，仅本组使用。" in start
    assert "含本组房规：测试小组" in pages[0]
    # the house rule points at shared entries, by code and page
    assert "代替穿过塔楼（DM-A1，第 3 页）的考验。" in start
    assert "DM-HR1" not in pdf_text(shared) and "塔楼捷径" not in pdf_text(shared)


def test_the_example_profile_fits_the_shared_data():
    profile, kb = load_profile(ROOT / "examples/house-rules/profile.yaml", run_check(DATA).kb)
    own = [e for e in kb.entries.values() if e.origin == "profile"]
    assert [e.ref for e in own] == ["betrayal:gentle-elevator"]
    assert profile.games == ["betrayal"]
