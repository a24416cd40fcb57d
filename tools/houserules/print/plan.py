"""What a print document prints: the options, the printed entries by group, and where each entry is anchored."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..check.profile import ORIGIN, Profile
from ..data.reading import vocab
from ..data.reading.model import Bilingual, Entry, Game, KnowledgeBase, game_sections
from ..data.versions.history import EntryChange
from ..data.versions.sourcehash import stale_languages

#: A heading of printed entries: its key, its title (``zh``, ``en``) and the entries' references.
Group = tuple[str, Bilingual, list[str]]
#: How the contents of several games link their entries, which are laid out in the games' own
#: files: WeasyPrint keeps such a link as it is, and the assembled PDF turns it into a link to
#: the named destination of the entry (:mod:`houserules.print.pdfcache`).
FRONT_LINK = "houserules-anchor:"


Names = dict[str, str]
#: What of an entry each layout prints (:data:`houserules.print.document.PRINT_BLOCKS`), as its pages name it:
#: the Q&A layout the code, the title, the meta line (kind, authority, confidence), the one-line answer, the
#: uncertain, out-of-date translation and stub notices and the questions (their text, answer, uncertain mark and
#: code); the full layout adds the details. Aliases, history, translator notes, the scope, a question's variants
#: and source are the site's: a change there prints nothing new.
PRINTED_PARTS: dict[str, dict[str, Names]] = {
    "qa": {
        "code": {"zh": "代码", "en": "code"},
        "title": {"zh": "标题", "en": "title"},
        "meta": {"zh": "类型、权威性与可信度", "en": "kind, authority and confidence"},
        "uncertain": {"zh": "存疑说明", "en": "why it is uncertain"},
        "stale": {"zh": "译文过时提示", "en": "out-of-date translation notice"},
        "stub": {"zh": "待补充提示", "en": "stub notice"},
        "summary": {"zh": "一句话答案", "en": "one-line answer"},
    }
}
PRINTED_PARTS["full"] = PRINTED_PARTS["qa"] | {
    "body": {"zh": "说明", "en": "details"},
    "completion": {"zh": "补充说明", "en": "completion"},
    "facts": {"zh": "资料", "en": "facts"},
    "errata": {"zh": "勘误", "en": "errata"},
    "references": {"zh": "相关条目", "en": "references"},
    "sources": {"zh": "出处", "en": "sources"},
}
#: A question's changes as a printout shows them (both layouts print a question's text, its answer, its
#: uncertain mark and its code).
PRINTED_QUESTION: dict[str, Names] = {
    "added": {"zh": "新增问题", "en": "question added"},
    "q": {"zh": "问题措辞", "en": "question reworded"},
    "a": {"zh": "答案更改", "en": "answer changed"},
    "confidence": {"zh": "存疑标记", "en": "uncertain mark"},
    "removed": {"zh": "删除问题", "en": "question removed"},
    "order": {"zh": "问题顺序", "en": "order of the questions"},
}


def _source(source: Any) -> Any:
    """A source as a printout shows it: the document, the place in it and the role."""
    return (source.get("doc"), source.get("ref"), source.get("role", "basis")) if isinstance(source, dict) else source


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def printed_parts(data: dict[str, Any], layout: str) -> dict[str, Any]:
    """What a printout in ``layout`` shows of an entry's data, part by part (:data:`PRINTED_PARTS`)."""
    uncertain = data.get("confidence") == "uncertain"
    parts: dict[str, Any] = {
        "code": data.get("code"),
        "title": data.get("title"),
        "meta": (data.get("kind"), data.get("authority"), data.get("confidence")),
        "uncertain": data.get("confidence_note") if uncertain else None,
        "stale": stale_languages(data),
        "stub": data.get("status") == "stub",
        "summary": data.get("summary"),
    }
    if layout == "full":
        completion = data.get("completion")
        parts |= {
            "body": data.get("body"),
            "completion": (
                (completion.get("text"), [_source(s) for s in _list(completion.get("sources"))])
                if isinstance(completion, dict)
                else completion
            ),
            "facts": data.get("facts"),
            "errata": data.get("errata"),
            "references": (data.get("applies_to"), data.get("see_also")),
            "sources": [_source(s) for s in _list(data.get("sources"))],
        }
    return parts


