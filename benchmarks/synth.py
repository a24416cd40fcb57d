"""Synthetic knowledge bases of any size, made from the real data (a command and a library).

    .venv/bin/python -m benchmarks.synth 5000 /tmp/kb5000 [--from rules_data]

Each synthetic game is a renamed copy of a real game (game id ``<real>-<n>``,
code prefix ``S`` + three letters, ``[[refs]]`` and codes rewritten), taken in
turn until the wanted number of entries is reached; the last game is cut
short. Copying whole games keeps every rate of the real data exactly: entries
per game, kinds, aliases, body lengths, references and errata per entry,
glossary terms, contents sections and cited source sections. The text is real
text too, so Chinese segmentation and index sizes behave as they will.

What copying does not give is new vocabulary: a real game brings new words,
a copy repeats its original's. Term dictionaries grow more slowly than they
would, and a query matches one entry in each copy of its game, which makes
ranking work heavier than it will be, not lighter.

A game cut short keeps its first entries in contents order; references to the
entries left out are dropped from reference lists, and ``[[ref]]`` in text
becomes the target's title, so the copy still passes ``houserules check``.
"""

from __future__ import annotations

import argparse
import re
import string
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from houserules.check import run as run_check
from houserules.data.reading.load import ENTRIES_DIR, GAME_FILE, GLOSSARY_FILE
from houserules.data.reading.model import INLINE_REF, Entry, Game, KnowledgeBase
from houserules.data.versions import sourcehash as freshness


class _Dumper(yaml.SafeDumper):
    """Hand-written style: block text for multi-line strings, no anchors."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _str(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    style = "|" if "\n" in text.rstrip("\n") else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


_Dumper.add_representer(str, _str)


def dump(data: dict[str, Any]) -> str:
    return yaml.dump(data, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=120)


def code_prefix(number: int) -> str:
    """``S`` and three letters: 17,576 distinct prefixes that no real game is likely to use.

    >>> code_prefix(0), code_prefix(27)
    ('SAAA', 'SABB')
    """
    letters = string.ascii_uppercase
    return "S" + "".join(letters[number // 26**p % 26] for p in (2, 1, 0))


def ordered_entries(kb: KnowledgeBase, game: Game) -> list[Entry]:
    """A game's entries in contents order, then the rest by file name."""
    listed = [kb.entries[r] for section in game.contents for r in section.entries if r in kb.entries]
    rest = sorted((e for e in kb.game_entries(game.id) if e not in listed), key=lambda e: e.id)
    return listed + rest


@dataclass
class Copy:
    """How one real game maps onto its copy."""

    game: Game
    new_id: str
    prefix: str
    kept: dict[str, Entry]  # old ref -> entry, the entries the copy keeps
    template: KnowledgeBase

    def ref(self, old: str) -> str | None:
        """The copy's ref for a real ref, or None when the target is not copied."""
        if old not in self.kept:
            return None
        return f"{self.new_id}:{old.split(':', 1)[1]}"

    def text(self, value: str, lang: str) -> str:
        """Text with ``[[refs]]`` and codes rewritten."""

        def inline(match: re.Match[str]) -> str:
            old = match.group(1).strip()
            new = self.ref(old)
            if new is not None:
                return f"[[{new}]]"
            target = self.template.entries.get(old)
            return target.title.get(lang, target.title["zh"]) if target else old.split(":")[-1]

        value = INLINE_REF.sub(inline, value)
        return re.sub(rf"\b{re.escape(self.game.code_prefix)}-(?=[A-Z0-9])", f"{self.prefix}-", value)

    def walk(self, data: Any, lang: str = "zh") -> Any:
        """A deep copy of ``data`` with every string rewritten."""
        if isinstance(data, str):
            return self.text(data, lang)
        if isinstance(data, dict):
            return {k: self.walk(v, k if k in ("zh", "en") else lang) for k, v in data.items()}
        if isinstance(data, list):
            return [self.walk(v, lang) for v in data]
        return data

    def refs(self, refs: list[str]) -> list[str]:
        return [new for new in map(self.ref, refs) if new is not None]


