"""``houserules l10n export`` and ``import``: the texts out to CAT tools and translation platforms and back.

The data is a copy of ``tests/fixtures/translators/data`` (one game with a glossary, errata,
stamped translations and ``[[ref]]`` links). Targets are changed with translate-toolkit, the
library Weblate reads and writes these files with, as a CAT tool would; the YAML files must then
differ from the originals exactly as ``tests/fixtures/l10n/*.diff`` shows (refresh with
``UPDATE_GOLDEN=1 .venv/bin/pytest tests/test_l10n.py`` and review the diff).
"""

from __future__ import annotations

import difflib
import hashlib
import os
import re
import shutil
from pathlib import Path

import polib
import pytest
from lxml import etree
from translate.storage import pypo, xliff2

from conftest import FIXTURES, assert_golden, run_cli
from houserules.data.authoring.yamledit import EditError, edit_values
from houserules.data.reading.load import load

SOURCE_DATA = FIXTURES / "translators" / "data"
GOLDEN = FIXTURES / "l10n"
X = "{urn:oasis:names:tc:xliff:document:2.0}"
MDA = "{urn:oasis:names:tc:xliff:metadata:2.0}"


def make_data(tmp_path: Path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(SOURCE_DATA, target)
    return target


def snapshot(data: Path) -> dict[str, str]:
    return {str(p.relative_to(data)): p.read_text(encoding="utf-8") for p in sorted(data.rglob("*.yaml"))}


def data_diff(before: dict[str, str], after: dict[str, str]) -> str:
    out = []
    for name in sorted(before):
        out += difflib.unified_diff(
            before[name].splitlines(keepends=True), after[name].splitlines(keepends=True), f"a/{name}", f"b/{name}"
        )
    return "".join(out)


def export(tmp_path: Path, data: Path, *options: str, name: str = "out.xlf") -> Path:
    target = tmp_path / name
    result = run_cli("l10n", "export", "--data", str(data), *options, "-o", str(target), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    return target


def targets(path: Path) -> dict[str, str]:
    """unit id → target, read with translate-toolkit (ids as each format names them)."""
    raw = path.read_bytes()
    if path.suffix == ".po":
        store = pypo.pofile.parsestring(raw)
        return {u.getcontext(): str(u.target) for u in store.units if not u.isheader()}
    root = etree.fromstring(raw)
    result = {}
    for unit in root.iter(f"{X}unit"):
        data = {d.get("id"): d.text for d in unit.iter(f"{X}data")}
        target = unit.find(f"{X}segment/{X}target")
        text = [] if target is None else [target.text or ""]
        for ph in [] if target is None else target:
            text += [data[ph.get("dataRef")], ph.tail or ""]
        result[unit.get("name")] = "".join(text)
    return result


# -- the round trip ------------------------------------------------------------------------------------


def edit_xliff(path: Path) -> dict[str, str]:
    """Change some targets as a CAT tool does (inline codes kept); returns the new texts by unit id."""
    store = xliff2.Xliff2File.parsestring(path.read_bytes())
    by_id = {u.getid(): u for u in store.units}
    by_id["demo:tower-crossing.title"].target = "Going through the Tower"
    by_id["demo:tower.aliases"].target = "tower room\nthe tower"
    by_id["demo:glossary.tower.note"].target = "A room with a barrier."
    # The body holds [[demo:tower]] as <ph>: change the text around it, keep the code.
    target = by_id["demo:tower-crossing.body"].xmlelement.find(f"{X}target")
    (ph,) = target.findall(f"{X}ph")
    target.text = "Once inside the "
    ph.tail = " you may turn back.\n\nCrossing the Tower takes a Might trait roll.\n"
    path.write_bytes(bytes(store))
    return {
        "demo:tower-crossing/title": "Going through the Tower",
        "demo:tower/aliases": "tower room\nthe tower",
        "demo:glossary/tower/note": "A room with a barrier.",
        "demo:tower-crossing/body": "Once inside the [[demo:tower]] you may turn back.\n\n"
        "Crossing the Tower takes a Might trait roll.\n",
    }


def test_xliff_round_trip_changes_only_the_edited_texts_and_their_stamps(tmp_path):
    data = make_data(tmp_path)
    before = snapshot(data)
    exported = export(tmp_path, data, "--game", "demo")
    edited = edit_xliff(exported)
    result = run_cli("l10n", "import", "--data", str(data), str(exported), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == (
        "changed demo:tower-crossing: title, body (stamped en: title, body)\n"
        "changed demo:tower: aliases\n"
        "changed demo:glossary: tower/note\n"
        "imported 4 texts into 3 files from out.xlf; houserules check: ok\n"
    )
    assert_golden(GOLDEN / "xliff-round-trip.diff", data_diff(before, snapshot(data)))
    check = run_cli("check", "--data", str(data), "--warnings-as-errors", cwd=tmp_path)
    assert check.returncode == 0, check.stdout + check.stderr
    again = targets(export(tmp_path, data, "--game", "demo", name="again.xlf"))
    assert {uid: again[uid] for uid in edited} == edited
    assert {uid: t for uid, t in again.items() if uid not in edited} == {
        uid: t for uid, t in targets(exported).items() if uid not in edited
    }


def test_po_round_trip_writes_the_corrected_card_text_and_checks_references(tmp_path):
    data = make_data(tmp_path)
    before = snapshot(data)
    exported = export(tmp_path, data, "--format", "po", "--source", "en", name="zh.po")
    assert len(polib.pofile(str(exported))) == len(targets(exported))
    store = pypo.pofile.parsestring(exported.read_bytes())
    by_id = {u.getcontext(): u for u in store.units}
    edited = {
        "demo:tower-errata/errata/0/corrected": "塔楼：你的一项肉体能力上升1级",
        "demo:tower-crossing/questions/go-back/a": "可以。进入[[demo:tower]]后，你可以原路返回。",
        "demo:glossary/trait": "能力",
    }
    for uid, text in edited.items():
        by_id[uid].target = text
    exported.write_bytes(bytes(store))
    result = run_cli("l10n", "import", "--data", str(data), str(exported), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    # An answer and a card correction: no translation stamp covers them, none is added.
    assert result.stdout == (
        "changed demo:tower-crossing: questions/go-back/a\n"
        "changed demo:tower-errata: errata/0/corrected\n"
        "imported 2 texts into 2 files from zh.po; houserules check: ok\n"
    )
    assert_golden(GOLDEN / "po-round-trip.diff", data_diff(before, snapshot(data)))
    assert run_cli("check", "--data", str(data), cwd=tmp_path).returncode == 0
    again = targets(export(tmp_path, data, "--format", "po", "--source", "en", name="again.po"))
    assert {uid: again[uid] for uid in edited} == edited


def test_dry_run_writes_nothing(tmp_path):
    data = make_data(tmp_path)
    before = snapshot(data)
    exported = export(tmp_path, data)
    edit_xliff(exported)
    result = run_cli("l10n", "import", "--dry-run", "--data", str(data), str(exported), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "dry run: 4 texts in 3 files would change; nothing written"
    assert snapshot(data) == before


# -- what the files hold -------------------------------------------------------------------------------


def test_xliff_is_well_formed_xliff_2(tmp_path):
    """Structural validation against the XLIFF 2.0 core schema's rules (no XSD ships offline)."""
    data = make_data(tmp_path)
    path = export(tmp_path, data)
    root = etree.fromstring(path.read_bytes())
    assert (root.tag, root.get("version"), root.get("srcLang"), root.get("trgLang")) == (f"{X}xliff", "2.0", "zh", "en")
    nmtoken = re.compile(r"[\w.:-]+")
    ids = [u.get("id") for u in root.iter(f"{X}unit")]
    assert len(ids) == len(set(ids)) == 23 and all(nmtoken.fullmatch(i) for i in ids)
    # The Metadata module's element first (other namespaces come before <notes>), then the core's.
    order = {f"{MDA}metadata": 0, f"{X}notes": 1, f"{X}originalData": 2, f"{X}segment": 3}
    for unit in root.iter(f"{X}unit"):
        children = [order[c.tag] for c in unit]
        assert children == sorted(children) and children.count(3) == 1 and children[0] == 0
        data_ids = {d.get("id") for d in unit.iter(f"{X}data")}
        segment = unit.find(f"{X}segment")
        assert segment.get("state") in {"initial", "translated"}
        source_ph = {ph.get("id") for ph in segment.find(f"{X}source").iter(f"{X}ph")}
        assert {ph.get("dataRef") for ph in segment.iter(f"{X}ph")} <= data_ids
        target = segment.find(f"{X}target")
        if target is not None:
            assert {ph.get("id") for ph in target.iter(f"{X}ph")} <= source_ph
    body = next(u for u in root.iter(f"{X}unit") if u.get("name") == "demo:tower-crossing/body")
    assert [d.text for d in body.iter(f"{X}data")] == ["[[demo:tower]]"]
    notes = {n.get("category"): n.text for n in body.iter(f"{X}note")}
    assert notes == {
        "entry": "DM-A1 · 穿过塔楼 · Crossing the Tower",
        "url": "demo/tower-crossing.html",
        "location": f"{data.relative_to(tmp_path)}/demo/entries/tower-crossing.yaml:11",
        "terms": "术语 Terms: 塔楼 = Tower; 能力 = trait",
        "hint": "[[…]] 是条目引用，保持原样 [[…]] are references to entries: keep each one.",
        "references": "引用 References: [[demo:tower]] = 塔楼 · Tower (DM-R01)",
    }
    # translate-toolkit (Weblate's reader) sees the same units
    assert len(xliff2.Xliff2File.parsestring(path.read_bytes()).units) == 23


def test_states_follow_the_stamps(tmp_path):
    data = make_data(tmp_path)
    entry = data / "demo/entries/tower-crossing.yaml"
    entry.write_text(entry.read_text(encoding="utf-8").replace("下回合再试", "下一回合再试"), encoding="utf-8")
    (data / "demo/entries/tower.yaml").write_text(
        (data / "demo/entries/tower.yaml")
        .read_text(encoding="utf-8")
        .replace(", en: A barrier room; crossing takes a Might roll.", ""),
        encoding="utf-8",
    )
    root = etree.fromstring(export(tmp_path, data).read_bytes())
    states = {
        u.get("name"): (s.get("state"), s.get("subState"), s.find(f"{X}target") is not None)
        for u in root.iter(f"{X}unit")
        for s in u.iter(f"{X}segment")
    }
    review = ("initial", "houserules:needs-review", True)
    assert {k for k, v in states.items() if v == review} == {
        "demo:tower-crossing/title",
        "demo:tower-crossing/summary",
        "demo:tower-crossing/body",
    }
    assert states["demo:tower/summary"] == ("initial", None, False)
    assert states["demo:tower-crossing/questions/go-back/a"] == ("translated", None, True)
    po = polib.pofile(export(tmp_path, data, "--format", "po", name="x.po").read_text(encoding="utf-8"))
    assert sorted(e.msgctxt for e in po.fuzzy_entries()) == [
        "demo:tower-crossing/body",
        "demo:tower-crossing/summary",
        "demo:tower-crossing/title",
    ]
    assert [e.msgctxt for e in po.untranslated_entries()] == ["demo:tower/summary"]


# -- refusals: exact message, exit 1, no file changed -----------------------------------------------


def _xliff_case(tmp_path: Path, data: Path, case: str) -> Path:
    path = export(tmp_path, data)
    store = xliff2.Xliff2File.parsestring(path.read_bytes())
    by_id = {u.getid(): u for u in store.units}
    if case == "conflict":
        by_id["demo:tower-crossing.title"].target = "Through the Tower"
        entry = data / "demo/entries/tower-crossing.yaml"
        entry.write_text(entry.read_text(encoding="utf-8").replace("zh: 穿过塔楼,", "zh: 穿越塔楼,"), encoding="utf-8")
    elif case == "unknown":
        by_id["demo:tower.title"].xmlelement.getparent().set("name", "demo:tower/titel")
    elif case in ("broken", "broken-code"):
        target = by_id["demo:tower-crossing.body"].xmlelement.find(f"{X}target")
        (ph,) = target.findall(f"{X}ph")
        if case == "broken":  # the code deleted, its reference not typed either
            target.remove(ph)
            target.text = "Once inside you may turn back."
        else:  # a code pointing at original data that is not there
            ph.set("dataRef", "d9")
            del ph.attrib["equiv"]
    elif case == "empty":
        by_id["demo:library.summary"].target = ""
    elif case == "read-only":
        by_id["demo:tower.title"].target = "The Tower"
        os.chmod(data / "demo/entries/tower.yaml", 0o444)
    path.write_bytes(bytes(store))
    return path


CASES = {
    "conflict": "out.xlf:{line}: demo:tower-crossing/title: conflict: the source text changed since the export — "
    "export again and translate the new source, or import with --force to write this target anyway\n"
    "houserules l10n: nothing imported: 1 problem in out.xlf\n",
    "unknown": "out.xlf:{line}: demo:tower/titel: unknown unit id: no such text in the data (renamed or removed "
    "since the export) — remove the unit from the file; if its text was renamed, copy this target into the text's "
    "unit in a new export\n"
    "houserules l10n: nothing imported: 1 problem in out.xlf\n",
    "broken": "out.xlf:{line}: demo:tower-crossing/body: the target lacks [[demo:tower]] — "
    "keep every [[…]] inline code of the source, once each\n"
    "houserules l10n: nothing imported: 1 problem in out.xlf\n",
    "broken-code": 'out.xlf:{line}: demo:tower-crossing/body: inline code <ph id="1"> in the target stands for '
    "no reference — copy the inline code from the source again\n"
    "houserules l10n: nothing imported: 1 problem in out.xlf\n",
    "empty": "out.xlf:{line}: demo:library/summary: empty target: importing it would delete the text — "
    "translate it, or remove the unit from the file\n"
    "houserules l10n: nothing imported: 1 problem in out.xlf\n",
    "read-only": "houserules l10n: data/demo/entries/tower.yaml: the file is read-only; make it writable "
    "(chmod u+w data/demo/entries/tower.yaml) and import again; nothing imported\n",
}
UNIT_OF_CASE = {
    "conflict": "demo:tower-crossing/title",
    "unknown": "demo:tower/titel",
    "broken": "demo:tower-crossing/body",
    "broken-code": "demo:tower-crossing/body",
    "empty": "demo:library/summary",
}


def options_suggested(message: str) -> set[str]:
    """The options of ``l10n import`` a message tells the user to use (an export's, named with its command, aside)."""
    return set(re.findall(r"(?<![\w-])(--?[a-z][a-z-]*)", re.sub(r"'houserules l10n export[^']*'", "", message)))


IMPORT_OPTIONS = {"--data", "--dry-run", "--force", "--skip-unreviewed"}


def _line_of(path: Path, name: str) -> int:
    root = etree.fromstring(path.read_bytes())
    unit = next(u for u in root.iter(f"{X}unit") if u.get("name") == name)
    target = unit.find(f"{X}segment/{X}target")
    return (target if target is not None else unit).sourceline


@pytest.mark.parametrize("case", list(CASES))
def test_a_bad_unit_is_a_clear_message_and_nothing_is_written(tmp_path, case):
    data = make_data(tmp_path)
    path = _xliff_case(tmp_path, data, case)
    before = snapshot(data)
    result = run_cli("l10n", "import", "--data", "data", str(path.name), cwd=tmp_path)
    line = _line_of(path, UNIT_OF_CASE[case]) if case in UNIT_OF_CASE else 0
    assert (result.returncode, result.stdout, result.stderr) == (1, "", CASES[case].format(line=line))
    assert options_suggested(result.stderr) <= IMPORT_OPTIONS
    assert snapshot(data) == before


def test_force_writes_a_conflicting_unit(tmp_path):
    data = make_data(tmp_path)
    path = _xliff_case(tmp_path, data, "conflict")
    result = run_cli("l10n", "import", "--force", "--data", "data", path.name, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "title: {zh: 穿越塔楼, en: Through the Tower}" in (data / "demo/entries/tower-crossing.yaml").read_text(
        encoding="utf-8"
    )


@pytest.mark.parametrize(
    "name, content, message",
    [
        (
            "cut.xlf",
            b'<?xml version="1.0"?>\n<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0">\n<file>',
            "houserules l10n: cut.xlf:3: not a valid XLIFF file: Premature end of data in tag file line 3, line 3, column 7 — "
            "export it again or repair the XML\n",
        ),
        (
            "old.xlf",
            b'<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2"/>',
            "houserules l10n: old.xlf:1: not an XLIFF 2 file (found <xliff version 1.2>) — "
            "import the XLIFF 2.0 or PO file that 'houserules l10n export' wrote\n",
        ),
        (
            "bad.po",
            b'msgid "abc\nmsgstr ""\n',
            "houserules l10n: bad.po:1: not a valid PO file: end-of-line within string on line 1: 'msgid \"abc\\n' — "
            "repair it or export it again\n",
        ),
        (
            "empty.po",
            b"",
            "houserules l10n: empty.po:1: the file is empty — "
            "import the XLIFF or PO file that 'houserules l10n export' wrote\n",
        ),
    ],
)
def test_a_file_that_is_not_xliff_or_po_is_a_clear_message(tmp_path, name, content, message):
    data = make_data(tmp_path)
    before = snapshot(data)
    (tmp_path / name).write_bytes(content)
    result = run_cli("l10n", "import", "--data", "data", name, cwd=tmp_path)
    assert (result.returncode, result.stdout, result.stderr) == (1, "", message)
    assert snapshot(data) == before


def test_a_target_that_breaks_the_check_writes_nothing(tmp_path):
    """A deprecated Chinese form in a target fails the glossary check of a copy of the data: nothing is written."""
    data = make_data(tmp_path)
    before = snapshot(data)
    path = export(tmp_path, data, "--format", "po", "--source", "en", name="zh.po")
    store = pypo.pofile.parsestring(path.read_bytes())
    next(u for u in store.units if u.getcontext() == "demo:tower-crossing/summary").target = "高塔考验失败就停下。"
    path.write_bytes(bytes(store))
    result = run_cli("l10n", "import", "--data", "data", path.name, cwd=tmp_path)
    assert result.returncode == 1
    assert "高塔" in result.stderr.splitlines()[0] and "deprecated" in result.stderr.splitlines()[0]
    # The problem names the data's own file, not the copy that was checked.
    assert result.stderr.startswith("data/demo/entries/tower-crossing.yaml:5: demo:tower-crossing: ")
    assert result.stderr.splitlines()[-1] == (
        "houserules l10n: nothing imported: the imported texts would break 1 check (nothing was written)"
    )
    assert snapshot(data) == before


# -- the textual edit ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, changes, expected",
    [
        ("a: {zh: 甲, en: A}  # c\n", {("a", "en"): "B"}, "a: {zh: 甲, en: B}  # c\n"),
        ("a: {zh: 甲, en: A}\n", {("a", "en"): "x, y"}, 'a: {zh: 甲, en: "x, y"}\n'),
        ("a:\n  en: 'it''s'\n", {("a", "en"): "it's ok"}, "a:\n  en: 'it''s ok'\n"),
        ("a:\n  en: |\n    one\n    two\n\nb: 1\n", {("a", "en"): "three\n"}, "a:\n  en: |\n    three\n\nb: 1\n"),
        ("a:\n  en: one\nb: 1\n", {("a", "en"): "x\n\ny\n"}, "a:\n  en: |\n    x\n\n    y\nb: 1\n"),
        ("l: [甲, a, 乙]\n", {("l",): ["甲", "b: c", "乙"]}, 'l: [甲, "b: c", 乙]\n'),
        ("l:\n  - 甲\n  - a\nz: 1\n", {("l",): ["甲", "b"]}, "l:\n  - 甲\n  - b\nz: 1\n"),
        ("a: {en: 'yes'}\r\n", {("a", "en"): "true"}, "a: {en: 'true'}\r\n"),
    ],
)
def test_edit_keeps_the_layout_of_everything_else(text, changes, expected):
    assert edit_values(text, changes)[0] == expected


@pytest.mark.parametrize(
    "path, value",
    [(("a", "c", "d"), "x"), (("a", "l", 5), "x"), (("a", "l"), "x"), (("a", "b"), ["x"])],
    ids=["no-parent", "no-item", "a-list", "not-a-list"],
)
def test_edit_refuses_a_path_that_is_not_a_text(path, value):
    with pytest.raises(EditError):
        edit_values("a: {b: 1, l: [y]}\n", {path: value})


def test_every_text_of_the_real_data_round_trips_unchanged(tmp_path):
    """Export the real data both ways and import it back untouched: nothing to import, no file changed."""
    data = tmp_path / "rules_data"
    shutil.copytree(FIXTURES.parent.parent / "rules_data", data)
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in sorted(data.rglob("*.yaml")))).hexdigest()
    for options, name in (((), "all.xlf"), (("--format", "po", "--source", "en"), "all.po")):
        path = export(tmp_path, data, *options, name=name)
        result = run_cli("l10n", "import", "--data", str(data), name, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert result.stdout == f"nothing to import from {name}: every target is as exported or as in the data\n"
        raw = path.read_text(encoding="utf-8")
        count = raw.count("<unit ") if name.endswith(".xlf") else len(polib.pofile(raw))
        assert len(targets(path)) == count > 1500  # one unit per id
    assert hashlib.sha256(b"".join(p.read_bytes() for p in sorted(data.rglob("*.yaml")))).hexdigest() == digest


def test_a_po_file_saved_by_weblate_imports(tmp_path):
    """Weblate names Chinese zh_Hans and may drop headers it does not know; lines may be wrapped anew."""
    data = make_data(tmp_path)
    path = export(tmp_path, data, "--format", "po", "--source", "en", name="zh.po")
    store = pypo.pofile.parsestring(path.read_bytes())
    store.updateheader(Language="zh_Hans")
    next(
        u for u in store.units if u.getcontext() == "demo:tower/summary"
    ).target = "一个有障碍的房间，穿过它需要力量考验。"
    text = bytes(store).decode("utf-8")
    assert '"X-Source-Language: en\\n"\n' in text and '"Language: zh_Hans\\n"\n' in text
    path.write_text(text.replace('"X-Source-Language: en\\n"\n', ""), encoding="utf-8")
    result = run_cli("l10n", "import", "--data", "data", path.name, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("changed demo:tower: summary (stamped zh: ")
    assert "summary: {zh: 一个有障碍的房间，穿过它需要力量考验。, en: A barrier room" in (
        data / "demo/entries/tower.yaml"
    ).read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "target, problem",
    [
        ("可以，进入[[demo:tower后可以原路返回。", "the target lacks [[demo:tower]]"),
        (
            "可以，进入[[demo:towr]]后可以原路返回。",
            "the target lacks [[demo:tower]] and has [[demo:towr]], which the source does not",
        ),
        ("可以，进入[[demo:tower]]后可以原路返回]]。", "the target has a broken [[reference]]"),
    ],
)
def test_a_po_target_with_a_broken_reference_is_refused(tmp_path, target, problem):
    data = make_data(tmp_path)
    before = snapshot(data)
    path = export(tmp_path, data, "--format", "po", "--source", "en", name="zh.po")
    store = pypo.pofile.parsestring(path.read_bytes())
    next(u for u in store.units if u.getcontext() == "demo:tower-crossing/questions/go-back/a").target = target
    path.write_bytes(bytes(store))
    lines = path.read_text(encoding="utf-8").split("\n")
    at = next(n for n, text in enumerate(lines, 1) if "go-back/a" in text)
    line = next(n for n, text in enumerate(lines[at:], at + 1) if text.startswith("msgstr"))  # the translator's line
    result = run_cli("l10n", "import", "--data", "data", path.name, cwd=tmp_path)
    assert (result.returncode, result.stdout, result.stderr) == (
        1,
        "",
        f"zh.po:{line}: demo:tower-crossing/questions/go-back/a: {problem} — keep every [[…]] inline code of the "
        "source, once each\nhouserules l10n: nothing imported: 1 problem in zh.po\n",
    )
    assert snapshot(data) == before


def test_a_write_failing_midway_leaves_every_file_as_it_was(tmp_path, monkeypatch):
    """The disk fills up while the second of three new files is written: nothing is written, nothing is left."""
    import errno

    from houserules.data.authoring import transaction
    from houserules.errors import HouserulesError
    from houserules.export.l10n_import import import_file

    data = make_data(tmp_path)
    before = snapshot(data)
    exported = export(tmp_path, data)
    edit_xliff(exported)  # three files change
    real, calls = transaction._write_file, []

    def second_fails(path, payload, mode, gid=None):
        if path.name.endswith(".houserules-new"):
            calls.append(path)
            if len(calls) == 2:
                raise OSError(errno.ENOSPC, "No space left on device", str(path))
        real(path, payload, mode, gid)

    monkeypatch.setattr(transaction, "_write_file", second_fails)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(
        HouserulesError,
        match=r"the disk is full \(no space left on device\) — free some space and import again; nothing imported",
    ) as raised:
        with transaction.writing(data, "l10n import"):
            import_file(load(data).kb, data, exported)
    assert options_suggested(str(raised.value)) == set()  # not "-o", which the import lacks
    assert len(calls) == 2
    assert snapshot(data) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [".data.lock", "data", "out.xlf"]
    assert not [p for p in data.rglob("*") if p.name.startswith(".")]


XLIFF_WITH_ENTITIES = """<?xml version="1.0"?>
<!DOCTYPE xliff [<!ENTITY word "Tower"><!ENTITY secret SYSTEM "file:///etc/passwd">]>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="zh" trgLang="en">
 <file id="houserules">
  <unit id="u1" name="demo:tower-crossing/title">
   <segment><source>{source}</source><target>Through the &word; &secret;</target></segment>
  </unit>
 </file>
</xliff>
"""


def test_an_xliff_file_with_entity_declarations_is_refused(tmp_path):
    """Entities are never expanded (no file is read for ``&secret;``), and a target that uses one
    is not imported without the entity's text: the file is refused, its line named."""
    data = make_data(tmp_path)
    before = snapshot(data)
    zh_title = load(data).kb.lookup("demo:tower-crossing").data["title"]["zh"]
    (tmp_path / "ent.xlf").write_text(XLIFF_WITH_ENTITIES.format(source=zh_title), encoding="utf-8")
    result = run_cli("l10n", "import", "--data", "data", "ent.xlf", cwd=tmp_path)
    assert (result.returncode, result.stdout, result.stderr) == (
        1,
        "",
        "houserules l10n: ent.xlf:2: the file has a <!DOCTYPE> (entity declarations), which XLIFF files do not "
        "have — remove the <!DOCTYPE …> and write each entity's text itself, or export the file again\n",
    )
    assert snapshot(data) == before


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def _folder(path: Path) -> Path:
    path.mkdir()
    return path


def _sparse(path: Path) -> Path:
    from houserules.export.l10n_read import MAX_IMPORT_BYTES

    with path.open("wb") as handle:
        handle.truncate(MAX_IMPORT_BYTES + 1)
    return path


@pytest.mark.parametrize(
    "make, message",
    [
        (_fifo, "it is a named pipe (FIFO), not a regular file — give the path of the translated XLIFF or PO file"),
        (_folder, "it is a folder, not a regular file — give the path of the translated XLIFF or PO file"),
        (
            _sparse,
            "the file is 33554433 bytes, over the 33554432-byte limit of a translator's file — give the path of "
            "the translated XLIFF or PO file, or export one game at a time ('houserules l10n export --game G') and "
            "import each file",
        ),
    ],
    ids=["named-pipe", "folder", "huge"],
)
def test_a_translators_file_that_is_no_regular_file_or_too_big_is_refused_unread(tmp_path, make, message):
    """A named pipe nobody writes would block the import for ever, a device or a huge file fill the memory."""
    data = make_data(tmp_path)
    before = snapshot(data)
    make(tmp_path / "in.po")
    result = run_cli("l10n", "import", "--data", "data", "in.po", cwd=tmp_path)
    assert (result.returncode, result.stdout, result.stderr) == (
        1,
        "",
        f"houserules l10n: cannot read in.po: {message}\n",
    )
    assert options_suggested(result.stderr) <= IMPORT_OPTIONS
    assert snapshot(data) == before


def test_a_device_is_refused_unread(tmp_path):
    make_data(tmp_path)
    result = run_cli("l10n", "import", "--data", "data", "/dev/zero", cwd=tmp_path)
    assert (result.returncode, result.stderr) == (
        1,
        "houserules l10n: cannot read /dev/zero: it is a device, not a regular file — "
        "give the path of the translated XLIFF or PO file\n",
    )
