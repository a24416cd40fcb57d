"""``houserules new-game``: a new game's folder, written whole or not at all.

The folder holds ``game.yaml`` (names, code letters, an edition, the licence, the
source documents, two contents sections, the production words), an empty glossary and
an empty synonym table. What only a person can write (the licence, the description, a
source's title) is a placeholder (``TODO …``), which ``houserules check`` reports as a
warning with its line until it is written (the game builds meanwhile: its pages say it
has no entries yet) and ``houserules publish --check`` refuses.

Everything is written into a temporary folder beside the data folder, read back, and
renamed into place in one step: a failure leaves no trace in the data folder.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import tempfile
import unicodedata
from dataclasses import dataclass, replace
from pathlib import Path

from ...errors import HouserulesError, display_path, visible
from ..reading import vocab
from ..reading.load import GAME_FILE, GLOSSARY_FILE, SYNONYMS_FILE, load
from ..reading.model import KnowledgeBase
from ..reading.safefile import read_bytes
from ..reading.schema import committed_schema_path
from ..reading.schemaparts import CODE_PREFIX, DOC_ID, SLUG
from ..reading.yamlload import YamlError
from .numbering import kind_section, slugify
from .scaffold import SCHEMA_LINE, one_line

_SLUG = re.compile(SLUG)
_CODE_PREFIX = re.compile(CODE_PREFIX)
_DOC_ID = re.compile(DOC_ID)
_PREFIX_LINE = re.compile(r"^code_prefix:\s*[\"']?([A-Za-z]+)", re.M)
_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
MAX_GAME_ID = 64
MAX_DOC_ID = 100
#: How much of a source document is read for its title: its first lines, never its text.
TITLE_BYTES = 64 * 1024
MAX_TITLE = 100
#: The contents sections of a new game: ``houserules new`` lists a rule in the first, a ruling in the second.
SECTIONS = (("rule", "规则", "Rules"), ("ruling", "裁定", "Rulings"))


def _quoted(text: str) -> str:
    """A YAML double-quoted scalar (JSON's escapes are YAML's)."""
    return json.dumps(text, ensure_ascii=False)


def check_game_id(game_id: str) -> None:
    """Refuse a game id that is no slug, is too long, or names a folder the site needs for itself."""
    if not _SLUG.fullmatch(game_id) or len(game_id) > MAX_GAME_ID:
        raise HouserulesError(
            f"'{visible(game_id)}' is not a game id — use lowercase letters, digits and single hyphens "
            f"(at most {MAX_GAME_ID}), e.g. nine-mens-morris; it names the game's folder and its pages' addresses"
        )
    if game_id in vocab.RESERVED_GAME_IDS:
        raise HouserulesError(
            f"'{game_id}' is the name of a folder of the site — choose another game id "
            f"(reserved: {', '.join(sorted(vocab.RESERVED_GAME_IDS))}), e.g. {game_id}-game"
        )


def _written_prefixes(data_dir: Path) -> dict[str, str]:
    """The code letters of every game folder, from each ``game.yaml``'s ``code_prefix:`` line: a game whose
    file does not load now still holds its letters."""
    found: dict[str, str] = {}
    for folder in sorted(data_dir.iterdir()) if data_dir.is_dir() else []:
        try:
            text = read_bytes(folder / GAME_FILE).decode("utf-8", errors="replace")
        except (OSError, YamlError):
            continue
        match = _PREFIX_LINE.search(text)
        if match:
            found[match.group(1).upper()] = folder.name
    return found


def check_code_prefix(kb: KnowledgeBase, data_dir: Path, code: str) -> str:
    """The game's code letters (upper case), refused when malformed, taken, or one game's letters begin the other's."""
    letters = unicodedata.normalize("NFKC", code).strip().upper()
    if not _CODE_PREFIX.fullmatch(letters):
        raise HouserulesError(
            f"--code '{visible(code)}' is not code letters — use 2 to 4 letters A–Z, e.g. NM: every entry's code "
            "starts with them (NM-R01)"
        )
    taken = {game.code_prefix: game.id for game in kb.games.values()}
    taken.update({k: v for k, v in _written_prefixes(data_dir).items() if k not in taken})
    if letters in taken:
        raise HouserulesError(
            f"--code {letters} is taken by game '{taken[letters]}' — choose letters no other game uses "
            f"(taken: {', '.join(sorted(taken))})"
        )
    for other, game_id in sorted(taken.items()):
        if letters.startswith(other) or other.startswith(letters):
            longer, shorter = (letters, other) if len(letters) > len(other) else (other, letters)
            raise HouserulesError(
                f"--code {letters} and {other} (game '{game_id}') begin alike: a code typed without its hyphen "
                f"({longer}1) could be either game's — choose letters that do not begin with {shorter}"
            )
    return letters


