"""The typed records of the data files, and the one definition their JSON Schemas are made from.

Each record is a frozen dataclass. A field that holds a value of the file carries, in its
metadata, the JSON Schema of that value (:func:`prop`); :func:`object_schema` makes a
record's schema object from its fields (``properties`` in field order, ``required`` the
fields without a default), and :mod:`houserules.data.reading.schema` assembles the published
schemas from those. :func:`build` makes a record from validated data by the same fields, so a
property of the schema without a field, or a field without a property, cannot happen.

A nested record in a field's schema is written as the class itself (``array(Question)``):
a record with a ``DEF`` name is referred to as ``#/$defs/<DEF>``, any other is written in place.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from . import vocab
from .schemaparts import DOC_ID, HASH, URL, closed_object, enum_of, line_field, text_field

#: The JSON value of a data file, as the reader gives it.
JSON = Any

_SCHEMA = "schema"
_KEY = "key"


def prop(schema: Any, *, key: str | None = None) -> dict[str, Any]:
    """Field metadata: the JSON Schema of the field's value, and its key in the file when the
    field's name cannot be it (``from`` is a Python keyword)."""
    return {_SCHEMA: schema, _KEY: key}


def to_def(name: str, **extra: Any) -> dict[str, Any]:
    return {"$ref": f"#/$defs/{name}", **extra}


def array(items: Any, **extra: Any) -> dict[str, Any]:
    return {"type": "array", "items": items, **extra}


def words(**extra: Any) -> dict[str, Any]:
    """A list of distinct texts, each one line."""
    return array(line_field(), uniqueItems=True, **extra)


# --- Bilingual text -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Text:
    """A bilingual text: Chinese always, English when written ("" when not).

    Read as ``text.zh``, ``text.en`` or ``text.get(lang)``; ``text[lang]`` and ``lang in text``
    read it as the mapping of the file (templates do).

    >>> t = Text("塔楼")
    >>> t.get("en"), "en" in t, t.get("en", t.zh), t.as_dict()
    ('', False, '塔楼', {'zh': '塔楼'})
    """

    zh: str
    en: str = ""

    @classmethod
    def of(cls, data: Mapping[str, str]) -> Text:
        return cls(data["zh"], data.get("en", ""))

    def get(self, lang: str, default: str = "") -> str:
        value: str = getattr(self, lang, "") if lang in vocab.LANGS else ""
        return value or default

    def __getitem__(self, lang: str) -> str:
        value = self.get(lang)
        if not value:
            raise KeyError(lang)
        return value

    def __contains__(self, lang: object) -> bool:
        return isinstance(lang, str) and bool(self.get(lang))

    def __bool__(self) -> bool:
        return bool(self.zh or self.en)

    def langs(self) -> tuple[str, ...]:
        """The languages written, Chinese first."""
        return tuple(lang for lang in vocab.LANGS if self.get(lang))

    def values(self) -> list[str]:
        return [self.get(lang) for lang in self.langs()]

    def items(self) -> list[tuple[str, str]]:
        return [(lang, self.get(lang)) for lang in self.langs()]

    def as_dict(self) -> dict[str, str]:
        return dict(self.items())


#: A bilingual name or text: a record's :class:`Text`, or a vocabulary's ``{"zh": ..., "en": ...}``.
Bilingual = Text | Mapping[str, str]

#: The text of an optional text field that is absent.
NO_TEXT = Text("")

TEXT = to_def("text")
TEXT_BOTH = to_def("text_both")
#: A bilingual text of one line in each language (a title, a name, a label, a question).
LINE_TEXT = to_def("line_text")
LINE_TEXT_BOTH = to_def("line_text_both")


# --- Records of entries ---------------------------------------------------------------------

_record = dataclass(frozen=True, slots=True, kw_only=True)


