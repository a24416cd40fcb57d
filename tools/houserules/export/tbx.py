"""The glossary as TBX (ISO 30042), in the TBX-Basic ``martif`` form that CAT tools import.

OmegaT, memoQ, Trados MultiTerm and Phrase read this form: one ``termEntry`` per
term, one ``langSet`` per language, one ``tig`` per term form, and the form's
standing as a ``termNote type="administrativeStatus"``: the glossary's Chinese and
English terms are preferred, its variants admitted, its deprecated forms
deprecated. A variant or deprecated form is filed under Chinese when it holds a
Han character and under English otherwise (the glossaries mix both, e.g. the
variant ``monster`` of 怪物).

Every text goes through ElementTree, which escapes it; characters XML 1.0 cannot
carry at all are dropped.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree

from ..data.reading.model import NO_TEXT, Game, KnowledgeBase, Term
from ..render.text import xml_text

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
#: TBX-Basic's values of administrativeStatus.
PREFERRED, ADMITTED, DEPRECATED = "preferredTerm-admn-sts", "admittedTerm-admn-sts", "deprecatedTerm-admn-sts"
_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff\U00020000-\U0003134f]")


def language_of(text: str) -> str:
    """``zh`` for a form with a Han character, else ``en``.

    >>> language_of("叛徒"), language_of("monster"), language_of("HP 值")
    ('zh', 'en', 'zh')
    """
    return "zh" if _HAN.search(text) else "en"


def _text(text: str) -> str:
    return xml_text(text)


def _sub(parent: etree.Element, tag: str, text: str | None = None, **attributes: str) -> etree.Element:
    element = etree.SubElement(parent, tag, attributes)
    if text is not None:
        element.text = _text(text)
    return element


def _tig(lang_set: etree.Element, term: str, status: str) -> None:
    tig = _sub(lang_set, "tig")
    _sub(tig, "term", term)
    _sub(tig, "termNote", status, type="administrativeStatus")


def term_entry(body: etree.Element, kb: KnowledgeBase, game: Game, term: Term) -> None:
    """One ``termEntry``: the subject (the game), a link to the entry, then a ``langSet`` per language."""
    entry = _sub(body, "termEntry", id=f"term-{game.id}--{term.id}")
    _sub(entry, "descrip", f"{game.name.zh} {game.name.en}", type="subjectField")
    target = kb.entries.get(term.entry)
    if target is not None:
        _sub(entry, "note", f"条目 Entry: {target.code} {target.title.zh} · {target.title.en} ({target.ref})")
    forms: dict[str, list[tuple[str, str]]] = {"zh": [(term.zh, PREFERRED)], "en": [(term.en, PREFERRED)]}
    for forms_of, status in ((term.variants, ADMITTED), (term.deprecated, DEPRECATED)):
        for form in forms_of:
            forms[language_of(form)].append((form, status))
    for lang, items in forms.items():
        lang_set = _sub(entry, "langSet", **{XML_LANG: lang})
        note = (term.note or NO_TEXT).get(lang)
        if note:
            _sub(lang_set, "note", note)
        seen: set[str] = set()
        for form, status in items:
            if form not in seen:  # a form listed twice keeps its first (strongest) standing
                seen.add(form)
                _tig(lang_set, form, status)


def glossary_tbx(kb: KnowledgeBase, version: str = "") -> bytes:
    """Every game's glossary as one TBX-Basic document (UTF-8, with an XML declaration)."""
    root = etree.Element("martif", {"type": "TBX-Basic", XML_LANG: "zh"})
    header = _sub(root, "martifHeader")
    file_desc = _sub(header, "fileDesc")
    _sub(_sub(file_desc, "titleStmt"), "title", "房规速查术语表 · houserules glossary")
    source = "houserules export --what glossary --format tbx" + (f"; data version {version}" if version else "")
    _sub(_sub(file_desc, "sourceDesc"), "p", source)
    _sub(_sub(header, "encodingDesc"), "p", "TBXBasicXCSV02.xcs", type="XCSURI")
    body = _sub(_sub(root, "text"), "body")
    for game in kb.games.values():
        for term in game.glossary.terms if game.glossary else []:
            term_entry(body, kb, game, term)
    etree.indent(root)
    written: bytes = etree.tostring(root, encoding="utf-8", xml_declaration=True)
    return written + b"\n"
