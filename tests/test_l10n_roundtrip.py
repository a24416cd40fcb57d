"""The translators' round trip as translators and their tools use it, and as hostile files try it.

Each test starts from a copy of ``tests/fixtures/translators/data``, exports XLIFF or PO, changes
the file as a CAT tool, Weblate or Poedit would (translate-toolkit, or the XML itself) and imports
it: stale files, conflicts, unreviewed targets, partial stamps, segments, ``xml:space``, charsets,
the dry run and the notes. Exact messages and exit codes; nothing written on a refusal.
"""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

import polib
import pytest
from lxml import etree
from translate.storage import pypo, xliff2

from conftest import FIXTURES, run_cli
from houserules.data.reading.load import load
from houserules.data.versions.sourcehash import UNREVIEWED, field_hash, field_hashes

SOURCE_DATA = FIXTURES / "translators" / "data"
X = "{urn:oasis:names:tc:xliff:document:2.0}"
MDA = "{urn:oasis:names:tc:xliff:metadata:2.0}"
TOWER = "demo/entries/tower.yaml"


def make_data(tmp_path: Path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(SOURCE_DATA, target)
    return target


def snapshot(data: Path) -> dict[str, bytes]:
    return {str(p.relative_to(data)): p.read_bytes() for p in sorted(data.rglob("*")) if p.is_file()}


def export(tmp_path: Path, name: str, *options: str) -> Path:
    result = run_cli("l10n", "export", "--data", "data", *options, "-o", name, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    return tmp_path / name


def edit_po(path: Path, texts: dict[str, str], fuzzy: set[str] = frozenset()) -> None:
    """Change targets as Weblate or Poedit saves them; ``fuzzy``: those left marked as needing work."""
    store = pypo.pofile.parsestring(path.read_bytes())
    for unit in store.units:
        uid = unit.getcontext()
        if uid in texts:
            unit.target = texts[uid]
            unit.markfuzzy(uid in fuzzy)
    path.write_bytes(bytes(store))


def edit_xliff(path: Path, texts: dict[str, str]) -> None:
    store = xliff2.Xliff2File.parsestring(path.read_bytes())
    by_id = {u.getid(): u for u in store.units}
    for uid, text in texts.items():
        by_id[uid].target = text
    path.write_bytes(bytes(store))


def po_line(path: Path, uid: str) -> int:
    """The line of the unit's ``msgstr`` (or ``msgstr[0]``), where the translator's text starts."""
    lines = re.split(r"\r\n|\r|\n", path.read_bytes().decode("utf-8"))
    at = next(n for n, line in enumerate(lines, 1) if line.startswith("msgctxt ") and uid in line)
    return next(n for n, line in enumerate(lines[at:], at + 1) if line.startswith("msgstr"))


def entry(data: Path, ref: str):
    return load(data).kb.entries[ref]


def importing(tmp_path: Path, path: Path, *options: str):
    return run_cli("l10n", "import", "--data", "data", *options, path.name, cwd=tmp_path)


# -- stale-safe --------------------------------------------------------------------------------------


def test_an_xliff_and_a_po_of_one_export_never_undo_each_other(tmp_path):
    """The PO import leaves the two XLIFF edits: a unit whose target the translator left is never written."""
    data = make_data(tmp_path)
    xlf, po = export(tmp_path, "a.xlf"), export(tmp_path, "a.po", "--format", "po")
    edit_xliff(xlf, {"demo:tower-crossing.title": "Going through the Tower", "demo:tower.summary": "A barrier room."})
    first = importing(tmp_path, xlf)
    edit_po(po, {"demo:library/summary": "End your turn here: gain 1 in a mental trait."})
    second = importing(tmp_path, po)
    kb = load(data).kb
    assert kb.entries["demo:tower-crossing"].title.en == "Going through the Tower"
    assert kb.entries["demo:tower"].summary.en == "A barrier room."
    assert kb.entries["demo:library"].summary.en == "End your turn here: gain 1 in a mental trait."
    assert (first.returncode, first.stderr, second.returncode, second.stderr) == (0, "", 0, "")
    assert first.stdout == (
        "changed demo:tower-crossing: title (stamped en: title)\n"
        "changed demo:tower: summary (stamped en: summary)\n"
        "imported 2 texts into 2 files from a.xlf; houserules check: ok\n"
    )
    assert second.stdout == (
        "changed demo:library: summary (stamped en: summary)\nimported 1 text into 1 file from a.po; houserules check: ok\n"
    )
    # The same PO again: nothing left to do, nothing undone.
    again = importing(tmp_path, po)
    assert again.stdout == "nothing to import from a.po: every target is as exported or as in the data\n"


def test_a_text_changed_in_the_data_and_in_the_file_is_a_conflict_that_shows_both(tmp_path):
    data = make_data(tmp_path)
    po = export(tmp_path, "a.po", "--format", "po")
    tower = data / TOWER
    tower.write_text(tower.read_text(encoding="utf-8").replace("en: Tower}", "en: The Tower}"), encoding="utf-8")
    edit_po(po, {"demo:tower/title": "Tower Room"})
    before = snapshot(data)
    result = importing(tmp_path, po)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        f"a.po:{po_line(po, 'demo:tower/title')}: demo:tower/title: conflict: the target in the data changed since "
        'the export — the data now: "The Tower"; this file: "Tower Room" — keep the data\'s text (export again and '
        "translate in the new file), or import with --force to write this file's text over it\n"
        "houserules l10n: nothing imported: 1 problem in a.po\n"
    )
    assert snapshot(data) == before
    forced = importing(tmp_path, po, "--force")
    assert forced.returncode == 0, forced.stderr
    assert entry(data, "demo:tower").title.en == "Tower Room"


@pytest.mark.parametrize("fmt", ["xliff", "po"])
def test_a_file_exported_by_an_older_version_is_refused_with_the_fix(tmp_path, fmt):
    """Without the record of the exported targets, an import could undo later changes: export again, or --force."""
    data = make_data(tmp_path)
    name = "old.xlf" if fmt == "xliff" else "old.po"
    path = export(tmp_path, name, "--format", fmt)
    text = path.read_text(encoding="utf-8")
    if fmt == "xliff":
        text = re.sub(r"\s*<mda:metadata>.*?</mda:metadata>", "", text, flags=re.S)
        text = text.replace(
            '<target xml:space="preserve">Tower</target>', '<target xml:space="preserve">The Tower</target>'
        )
    else:
        text = re.sub(r"#\. houserules-exported-target: [0-9a-f]+\n", "", text)
        text = text.replace('msgstr "Tower"', 'msgstr "The Tower"')
    path.write_text(text, encoding="utf-8")
    before = snapshot(data)
    result = importing(tmp_path, path)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        f"houserules l10n: {name}: nothing imported: the file does not record the target each unit was exported "
        "with (it was exported by an older houserules, or a tool dropped the record) — export again and translate "
        "in the new file, or import with --force to write every target that differs from the data (which undoes "
        "what was written into the data since this file was exported)\n"
    )
    assert snapshot(data) == before
    forced = importing(tmp_path, path, "--force")
    assert forced.returncode == 0, forced.stderr
    assert entry(data, "demo:tower").title.en == "The Tower"


