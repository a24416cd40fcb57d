"""Links written in entry text: only the open web and mail (see :mod:`houserules.data.reading.textpolicy`).

The renderer already turns any other link target into plain text; the check tells the
contributor, as a warning with the line, so the text can say what was meant.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..data.reading.model import KnowledgeBase
from ..data.reading.textpolicy import allowed_link, markdown_shape_problem, markdown_shape_suspects
from ..errors import Problem
from .rules import entry_problem

#: Markdown link targets: inline links and images ``[t](url)``, autolinks ``<scheme:...>`` and
#: reference definitions ``[name]: url``.
_TARGETS = re.compile(
    r"!?\[[^\]\n]*\]\(\s*<?([^)\s>]*)|<([a-zA-Z][a-zA-Z0-9+.-]*:[^>\s]*)>|^ {0,3}\[[^\]\n]+\]:\s*<?(\S+?)>?(?:\s|$)",
    re.M,
)


def link_targets(text: str) -> Iterator[tuple[int, str, bool]]:
    """(offset, target, is an image) of each link a Markdown text makes.

    >>> [t for _, t, _ in link_targets("[a](//evil/x) <https://ok.org> ![p](x.png)\\n[r]: ../secret")]
    ['//evil/x', 'https://ok.org', 'x.png', '../secret']
    """
    for match in _TARGETS.finditer(text):
        target = next(group for group in match.groups() if group is not None)
        yield match.start(), target, match.group(0).startswith("!")


def check_links(kb: KnowledgeBase) -> Iterator[Problem]:
    for entry in kb.entries.values():
        everything = entry.all_text
        if "](" not in everything and "<" not in everything and "]:" not in everything:
            continue
        for path, text in entry.texts:
            if "](" not in text and "<" not in text and "]:" not in text:
                continue
            for offset, target, image in link_targets(text):
                if image:
                    yield entry_problem(
                        entry,
                        path,
                        f"{'.'.join(map(str, path))} shows an image ({target!r}); images are not shown",
                        "describe it in words",
                        "warning",
                        entry.doc.text_line(path, offset),
                    )
                elif not allowed_link(target):
                    yield entry_problem(
                        entry,
                        path,
                        f"{'.'.join(map(str, path))} links to {target!r}, which is shown as plain text",
                        "link entries with [[game:id]] and other sites with https://…",
                        "warning",
                        entry.doc.text_line(path, offset),
                    )


def check_markdown_shape(kb: KnowledgeBase) -> Iterator[Problem]:
    """Markdown the renderer would choke on: lists nested too deep, too many brackets (see the text policy)."""
    for entry in kb.entries.values():
        for path, text in markdown_shape_suspects(entry.texts, entry.all_text):
            found = markdown_shape_problem(text)
            if found is not None:
                offset, problem, fix = found
                yield entry_problem(
                    entry, path, f"{'.'.join(map(str, path))}: {problem}", fix, line=entry.doc.text_line(path, offset)
                )


def check_references_alike(kb: KnowledgeBase) -> Iterator[Problem]:
    """Both languages of a text name the same entries: a ``[[game:id]]`` in the Chinese and not in the English (or
    the reverse) is a link one reader has and the other has not, and often a clause one of them lost. A reference to
    no entry is :func:`~houserules.check.rules.check_references`' to report."""
    for entry in kb.entries.values():
        placed = entry.placed_inline_refs()
        if not placed:
            continue
        by_text: dict[tuple[str | int, ...], dict[str, set[str]]] = {}
        for path, _ in entry.texts:  # every text in both languages, with the references it names
            if path and path[-1] in {"zh", "en"}:
                by_text.setdefault(tuple(path[:-1]), {})[str(path[-1])] = set()
        for path, _, ref in placed:
            if ref in kb.entries and path and path[-1] in {"zh", "en"}:
                by_text[tuple(path[:-1])][str(path[-1])].add(ref)
        for where, langs in by_text.items():
            if "zh" not in langs or "en" not in langs or langs["zh"] == langs["en"]:
                continue
            for lang, other in (("zh", "en"), ("en", "zh")):
                missing = sorted(langs[other] - langs[lang])
                if missing:
                    path = (*where, lang)
                    yield entry_problem(
                        entry,
                        path,
                        f"{'.'.join(map(str, path))} does not name {', '.join(f'[[{r}]]' for r in missing)}, which "
                        f"{'.'.join(map(str, (*where, other)))} names",
                        f"name the same entries in both languages (add the reference to {lang}, or take it out of "
                        f"{other})",
                    )