def check_names(kb: KnowledgeBase, zh: str, en: str) -> None:
    """Refuse a name that is not one line of text, is a placeholder, or is another game's name or alias."""
    for flag, text in (("--zh", zh), ("--en", en)):
        one_line(flag, text)
        if vocab.is_placeholder(text):
            raise HouserulesError(
                f"{flag} '{visible(text)}' reads as a placeholder (it starts with TODO) — give the name"
            )
    for game in kb.games.values():
        known = {game.name["zh"].casefold(), game.name["en"].casefold(), *(a.casefold() for a in game.aliases)}
        for flag, text in (("--zh", zh), ("--en", en)):
            if text.strip().casefold() in known:
                raise HouserulesError(
                    f"{flag} '{visible(text)}' is a name of game '{game.id}' ({game.name['zh']} {game.name['en']}) — "
                    "a search would not know which game is meant; give the new game a name of its own"
                )


@dataclass
class SourceFile:
    """What ``game.yaml`` says of a source document given with ``--source``: never its text."""

    id: str
    title: str | None  # its first line, or a PDF's title; None: none found
    lang: str  # zh, en, or "" when unknown


def _first_line(raw: bytes) -> str | None:
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        if exc.start < len(raw) - 4:  # not only a character cut at the end of what was read
            return None
        text = raw[: exc.start].decode("utf-8-sig")
    for line in text.splitlines():
        cleaned = " ".join(line.split())
        cleaned = re.sub("[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]", "", cleaned).strip()
        cleaned = cleaned.lstrip("#").strip()  # a Markdown heading
        if cleaned and any(c.isalnum() for c in cleaned):
            return cleaned[:MAX_TITLE].rstrip()
    return None


def _pdf_title(path: Path) -> str | None:
    try:
        from pypdf import PdfReader

        metadata = PdfReader(path).metadata
        title = metadata.title if metadata else None
    except Exception:  # any file pypdf cannot read: no title, the file name is enough
        return None
    return _first_line(title.encode("utf-8")) if title else None


def read_source(path: Path) -> SourceFile:
    """The id (the file's name), title (its first line; a PDF's own title) and language of a source document."""
    try:
        info = os.stat(path)
    except OSError as exc:
        raise HouserulesError(
            f"--source {display_path(path)}: {exc.strerror or exc} — give a document to cite"
        ) from None
    if not stat.S_ISREG(info.st_mode):
        raise HouserulesError(f"--source {display_path(path)} is not a file — give the document the entries will cite")
    name = path.name
    doc_id = name if _DOC_ID.fullmatch(name) and len(name) <= MAX_DOC_ID else slugify(path.stem)[:MAX_DOC_ID]
    doc_id = doc_id or "source"
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):  # swapped for a pipe since the stat
            raise HouserulesError(
                f"--source {display_path(path)} is not a file — give the document the entries will cite"
            )
        head = handle.read(TITLE_BYTES)
    title = _pdf_title(path) if head.startswith(b"%PDF-") else _first_line(head)
    lang = ("zh" if _HAN.search(title) else "en") if title else ""
    return SourceFile(doc_id, title, lang)