def test_a_unit_whose_record_a_tool_dropped_is_refused_alone(tmp_path):
    data = make_data(tmp_path)
    path = export(tmp_path, "a.po", "--format", "po")
    text = path.read_text(encoding="utf-8")
    start = text.index('msgctxt "demo:tower/title"')
    head, tail = text[:start], text[start:]
    head = head[: head.rindex("#. houserules-exported-target:")] + head[head.rindex("#: ") :]
    path.write_text(head + tail.replace('msgstr "Tower"', 'msgstr "The Tower"', 1), encoding="utf-8")
    before = snapshot(data)
    result = importing(tmp_path, path)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr.splitlines() == [
        f"a.po:{po_line(path, 'demo:tower/title')}: demo:tower/title: the unit does not record the target it was "
        "exported with — export again and translate in the new file, or import with --force to write every target "
        "that differs from the data (which undoes what was written into the data since this file was exported)",
        "houserules l10n: nothing imported: 1 problem in a.po",
    ]
    assert snapshot(data) == before


# -- honest states -------------------------------------------------------------------------------------


def stamp_of(data: Path, ref: str, lang: str = "en") -> object:
    return entry(data, ref).data["translations"][lang]["source_hash"]


def test_a_fuzzy_po_target_is_imported_without_a_stamp_and_shows_as_needing_review(tmp_path):
    data = make_data(tmp_path)
    po = export(tmp_path, "a.po", "--format", "po")
    edit_po(po, {"demo:tower/title": "The Tower", "demo:tower/summary": "A barrier room."}, fuzzy={"demo:tower/title"})
    result = importing(tmp_path, po)
    check = run_cli("check", "--data", "data", cwd=tmp_path)
    assert check.stdout.splitlines() == [
        "data/demo/entries/tower.yaml:12: demo:tower: warning: the en title is not stamped as reviewed (imported "
        "unreviewed, or not known to match the zh text) — review the en title, then run 'houserules stamp demo:tower'",
        "ok: 4 entries, 4 references, 1 game, 1 warning",
    ]
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == (
        "changed demo:tower: title, summary (stamped en: summary; marked for review en: title)\n"
        "1 target not reviewed in a.po (fuzzy) imported without a stamp: demo:tower/title; a title, summary or "
        "body among them shows as needing review until 'houserules stamp' (--skip-unreviewed leaves them out)\n"
        "imported 2 texts into 1 file from a.po; houserules check: ok\n"
    )
    tower = entry(data, "demo:tower")
    assert tower.title.en == "The Tower"
    assert stamp_of(data, "demo:tower") == {
        "title": UNREVIEWED,
        "summary": field_hash(tower.data, "summary", "zh"),
        "body": field_hash(tower.data, "body", "zh"),
    }
    # Exported again, the unit says so: fuzzy in PO.
    again = polib.pofile(export(tmp_path, "again.po", "--format", "po").read_text(encoding="utf-8"))
    assert [e.msgctxt for e in again.fuzzy_entries()] == ["demo:tower/title"]


@pytest.mark.parametrize(
    "state, sub_state, why",
    [("initial", None, "state initial"), ("translated", "houserules:needs-review", "subState houserules:needs-review")],
)
def test_an_initial_or_needs_review_xliff_target_is_imported_without_a_stamp(tmp_path, state, sub_state, why):
    data = make_data(tmp_path)
    path = export(tmp_path, "a.xlf")
    root = etree.fromstring(path.read_bytes())
    unit = next(u for u in root.iter(f"{X}unit") if u.get("name") == "demo:tower-crossing/title")
    segment = unit.find(f"{X}segment")
    segment.set("state", state)
    if sub_state:
        segment.set("subState", sub_state)
    segment.find(f"{X}target").text = "Going through the Tower"
    path.write_bytes(etree.tostring(root, xml_declaration=True, encoding="utf-8"))
    result = importing(tmp_path, path)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.splitlines()[:2] == [
        "changed demo:tower-crossing: title (marked for review en: title)",
        f"1 target not reviewed in a.xlf ({why}) imported without a stamp: demo:tower-crossing/title; a title, "
        "summary or body among them shows as needing review until 'houserules stamp' (--skip-unreviewed leaves them "
        "out)",
    ]
    assert stamp_of(data, "demo:tower-crossing")["title"] == UNREVIEWED


def test_skip_unreviewed_leaves_them_out(tmp_path):
    data = make_data(tmp_path)
    po = export(tmp_path, "a.po", "--format", "po")
    edit_po(po, {"demo:tower/title": "The Tower", "demo:tower/summary": "A barrier room."}, fuzzy={"demo:tower/title"})
    result = importing(tmp_path, po, "--skip-unreviewed")
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == (
        "changed demo:tower: summary (stamped en: summary)\n"
        "left out 1 unreviewed target (--skip-unreviewed): demo:tower/title\n"
        "imported 1 text into 1 file from a.po; houserules check: ok\n"
    )
    assert entry(data, "demo:tower").title.en == "Tower"


