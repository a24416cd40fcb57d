"""``houserules export``: CSV and JSON tables that round-trip, run as a user would."""

from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import DATA, FIXTURES, HOUSERULES, run_cli, run_process
from houserules import export
from houserules.data.reading.load import load

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
    expected = export.rows(load(TRANSLATORS).kb, what, readable=True)
    assert expected, "the fixture has records of every kind"
    data = out.read_bytes()
    assert read_csv(data) == [{k: export.spreadsheet_safe(v) for k, v in row.items()} for row in expected]
    assert data.decode("utf-8-sig").splitlines()[0].split(",") == list(export.TABLES[what][1])


@pytest.mark.parametrize("what", [w for w in WHAT if w != "entries"])
def test_json_carries_the_same_records_as_the_csv(what):
    as_json = run_cli("export", "--data", str(TRANSLATORS), "--what", what, "--format", "json")
    as_csv = run_cli("export", "--data", str(TRANSLATORS), "--what", what, "--format", "csv")
    assert as_json.returncode == as_csv.returncode == 0
    payload = json.loads(as_json.stdout)
    assert payload["what"] == what and payload["columns"] == list(export.TABLES[what][1])
    assert payload["records"] == export.rows(load(TRANSLATORS).kb, what), "the JSON keeps the exact text"
    csv_rows = read_csv(as_csv.stdout.encode("utf-8"))
    assert [row.keys() for row in csv_rows] == [row.keys() for row in payload["records"]]
    assert len(csv_rows) == len(payload["records"])


def test_the_csv_names_references_and_sources_as_a_reader_sees_them():
    """A spreadsheet is read by people: no ``[[game:id]]`` and no document file name, but the
    target's title and code and the document's title; the JSON keeps the exact text."""
    as_csv = run_cli("export", "--what", "faq", "--format", "csv").stdout
    as_json = run_cli("export", "--what", "faq", "--format", "json").stdout
    assert "[[" not in as_csv and "002_912163b109a9ba77.txt" not in as_csv
    rows = {row["id"]: row for row in read_csv(as_csv.encode("utf-8"))}
    must_move = rows["BH-A13/must-move"]
    assert "楼层封闭 (BH-T06)" in must_move["answer_zh"] and "Sealed floor (BH-T06)" in must_move["answer_en"]
    assert must_move["source"] == "山屋惊魂规则补充说明4（A. 房间卡） 【13】"
    exact = {r["id"]: r for r in json.loads(as_json)["records"]}["BH-A13/must-move"]
    assert "[[betrayal:sealed-floor]]" in exact["answer_zh"]
    assert exact["source"] == "002_912163b109a9ba77.txt 【13】"


def test_a_question_variant_never_runs_as_a_formula():
    result = run_cli("export", "--data", str(TRANSLATORS), "--what", "faq", "--format", "csv")
    (row,) = read_csv(result.stdout.encode("utf-8"))
    assert row["variants"] == '\'=HYPERLINK("https://example.org"); 塔楼能退回去吗'


def test_every_question_of_the_real_data_is_a_faq_row_with_its_anchor():
    result = run_cli("export", "--what", "faq", "--format", "csv")
    assert result.returncode == 0, result.stderr
    records = read_csv(result.stdout.encode("utf-8"))
    kb = load(DATA).kb
    questions = [(e, q) for e in kb.entries.values() for q in e.questions]
    assert len(records) == len(questions) >= 150
    assert [r["id"] for r in records] == [f"{e.code}/{q.id}" for e, q in questions]
    assert all(r["url"] == f"{e.game}/{e.id}.html#{q.id}" for r, (e, q) in zip(records, questions))
    assert all(r["question_zh"] and r["answer_zh"] and r["question_en"] and r["answer_en"] for r in records)


def test_entries_json_is_the_api_document_with_translation_freshness():
    result = run_process("export", "--data", str(TRANSLATORS))  # end to end: the installed command
    payload = json.loads(result.stdout)
    assert [e["id"] for e in payload["entries"]] == [
        "demo:library",
        "demo:tower-crossing",
        "demo:tower-errata",
        "demo:tower",
    ]
    tower = next(e for e in payload["entries"] if e["id"] == "demo:tower")
    assert tower["translations"] == {"en": {"from": "zh", "source_hash": "c927fa25171d", "stale": False}}


def test_errata_csv_keeps_chinese_and_awkward_text(tmp_path):
    result = run_cli(
        "export", "--data", str(TRANSLATORS), "--what", "errata", "--format", "csv", "-o", str(tmp_path / "e.csv")
    )
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


# -- spreadsheet formulas ----------------------------------------------------------------------------

FORMULA_TERM = """  - id: formula
    en: "=HYPERLINK(\\"https://example.invalid\\", \\"x\\")"
    zh: "＝1+1"
    variants: ["+1", " @SUM(A1)", "-1 hp", "1-2", "a=b"]
    note: {zh: "  -2+3", en: "cmd|' /C calc'!A0"}
"""