def printed_questions(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """What a printout shows of an entry's questions, by id in order: the text, the answer, the uncertain mark."""
    return {
        str(q.get("id")): {"q": q.get("q"), "a": q.get("a"), "confidence": q.get("confidence")}
        for q in _list(data.get("questions"))
        if isinstance(q, dict)
    }


def printed_names(change: EntryChange, layout: str) -> list[Names]:
    """What changed of an entry in what a printout in ``layout`` shows, as its pages name it: empty when its
    printed text did not change (an entry whose earlier or later file could not be read: "other details")."""
    if change.status != "changed":
        return []
    if change.before is None or change.after is None:
        return [dict(vocab.CHANGE_ASPECTS["details"])]
    before, after = printed_parts(change.before, layout), printed_parts(change.after, layout)
    names = [PRINTED_PARTS[layout][part] for part in before if before[part] != after[part]]
    old, new = printed_questions(change.before), printed_questions(change.after)
    ids: dict[str, list[str]] = {key: [] for key in PRINTED_QUESTION}
    for qid, question in new.items():
        if qid not in old:
            ids["added"].append(qid)
        else:
            for key in ("q", "a", "confidence"):
                if question[key] != old[qid][key]:
                    ids[key].append(qid)
    ids["removed"] = [qid for qid in old if qid not in new]
    if not any(ids.values()) and list(old) != list(new):
        names.append(PRINTED_QUESTION["order"])
    for key, found in ids.items():
        if found:
            codes = [f"{change.code}/{qid}" for qid in found]
            names.append(
                {
                    lang: f"{text} {('、' if lang == 'zh' else ', ').join(codes)}"
                    for lang, text in PRINTED_QUESTION[key].items()
                }
            )
    return names


def printed_changes(changes: list[EntryChange], layout: str) -> list[EntryChange]:
    """The added, removed and changed entries of ``changes`` whose change a printout in ``layout`` shows."""
    return [c for c in changes if c.status != "changed" or printed_names(c, layout)]


def printed_since(
    kb: KnowledgeBase, version: str, changes: list[EntryChange], layout: str, game: str | None = None
) -> Since:
    """What an insert of the changes since ``version`` (the whole folder's, or ``game``'s own) prints in
    ``layout``: of the entries whose change it shows (:func:`printed_changes`), those added or changed and still
    in the data, and those removed."""
    shown = printed_changes(changes, layout)
    changed = {c.ref: c for c in shown if c.status != "removed" and c.ref in kb.entries}
    return Since(version, changed, [c for c in shown if c.status == "removed"], game)


def anchor(entry: Entry) -> str:
    """The entry's id in the print HTML (slugs have no '--', so this is unambiguous)."""
    return f"e-{entry.game}--{entry.id}"


@dataclass
class Since:
    """An insert of what changed since an earlier data version: ``houserules pdf --changes-since VERSION``."""

    version: str
    #: The entries added or changed since, by reference (only these are printed).
    changes: dict[str, EntryChange]
    removed: list[EntryChange]
    #: The game whose own PDF printed ``version`` (None: the whole folder's version, of every game).
    game: str | None = None


@dataclass
class PrintOptions:
    layout: str = "qa"
    profile: Profile | None = None
    site_url: str | None = None
    #: The data version the cover prints (computed from the data folder when not given).
    version: str | None = None
    #: Print only what changed since an earlier version (an insert for a printed FAQ).
    since: Since | None = None


def print_groups(kb: KnowledgeBase, game: Game, profile: Profile | None, only: set[str] | None = None) -> list[Group]:
    """The game's printed entries, grouped as on its site page; a group's house rules first; ``only`` these if given."""
    groups: list[Group] = []
    if profile is not None and game.id not in profile.games:
        profile = None  # a game the group's profile does not list prints as the shared data has it
    if profile is not None:
        own = sorted(
            (e for e in kb.game_entries(game.id) if e.origin == ORIGIN and (only is None or e.ref in only)),
            key=lambda e: e.code,
        )
        if own:
            name = profile.name
            groups.append(
                (
                    "house-rules",
                    {"zh": f"本组房规：{name['zh']}", "en": f"House rules of {name.get('en', name['zh'])}"},
                    [e.ref for e in own],
                )
            )
    for key, title, refs in game_sections(kb, game):
        kept = [
            r
            for r in refs
            if kb.entries[r].origin == "shared"
            and (profile is None or profile.includes(kb.entries[r]))
            and (only is None or r in only)
        ]
        if kept:
            groups.append((key, title, kept))
    return groups


def printed_groups(kb: KnowledgeBase, game: Game, options: PrintOptions) -> list[Group]:
    """What ``options`` print of ``game``: its entries by the group's profile, and of an insert only those
    added or changed since (the contents of an insert list nothing it does not print)."""
    only = set(options.since.changes) if options.since is not None else None
    return print_groups(kb, game, options.profile, only)