def make_stale(data: Path, stamp: str = "old") -> None:
    """The Chinese summary of demo:tower changes after its translation was stamped (old or field by field)."""
    path = data / TOWER
    text = path.read_text(encoding="utf-8")
    if stamp == "fields":
        hashes = field_hashes(entry(data, "demo:tower").data, "zh")
        text = text.replace(
            "source_hash: c927fa25171d", "source_hash: {" + ", ".join(f"{k}: {v}" for k, v in hashes.items()) + "}"
        )
    path.write_text(text.replace("有障碍的房间，", "有障碍物的房间，"), encoding="utf-8")


OLD_STALE = (
    "data/demo/entries/tower.yaml:12: demo:tower: warning: the en translation may be out of date: the zh text "
    "changed since it was stamped — update the en title, summary and body, then run 'houserules stamp demo:tower'"
)
SUMMARY_STALE = (
    "data/demo/entries/tower.yaml:12: demo:tower: warning: the en summary may be out of date: the zh summary "
    "changed since it was stamped — update the en summary, then run 'houserules stamp demo:tower'"
)


@pytest.mark.parametrize("stamp, warning", [("old", OLD_STALE), ("fields", SUMMARY_STALE)])
def test_an_imported_alias_leaves_a_stale_summary_showing(tmp_path, stamp, warning):
    data = make_data(tmp_path)
    make_stale(data, stamp)
    check = run_cli("check", "--data", "data", cwd=tmp_path)
    assert check.stdout.splitlines()[0] == warning
    po = export(tmp_path, "a.po", "--format", "po")
    edit_po(po, {"demo:tower/aliases": "tower room\nthe tower"})
    result = importing(tmp_path, po)
    check = run_cli("check", "--data", "data", cwd=tmp_path)
    assert check.stdout.splitlines() == [warning, "ok: 4 entries, 4 references, 1 game, 1 warning"]
    assert result.stdout.splitlines()[0] == "changed demo:tower: aliases"  # no stamp: no stamped field changed


def test_an_imported_title_stamps_the_title_only(tmp_path):
    data = make_data(tmp_path)
    make_stale(data, "fields")
    po = export(tmp_path, "a.po", "--format", "po")
    edit_po(po, {"demo:tower/title": "The Tower"})
    result = importing(tmp_path, po)
    assert result.stdout.splitlines()[0] == "changed demo:tower: title (stamped en: title)"
    check = run_cli("check", "--data", "data", cwd=tmp_path)
    assert check.stdout.splitlines() == [SUMMARY_STALE, "ok: 4 entries, 4 references, 1 game, 1 warning"]
    # From an old one-hash stamp that no longer matches: the fields not imported are not known to be fresh.
    data2 = make_data(tmp_path / "old")
    make_stale(data2)
    po2 = export(tmp_path / "old", "a.po", "--format", "po")
    edit_po(po2, {"demo:tower/title": "The Tower"})
    assert importing(tmp_path / "old", po2).returncode == 0
    assert run_cli("check", "--data", "data", cwd=tmp_path / "old").stdout.splitlines()[0] == (
        "data/demo/entries/tower.yaml:12: demo:tower: warning: the en summary and body are not stamped as reviewed "
        "(imported unreviewed, or not known to match the zh text) — review the en summary and body, then run "
        "'houserules stamp demo:tower'"
    )


# -- segments and white space ----------------------------------------------------------------------------

SPLIT = """<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" xmlns:mda="urn:oasis:names:tc:xliff:metadata:2.0"
       version="2.0" srcLang="zh" trgLang="en">
 <file id="f1"{file_space}>
  <unit id="u1" name="demo:tower-crossing/body"{unit_space}>
   <mda:metadata><mda:metaGroup category="houserules">
    <mda:meta type="exported-target-sha256">{digest}</mda:meta>
   </mda:metaGroup></mda:metadata>
   <originalData><data id="d1">[[demo:tower]]</data></originalData>
{parts}
  </unit>
 </file>
</xliff>
"""


def digest(text: str) -> str:
    """The record of an exported target, as the export writes it: SHA-256, 16 hex digits."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def split_unit(data: Path, parts: str, file_space: str = "", unit_space: str = "") -> str:
    body = entry(data, "demo:tower-crossing").data["body"]["en"]
    return SPLIT.format(parts=parts, digest=digest(body), file_space=file_space, unit_space=unit_space)


BODY_ZH = ("进入", "后可以原路返回。", "穿过塔楼需要一次力量能力考验。")


def body_parts(first: str, second: str, second_state: str = "translated") -> str:
    """The body as Okapi segments it: two sentences, the paragraph break between them an ignorable."""
    return f"""   <segment id="s1" state="translated">
    <source xml:space="preserve">{BODY_ZH[0]}<ph id="1" dataRef="d1"/>{BODY_ZH[1]}</source>
    <target xml:space="preserve">{first}</target>
   </segment>
   <ignorable><source xml:space="preserve">

</source></ignorable>
   <segment id="s2" state="{second_state}">
    <source xml:space="preserve">{BODY_ZH[2]}
</source>
    {second}
   </segment>"""


def test_a_unit_split_into_segments_is_joined_in_order(tmp_path):
    data = make_data(tmp_path)
    (tmp_path / "split.xlf").write_text(
        split_unit(
            data,
            body_parts(
                'Once inside the <ph id="1" dataRef="d1"/> you may turn back.',
                '<target xml:space="preserve">Crossing the Tower takes a Might roll.\n</target>',
            ),
        ),
        encoding="utf-8",
    )
    result = run_cli("l10n", "import", "--data", "data", "split.xlf", cwd=tmp_path)
    assert (result.returncode, result.stderr) == (0, "")
    assert entry(data, "demo:tower-crossing").data["body"]["en"] == (
        "Once inside the [[demo:tower]] you may turn back.\n\nCrossing the Tower takes a Might roll.\n"
    )


def test_a_unit_translated_only_in_part_is_refused(tmp_path):
    data = make_data(tmp_path)
    before = snapshot(data)
    (tmp_path / "split.xlf").write_text(
        split_unit(data, body_parts('Once inside the <ph id="1" dataRef="d1"/> you may turn back.', "", "initial")),
        encoding="utf-8",
    )
    result = run_cli("l10n", "import", "--data", "data", "split.xlf", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        "split.xlf:12: demo:tower-crossing/body: segment 2 of 2 has no target: the unit is translated only in part "
        "— translate every segment of the unit, or remove the unit from the file\n"
        "houserules l10n: nothing imported: 1 problem in split.xlf\n"
    )
    assert snapshot(data) == before


TITLE = """<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" xmlns:mda="urn:oasis:names:tc:xliff:metadata:2.0"
       version="2.0" srcLang="zh" trgLang="en"{root_space}>
 <file id="f1">
  <unit id="u1" name="demo:tower-crossing/title">
   <mda:metadata><mda:metaGroup category="houserules">
    <mda:meta type="exported-target-sha256">{digest}</mda:meta>
   </mda:metaGroup></mda:metadata>
   <segment state="translated">
    <source>穿过塔楼</source>
    <target{target_space}>
      Going   through
      the Tower
    </target>
   </segment>
  </unit>
 </file>
