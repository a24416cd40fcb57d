"""Translation units written as XLIFF 2.0 (``[[refs]]`` as inline codes) and as gettext PO."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..data.reading.model import INLINE_REF, KnowledgeBase
from ..errors import HouserulesError
from ..render.text import xml_text
from .l10n import (
    L10N_FORMATS,
    MDA_CATEGORY,
    MDA_EXPORTED,
    MDA_NS,
    PO_EXPORTED,
    SUBSTATE_REVIEW,
    XLIFF_NS,
    Unit,
    other,
    target_digest,
    units,
)

# -- XLIFF 2.0 ---------------------------------------------------------------------------------------
_clean = xml_text


def unit_xml_id(unit_id: str) -> str:
    """The unit id as an XLIFF ``id`` (an NMTOKEN: no ``/``); the exact id is the unit's ``name``.

    >>> unit_xml_id("betrayal:vault/questions/must-move/a")
    'betrayal:vault.questions.must-move.a'
    """
    return unit_id.replace("/", ".")


def _inline(parent: Any, text: str, codes: dict[str, str], sub: Any, target: bool) -> None:
    """``text`` into ``parent``, each ``[[ref]]`` as a ``<ph>`` pointing at its original data."""
    last = None
    position = 0
    used: Counter[str] = Counter()
    for match in INLINE_REF.finditer(text):
        chunk = _clean(text[position : match.start()])
        if last is None:
            parent.text = (parent.text or "") + chunk
        else:
            last.tail = (last.tail or "") + chunk
        ref = match.group(0)
        ids = [pid for pid, value in codes.items() if value == ref]
        if target and used[ref] >= len(ids):  # a reference the source does not have: plain text
            chunk = ref
            if last is None:
                parent.text = (parent.text or "") + chunk
            else:
                last.tail = (last.tail or "") + chunk
        else:
            pid = ids[used[ref]] if target else f"{len(codes) + 1}"
            if not target:
                codes[pid] = ref
            used[ref] += 1
            last = sub(parent, "ph", {"id": pid, "dataRef": f"d{pid}", "equiv": ref, "disp": ref})
        position = match.end()
    chunk = _clean(text[position:])
    if last is None:
        parent.text = (parent.text or "") + chunk
    else:
        last.tail = (last.tail or "") + chunk


def _indent(element: Any, level: int) -> None:
    """Indent the document one space a level, leaving sources and targets (``xml:space="preserve"``) as they are."""
    if element.tag.endswith(("}source", "}target")) or not len(element):
        return
    element.text = "\n" + " " * (level + 1)
    for child in element:
        _indent(child, level + 1)
        child.tail = "\n" + " " * (level + 1)
    child.tail = "\n" + " " * level


def to_xliff(items: list[Unit], src: str, version: str = "") -> bytes:
    """The units as one XLIFF 2.0 document (one ``<file>``, a ``<unit>`` per text).

    Each unit records the target it was exported with in the Metadata module (``<mda:metadata>``,
    category ``houserules``, a ``meta`` of type ``exported-target-sha256``), the place XLIFF 2.0
    gives tools for data of their own, which CAT tools keep."""
    import xml.etree.ElementTree as etree

    def sub(parent: Any, tag: str, attributes: dict[str, str] | None = None, text: str | None = None) -> Any:
        element = etree.SubElement(parent, f"{{{XLIFF_NS}}}{tag}", attributes or {})
        if text is not None:
            element.text = _clean(text)
        return element

    etree.register_namespace("", XLIFF_NS)
    etree.register_namespace("mda", MDA_NS)
    root = etree.Element(f"{{{XLIFF_NS}}}xliff", {"version": "2.0", "srcLang": src, "trgLang": other(src)})
    # Every text's white space is its own: also in a target a tool adds without saying so (translate-toolkit does).
    file = sub(root, "file", {"id": "houserules", "original": "rules_data"})
    file.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
    notes = sub(file, "notes")
    sub(
        notes,
        "note",
        {"category": "source"},
        "houserules l10n export" + (f"; data version {version}" if version else ""),
    )
    for unit in items:
        element = sub(file, "unit", {"id": unit_xml_id(unit.id), "name": unit.id})
        metadata = etree.SubElement(element, f"{{{MDA_NS}}}metadata")
        group = etree.SubElement(metadata, f"{{{MDA_NS}}}metaGroup", {"category": MDA_CATEGORY})
        etree.SubElement(group, f"{{{MDA_NS}}}meta", {"type": MDA_EXPORTED}).text = target_digest(unit.target)
        unit_notes = sub(element, "notes")
        for category, text in unit.notes.items():
            sub(unit_notes, "note", {"category": category}, text)
        codes: dict[str, str] = {}
        original = sub(element, "originalData")
        segment = sub(element, "segment", {"state": "translated" if unit.state == "translated" else "initial"})
        if unit.state == "needs-review":
            segment.set("subState", SUBSTATE_REVIEW)
        source = sub(segment, "source")
        source.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
        _inline(source, unit.source, codes, sub, False)
        if unit.target:
            target = sub(segment, "target")
            target.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
            _inline(target, unit.target, codes, sub, True)
        for pid, ref in codes.items():
            sub(original, "data", {"id": f"d{pid}"}, ref)
        if not codes:
            element.remove(original)
    _indent(root, 0)
    written: bytes = etree.tostring(root, encoding="utf-8", xml_declaration=True)
    return written + b"\n"


# -- PO ------------------------------------------------------------------------------------------------


def to_po(items: list[Unit], src: str, version: str = "") -> bytes:
    """The units as a gettext PO file (msgctxt: the unit id; fuzzy: needs review).

    Each unit records the target it was exported with in its last extracted comment
    (``#. houserules-exported-target: <digest>``), which Weblate, Poedit and translate-toolkit keep."""
    from translate.storage import pypo

    store = pypo.pofile()
    date = (version.split(" ")[0] if version else "2000-01-01") + " 00:00+0000"
    store.updateheader(
        add=True,
        Project_Id_Version=f"houserules {version}".strip(),
        POT_Creation_Date=date,
        PO_Revision_Date=date,
        Last_Translator="",
        Language_Team="",
        Language=other(src),
        X_Source_Language=src,
    )
    store.header().removenotes()
    for unit in items:
        po = store.addsourceunit(unit.source)
        po.setcontext(unit.id)
        po.target = unit.target
        notes = [text for category, text in unit.notes.items() if category != "location"]
        po.addnote("\n".join([*notes, f"{PO_EXPORTED} {target_digest(unit.target)}"]), "developer")
        po.addlocation(unit.notes["location"])
        if unit.state == "needs-review":
            po.markfuzzy(True)
    return bytes(store)


def export_l10n(
    kb: KnowledgeBase,
    fmt: str,
    src: str = "zh",
    game: str | None = None,
    site_url: str = "",
    version: str | None = None,
    items: list[Unit] | None = None,
) -> bytes:
    """The bytes of ``houserules l10n export`` (``version``: the data version, found when not given;
    ``items``: the units of ``game`` in ``src``, when the caller has made them)."""
    from ..data.versions.version import data_version

    if fmt not in L10N_FORMATS:
        raise HouserulesError(f"unknown format '{fmt}' — use one of: {', '.join(L10N_FORMATS)}")
    items = units(kb, src, game, site_url) if items is None else items
    if version is None:
        version = str(data_version(kb)) if kb.root else ""
    return to_xliff(items, src, version) if fmt == "xliff" else to_po(items, src, version)
