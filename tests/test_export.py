"""``houserules export``: CSV and JSON tables that round-trip, run as a user would."""

from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import DATA, FIXTURES, HOUSERULES, run_cli
from houserules import export
from houserules.load import load

TRANSLATORS = FIXTURES / "translators" / "data"
WHAT = list(export.TABLES)


def make_data(tmp_path: Path, case: str) -> Path:
    """The translators' fixture with the files of one of its ``bad/`` cases laid over it."""
    shutil.copytree(TRANSLATORS, tmp_path / "data")
    shutil.copytree(FIXTURES / "translators/bad" / case, tmp_path / "data", dirs_exist_ok=True)
    return tmp_path / "data"


def read_csv(data: bytes) -> list[dict[str, str]]:
    assert data.startswith("\ufeff".encode("utf-8")), "spreadsheet programs need the BOM to read UTF-8"
    return list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"), newline="")))


@pytest.mark.parametrize("what", WHAT)
def test_csv_parses_back_to_the_same_records(tmp_path, what):
    out = tmp_path / f"{what}.csv"
    result = run_cli("export", "--data", str(TRANSLATORS), "--what", what, "--format", "csv", "-o", str(out))
    assert result.returncode == 0, result.stderr
    expected = export.rows(load(TRANSLATORS).kb, what)
    assert expected, "the fixture has records of every kind"
    data = out.read_bytes()
    assert read_csv(data) == expected
    assert data.decode("utf-8-sig").splitlines()[0].split(",") == list(export.TABLES[what][1])


@pytest.mark.parametrize("what", [w for w in WHAT if w != "entries"])
def test_json_carries_the_same_records_as_the_csv(what):
    as_json = run_cli("export", "--data", str(TRANSLATORS), "--what", what, "--format", "json")
    as_csv = run_cli("export", "--data", str(TRANSLATORS), "--what", what, "--format", "csv")
    assert as_json.returncode == as_csv.returncode == 0
    payload = json.loads(as_json.stdout)
    assert payload["what"] == what and payload["columns"] == list(export.TABLES[what][1])
    assert payload["records"] == read_csv(as_csv.stdout.encode("utf-8"))


def test_every_question_of_the_real_data_is_a_faq_row_with_its_anchor():
    result = run_cli("export", "--what", "faq", "--format", "csv")
    assert result.returncode == 0, result.stderr
    records = read_csv(result.stdout.encode("utf-8"))
    kb = load(DATA).kb
    questions = [(e, q) for e in kb.entries.values() for q in e.questions]
    assert len(records) == len(questions) >= 150
    assert [r["id"] for r in records] == [f"{e.code}/{q['id']}" for e, q in questions]
    assert all(r["url"] == f"{e.game}/{e.id}.html#{q['id']}" for r, (e, q) in zip(records, questions))
    assert all(r["question_zh"] and r["answer_zh"] and r["question_en"] and r["answer_en"] for r in records)


def test_entries_json_is_the_api_document_with_translation_freshness():
    result = run_cli("export", "--data", str(TRANSLATORS))
    payload = json.loads(result.stdout)
    assert [e["id"] for e in payload["entries"]] == ["demo:library", "demo:tower-crossing", "demo:tower-errata",
                                                    "demo:tower"]
    tower = next(e for e in payload["entries"] if e["id"] == "demo:tower")
    assert tower["translations"] == {"en": {"from": "zh", "source_hash": "c927fa25171d", "stale": False}}


def test_errata_csv_keeps_chinese_and_awkward_text(tmp_path):
    result = run_cli("export", "--data", str(TRANSLATORS), "--what", "errata", "--format", "csv",
                     "-o", str(tmp_path / "e.csv"))
    assert result.returncode == 0, result.stderr
    rows = read_csv((tmp_path / "e.csv").read_bytes())
    assert [(r["component"], r["printed"], r["corrected"], r["status"]) for r in rows] == [
        ("demo:tower", "高塔：受到1点肉体损伤", "塔楼：肉体能力上升1级", "confirmed"),
        ("demo:library", "Take 1 mental damage <here>.", "Gain 1 mental trait here.", "reported"),
    ]
    assert rows[0]["entry"] == "demo:tower-errata" and rows[0]["component_zh"] == "塔楼"


def test_review_lists_everything_uncertain_or_unfinished(tmp_path):
    make_data(tmp_path, "stale-translation")
    result = run_cli("export", "--data", "data", "--what", "review", "--format", "csv", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    rows = read_csv(result.stdout.encode("utf-8"))
    assert [(r["id"], r["reason"], r["file"], r["line"]) for r in rows] == [
        ("demo:library", "status-needs-review", "data/demo/entries/library.yaml", "13"),
        ("demo:library", "uncertain-fact", "data/demo/entries/library.yaml", "7"),
        ("demo:tower-errata", "confidence-uncertain", "data/demo/entries/tower-errata.yaml", "8"),
        ("demo:tower-errata", "uncertain-translator-note", "data/demo/entries/tower-errata.yaml", "37"),
        ("demo:tower", "stale-translation", "data/demo/entries/tower.yaml", "12"),
    ]
    assert rows[1]["detail_zh"] == "楼层：上层" and rows[1]["detail_en"] == "Floor: Upper"


def test_stdout_and_file_hold_the_same_bytes(tmp_path):
    args = ("export", "--data", str(TRANSLATORS), "--what", "glossary", "--format", "csv")
    out = tmp_path / "g.csv"
    to_file = run_cli(*args, "-o", str(out))
    assert to_file.stdout == f"wrote {out} (glossary, csv)\n"
    raw = subprocess.run([str(HOUSERULES), *args], capture_output=True, check=True).stdout
    assert raw == out.read_bytes()
    assert b"\r\n" in raw  # the row separator spreadsheet programs expect


def test_export_refuses_data_with_problems(tmp_path):
    make_data(tmp_path, "title-disagrees")
    result = run_cli("export", "--data", "data", "--what", "errata", "--format", "csv", cwd=tmp_path)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.splitlines()[-1] == "not exported: 4 entries, 4 references, 1 game: 1 problem"


@pytest.mark.slow
def test_menagerie_and_study_erratum_in_the_real_export(tmp_path):
    out = tmp_path / "errata.csv"
    result = run_cli("export", "--data", str(DATA), "--what", "errata", "--format", "csv", "-o", str(out))
    assert result.returncode == 0, result.stderr
    rows = {r["component"]: r for r in read_csv(out.read_bytes())}
    assert rows["betrayal:menagerie"]["printed"] == "受到1点肉体损伤"
    assert rows["betrayal:study"]["printed"] == "受到1点精神损伤"
    for room in ("betrayal:menagerie", "betrayal:study"):
        assert rows[room]["entry"] == "betrayal:menagerie-study-translation"
        assert "【2】" in rows[room]["sources"]


def test_unknown_choice_is_a_usage_error(tmp_path):
    result = run_cli("export", "--what", "everything", cwd=tmp_path)
    assert result.returncode == 2 and "invalid choice: 'everything'" in result.stderr
    assert "Traceback" not in result.stderr