def copy_entry(copy: Copy, entry: Entry) -> dict[str, Any]:
    data = copy.walk(entry.data)
    for name in ("applies_to", "see_also"):
        if name in data:
            data[name] = copy.refs(entry.data[name])
            if not data[name]:
                del data[name]
    if entry.errata:
        errata = [dict(e, component=copy.ref(e["component"])) for e in data["errata"]]
        data["errata"] = [e for e in errata if e["component"] is not None]
        if not data["errata"]:
            del data["errata"]
    for record in data.get("translations", {}).values():
        # Keep a fresh translation fresh: the rewritten refs change the hashed text.
        if record["source_hash"] == freshness.source_hash(entry.data, record["from"]):
            record["source_hash"] = freshness.source_hash(data, record["from"])
    return data


def copy_game(copy: Copy, number: int, cited: set[tuple[str, str]]) -> dict[str, Any]:
    data = copy.walk(copy.game.data)
    data["id"] = copy.new_id
    data["code_prefix"] = copy.prefix
    data["name"] = {"zh": f"{data['name']['zh']} {number}", "en": f"{data['name']['en']} #{number}"}
    contents = []
    for section in data.get("contents", []):
        refs = copy.refs(section["entries"])
        if refs:
            contents.append({**section, "entries": refs})
    data["contents"] = contents
    for source in data["sources"]:
        if "sections" in source:  # a short copy cites fewer sections; keep only the cited ones
            source["sections"] = [s for s in source["sections"] if (source["id"], s) in cited]
            if not source["sections"]:
                del source["sections"]
            if "exceptions" in source:
                kept = set(source.get("sections", []))
                source["exceptions"] = {s: items for s, items in source["exceptions"].items() if s in kept}
        for items in source.get("exceptions", {}).values():
            for item in items:  # the entry holding an exception is the copy's, or none when not copied
                if "entry" in item and copy.ref(item["entry"]) is None:
                    del item["entry"]
                elif "entry" in item:
                    item["entry"] = copy.ref(item["entry"])
        if not source.get("exceptions", True):
            del source["exceptions"]
    return data


def copy_glossary(copy: Copy, data: dict[str, Any]) -> dict[str, Any]:
    data = copy.walk(data)
    for term in data.get("terms", []):
        if "entry" in term:
            new = copy.ref(term["entry"])
            if new is None:
                del term["entry"]
            else:
                term["entry"] = new
    return data


def load_template(data_dir: Path) -> KnowledgeBase:
    """The real data, which must pass ``houserules check`` to be copied."""
    report = run_check(data_dir)
    if report.errors:
        raise SystemExit(
            f"{data_dir} has {len(report.errors)} problems; synthetic data is copied from clean data:\n"
            + "\n".join(map(str, report.errors[:10]))
        )
    return report.kb


def generate(
    entries: int, target: Path, template: KnowledgeBase, progress: Callable[[str], None] = lambda _: None
) -> Path:
    """Write a knowledge base of exactly ``entries`` entries into ``target`` (a new or empty folder)."""
    target.mkdir(parents=True, exist_ok=True)
    if any(target.iterdir()):
        raise SystemExit(f"{target} is not empty")
    games = [g for g in template.games.values() if template.game_entries(g.id)]
    if not games:
        raise SystemExit("the template data has no entries to copy")
    remaining, number = entries, 0
    while remaining > 0:
        game = games[number % len(games)]
        chosen = ordered_entries(template, game)[:remaining]
        copy = Copy(game, f"{game.id}-{number + 1}", code_prefix(number), {e.ref: e for e in chosen}, template)
        folder = target / copy.new_id
        (folder / ENTRIES_DIR).mkdir(parents=True)
        cited = set()
        for entry in chosen:
            cited |= {(s.doc, s.ref) for _, s in entry.citations()}
            (folder / ENTRIES_DIR / entry.path.name).write_text(dump(copy_entry(copy, entry)), encoding="utf-8")
        (folder / GAME_FILE).write_text(dump(copy_game(copy, number + 1, cited)), encoding="utf-8")
        if game.glossary is not None:
            (folder / GLOSSARY_FILE).write_text(dump(copy_glossary(copy, game.glossary.data)), encoding="utf-8")
        remaining -= len(chosen)
        number += 1
        progress(f"{entries - remaining}/{entries}")
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("entries", type=int)
    parser.add_argument("target", type=Path)
    parser.add_argument("--from", dest="source", type=Path, default=Path("rules_data"), help="the real data to copy")
    args = parser.parse_args()
    generate(args.entries, args.target, load_template(args.source))
    print(f"wrote {args.entries} entries into {args.target}")


if __name__ == "__main__":
    main()