</xliff>
"""


@pytest.mark.parametrize(
    "root_space, target_space, expected",
    [
        ("", "", "Going through the Tower"),  # XLIFF's default: white space folded, the ends trimmed
        ("", ' xml:space="default"', "Going through the Tower"),
        (' xml:space="preserve"', ' xml:space="default"', "Going through the Tower"),  # the nearest wins
        (' xml:space="preserve"', "", "\n      Going   through\n      the Tower\n    "),  # inherited
    ],
    ids=["no-attribute", "default", "default-inside-preserve", "preserve-inherited"],
)
def test_xml_space_is_honoured_and_inherited(tmp_path, root_space, target_space, expected):
    from houserules.export.l10n_read import read

    data = make_data(tmp_path)
    path = tmp_path / "title.xlf"
    path.write_text(
        TITLE.format(root_space=root_space, target_space=target_space, digest=digest("Crossing the Tower")),
        encoding="utf-8",
    )
    assert [u.target for u in read(path)[2]] == [expected]
    if "\n" not in expected:
        result = run_cli("l10n", "import", "--data", "data", path.name, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert entry(data, "demo:tower-crossing").title.en == "Going through the Tower"


def test_a_target_a_tool_adds_keeps_its_line_breaks(tmp_path):
    """translate-toolkit (Weblate) adds a <target> without xml:space: the file's preserve holds for it."""
    data = make_data(tmp_path)
    path = data / "demo/entries/tower-crossing.yaml"
    text = path.read_text(encoding="utf-8")
    start = text.index("  en: |\n    After")
    path.write_text(text[:start] + text[text.index("applies_to:") :], encoding="utf-8")  # no English body yet
    xlf = export(tmp_path, "a.xlf")
    body = "After entering the [[demo:tower]] you may go back.\n\nCrossing it takes a Might roll.\n"
    store = xliff2.Xliff2File.parsestring(xlf.read_bytes())
    unit = next(u for u in store.units if u.getid() == "demo:tower-crossing.body")
    unit.target = body
    xlf.write_bytes(bytes(store))
    assert "<target>After entering the" in xlf.read_text(encoding="utf-8")
    result = importing(tmp_path, xlf)
    assert result.returncode == 0, result.stderr
    assert entry(data, "demo:tower-crossing").data["body"]["en"] == body


@pytest.mark.parametrize(
    "code, expected",
    [
        ("2028", "Going\u2028through"),  # a line separator: XML 1.0 carries it only as <cp>
        ("zz", 'code point <cp hex="zz"> in the target is no character — copy the inline code from the source again'),
    ],
)
def test_a_code_point_element_is_its_character_or_refused(tmp_path, code, expected):
    """XLIFF writes a character XML cannot carry as <cp hex="…"/>; YAML gets it escaped in quotes."""
    data = make_data(tmp_path)
    path = tmp_path / "title.xlf"
    text = TITLE.format(root_space="", target_space=' xml:space="preserve"', digest=digest("Crossing the Tower"))
    path.write_text(
        re.sub(r"(?s)<target(.*?)>.*?</target>", rf'<target\1>Going<cp hex="{code}"/>through</target>', text)
    )
    before = (data / "demo/entries/tower-crossing.yaml").read_bytes()
    result = importing(tmp_path, path)
    if code == "zz":
        assert (result.returncode, result.stderr) == (
            1,
            f"title.xlf:11: demo:tower-crossing/title: {expected}\nhouserules l10n: nothing imported: 1 problem in "
            "title.xlf\n",
        )
    else:  # the character arrives whole; a title is one line, so the check refuses it and nothing is written
        assert result.returncode == 1, result.stderr
        assert "field 'title.en' holds a line separator (U+2028)" in result.stderr.splitlines()[0]
        assert result.stderr.endswith("(nothing was written)\n")
        assert (data / "demo/entries/tower-crossing.yaml").read_bytes() == before


# -- charsets --------------------------------------------------------------------------------------------


NEW_SUMMARY = "在这里结束回合时，一项精神能力上升1级。"


def zh_po(tmp_path: Path, charset: str, encoding: str) -> Path:
    """An en → zh PO whose library summary is changed, saved in ``encoding`` with ``charset`` in its header."""
    path = export(tmp_path, "zh.po", "--format", "po", "--source", "en")
    edit_po(path, {"demo:library/summary": NEW_SUMMARY})
    text = path.read_text(encoding="utf-8").replace("charset=UTF-8", f"charset={charset}")
    path.write_bytes(text.encode(encoding))
    return path


@pytest.mark.parametrize("charset", ["GB18030", "gbk", "UTF-8"])
def test_a_po_is_decoded_by_the_charset_its_header_declares(tmp_path, charset):
    data = make_data(tmp_path)
    path = zh_po(tmp_path, charset, charset)
    result = importing(tmp_path, path)
    assert (result.returncode, result.stderr) == (0, "")
    assert entry(data, "demo:library").summary.zh == NEW_SUMMARY


