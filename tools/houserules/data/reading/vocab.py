"""Controlled vocabularies: every closed list of values lives here, and only here.

The JSON Schemas in ``schema/`` are generated against these lists at load time
(see :func:`houserules.data.reading.schema.entry_schema`), so a value added here is accepted
everywhere at once.
"""

from __future__ import annotations

import re

#: What an entry is. A *ruling* answers a question about other entries; a *rule*
#: explains a rule section; a *component* is a physical piece (a room tile, a
#: card type); a *term* defines a word; a *house-rule* is a group's own rule.
KINDS: dict[str, dict[str, str]] = {
    "ruling": {"zh": "裁定", "en": "Ruling"},
    "rule": {"zh": "规则", "en": "Rule"},
    "component": {"zh": "配件", "en": "Component"},
    "term": {"zh": "术语", "en": "Term"},
    "house-rule": {"zh": "房规", "en": "House rule"},
}

#: Who stands behind the text of an entry.
AUTHORITIES: dict[str, dict[str, str]] = {
    "official": {"zh": "官方规则", "en": "Official rule"},
    "faq": {"zh": "官方 FAQ", "en": "Official FAQ"},
    "clarification": {"zh": "社区补充说明", "en": "Community clarification"},
    "house-rule": {"zh": "房规", "en": "House rule"},
    "translation-note": {"zh": "译注", "en": "Translation note"},
}

#: How sure the project is that an entry is right.
CONFIDENCES: dict[str, dict[str, str]] = {
    "confirmed": {"zh": "已确认", "en": "Confirmed"},
    "uncertain": {"zh": "存疑", "en": "Uncertain"},
}

#: How sure the project is of a question's answer: as of an entry, or ``unanswered``: the sources here do not answer
#: it, and its answer says what is missing and where the rule is (a search that leads with it says no ruling answers).
QUESTION_CONFIDENCES: dict[str, dict[str, str]] = {
    **CONFIDENCES,
    "unanswered": {"zh": "本站未收录", "en": "Not answered here"},
}

#: How complete an entry is.
STATUSES: dict[str, dict[str, str]] = {
    "complete": {"zh": "完整", "en": "Complete"},
    "stub": {"zh": "待补充", "en": "Stub"},
    "needs-review": {"zh": "待审核", "en": "Needs review"},
}

#: Where an erratum stands.
ERRATA_STATUSES: dict[str, dict[str, str]] = {
    "reported": {"zh": "已报告", "en": "Reported"},
    "confirmed": {"zh": "已确认", "en": "Confirmed"},
    "rejected": {"zh": "已驳回", "en": "Rejected"},
}

#: The kinds of source document a game may declare.
SOURCE_KINDS: dict[str, dict[str, str]] = {
    "seed": {"zh": "原始资料", "en": "Source document"},
    "rulebook": {"zh": "规则书", "en": "Rulebook"},
    "faq": {"zh": "官方 FAQ", "en": "Official FAQ"},
    "srd": {"zh": "系统参考文档", "en": "System reference document"},
    "fan": {"zh": "玩家资料", "en": "Fan material"},
    "reference": {"zh": "参考资料", "en": "Reference work"},
}

#: What a citation contributes to an entry. ``completion`` marks text that fills
#: a gap in another source (for example a ruling cut off mid-sentence).
SOURCE_ROLES: dict[str, dict[str, str]] = {
    "basis": {"zh": "依据", "en": "Basis"},
    "completion": {"zh": "补全", "en": "Completion"},
    "context": {"zh": "参考", "en": "Context"},
}

#: Languages of bilingual text fields, in display order (Chinese first).
LANGS: tuple[str, ...] = ("zh", "en")

#: Language tags an erratum may name (the language of the printed component).
ERRATA_LANGS: tuple[str, ...] = ("zh-CN", "zh-TW", "en")

#: Entry ids that would collide with the pages each game folder has in the site.
RESERVED_IDS: frozenset[str] = frozenset({"index", "errata", "glossary", "notes", "tags", "print", "api"})

#: Game ids that would collide with the folders a build writes at the top of the site (its theme's files, the
#: search index, the JSON API, the PDFs, the tag pages, the translators' pages, the codes of the go page).
RESERVED_GAME_IDS: frozenset[str] = frozenset({"api", "assets", "go", "print", "search", "tags", "translate"})

#: Labels of the sections of an entry page, Chinese first, with stable anchors.
SECTIONS: dict[str, dict[str, str]] = {
    "questions": {"zh": "常见问题", "en": "Questions"},
    "details": {"zh": "说明", "en": "Details"},
    "completion": {"zh": "补全", "en": "Completion"},
    "facts": {"zh": "资料", "en": "Facts"},
    "errata": {"zh": "勘误", "en": "Errata"},
    "applies-to": {"zh": "适用于", "en": "Applies to"},
    "rulings": {"zh": "相关裁定与规则", "en": "Rulings that apply"},
    "see-also": {"zh": "另见", "en": "See also"},
    "referenced-by": {"zh": "被引用", "en": "Referenced by"},
    "translator-notes": {"zh": "译注", "en": "Translator notes"},
    "sources": {"zh": "出处", "en": "Sources"},
    "history": {"zh": "修订记录", "en": "History"},
}