@_record
class Source:
    """A citation: a section of a source document the game declares."""

    DEF: ClassVar[str] = "source"

    doc: str = field(metadata=prop(line_field(description="A source id the game declares in game.yaml.")))
    ref: str = field(metadata=prop(line_field(description="Ruling number, section heading or page in that document.")))
    role: str = field(default="", metadata=prop(enum_of(vocab.SOURCE_ROLES)))
    note: Text | None = field(default=None, metadata=prop(TEXT))


@_record
class QuestionSource:
    doc: str = field(metadata=prop(line_field(description="A source the entry cites.")))
    ref: str = field(metadata=prop(line_field(description="The ruling or section of that source.")))
    clause: str = field(
        default="", metadata=prop(to_def("slug", description="The clause of the ruling, as the game declares it."))
    )


@_record
class ClauseRef:
    """A clause of another section the entry cites, which a question's answer states too."""

    doc: str = field(metadata=prop(line_field(description="A source the entry cites.")))
    ref: str = field(metadata=prop(line_field(description="A section of that source that declares clauses.")))
    clause: str = field(
        metadata=prop(to_def("slug", description="The clause the answer states, as the game declares it."))
    )


@_record
class Question:
    DEF: ClassVar[str] = "question"

    id: str = field(metadata=prop(to_def("slug", description="Stable anchor of the question on the entry's page.")))
    q: Text = field(metadata=prop(to_def("line_text_both", description="The question as players ask it.")))
    variants: tuple[str, ...] = field(
        default=(),
        metadata=prop(
            array(
                line_field(maxLength=200),
                uniqueItems=True,
                description="Other ways players ask it (searched, not shown).",
            )
        ),
    )
    a: Text = field(
        metadata=prop(
            to_def(
                "text_both",
                description="The answer in one or two sentences, with the condition or exception that matters.",
            )
        )
    )
    source: QuestionSource = field(metadata=prop(QuestionSource))
    restates: tuple[ClauseRef, ...] | None = field(
        default=None,
        metadata=prop(
            array(
                ClauseRef,
                description="When the source declares no clauses but the entry cites a section that does: the "
                "clauses of that section the answer states too ([] for none); their exceptions are checked.",
            )
        ),
    )
    confidence: str = field(
        default="",
        metadata=prop(
            {
                **enum_of(vocab.QUESTION_CONFIDENCES),
                "description": "unanswered: the sources here do not answer it; the answer says what is missing.",
            }
        ),
    )


@_record
class Erratum:
    DEF: ClassVar[str] = "erratum"

    component: str = field(metadata=prop(to_def("ref")))
    lang: str = field(metadata=prop(enum_of(vocab.ERRATA_LANGS)))
    edition: str = field(
        default="", metadata=prop(line_field(description="Edition or print run the printed text appears in."))
    )
    printed: str = field(metadata=prop(text_field()))
    corrected: str = field(metadata=prop(text_field()))
    source_en: str = field(
        default="", metadata=prop(text_field(description="The original English text of the component."))
    )
    status: str = field(metadata=prop(enum_of(vocab.ERRATA_STATUSES)))
    date: str = field(metadata=prop(to_def("date")))
    note: Text | None = field(default=None, metadata=prop(TEXT))
    sources: tuple[Source, ...] = field(metadata=prop(to_def("sources")))


@_record
class TranslatorNote:
    DEF: ClassVar[str] = "translator_note"

    source: Source = field(metadata=prop(Source))
    quote: str = field(metadata=prop(text_field(description="The passage of the source document, verbatim.")))
    problem: Text = field(metadata=prop(TEXT))
    suggestion: str = field(default="", metadata=prop(text_field()))
    confidence: str = field(default="", metadata=prop(enum_of(vocab.CONFIDENCES)))


@_record
class Fact:
    DEF: ClassVar[str] = "fact"

    label: Text = field(metadata=prop(LINE_TEXT_BOTH))
    value: Text = field(metadata=prop(TEXT))
    confidence: str = field(default="", metadata=prop(enum_of(vocab.CONFIDENCES)))
    source: Source | None = field(default=None, metadata=prop(Source))