def test_bytes_that_are_not_the_declared_charset_are_refused_with_the_line(tmp_path):
    """GB18030 bytes under a UTF-8 header: refused, not read as ISO-8859-1 (``½ø½×``)."""
    data = make_data(tmp_path)
    before = snapshot(data)
    path = zh_po(tmp_path, "UTF-8", "gb18030")
    line = next(n for n, raw in enumerate(path.read_bytes().split(b"\n"), 1) if not raw.isascii())
    result = importing(tmp_path, path)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        f"houserules l10n: zh.po:{line}: bytes on this line are not UTF-8, the charset the header declares — save "
        "the file as UTF-8, or declare its charset in the header's Content-Type\n"
    )
    assert snapshot(data) == before
    path = zh_po(tmp_path, "Big5", "gb18030")
    try:  # many GB18030 pairs are Big5 too: the first that is not
        path.read_bytes().decode("big5")
    except UnicodeDecodeError as exc:
        line = path.read_bytes()[: exc.start].count(b"\n") + 1
    result = importing(tmp_path, path)
    assert result.stderr == (
        f"houserules l10n: zh.po:{line}: bytes on this line are not Big5, the charset the header declares — save "
        "the file as Big5, or as UTF-8 with 'charset=UTF-8' in its header\n"
    )
    path = zh_po(tmp_path, "KLINGON", "utf-8")
    line = next(n for n, text in enumerate(path.read_text(encoding="utf-8").split("\n"), 1) if "=KLINGON" in text)
    assert line > 1
    result = importing(tmp_path, path)
    assert result.stderr == (
        f"houserules l10n: zh.po:{line}: the header declares the charset 'KLINGON', which is not known — save the file as "
        "KLINGON, or as UTF-8 with 'charset=UTF-8' in its header\n"
    )
    assert snapshot(data) == before


def test_an_xliff_file_is_decoded_by_its_xml_declaration(tmp_path):
    data = make_data(tmp_path)
    path = export(tmp_path, "zh.xlf", "--source", "en")
    edit_xliff(path, {"demo:library.summary": NEW_SUMMARY})
    text = path.read_text(encoding="utf-8").replace('encoding="UTF-8"', 'encoding="GB18030"')
    assert 'encoding="GB18030"' in text
    path.write_bytes(text.encode("gb18030"))
    result = importing(tmp_path, path)
    assert (result.returncode, result.stderr) == (0, "")
    assert entry(data, "demo:library").summary.zh == NEW_SUMMARY
    path.write_bytes(text.replace('encoding="GB18030"', 'encoding="UTF-8"').encode("gb18030"))
    line = next(n for n, raw in enumerate(path.read_bytes().split(b"\n"), 1) if not raw.isascii())
    result = importing(tmp_path, path)
    assert (result.returncode, result.stderr) == (
        1,
        f"houserules l10n: zh.xlf:{line}: bytes on this line are not UTF-8, the charset the XML declaration "
        "declares — save the file as UTF-8, or declare its encoding in the XML declaration\n",
    )


def test_the_charset_is_read_from_the_header_entry_only(tmp_path):
    """A text holding a line like the header's is text: its charset is neither read nor rewritten, even when the
    header declares none (UTF-8)."""
    data = make_data(tmp_path)
    path = export(tmp_path, "zh.po", "--format", "po", "--source", "en")
    body = "进入[[demo:tower]]后可以原路返回。\n\nContent-Type: text/plain; charset=ISO-8859-1\n"
    edit_po(path, {"demo:library/summary": NEW_SUMMARY, "demo:tower-crossing/body": body})
    text = path.read_text(encoding="utf-8")
    assert '\n"Content-Type: text/plain; charset=ISO-8859-1\\n"\n' in text
    path.write_text(text.replace('"Content-Type: text/plain; charset=UTF-8\\n"\n', "", 1), encoding="utf-8")
    result = importing(tmp_path, path)
    assert (result.returncode, result.stderr) == (0, "")
    assert entry(data, "demo:library").summary.zh == NEW_SUMMARY
    assert entry(data, "demo:tower-crossing").body.zh == body


LATIN_FIX = "declare 'charset=UTF-8' in the header's Content-Type (the file is saved as UTF-8), or save the file as {}"


@pytest.mark.parametrize("charset", ["ISO-8859-1", "latin-1", "cp1252", "windows-1252"])
def test_a_utf8_file_declaring_a_latin_charset_is_refused_by_name(tmp_path, charset):
    """Any bytes are Latin-1 text: a UTF-8 file mislabelled so would import as mojibake (``åœ¨``)."""
    data = make_data(tmp_path)
    before = snapshot(data)
    path = zh_po(tmp_path, charset, "utf-8")
    line = next(n for n, raw in enumerate(path.read_bytes().split(b"\n"), 1) if not raw.isascii())
    result = importing(tmp_path, path)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        f"houserules l10n: zh.po:{line}: the file is UTF-8 (the bytes of its non-ASCII characters from this line "
        f"on), not {charset}, the charset the header declares: read as {charset}, each would be imported as other "
        f"characters — {LATIN_FIX.format(charset)}\n"
    )
    assert snapshot(data) == before
    xlf = export(tmp_path, "zh.xlf", "--source", "en")
    xlf.write_text(xlf.read_text(encoding="utf-8").replace("encoding='utf-8'", f"encoding='{charset}'"), "utf-8")
    line = next(n for n, raw in enumerate(xlf.read_bytes().split(b"\n"), 1) if not raw.isascii())
    result = importing(tmp_path, xlf)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        f"houserules l10n: zh.xlf:{line}: the file is UTF-8 (the bytes of its non-ASCII characters from this line "
        f"on), not {charset}, the charset the XML declaration declares: read as {charset}, each would be imported "
        'as other characters — declare encoding="UTF-8" in the XML declaration (the file is saved as UTF-8), or '
        f"save the file as {charset}\n"
    )
    assert snapshot(data) == before


@pytest.mark.parametrize("charset, target", [("ISO-8859-1", "Étage supérieur"), ("cp1252", "L’étage supérieur")])
def test_a_latin_1_file_is_still_read_as_latin_1(tmp_path, charset, target):
    """Bytes that are not UTF-8 under a Latin-1 header: the file is Latin-1."""
    make_data(tmp_path)
    path = export(tmp_path, "zh.po", "--format", "po", "--source", "en")
    blocks = path.read_text(encoding="utf-8").split("\n\n")
    unit = next(b for b in blocks if 'msgctxt "demo:library/facts/0/value"' in b)
    unit = "\n".join(line for line in unit.split("\n") if line.isascii() or line.startswith("msgstr"))
    unit = unit.replace('msgstr "上层"', f'msgstr "{target}"')
    header = blocks[0].replace("charset=UTF-8", f"charset={charset}")
    path.write_bytes(f"{header}\n\n{unit}\n".encode(charset))
    result = importing(tmp_path, path, "--dry-run")
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.startswith(f"DM-R02/facts/0/value (zh):\n  - 上层\n  + {target}\n")