def _schema_line(data_dir: Path, folder: Path) -> str:
    """The schema line the other games' ``game.yaml`` start with, else one pointing at the package's schema."""
    for other in sorted(data_dir.glob(f"*/{GAME_FILE}")):
        try:
            first = read_bytes(other).decode("utf-8").split("\n", 1)[0].rstrip("\r")
        except (OSError, UnicodeDecodeError, YamlError):
            continue
        if first.startswith(SCHEMA_LINE) and first.endswith("game.schema.json"):
            return first
    schema = Path(str(committed_schema_path("game")))
    return SCHEMA_LINE + Path(os.path.relpath(schema, folder)).as_posix()


def _file_schema_line(game_line: str, name: str) -> str:
    return game_line.removesuffix("game.schema.json") + f"{name}.schema.json"


def game_text(game_id: str, code: str, zh: str, en: str, source: SourceFile | None, schema_line: str) -> str:
    """The new ``game.yaml``: every required field, ``TODO`` placeholders for what a person must write."""
    todo = vocab.PLACEHOLDER

    def note(line: str, comment: str) -> str:
        return f"{line:<34}# {comment}"

    if source is None:
        source_lines = [
            "  - id: rulebook",
            note("    kind: rulebook", " | ".join(vocab.SOURCE_KINDS)),
            f'    title: {{zh: "{todo} 待填写：资料名称", en: "{todo}: the document\'s title"}}',
        ]
    else:
        zh_title = source.title if source.title and source.lang == "zh" else f"{todo} 待填写：资料的中文名称"
        en_title = source.title if source.title and source.lang == "en" else f"{todo}: the document's title in English"
        source_lines = [
            f"  - id: {_quoted(source.id)}",
            note("    kind: seed", "a document of the group's own; or " + " | ".join(vocab.SOURCE_KINDS)),
            *([f"    lang: {source.lang}"] if source.lang else []),
            f"    title: {{zh: {_quoted(zh_title)}, en: {_quoted(en_title)}}}",
        ]
    sections = []
    for kind, section_zh, section_en in SECTIONS:
        sections += [
            note(f"  - id: {kind_section(kind)}", f"houserules new lists each new {kind} here"),
            f"    title: {{zh: {section_zh}, en: {section_en}}}",
            "    entries: []",
        ]
    lines = [
        schema_line,
        f"id: {game_id}",
        note(f"code_prefix: {code}", f"every entry's code starts {code}- ({code}-R1): never change it once printed"),
        f"name: {{zh: {_quoted(zh)}, en: {_quoted(en)}}}",
        "# aliases: [other names players call the game by]",
        "description:",
        f'  zh: "{todo} 待填写：一两句话介绍这款游戏，以及本站收录哪些规则"',
        f'  en: "{todo}: the game in a sentence or two, and which of its rules this covers"',
        note("editions:", "an entry's scope.edition names one of these"),
        "  - {id: base, name: {zh: 基础规则, en: Base rules}}",
        note("licence:", "under what terms the game's rules are retold here"),
        f'  name: "{todo} 待填写：授权，如 CC BY 4.0、公有领域 · the licence, e.g. CC BY 4.0, Public domain"',
        "  # url: https://creativecommons.org/licenses/by/4.0/",
        "  attribution:",
        f'    zh: "{todo} 待填写：署名（作者、出版方）与使用条件"',
        f'    en: "{todo}: the attribution the rights holder asks for, and the terms"',
        note("sources:", "what entries cite: {doc: <id>, ref: <section or page>}"),
        *source_lines,
        note("contents:", "the sections of the game's page and printed FAQ"),
        *sections,
        "# Words no shown text may use (internal names of documents); the ids of sources that are file names count too.",
        "production_words: [种子, seed]",
        "",
    ]
    return "\n".join(lines)