#: Why an entry is listed for review (``houserules export --what review``).
REVIEW_REASONS: dict[str, dict[str, str]] = {
    "confidence-uncertain": {"zh": "条目存疑", "en": "Entry uncertain"},
    "status-stub": {"zh": "待补充", "en": "Stub"},
    "status-needs-review": {"zh": "待审核", "en": "Needs review"},
    "uncertain-fact": {"zh": "资料存疑", "en": "Uncertain fact"},
    "uncertain-translator-note": {"zh": "译注存疑", "en": "Uncertain translator note"},
    "stale-translation": {"zh": "译文可能过时", "en": "Translation may be out of date"},
}

#: What ``houserules export`` can write, and in which formats.
EXPORT_TABLES: tuple[str, ...] = ("entries", "faq", "errata", "glossary", "review")
EXPORT_FORMATS: tuple[str, ...] = ("csv", "json", "tbx")
#: The layouts of the printed FAQ: each entry's short answer and its questions, or every detail.
PRINT_LAYOUTS: tuple[str, ...] = ("qa", "full")
#: The tables a format other than CSV and JSON can carry: TBX is a terminology format.
EXPORT_ONLY: dict[str, tuple[str, ...]] = {"tbx": ("glossary",)}

#: How an entry changed from one data version to the next (the 更新记录 page, its feed, ``pdf --changes-since``).
CHANGE_STATUSES: dict[str, dict[str, str]] = {
    "added": {"zh": "新增", "en": "Added"},
    "changed": {"zh": "更改", "en": "Changed"},
    "removed": {"zh": "删除", "en": "Removed"},
}

#: What changed in a changed entry (see :data:`houserules.data.versions.entrychanges.ASPECT_OF`).
CHANGE_ASPECTS: dict[str, dict[str, str]] = {
    "title": {"zh": "标题", "en": "title"},
    "aliases": {"zh": "别名", "en": "aliases"},
    "code": {"zh": "代码", "en": "code"},
    "answer": {"zh": "一句话答案", "en": "answer"},
    "body": {"zh": "说明", "en": "body"},
    "questions": {"zh": "常见问题", "en": "questions"},
    "errata": {"zh": "勘误", "en": "errata"},
    "facts": {"zh": "资料", "en": "facts"},
    "references": {"zh": "相关条目", "en": "references"},
    "sources": {"zh": "出处", "en": "sources"},
    "status": {"zh": "可信度与状态", "en": "confidence and status"},
    "translator-notes": {"zh": "译注", "en": "translator notes"},
    "translations": {"zh": "译文记录", "en": "translation stamps"},
    "history": {"zh": "修订记录", "en": "history"},
    "details": {"zh": "其他信息", "en": "other details"},
}

#: The data files besides entries whose changes the 更新记录 page names.
CHANGED_FILES: dict[str, dict[str, str]] = {
    "game": {"zh": "游戏信息", "en": "game details"},
    "glossary": {"zh": "术语表", "en": "glossary"},
}

#: How ``houserules new`` marks a text still to be written; ``houserules check`` reports each one.
PLACEHOLDER = "TODO"


def is_placeholder(text: str) -> bool:
    """Whether ``text`` is a placeholder of ``houserules new`` (it starts with TODO).

    >>> is_placeholder("TODO 待填写：一句话答案"), is_placeholder("Todo list"), is_placeholder("见 TODO")
    (True, False, False)
    """
    return text.lstrip().startswith(PLACEHOLDER)


#: A reference to another entry in a text: ``[[game:id]]`` (or ``[[id]]`` within a game).
INLINE_REF = re.compile(r"\[\[([^\[\]\n]*)\]\]")

#: How wide a one-line answer (``summary``) may be in each language, in display columns (a Chinese
#: character is two, as a terminal counts them): two lines of the answer box at the top of an entry's
#: page on a 375 px phone, the narrowest place it is shown (DESIGN.md, "The one-line answer").
SUMMARY_COLUMNS: dict[str, int] = {"zh": 70, "en": 76}

#: Words that say a short answer has exceptions it leaves to the answers below it ("unless…",
#: "with exceptions"): a summary that states a rule without one of its declared exceptions says one.
QUALIFIERS: dict[str, tuple[str, ...]] = {
    "zh": ("例外", "除非", "除了", "另有"),
    "en": ("exception", "unless", "except"),
}

#: How sure a text says it is, by level: the words of each language that say it. A text says the same
#: levels in Chinese and in English (``houserules check``). English words match whole ("likely", not
#: "unlikely"); everyday senses are left out (大概 "about", 应该 "should", "may" of permission).
CERTAINTY: dict[str, dict[str, tuple[str, ...]]] = {
    "almost certain": {
        "zh": ("几乎可以肯定", "几乎肯定", "几乎一定", "基本可以肯定"),
        "en": ("almost certainly", "almost certain", "all but certain", "nearly certain"),
    },
    "probable": {
        "zh": ("很可能", "多半", "大概率"),
        "en": ("probably", "likely", "most likely", "very likely"),
    },
    "presumed": {
        "zh": ("推测",),
        "en": ("presumed", "presumably"),
    },
}