# -- readable -------------------------------------------------------------------------------------------


def test_the_dry_run_shows_each_text_old_and_new_and_writes_nothing(tmp_path):
    data = make_data(tmp_path)
    before = snapshot(data)
    po = export(tmp_path, "a.po", "--format", "po")
    body = (
        "After entering the [[demo:tower]] you may go back the way you came, and you may do so on any later turn "
        "as long as the door stays open.\n\nCrossing the Tower takes a Might trait roll.\n"
    )
    edit_po(
        po,
        {
            "demo:tower-crossing/body": body,
            "demo:tower/aliases": "tower room\nthe tower",
            "demo:tower/title": "The Tower",
        },
        fuzzy={"demo:tower/title"},
    )
    result = importing(tmp_path, po, "--dry-run")
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == (
        "DM-A1/body (en):\n"
        "  - After entering the [[demo:tower]] you may go back the way you came.\n"
        "  - \n"
        "  - Crossing the Tower takes a Might trait roll.\n"
        "  + After entering the [[demo:tower]] you may go back the way you came, and you may do so on any\n"
        "    later turn as long as the door stays open.\n"
        "  + \n"
        "  + Crossing the Tower takes a Might trait roll.\n"
        "DM-R01/title (en): — not reviewed in the file (fuzzy): no stamp\n"
        "  - Tower\n"
        "  + The Tower\n"
        "DM-R01/aliases (en):\n"
        "  - tower room\n"
        "  + tower room\n"
        "  + the tower\n"
        "would change demo:tower-crossing: body (stamped en: body)\n"
        "would change demo:tower: title, aliases (marked for review en: title)\n"
        "1 target not reviewed in a.po (fuzzy) would be imported without a stamp: demo:tower/title; a title, summary "
        "or body among them shows as needing review until 'houserules stamp' (--skip-unreviewed leaves them out)\n"
        "dry run: 3 texts in 2 files would change; nothing written\n"
    )
    assert snapshot(data) == before


def test_errata_units_carry_the_card_and_both_texts_and_references_show_their_entries(tmp_path):
    make_data(tmp_path)
    po = polib.pofile(export(tmp_path, "zh.po", "--format", "po", "--source", "en").read_text(encoding="utf-8"))
    erratum = next(e for e in po if e.msgctxt == "demo:tower-errata/errata/0/corrected")
    assert erratum.comment.splitlines()[-4:-1] == [
        "卡牌 Component: 塔楼 · Tower (DM-R01)",
        "印刷的文字 Printed (zh-CN, 1e): 高塔：受到1点肉体损伤",
        "更正的文字 Corrected (now in the data): 塔楼：肉体能力上升1级",
    ]
    answer = next(e for e in po if e.msgctxt == "demo:tower-crossing/questions/go-back/a")
    assert "引用 References: [[demo:tower]] = 塔楼 · Tower (DM-R01)" in answer.comment.splitlines()
    root = etree.fromstring(export(tmp_path, "zh.xlf", "--source", "en").read_bytes())
    unit = next(u for u in root.iter(f"{X}unit") if u.get("name") == "demo:tower-errata/errata/0/corrected")
    notes = {n.get("category"): n.text for n in unit.iter(f"{X}note")}
    assert notes["component"] == "卡牌 Component: 塔楼 · Tower (DM-R01)"
    assert notes["printed"] == "印刷的文字 Printed (zh-CN, 1e): 高塔：受到1点肉体损伤"


def test_translate_toolkit_keeps_the_record_of_the_exported_targets(tmp_path):
    """Weblate's reader and writer, loading and saving the files, keep each unit's record."""
    make_data(tmp_path)
    xlf = export(tmp_path, "a.xlf")
    saved = bytes(xliff2.Xliff2File.parsestring(xlf.read_bytes()))
    root = etree.fromstring(saved)
    records = [m.text for m in root.iter(f"{MDA}meta")]
    assert len(records) == len(list(root.iter(f"{X}unit"))) == 23 and all(
        re.fullmatch(r"[0-9a-f]{16}", r) for r in records
    )
    po = export(tmp_path, "a.po", "--format", "po")
    saved_po = bytes(pypo.pofile.parsestring(po.read_bytes())).decode("utf-8")
    assert saved_po.count("#. houserules-exported-target: ") == 23


# -- what real tools and hands write ---------------------------------------------------------------------


@pytest.mark.parametrize("escape", ["\\0", "\\x1b", "\\a", "\\v", "\\101", "\\d"])
def test_a_po_escape_translate_toolkit_would_misread_is_refused_with_the_line(tmp_path, escape):
    """GNU gettext reads ``\\0``, ``\\a``, ``\\x1b`` and ``\\101`` as characters (and refuses ``\\d``);
    translate-toolkit drops the backslash (``Lib0rary``): such a text is refused, never written changed."""
    data = make_data(tmp_path)
    path = export(tmp_path, "a.po", "--format", "po")
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('msgstr "Tower"', f'msgstr "To{escape}wer"', 1), encoding="utf-8")
    before = snapshot(data)
    result = importing(tmp_path, path)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        f"houserules l10n: a.po:{po_line(path, 'demo:tower/title')}: the escape {escape[:2]} is not one a PO text "
        'may hold (only \\n, \\t, \\r, \\" and \\\\ are) — write the character itself, or \\\\ for a backslash\n'
    )
    assert snapshot(data) == before
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))  # saved on Windows
    assert importing(tmp_path, path).stderr == result.stderr
    # An escaped backslash before such a letter is a backslash and the letter.
    path.write_text(text.replace('msgstr "Tower"', 'msgstr "To\\\\dwer \\"x\\""', 1), encoding="utf-8")
    result = importing(tmp_path, path)
    assert (result.returncode, result.stderr) == (0, "")
    assert entry(data, "demo:tower").title.en == 'To\\dwer "x"'


