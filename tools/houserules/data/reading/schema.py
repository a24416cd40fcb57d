"""JSON Schemas for the data files, built from :mod:`houserules.data.reading.vocab`.

The same schemas are committed under ``schema/`` for editors (the
yaml-language-server reads them while people type); ``houserules schema
--write`` refreshes them and a test fails when they drift.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from . import vocab
from .schemaparts import CODE, CODE_PREFIX, DATE, DOC_ID, HASH, REF, SLUG, closed_object, enum_of, published, text_field

SCHEMA_DIR = "schema"


def _common_defs() -> dict[str, Any]:
    lang_props = {lang: {"$ref": "#/$defs/markdown"} for lang in vocab.LANGS}
    return {
        "markdown": text_field(maxLength=20000),
        "slug": text_field(pattern=SLUG, maxLength=64),
        "ref": text_field(pattern=REF, maxLength=130),
        "refs": {"type": "array", "items": {"$ref": "#/$defs/ref"}, "uniqueItems": True},
        "date": text_field(pattern=DATE),
        "text": closed_object(lang_props, ["zh"], description="Bilingual text: Chinese required, English optional."),
        "text_both": closed_object(lang_props, list(vocab.LANGS), description="Bilingual text with both languages."),
        "source": closed_object(
            {
                "doc": text_field(description="A source id the game declares in game.yaml."),
                "ref": text_field(description="Ruling number, section heading or page in that document."),
                "role": enum_of(vocab.SOURCE_ROLES),
                "note": {"$ref": "#/$defs/text"},
            },
            ["doc", "ref"],
        ),
        "sources": {"type": "array", "items": {"$ref": "#/$defs/source"}, "minItems": 1},
    }


def entry_schema() -> dict[str, Any]:
    """The schema of one entry file (``rules_data/<game>/entries/<id>.yaml``)."""
    defs = _common_defs()
    defs["erratum"] = closed_object(
        {
            "component": {"$ref": "#/$defs/ref"},
            "lang": enum_of(vocab.ERRATA_LANGS),
            "edition": text_field(description="Edition or print run the printed text appears in."),
            "printed": text_field(),
            "corrected": text_field(),
            "source_en": text_field(description="The original English text of the component."),
            "status": enum_of(vocab.ERRATA_STATUSES),
            "date": {"$ref": "#/$defs/date"},
            "note": {"$ref": "#/$defs/text"},
            "sources": {"$ref": "#/$defs/sources"},
        },
        ["component", "lang", "printed", "corrected", "status", "date", "sources"],
    )
    defs["translator_note"] = closed_object(
        {
            "source": {"$ref": "#/$defs/source"},
            "quote": text_field(description="The passage of the source document, verbatim."),
            "problem": {"$ref": "#/$defs/text"},
            "suggestion": text_field(),
            "confidence": enum_of(vocab.CONFIDENCES),
        },
        ["source", "quote", "problem"],
    )
    defs["question"] = closed_object(
        {
            "id": {"$ref": "#/$defs/slug", "description": "Stable anchor of the question on the entry's page."},
            "q": {"$ref": "#/$defs/text_both", "description": "The question as players ask it."},
            "variants": {
                "type": "array",
                "items": text_field(maxLength=200),
                "uniqueItems": True,
                "description": "Other ways players ask it (searched, not shown).",
            },
            "a": {
                "$ref": "#/$defs/text_both",
                "description": "The answer in one or two sentences, with the condition or exception that matters.",
            },
            "source": closed_object(
                {
                    "doc": text_field(description="A source the entry cites."),
                    "ref": text_field(description="The ruling or section of that source."),
                    "clause": {
                        "$ref": "#/$defs/slug",
                        "description": "The clause of the ruling, as the game declares it.",
                    },
                },
                ["doc", "ref"],
            ),
            "confidence": enum_of(vocab.CONFIDENCES),
        },
        ["id", "q", "a", "source"],
    )
    defs["fact"] = closed_object(
        {
            "label": {"$ref": "#/$defs/text_both"},
            "value": {"$ref": "#/$defs/text"},
            "confidence": enum_of(vocab.CONFIDENCES),
            "source": {"$ref": "#/$defs/source"},
        },
        ["label", "value"],
    )
    properties = {
        "id": {"$ref": "#/$defs/slug"},
        "code": text_field(pattern=CODE, description="Short stable citation code, e.g. BH-A13."),
        "kind": enum_of(vocab.KINDS),
        "title": {"$ref": "#/$defs/text_both"},
        "aliases": {"type": "array", "items": text_field(maxLength=200), "uniqueItems": True},
        "summary": {"$ref": "#/$defs/text"},
        "body": {"$ref": "#/$defs/text"},
        "facts": {"type": "array", "items": {"$ref": "#/$defs/fact"}},
        "applies_to": {"$ref": "#/$defs/refs"},
        "see_also": {"$ref": "#/$defs/refs"},
        "authority": enum_of(vocab.AUTHORITIES),
        "scope": closed_object({"edition": text_field(), "expansion": text_field(), "note": {"$ref": "#/$defs/text"}}),
        "confidence": enum_of(vocab.CONFIDENCES),
        "confidence_note": {"$ref": "#/$defs/text"},
        "status": enum_of(vocab.STATUSES),
        "sources": {"$ref": "#/$defs/sources"},
        "completion": closed_object(
            {"text": {"$ref": "#/$defs/text"}, "sources": {"$ref": "#/$defs/sources"}},
            ["text", "sources"],
            description="Text that completes a source cut off or silent; shown apart from the source's own words.",
        ),
        "questions": {"type": "array", "items": {"$ref": "#/$defs/question"}},
        "errata": {"type": "array", "items": {"$ref": "#/$defs/erratum"}},
        "translator_notes": {"type": "array", "items": {"$ref": "#/$defs/translator_note"}},
        "translations": {
            "type": "object",
            "propertyNames": enum_of(vocab.LANGS),
            "additionalProperties": closed_object(
                {"from": enum_of(vocab.LANGS), "source_hash": text_field(pattern=HASH)},
                ["from", "source_hash"],
            ),
        },
        "history": {
            "type": "array",
            "items": closed_object({"date": {"$ref": "#/$defs/date"}, "change": text_field()}, ["date", "change"]),
        },
    }
    required = ["id", "code", "kind", "title", "summary", "authority", "confidence", "sources"]
    schema = closed_object(properties, required)
    schema["allOf"] = [
        {
            "if": {"properties": {"confidence": {"const": "uncertain"}}, "required": ["confidence"]},
            "then": {"required": ["confidence_note"]},
        }
    ]
    return published("entry", "houserules entry", schema, defs)


def _exception() -> dict[str, Any]:
    words = {"type": "array", "items": text_field(), "minItems": 1, "uniqueItems": True}
    slugs = {"type": "array", "items": {"$ref": "#/$defs/slug"}, "minItems": 1, "uniqueItems": True}
    properties = {
        "id": {"$ref": "#/$defs/slug"},
        "clauses": {**slugs, "description": "The clauses it qualifies (absent: every question citing the section)."},
        "clause": {"$ref": "#/$defs/slug", "description": "The clause of the section that states the exception."},
        "zh": words,
        "en": words,
        "entry": {"$ref": "#/$defs/ref", "description": "The entry that holds the exception; linking it states it."},
    }
    return closed_object(properties, ["id", "zh", "en"])


def game_schema() -> dict[str, Any]:
    """The schema of ``rules_data/<game>/game.yaml``."""
    defs = _common_defs()
    named = closed_object({"id": {"$ref": "#/$defs/slug"}, "name": {"$ref": "#/$defs/text_both"}}, ["id", "name"])
    properties = {
        "id": {"$ref": "#/$defs/slug"},
        "code_prefix": text_field(pattern=CODE_PREFIX),
        "name": {"$ref": "#/$defs/text_both"},
        "aliases": {"type": "array", "items": text_field(), "uniqueItems": True},
        "publisher": text_field(),
        "designers": {"type": "array", "items": text_field()},
        "description": {"$ref": "#/$defs/text"},
        "editions": {"type": "array", "items": named, "minItems": 1},
        "expansions": {"type": "array", "items": named},
        "licence": closed_object(
            {
                "name": text_field(),
                "url": text_field(pattern=r"^https://"),
                "attribution": {"$ref": "#/$defs/text"},
                "changes": {"$ref": "#/$defs/text"},
            },
            ["name", "attribution"],
        ),
        "sources": {
            "type": "array",
            "minItems": 1,
            "items": closed_object(
                {
                    "id": text_field(pattern=DOC_ID, maxLength=100),
                    "title": {"$ref": "#/$defs/text_both"},
                    "kind": enum_of(vocab.SOURCE_KINDS),
                    "lang": text_field(),
                    "url": text_field(pattern=r"^https://"),
                    "note": {"$ref": "#/$defs/text"},
                    "sections": {
                        "type": "array",
                        "items": text_field(),
                        "uniqueItems": True,
                        "description": "Rulings or section headings of the document; each must be cited by an entry.",
                    },
                    "clauses": {
                        "type": "object",
                        "additionalProperties": {
                            "type": "array",
                            "items": {"$ref": "#/$defs/slug"},
                            "minItems": 1,
                            "uniqueItems": True,
                        },
                        "description": "For a section: the ids of the clauses it settles; each must be answered by a question.",
                    },
                    "exceptions": {
                        "type": "object",
                        "additionalProperties": {"type": "array", "minItems": 1, "items": _exception()},
                        "description": "For a section: the exceptions and conditions the source attaches to its clauses. "
                        "Every answer citing such a clause, and its entry's summary, states each one (a keyword "
                        "of 'zh' in Chinese and of 'en' in English) or links its 'entry'.",
                    },
                },
                ["id", "title", "kind"],
            ),
        },
        "contents": {
            "type": "array",
            "items": closed_object(
                {
                    "id": {"$ref": "#/$defs/slug"},
                    "title": {"$ref": "#/$defs/text_both"},
                    "entries": {"$ref": "#/$defs/refs"},
                },
                ["id", "title", "entries"],
            ),
        },
        "production_words": {
            "type": "array",
            "items": text_field(),
            "uniqueItems": True,
            "description": "Words of the project's production that no shown text may use (e.g. 种子, seed); "
            "the ids of source documents that are file names are added.",
        },
    }
    required = ["id", "code_prefix", "name", "editions", "licence", "sources", "contents"]
    return published("game", "houserules game", closed_object(properties, required), defs)


def glossary_schema() -> dict[str, Any]:
    """The schema of ``rules_data/<game>/glossary.yaml``."""
    defs = _common_defs()
    term = closed_object(
        {
            "id": {"$ref": "#/$defs/slug"},
            "en": text_field(),
            "zh": text_field(),
            "variants": {"type": "array", "items": text_field(), "uniqueItems": True},
            "deprecated": {"type": "array", "items": text_field(), "uniqueItems": True},
            "note": {"$ref": "#/$defs/text"},
            "entry": {"$ref": "#/$defs/ref"},
        },
        ["id", "en", "zh"],
    )
    terms = {"terms": {"type": "array", "items": term}}
    return published("glossary", "houserules glossary", closed_object(terms, ["terms"]), defs)


def synonyms_schema() -> dict[str, Any]:
    """The schema of the search's synonym tables: ``rules_data/synonyms.yaml`` (every game) and
    ``rules_data/<game>/synonyms.yaml`` (one game)."""
    item = closed_object(
        {
            "say": {
                "type": "array",
                "items": text_field(maxLength=40),
                "minItems": 1,
                "uniqueItems": True,
                "description": "What players say: a Chinese word, or English words matched whole.",
            },
            "means": text_field(
                maxLength=60,
                description="The rules' word it stands for: a title, alias or glossary term, or words the entries use.",
            ),
        },
        ["say", "means"],
    )
    properties = {"synonyms": {"type": "array", "items": item}}
    return published("synonyms", "houserules search synonyms", closed_object(properties, ["synonyms"]), {})


def profile_schema() -> dict[str, Any]:
    """The schema of a group's house-rule profile (see ``examples/house-rules/``)."""
    defs = _common_defs()
    properties = {
        "name": {
            "$ref": "#/$defs/text",
            "description": "The group's name, printed on the FAQ and on each of its house rules.",
        },
        "games": {
            "type": "array",
            "items": {"$ref": "#/$defs/slug"},
            "minItems": 1,
            "uniqueItems": True,
            "description": "The games the group's FAQ covers.",
        },
        "include": closed_object(
            {
                "all": {"enum": [True], "description": "Every shared entry of the games."},
                "kinds": {"type": "array", "items": enum_of(vocab.KINDS), "uniqueItems": True, "minItems": 1},
                "refs": {"type": "array", "items": {"$ref": "#/$defs/ref"}, "uniqueItems": True, "minItems": 1},
            },
            minProperties=1,
            description="Which shared entries to print beside the house rules: all, or by kind, or by game:id.",
        ),
        "entries": text_field(description="Folder of the group's entries (<game>/<id>.yaml), relative to this file."),
        "sources": {
            "type": "array",
            "items": closed_object(
                {
                    "id": text_field(pattern=DOC_ID, maxLength=100),
                    "title": {"$ref": "#/$defs/text_both"},
                    "note": {"$ref": "#/$defs/text"},
                },
                ["id", "title"],
            ),
            "description": "The group's own documents (meeting notes...) its house rules may cite.",
        },
    }
    required = ["name", "games", "include", "entries"]
    return published("profile", "houserules house-rule profile", closed_object(properties, required), defs)


SCHEMAS = {
    "entry": entry_schema,
    "game": game_schema,
    "glossary": glossary_schema,
    "profile": profile_schema,
    "synonyms": synonyms_schema,
}


def schema_text(name: str) -> str:
    """The committed form of a schema: sorted keys, two-space indent, final newline."""
    return json.dumps(SCHEMAS[name](), ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def committed_schema_path(name: str):
    return resources.files("houserules").joinpath(SCHEMA_DIR, f"{name}.schema.json")