def test_csv_cells_never_start_a_formula(tmp_path):
    """Data that a spreadsheet would run (OWASP's CSV injection) is written with a leading apostrophe."""
    data = make_data(tmp_path, "stale-translation")
    glossary = data / "demo/glossary.yaml"
    glossary.write_text(glossary.read_text(encoding="utf-8") + FORMULA_TERM, encoding="utf-8")
    library = data / "demo/entries/library.yaml"
    text = library.read_text(encoding="utf-8")
    library.write_text(
        text.replace("summary: {zh: ", "summary: {zh: '-1 hp：", 1).replace("。, en:", "。', en:", 1), encoding="utf-8"
    )
    result = run_cli("export", "--data", "data", "--what", "glossary", "--format", "csv", "-o", "g.csv", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    row = read_csv((tmp_path / "g.csv").read_bytes())[-1]
    assert (row["en"], row["zh"], row["note_zh"], row["note_en"]) == (
        '\'=HYPERLINK("https://example.invalid", "x")',
        "'＝1+1",
        "'  -2+3",
        "cmd|' /C calc'!A0",
    )
    # a list cell is one cell: only its start matters (a variant is one line: no tab or carriage
    # return in it, see tests/test_single_line_fields.py; spreadsheet_safe's own test has them)
    assert row["variants"] == "'+1;  @SUM(A1); -1 hp; 1-2; a=b"
    entries = run_cli("export", "--data", "data", "--format", "csv", cwd=tmp_path)
    library_row = next(r for r in read_csv(entries.stdout.encode("utf-8")) if r["id"] == "demo:library")
    assert library_row["summary_zh"].startswith("'-1 hp：")  # still reads as "-1 hp" to a person
    # the JSON export carries the exact text
    as_json = json.loads(run_cli("export", "--data", "data", "--what", "glossary", cwd=tmp_path).stdout)
    assert as_json["records"][-1]["en"] == '=HYPERLINK("https://example.invalid", "x")'


@pytest.mark.parametrize(
    "value, cell",
    [
        ("=1+1", "'=1+1"),
        ("+1", "'+1"),
        ("-1 hp", "'-1 hp"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("  =1", "'  =1"),
        ("\u3000=1", "'\u3000=1"),
        ("＝1", "'＝1"),
        ("＋1", "'＋1"),
        ("－1", "'－1"),
        ("＠x", "'＠x"),
        # left alone
        ("1-2", "1-2"),
        ("a=b", "a=b"),
        ("塔楼", "塔楼"),
        ("", ""),
        ("'quoted", "'quoted"),
    ],
)
def test_spreadsheet_safe_cells(value, cell):
    assert export.spreadsheet_safe(value) == cell
    parsed = read_csv(export.to_csv(("x",), [{"x": value}]))
    assert parsed == [{"x": cell}]


# -- where the export goes ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "output, message",
    [
        (
            "missing/dir/f.csv",
            "houserules export: cannot write missing/dir/f.csv: the folder missing/dir does not exist; "
            "create it first or choose another path with -o FILE",
        ),
        (
            "a-file.txt/f.csv",
            "houserules export: cannot write a-file.txt/f.csv: a-file.txt is not a folder; "
            "choose another path with -o FILE",
        ),
        (
            "a-folder",
            "houserules export: cannot write a-folder: it is a folder; give a file name, e.g. -o a-folder/export.csv",
        ),
    ],
)
def test_export_to_a_path_it_cannot_write_is_a_clear_message(tmp_path, output, message):
    (tmp_path / "a-folder").mkdir()
    (tmp_path / "a-file.txt").write_text("mine", encoding="utf-8")
    result = run_cli("export", "--data", str(TRANSLATORS), "--format", "csv", "-o", output, cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr == message + "\n" and result.stdout == ""
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")) == ["a-file.txt", "a-folder"]
    assert (tmp_path / "a-file.txt").read_text(encoding="utf-8") == "mine"


def test_a_failed_export_leaves_the_previous_file_whole(tmp_path, monkeypatch, capsys):
    from houserules.cli import main

    out = tmp_path / "entries.csv"
    out.write_bytes(b"the previous export")

    def disk_full(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(export.safewrite.os, "replace", disk_full)
    assert main(["export", "--data", str(TRANSLATORS), "--format", "csv", "-o", str(out)]) == 1
    assert capsys.readouterr().err == (
        f"houserules export: cannot write {out}: the disk is full (no space left on device); free some space or "
        "choose another path with -o FILE (nothing was written)\n"
    )
    assert out.read_bytes() == b"the previous export"
    assert [p.name for p in tmp_path.iterdir()] == ["entries.csv"]


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


@pytest.mark.parametrize("what, fmt", [("faq", "csv"), ("glossary", "csv"), ("faq", "json"), ("glossary", "tbx")])
def test_game_exports_hold_that_game_alone_and_the_site_offers_the_same_bytes(what, fmt):
    from houserules.export.downloads import download_files
    from houserules.render.urls import download_url

    result = run_cli("export", "--what", what, "--format", fmt, "--game", "betrayal")
    assert result.returncode == 0, result.stderr
    kb = load(DATA).kb
    whole = export.export(kb, what, fmt)
    alone = export.export(kb, what, fmt, "betrayal")
    assert result.stdout == alone.decode("utf-8") and alone != whole
    if fmt == "csv":
        rows = list(csv.DictReader(io.StringIO(alone.decode("utf-8-sig"))))
        assert rows and {r["game"] for r in rows} == {"betrayal"}
        site = download_files(kb, "betrayal", version="")
        assert site[download_url("betrayal", f"{what}.csv")] == alone  # the file beside its command
        assert "002_" not in alone.decode("utf-8") and "[[" not in alone.decode("utf-8")


def test_an_unknown_game_is_a_clear_message():
    result = run_cli("export", "--what", "faq", "--game", "chess")
    assert result.returncode == 1
    assert result.stderr.endswith(
        "houserules export: unknown game 'chess' — use one of: betrayal, mausritter, mice-and-mystics\n"
    )