@_record
class Scope:
    edition: str = field(default="", metadata=prop(line_field()))
    expansion: str = field(default="", metadata=prop(line_field()))
    note: Text | None = field(default=None, metadata=prop(TEXT))


@_record
class Completion:
    SCHEMA_EXTRA: ClassVar[dict[str, Any]] = {
        "description": "Text that completes a source cut off or silent; shown apart from the source's own words."
    }

    text: Text = field(metadata=prop(TEXT))
    sources: tuple[Source, ...] = field(metadata=prop(to_def("sources")))


#: The fields a translation stamp covers, field by field (``data.versions.sourcehash.HASHED_FIELDS``).
STAMPED_FIELDS = ("title", "summary", "body")


@_record
class Translation:
    """Which language a translation was made from, and hashes of the text it was made from."""

    from_: str = field(metadata=prop(enum_of(vocab.LANGS), key="from"))
    source_hash: str | Mapping[str, str] = field(
        metadata=prop(
            {
                "description": "A hash of each field's source text when its translation was last brought up to "
                "date ({title: …, summary: …, body: …}, written by houserules stamp and l10n import), or one hash "
                "of the three together (the earlier form, still read).",
                "if": {"type": "string"},
                "then": text_field(pattern=HASH),
                "else": closed_object(
                    {name: text_field(pattern=HASH) for name in STAMPED_FIELDS}, type="object", minProperties=1
                ),
            }
        )
    )


@_record
class Change:
    date: str = field(metadata=prop(to_def("date")))
    change: str = field(metadata=prop(line_field()))


# --- Records of games -----------------------------------------------------------------------


@_record
class Named:
    """An edition or an expansion."""

    id: str = field(metadata=prop(to_def("slug")))
    name: Text = field(metadata=prop(LINE_TEXT_BOTH))


@_record
class NotCovered:
    """A topic of the game players ask about that no source here covers (a room, a card, a part of the rules):
    a question about it is told that no ruling answers it (``search.query.QueryPlan.outside``)."""

    name: Text = field(metadata=prop(LINE_TEXT_BOTH))
    aliases: tuple[str, ...] = field(default=(), metadata=prop(words()))


@_record
class Licence:
    name: str = field(metadata=prop(line_field()))
    url: str = field(default="", metadata=prop(text_field(pattern=URL)))
    attribution: Text = field(metadata=prop(TEXT))
    changes: Text | None = field(default=None, metadata=prop(TEXT))


_KEYWORDS = array(line_field(), minItems=1, uniqueItems=True)


@_record
class SourceException:
    """An exception or condition a source section attaches to its clauses."""

    id: str = field(metadata=prop(to_def("slug")))
    clauses: tuple[str, ...] = field(
        default=(),
        metadata=prop(
            array(
                to_def("slug"),
                minItems=1,
                uniqueItems=True,
                description="The clauses it qualifies (absent: every question citing the section).",
            )
        ),
    )
    clause: str = field(
        default="",
        metadata=prop(to_def("slug", description="The clause of the section that states the exception.")),
    )
    zh: tuple[str, ...] = field(metadata=prop(_KEYWORDS))
    en: tuple[str, ...] = field(metadata=prop(_KEYWORDS))
    entry: str = field(
        default="",
        metadata=prop(to_def("ref", description="The entry that holds the exception; linking it states it.")),
    )

    def keywords(self, lang: str) -> tuple[str, ...]:
        return self.zh if lang == "zh" else self.en