@pytest.mark.parametrize(
    "fmt, written, code",
    [
        ("po", "\x1b[31m", "U+001B"),
        ("po", "\x7f", "U+007F"),
        ("xliff", "&#x85;", "U+0085"),
        ("xliff", "&#x9b;", "U+009B"),
    ],
)
def test_a_target_holding_a_code_point_no_output_can_carry_is_refused_with_its_unit(tmp_path, fmt, written, code):
    """Named by the translator's file, line and unit, not by the YAML file the edit would break."""
    data = make_data(tmp_path)
    name = "a.po" if fmt == "po" else "a.xlf"
    path = export(tmp_path, name, "--format", fmt)
    text = path.read_text(encoding="utf-8")
    old = 'msgstr "Tower"' if fmt == "po" else '<target xml:space="preserve">Tower</target>'
    path.write_text(text.replace(old, old.replace("Tower", f"To{written}wer"), 1), encoding="utf-8")
    lines = path.read_text(encoding="utf-8").split("\n")
    line = (
        po_line(path, "demo:tower/title")
        if fmt == "po"
        else next(n for n, x in enumerate(lines, 1) if f">To{written}" in x)
    )
    before = snapshot(data)
    result = importing(tmp_path, path)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr.splitlines() == [
        f"{name}:{line}: demo:tower/title: the target holds the control character {code}, which no page, feed or "
        f"export can carry — remove the control character {code} from the target",
        f"houserules l10n: nothing imported: 1 problem in {name}",
    ]
    assert snapshot(data) == before


def test_a_po_problem_points_at_the_msgstr_line_the_translator_edited(tmp_path):
    """As an XLIFF problem points at its <target>: past a msgid of many lines; a unit in the file twice at its own."""
    make_data(tmp_path)
    path = export(tmp_path, "a.po", "--format", "po")
    edit_po(path, {"demo:tower-crossing/body": "After entering the Tower you may go back.\n\nCrossing it is a roll.\n"})
    text = path.read_text(encoding="utf-8")
    copy = next(b for b in text.split("\n\n") if 'msgctxt "demo:tower/title"' in b)
    copy = copy.replace('msgstr "Tower"', 'msgstr "The Tower"')
    path.write_text(f"{text.rstrip()}\n\n{copy}\n", encoding="utf-8")
    lines = path.read_text(encoding="utf-8").split("\n")
    body_line = po_line(path, "demo:tower-crossing/body")
    assert lines[body_line - 1] == 'msgstr ""' and body_line > po_line(path, "demo:tower-crossing/summary") + 6
    second = max(n for n, line in enumerate(lines, 1) if line.startswith("msgstr"))
    assert lines[second - 1] == 'msgstr "The Tower"'
    result = importing(tmp_path, path)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr.splitlines() == [
        f"a.po:{body_line}: demo:tower-crossing/body: the target lacks [[demo:tower]] — keep every [[…]] inline "
        "code of the source, once each",
        f"a.po:{second}: demo:tower/title: the unit is in the file twice — keep one of them",
        "houserules l10n: nothing imported: 2 problems in a.po",
    ]


def test_po_lines_are_counted_by_the_files_line_breaks_only(tmp_path):
    """U+2028, U+2029, U+0085 and a form feed in a text or a comment are no line breaks of a PO file: the lines
    after them are not shifted."""
    data = make_data(tmp_path)
    path = export(tmp_path, "a.po", "--format", "po")
    text = path.read_text(encoding="utf-8")
    summary = 'msgstr "End your turn here to gain 1 in a mental trait."'
    text = text.replace(summary, summary.replace(" here ", "\u2028here\u2029"), 1)
    text = text.replace("#. demo/library.html\n", "# \x0c \x85 \u2028 \u2029 \x0b \x1c\n#. demo/library.html\n", 1)
    text = text.replace('msgstr "Tower"', 'msgstr "To\x7fwer"', 1)
    path.write_text(text, encoding="utf-8")
    before = snapshot(data)
    for ending in ("\n", "\r\n"):
        path.write_bytes(text.replace("\n", ending).encode("utf-8"))
        line = po_line(path, "demo:tower/title")
        result = importing(tmp_path, path)
        assert (result.returncode, result.stdout) == (1, "")
        assert result.stderr.splitlines() == [
            f"a.po:{line}: demo:tower/title: the target holds the control character U+007F, which no page, feed or "
            "export can carry — remove the control character U+007F from the target",
            "houserules l10n: nothing imported: 1 problem in a.po",
        ]
    assert snapshot(data) == before


CR_BODY = "After entering the [[demo:tower]] you may go back.\r\n\r\nCrossing the Tower takes a Might roll.\r"


