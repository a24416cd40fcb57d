"""The site's pages in Traditional characters, for a reader who asks for them (``hr-hant.js``).

A reader who searched in Traditional characters, or chose 繁 in the header, reads every page in Traditional
characters: ``houserules.js`` converts the text of the page in the browser with the table this module writes,
so the site holds one copy of each page. The table is made from the built pages themselves: every run of
Chinese characters of their text (:func:`page_runs`), and what :func:`~houserules.text.chinese.to_traditional`
makes of it (OpenCC's Taiwan standard and the reviewed regional terms of ``rules_data/traditional.yaml``, as the
search's Traditional results). The browser's conversion (:func:`convert`, mirrored by ``hant()`` in
``houserules.js``) takes the longest phrase of the table at each character, else the character's own form;
:func:`table` adds the phrases that conversion needs until it gives OpenCC's text for every run of the site.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

#: A run of Chinese characters (the basic plane's unified and compatibility ideographs), converted as one text.
HAN_RUN = re.compile("[\u3400-\u9fff\uf900-\ufaff]+")
#: The table, as a script that sets ``window.houserulesHant`` (a script loads from file:// where fetch does not).
TABLE_SCRIPT = "assets/javascripts/hr-hant.js"
#: The site's files whose text is not converted: other formats, the API, the PDFs, the search's own files.
SKIPPED = ("api/", "print/", "translate/downloads/", "search/")
#: The attributes whose text a reader sees or hears (the browser converts them too).
ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")
#: Elements whose text is no page text.
_SKIPPED_TAGS = {"script", "style", "template", "textarea"}


class _Text(HTMLParser):
    """The runs of Chinese characters of a page's text nodes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.runs: set[str] = set()
        self._skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIPPED_TAGS:
            self._skipping += 1
        elif not self._skipping:
            for name, value in attrs:
                if name in ATTRIBUTES and value:
                    self.runs.update(HAN_RUN.findall(value))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in _SKIPPED_TAGS:
            self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED_TAGS and self._skipping:
            self._skipping -= 1

    def handle_data(self, data: str) -> None:
        if not self._skipping:
            self.runs.update(HAN_RUN.findall(data))


def page_runs(html: str) -> set[str]:
    """The runs of Chinese characters of a page's text and of the attributes read out (:data:`ATTRIBUTES`), not
    of its scripts or styles.

    >>> sorted(page_runs("<p>进入<a href='x' title='链接'>魔梯</a>，就必须运行</p><script>var a = '不算';</script>"))
    ['就必须运行', '进入', '链接', '魔梯']
    """
    parser = _Text()
    parser.feed(html)
    parser.close()
    return parser.runs


def convert(text: str, chars: dict[str, str], phrases: dict[str, str], longest: int) -> str:
    """``text`` in Traditional characters by the table: in each run of Chinese characters, the longest phrase of
    ``phrases`` at each character, else the character's form in ``chars``, else the character.

    >>> convert("后来进入后台", {"后": "後", "来": "來", "进": "進"}, {"后台": "後臺"}, 2)
    '後來進入後臺'
    """

    def run(match: re.Match[str]) -> str:
        text, out, i = match.group(0), [], 0
        while i < len(text):
            for size in range(min(longest, len(text) - i), 1, -1):
                phrase = phrases.get(text[i : i + size])
                if phrase is not None:
                    out.append(phrase)
                    i += size
                    break
            else:
                out.append(chars.get(text[i], text[i]))
                i += 1
        return "".join(out)

    return HAN_RUN.sub(run, text)


def table(runs: Iterable[str], to_traditional: Callable[[str], str]) -> dict[str, Any]:
    """The conversion table for ``runs``: with it, :func:`convert` of each run is ``to_traditional`` of it.

    Each character's own conversion first; then, for each character a run converts otherwise (后 is 後 in 之后
    but 后 in 皇后), the two characters around it as a phrase, and where that is not enough (or the phrase is
    already converted otherwise elsewhere) the whole run; again until every run converts right.

    >>> t = table(["之后", "皇后", "皇后来了"], {"之后": "之後", "皇后": "皇后", "皇后来了": "皇后來了", "之": "之", "后": "後", "皇": "皇", "来": "來", "了": "了"}.get)
    >>> [convert(r, t["chars"], t["phrases"], t["longest"]) for r in ("之后", "皇后", "皇后来了")]
    ['之後', '皇后', '皇后來了']
    """
    wanted = {run: to_traditional(run) for run in sorted(set(runs))}
    chars: dict[str, str] = {}
    for run in wanted:
        for char in run:
            if char not in chars:
                chars[char] = to_traditional(char)
    chars = {s: t for s, t in chars.items() if s != t and len(t) == 1}
    phrases: dict[str, str] = {}
    for _ in range(len(wanted) + 1):
        longest = max((len(p) for p in phrases), default=1)
        wrong = [r for r, t in wanted.items() if convert(r, chars, phrases, longest) != t]
        if not wrong:
            return {"chars": chars, "phrases": phrases, "longest": longest}
        for run in wrong:
            target = wanted[run]
            fixed = _around_differences(run, target, chars, phrases)
            tried = {**phrases, **(fixed or {})}
            if fixed is None or convert(run, chars, tried, max(len(p) for p in tried)) != target:
                phrases[run] = target
            else:
                phrases.update(fixed)
    raise AssertionError("the Traditional table did not settle")  # pragma: no cover - each run ends as a phrase


def _around_differences(run: str, target: str, chars: dict[str, str], phrases: dict[str, str]) -> dict[str, str] | None:
    """Phrases of two or three characters around each character the characters' table converts otherwise than
    ``target`` (None when the run changes length, or such a phrase is already converted otherwise)."""
    if len(target) != len(run):
        return None
    found: dict[str, str] = {}
    for i, (char, wanted) in enumerate(zip(run, target, strict=True)):
        if chars.get(char, char) == wanted:
            continue
        start, end = (i - 1, i + 1) if i else (0, min(2, len(run)))
        if end - start < 2:
            return None  # a single character that converts otherwise alone: only the whole run says how
        phrase, converted = run[start:end], target[start:end]
        if phrases.get(phrase, converted) != converted or found.get(phrase, converted) != converted:
            return None
        found[phrase] = converted
    return found


def site_runs(site_dir: Path) -> set[str]:
    """The runs of Chinese characters of every page of the built site."""
    runs: set[str] = set()
    for page in sorted(site_dir.rglob("*.html")):
        rel = page.relative_to(site_dir).as_posix()
        if not rel.startswith(SKIPPED):
            runs |= page_runs(page.read_text(encoding="utf-8"))
    return runs


def table_script(found: dict[str, Any]) -> str:
    """``hr-hant.js``: the table as ``window.houserulesHant``.

    >>> table_script({"chars": {"后": "後"}, "phrases": {}, "longest": 1})
    'window.houserulesHant = {"chars":{"后":"後"},"longest":1,"phrases":{}};\\n'
    """
    text = json.dumps(found, ensure_ascii=False, separators=(",", ":"), sort_keys=True).replace("</", "<\\/")
    return f"window.houserulesHant = {text};\n"


def write_table(site_dir: Path, to_traditional: Callable[[str], str]) -> Path:
    """Write the site's table (:data:`TABLE_SCRIPT`) from its built pages."""
    target = site_dir / TABLE_SCRIPT
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(table_script(table(site_runs(site_dir), to_traditional)), encoding="utf-8")
    return target