@_record
class GameSource:
    """A source document a game declares."""

    id: str = field(metadata=prop(text_field(pattern=DOC_ID, maxLength=100)))
    title: Text = field(metadata=prop(LINE_TEXT_BOTH))
    kind: str = field(metadata=prop(enum_of(vocab.SOURCE_KINDS)))
    lang: str = field(default="", metadata=prop(line_field()))
    url: str = field(default="", metadata=prop(text_field(pattern=URL)))
    note: Text | None = field(default=None, metadata=prop(TEXT))
    sections: tuple[str, ...] | None = field(
        default=None,
        metadata=prop(
            words(description="Rulings or section headings of the document; each must be cited by an entry.")
        ),
    )
    clauses: Mapping[str, tuple[str, ...]] = field(
        default_factory=dict,
        metadata=prop(
            {
                "type": "object",
                "additionalProperties": array(to_def("slug"), minItems=1, uniqueItems=True),
                "description": "For a section: the ids of the clauses it settles; each must be answered by a question.",
            }
        ),
    )
    exceptions: Mapping[str, tuple[SourceException, ...]] = field(
        default_factory=dict,
        metadata=prop(
            {
                "type": "object",
                "additionalProperties": {"type": "array", "minItems": 1, "items": SourceException},
                "description": "For a section: the exceptions and conditions the source attaches to its clauses. "
                "Every answer citing such a clause, and its entry's summary, states each one (a keyword "
                "of 'zh' in Chinese and of 'en' in English) or links its 'entry'.",
            }
        ),
    )


@_record
class Section:
    """A section of a game's contents: the entries its page and its FAQ list under one title."""

    id: str = field(metadata=prop(to_def("slug")))
    title: Text = field(metadata=prop(LINE_TEXT_BOTH))
    entries: tuple[str, ...] = field(metadata=prop(to_def("refs")))


# --- Glossary and synonyms ------------------------------------------------------------------


@_record
class Term:
    """A glossary term: the rules' word in both languages, its variants and the forms to avoid."""

    id: str = field(metadata=prop(to_def("slug")))
    en: str = field(metadata=prop(line_field()))
    zh: str = field(metadata=prop(line_field()))
    variants: tuple[str, ...] = field(default=(), metadata=prop(words()))
    deprecated: tuple[str, ...] = field(default=(), metadata=prop(words()))
    note: Text | None = field(default=None, metadata=prop(TEXT))
    entry: str = field(default="", metadata=prop(to_def("ref")))

    def word(self, lang: str) -> str:
        """The term in ``lang`` (``zh`` or ``en``)."""
        return self.zh if lang == "zh" else self.en


@_record
class RegionalTerm:
    """A reviewed Traditional form: where the simplified ``zh`` stands in a text a Traditional reader sees,
    ``hant`` is written rather than OpenCC's conversion of it (``rules_data/traditional.yaml``)."""

    zh: str = field(
        metadata=prop(text_field(maxLength=20, description="The simplified text, as the entries write it."))
    )
    hant: str = field(
        metadata=prop(
            text_field(maxLength=20, description="Its Traditional form, which folds back to zh character by character.")
        )
    )
    note: str = field(
        metadata=prop(text_field(maxLength=300, description="Why: where the form comes from and what it means here."))
    )


@_record
class Synonym:
    """What players say (``say``) for the rules' word (``means``)."""

    say: tuple[str, ...] = field(
        metadata=prop(
            array(
                line_field(maxLength=40),
                minItems=1,
                uniqueItems=True,
                description="What players say: a Chinese word, or English words matched whole.",
            )
        )
    )
    means: str = field(
        metadata=prop(
            line_field(
                maxLength=60,
                description="The rules' word it stands for: a title, alias or glossary term, or words the entries use.",
            )
        )
    )


#: Every record written in a schema (the file records are in :mod:`.model`).
RECORDS: tuple[type, ...] = (
    Source,
    QuestionSource,
    ClauseRef,
    Question,
    Erratum,
    TranslatorNote,
    Fact,
    Scope,
    Completion,
    Translation,
    Change,
    Named,
    Licence,
    SourceException,
    GameSource,
    Section,
    Term,
    Synonym,
    RegionalTerm,
)