@pytest.mark.parametrize("fmt", ["po", "xliff"])
def test_a_target_with_crlf_or_cr_line_breaks_is_written_with_lf(tmp_path, fmt):
    data = make_data(tmp_path)
    name = "a.po" if fmt == "po" else "a.xlf"
    path = export(tmp_path, name, "--format", fmt)
    if fmt == "po":
        edit_po(path, {"demo:tower-crossing/body": CR_BODY})
        assert "\\r\\n" in path.read_text(encoding="utf-8")
    else:
        text = path.read_text(encoding="utf-8")
        old = re.search(
            r"(?s)you may go back the way you came\.\n\nCrossing the Tower takes a Might trait roll\.\n", text
        )
        new = "you may go back.&#13;\n&#13;\nCrossing the Tower takes a Might roll.&#13;"
        path.write_text(text[: old.start()] + new + text[old.end() :], encoding="utf-8")
    result = importing(tmp_path, path)
    assert (result.returncode, result.stderr) == (0, "")
    assert entry(data, "demo:tower-crossing").body.en == CR_BODY.replace("\r\n", "\n").replace("\r", "\n")
    assert b"\r" not in (data / "demo/entries/tower-crossing.yaml").read_bytes()
    assert "\\r" not in (data / "demo/entries/tower-crossing.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize("fmt", ["po", "xliff"])
def test_a_data_text_with_cr_left_as_exported_is_not_written(tmp_path, fmt):
    """The target the file holds and the one recorded at export are compared after the same normalisation (an
    XML reader reads a CR as LF), and so are the sources: a changed target is no changed source."""
    data = make_data(tmp_path)
    crossing = data / "demo/entries/tower-crossing.yaml"
    text = crossing.read_text(encoding="utf-8")
    block = re.search(r"(?s)  zh: \|\n.*?roll\.\n", text)
    quoted = (
        '  zh: "进入[[demo:tower]]后可以原路返回。\\r\\n\\r\\n穿过塔楼。\\r\\n"\n'
        '  en: "After entering the [[demo:tower]] you may go back the way you came.\\r\\n\\r\\nCrossing it.\\r\\n"\n'
    )
    crossing.write_text(text[: block.start()] + quoted + text[block.end() :], encoding="utf-8")
    assert entry(data, "demo:tower-crossing").body.en.count("\r\n") == 3
    before = snapshot(data)
    name = "a.po" if fmt == "po" else "a.xlf"
    path = export(tmp_path, name, "--format", fmt)
    result = importing(tmp_path, path)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == f"nothing to import from {name}: every target is as exported or as in the data\n"
    assert snapshot(data) == before
    path.write_bytes(path.read_bytes().replace(b"Crossing it.", b"Crossing it takes a roll.", 1))
    result = importing(tmp_path, path)
    assert (result.returncode, result.stderr) == (0, "")
    assert entry(data, "demo:tower-crossing").body.en == (
        "After entering the [[demo:tower]] you may go back the way you came.\n\nCrossing it takes a roll.\n"
    )


def test_a_plural_po_entry_is_refused_never_cut_to_its_first_form(tmp_path):
    data = make_data(tmp_path)
    path = export(tmp_path, "a.po", "--format", "po")
    text = path.read_text(encoding="utf-8").replace(
        'msgid "塔楼"\nmsgstr "Tower"', 'msgid "塔楼"\nmsgid_plural "塔楼"\nmsgstr[0] "Tower"\nmsgstr[1] "Towers"', 1
    )
    path.write_text(text, encoding="utf-8")
    before = snapshot(data)
    result = importing(tmp_path, path)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr.splitlines() == [
        f"a.po:{po_line(path, 'demo:tower/title')}: demo:tower/title: the unit has plural forms (msgid_plural, "
        "msgstr[n]), which no text of the data has — write the translation as one msgstr, without msgid_plural",
        "houserules l10n: nothing imported: 1 problem in a.po",
    ]
    assert snapshot(data) == before


def test_an_obsolete_po_entry_is_never_imported_and_the_import_says_so(tmp_path):
    """msgmerge keeps a unit that left the template as ``#~`` lines: its text is named, not silently dropped."""
    data = make_data(tmp_path)
    path = export(tmp_path, "a.po", "--format", "po")
    with path.open("a", encoding="utf-8") as out:
        out.write('\n#~ msgctxt "demo:tower/title"\n#~ msgid "塔楼"\n#~ msgstr "The Tower"\n')
    before = snapshot(data)
    result = importing(tmp_path, path)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == (
        "left out 1 obsolete entry (#~) of a.po, which is never imported: demo:tower/title (to import it, remove "
        "its #~ marks)\n"
        "nothing to import from a.po: every target is as exported or as in the data\n"
    )
    assert snapshot(data) == before


def test_a_file_of_other_data_is_refused_in_one_message_naming_its_games(tmp_path):
    """Not one line per unit: the data folder is the wrong one (or its games were removed since the export)."""
    data = make_data(tmp_path)
    path = export(tmp_path, "a.po", "--format", "po")
    path.write_text(path.read_text(encoding="utf-8").replace('msgctxt "demo:', 'msgctxt "other:'), encoding="utf-8")
    before = snapshot(data)
    result = importing(tmp_path, path)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        "houserules l10n: a.po: nothing imported: none of its 23 units is a text of the data in data (the file's "
        "units are of the game other, which the data does not have) — import it into the data folder it was "
        "exported from (--data DIR)\n"
    )
    assert snapshot(data) == before


@pytest.mark.parametrize("options", [(), ("--force",)], ids=["plain", "force"])
def test_a_body_whose_line_breaks_a_tool_folded_away_is_refused_even_with_force(tmp_path, options):
    """A tool that drops ``xml:space="preserve"`` folds every text: the body's paragraphs would become one line.
    Said as what happened, not as a changed source; never written."""
    data = make_data(tmp_path)
    path = export(tmp_path, "a.xlf")
    text = path.read_text(encoding="utf-8").replace("you may go back the way you came.", "you can go back.", 1)
    path.write_text(text.replace(' xml:space="preserve"', ""), encoding="utf-8")
    before = snapshot(data)
    result = importing(tmp_path, path, *options)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr.splitlines() == [
        f"a.xlf:{_xliff_target_line(path, 'demo:tower-crossing/body')}: demo:tower-crossing/body: the target has lost "
        "its line breaks: the file's source is the data's without them (a tool removed xml:space=\"preserve\") — put "
        'xml:space="preserve" back on the <file> element, or export again and translate in the new file',
        "houserules l10n: nothing imported: 1 problem in a.xlf",
    ]
    assert snapshot(data) == before


def _xliff_target_line(path: Path, name: str) -> int:
    unit = next(u for u in etree.fromstring(path.read_bytes()).iter(f"{X}unit") if u.get("name") == name)
    return unit.find(f"{X}segment/{X}target").sourceline


def test_a_target_that_breaks_its_entry_is_refused_without_the_errors_that_follow_from_it(tmp_path):
    """An entry that no longer loads leaves every reference to it unresolved: those are not shown with fixes
    such as "create the entry", only the problem of the imported text."""
    data = make_data(tmp_path)
    path = export(tmp_path, "a.po", "--format", "po")
    path.write_text(path.read_text(encoding="utf-8").replace('msgstr "Tower"', 'msgstr "The\\nTower"', 1), "utf-8")
    before = snapshot(data)
    result = importing(tmp_path, path)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr.splitlines() == [
        "data/demo/entries/tower.yaml:4: demo:tower: field 'title.en' holds a line break (U+000A), but it is one line "
        "of text: 'The\\nTower' — write 'title.en' on one line: remove the U+000A (in YAML a '|' or '>' block, a "
        "blank line inside quotes or an escape such as \\n or \\u2028 writes one)",
        "houserules l10n: nothing imported: the imported texts would break 1 check (nothing was written)",
    ]
    assert snapshot(data) == before
