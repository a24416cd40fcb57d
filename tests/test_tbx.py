"""``houserules export --what glossary --format tbx``: TBX-Basic that CAT tools import, run as a user would."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as etree

import pytest

from conftest import DATA, run_cli
from houserules.data.reading.load import load
from houserules.export.tbx import ADMITTED, DEPRECATED, PREFERRED

LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def export_tbx(data=DATA) -> etree.Element:
    result = run_cli("export", "--data", str(data), "--what", "glossary", "--format", "tbx")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("<?xml version='1.0' encoding='utf-8'?>")
    return etree.fromstring(result.stdout.encode("utf-8"))


def forms(lang_set: etree.Element) -> dict[str, str]:
    """Each term form of a langSet with its administrative status."""
    return {
        tig.findtext("term"): tig.find("termNote[@type='administrativeStatus']").text for tig in lang_set.iter("tig")
    }


def test_every_glossary_term_is_one_term_entry_with_a_lang_set_per_language():
    root = export_tbx()
    assert root.tag == "martif" and root.get("type") == "TBX-Basic" and root.get(LANG) == "zh"
    assert root.find("martifHeader/encodingDesc/p[@type='XCSURI']").text == "TBXBasicXCSV02.xcs"
    entries = root.findall("text/body/termEntry")
    kb = load(DATA).kb
    terms = [(g.id, t) for g in kb.games.values() for t in (g.glossary.terms if g.glossary else [])]
    assert len(entries) == len(terms) > 100
    assert len({e.get("id") for e in entries}) == len(entries)
    for element, (game, term) in zip(entries, terms):
        assert element.get("id") == f"term-{game}--{term.id}"
        langs = [s.get(LANG) for s in element.findall("langSet")]
        assert langs == ["zh", "en"]
        zh, en = (forms(s) for s in element.findall("langSet"))
        assert zh[term.zh] == PREFERRED and en[term.en] == PREFERRED
        for variant in term.variants:
            assert (zh | en)[variant] in {ADMITTED, PREFERRED}
        for old in term.deprecated:
            assert (zh | en)[old] == DEPRECATED


def test_deprecated_forms_and_notes_of_the_real_glossary():
    root = export_tbx()
    lore = root.find("text/body/termEntry[@id='term-mice-and-mystics--lore']")
    zh = lore.find("langSet[@xml:lang='zh']".replace("xml:lang", LANG))
    assert forms(zh) == {"智慧值": PREFERRED, "智慧": ADMITTED, "智力值": DEPRECATED}
    assert "智力值" in zh.findtext("note")
    assert lore.findtext("descrip[@type='subjectField']") == "鼠侠奇遇 Mice and Mystics"
    minion = root.find("text/body/termEntry[@id='term-mice-and-mystics--minion']")
    english = forms(minion.find(f"langSet[@{LANG}='en']"))
    assert english["monster"] == ADMITTED  # an English variant is filed under English


def test_markup_and_quotes_in_the_glossary_stay_text(tmp_path):
    data = tmp_path / "rules_data"
    shutil.copytree(DATA, data)
    glossary = data / "betrayal" / "glossary.yaml"
    text = glossary.read_text(encoding="utf-8")
    text = text.replace(
        "variants: [叛徒, 背叛者]", 'variants: [叛徒, "<b>&amp;", "]]>"]\n    deprecated: [\'"x" & <y>\']', 1
    )
    glossary.write_text(text, encoding="utf-8")
    traitor = export_tbx(data).find("text/body/termEntry[@id='term-betrayal--traitor']")
    english = forms(traitor.find(f"langSet[@{LANG}='en']"))
    assert english == {"traitor": PREFERRED, "<b>&amp;": ADMITTED, "]]>": ADMITTED, '"x" & <y>': DEPRECATED}


@pytest.mark.parametrize("what", ["entries", "faq", "errata", "review"])
def test_tbx_for_another_table_is_refused_with_a_clear_message(what):
    result = run_cli("export", "--what", what, "--format", "tbx")
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr == (
        f"houserules export: the tbx format is for the glossary only (TBX is a terminology "
        f"exchange format) — use --what glossary --format tbx, or --format csv or json for {what}\n"
    )