def glossary_text(schema_line: str) -> str:
    return "\n".join(
        [
            schema_line,
            "# The game's terms in both languages; houserules check makes the entries use them.",
            "# - id: mill",
            "#   en: Mill",
            "#   zh: 成三",
            "#   variants: [三连]          # other names, found by the search too",
            "#   deprecated: [连三]        # forms no Chinese text may use",
            "#   note: {zh: 同一条线上的三个己方棋子。, en: Three of your pieces on one line.}",
            "terms: []",
            "",
        ]
    )


def synonyms_text(schema_line: str) -> str:
    return "\n".join(
        [
            schema_line,
            "# What players say at the table → the rules' word the search looks for too (houserules check refuses a",
            "# synonym that points at nothing: the rules' word must be a title, alias or glossary term, or in the entries).",
            "# - {say: [吃子, 拿掉], means: 移除}",
            "synonyms: []",
            "",
        ]
    )


@dataclass
class NewGame:
    folder: Path
    game_id: str
    code: str
    source: SourceFile | None


def new_game(
    kb: KnowledgeBase, data_dir: Path, game_id: str, zh: str, en: str, code: str, source: Path | None = None
) -> NewGame:
    """Write ``data_dir/<game_id>/`` (game.yaml, glossary.yaml, synonyms.yaml) whole, or nothing."""
    if not data_dir.is_dir():
        raise HouserulesError(
            f"data folder not found: {display_path(data_dir)} — pass --data DIR, or make a knowledge base with "
            "'houserules init DIR'"
        )
    check_game_id(game_id)
    target = data_dir / game_id
    clash = [p.name for p in data_dir.iterdir() if p.name.casefold() == game_id.casefold()]
    if os.path.lexists(target) or clash:
        raise HouserulesError(
            f"{display_path(data_dir / (clash[0] if clash else game_id))} already exists — choose another game id, "
            "or edit that game's game.yaml"
        )
    code = check_code_prefix(kb, data_dir, code)
    check_names(kb, zh, en)
    found = read_source(source) if source is not None else None
    schema_line = _schema_line(data_dir, target)
    files = {
        GAME_FILE: game_text(game_id, code, zh, en, found, schema_line),
        GLOSSARY_FILE: glossary_text(_file_schema_line(schema_line, "glossary")),
        SYNONYMS_FILE: synonyms_text(_file_schema_line(schema_line, "synonyms")),
    }
    try:  # beside the data folder, on its disk: the rename below is then one step
        work = Path(tempfile.mkdtemp(prefix=f".{data_dir.name}-new-game-", dir=Path(os.path.abspath(data_dir)).parent))
    except OSError as exc:
        raise HouserulesError(
            f"cannot write beside {display_path(data_dir)}: {exc.strerror or exc}; nothing was written"
        ) from None
    try:
        staged = work / game_id
        staged.mkdir(mode=0o755)
        staged.chmod(0o755)  # as a folder made by hand, not mkdtemp's 0700
        try:
            for name, text in files.items():
                (staged / name).write_text(text, encoding="utf-8", newline="\n")
        except OSError as exc:
            raise HouserulesError(
                f"cannot write the new game beside {display_path(data_dir)}: {exc.strerror or exc}; nothing was written"
            ) from None
        loaded = load(work)
        if loaded.problems or game_id not in loaded.kb.games:
            where = display_path(staged)
            problems = [replace(p, path=display_path(target) + p.path.removeprefix(where)) for p in loaded.problems]
            raise HouserulesError(
                f"the new game would not load ({len(problems)} problems); nothing was written", problems
            )
        try:
            os.rename(staged, target)  # one step: the whole folder appears, or none of it
        except OSError as exc:
            raise HouserulesError(
                f"cannot move the new game into {display_path(data_dir)}: {exc.strerror or exc}; nothing was written"
            ) from None
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return NewGame(target, game_id, code, found)