# --- Schemas from records -------------------------------------------------------------------


def data_fields(cls: type) -> list[dataclasses.Field[Any]]:
    """The fields of ``cls`` that hold a value of the file (those with a schema)."""
    return [f for f in dataclasses.fields(cls) if _SCHEMA in f.metadata]


def key_of(f: dataclasses.Field[Any]) -> str:
    """The key of field ``f`` in the file."""
    key: str | None = f.metadata.get(_KEY)
    return key or f.name


def is_required(f: dataclasses.Field[Any]) -> bool:
    return f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING


def object_schema(cls: type, defs: dict[str, Any]) -> dict[str, Any]:
    """The closed schema object of record ``cls``; the records it names by ``DEF`` go into ``defs``."""
    properties = {key_of(f): schema_part(f.metadata[_SCHEMA], defs) for f in data_fields(cls)}
    required = [key_of(f) for f in data_fields(cls) if is_required(f)]
    return closed_object(properties, required, **getattr(cls, "SCHEMA_EXTRA", {}))


def schema_part(node: Any, defs: dict[str, Any]) -> Any:
    """``node`` with each record class in it replaced by its schema (or a reference to its definition)."""
    if isinstance(node, type) and dataclasses.is_dataclass(node):
        name = getattr(node, "DEF", None)
        if name is None:
            return object_schema(node, defs)
        if name not in defs:
            defs[name] = {}  # a placeholder while it is made: a record may refer to itself
            defs[name] = object_schema(node, defs)
        return to_def(name)
    if isinstance(node, dict):
        return {key: schema_part(value, defs) for key, value in node.items()}
    if isinstance(node, list):
        return [schema_part(value, defs) for value in node]
    return node


# --- Records from data ----------------------------------------------------------------------

R = TypeVar("R")
_Convert = Callable[[JSON], Any] | None
#: By record class: each key of the file, the field it fills and how its value is read.
_PLANS: dict[type, dict[str, tuple[str, _Convert]]] = {}


def _converter(tp: Any) -> _Convert:
    """How a validated JSON value becomes a value of type ``tp`` (None: as it is)."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        if len(inner) > 1:  # a text or a mapping of texts: read as it is
            if not all(a is str or typing.get_origin(a) is Mapping for a in inner):
                raise TypeError(f"no reading of {tp!r} from data")
            return None
        return _converter(inner[0])
    if tp is Text:
        return Text.of
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return lambda data: build(tp, data)
    if origin is tuple:
        item = _converter(args[0])
        return tuple if item is None else (lambda data: tuple(map(item, data)))
    if origin is Mapping:
        value = _converter(args[1])
        return (lambda data: data) if value is None else (lambda data: {k: value(v) for k, v in data.items()})
    if tp in (str, int, bool):
        return None
    raise TypeError(f"no reading of {tp!r} from data")


def _plan(cls: type) -> dict[str, tuple[str, _Convert]]:
    plan = _PLANS.get(cls)
    if plan is None:
        hints = typing.get_type_hints(cls)
        plan = _PLANS[cls] = {key_of(f): (f.name, _converter(hints[f.name])) for f in data_fields(cls)}
    return plan


def build(cls: type[R], data: Mapping[str, JSON], **extra: Any) -> R:
    """Record ``cls`` of validated ``data`` (the fields absent from it take their defaults).

    The keys of the data are walked, not the fields of the record: a file writes few of the
    fields a record has (an entry, ten of its twenty-five).

    >>> build(Source, {"doc": "faq", "ref": "【2】"})
    Source(doc='faq', ref='【2】', role='', note=None)
    """
    plan = _PLANS.get(cls) or _plan(cls)
    for key, value in data.items():
        step = plan.get(key)
        if step is not None:
            name, convert = step
            extra[name] = value if convert is None else convert(value)
    return cls(**extra)
