"""JSON Schemas for the data files: the fields of the records of :mod:`houserules.data.reading.model`
(each field's metadata holds its schema, see :mod:`houserules.data.reading.records`), with the
values of :mod:`houserules.data.reading.vocab`. The profile, which has no record, is written here.

The same schemas are committed under ``schema/`` for editors (the
yaml-language-server reads them while people type); ``houserules schema
--write`` refreshes them and a test fails when they drift.
"""

from __future__ import annotations

import json
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from . import records, vocab
from .model import Entry, Game, Glossary, Synonyms, TraditionalTerms
from .records import object_schema
from .schemaparts import DATE, DOC_ID, LINE, REF, SLUG, closed_object, enum_of, line_field, published, text_field

SCHEMA_DIR = "schema"


def _common_defs() -> dict[str, Any]:
    lang_props = {lang: {"$ref": "#/$defs/markdown"} for lang in vocab.LANGS}
    line_props = {lang: {"$ref": "#/$defs/line"} for lang in vocab.LANGS}
    return {
        "markdown": text_field(maxLength=20000),
        "line": text_field(maxLength=20000, pattern=LINE),
        "slug": text_field(pattern=SLUG, maxLength=64),
        "ref": text_field(pattern=REF, maxLength=130),
        "refs": {"type": "array", "items": {"$ref": "#/$defs/ref"}, "uniqueItems": True},
        "date": text_field(pattern=DATE),
        "text": closed_object(lang_props, ["zh"], description="Bilingual text: Chinese required, English optional."),
        "text_both": closed_object(lang_props, list(vocab.LANGS), description="Bilingual text with both languages."),
        "line_text": closed_object(
            line_props, ["zh"], description="Bilingual text of one line: Chinese required, English optional."
        ),
        "line_text_both": closed_object(
            line_props, list(vocab.LANGS), description="Bilingual text of one line in both languages."
        ),
        "source": records.object_schema(records.Source, {}),
        "sources": {"type": "array", "items": {"$ref": "#/$defs/source"}, "minItems": 1},
    }


def entry_schema() -> dict[str, Any]:
    """The schema of one entry file (``rules_data/<game>/entries/<id>.yaml``): the fields of :class:`Entry`."""
    defs = _common_defs()
    return published("entry", "houserules entry", object_schema(Entry, defs), defs)


def game_schema() -> dict[str, Any]:
    """The schema of ``rules_data/<game>/game.yaml``: the fields of :class:`Game`."""
    defs = _common_defs()
    return published("game", "houserules game", object_schema(Game, defs), defs)


def glossary_schema() -> dict[str, Any]:
    """The schema of ``rules_data/<game>/glossary.yaml``: the fields of :class:`Glossary`."""
    defs = _common_defs()
    return published("glossary", "houserules glossary", object_schema(Glossary, defs), defs)


def synonyms_schema() -> dict[str, Any]:
    """The schema of the search's synonym tables: ``rules_data/synonyms.yaml`` (every game) and
    ``rules_data/<game>/synonyms.yaml`` (one game): the fields of :class:`Synonyms`."""
    defs: dict[str, Any] = {}
    return published("synonyms", "houserules search synonyms", object_schema(Synonyms, defs), defs)


def traditional_schema() -> dict[str, Any]:
    """The schema of ``rules_data/traditional.yaml``, the reviewed Traditional forms a Traditional reader
    sees: the fields of :class:`TraditionalTerms`."""
    defs: dict[str, Any] = {}
    return published("traditional", "houserules Traditional forms", object_schema(TraditionalTerms, defs), defs)


def profile_schema() -> dict[str, Any]:
    """The schema of a group's house-rule profile (see ``examples/house-rules/``)."""
    defs = _common_defs()
    properties = {
        "name": {
            "$ref": "#/$defs/line_text",
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
        "entries": line_field(description="Folder of the group's entries (<game>/<id>.yaml), relative to this file."),
        "sources": {
            "type": "array",
            "items": closed_object(
                {
                    "id": text_field(pattern=DOC_ID, maxLength=100),
                    "title": {"$ref": "#/$defs/line_text_both"},
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
    "traditional": traditional_schema,
}


def schema_text(name: str) -> str:
    """The committed form of a schema: sorted keys, two-space indent, final newline."""
    return json.dumps(SCHEMAS[name](), ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def committed_schema_path(name: str) -> Traversable:
    return resources.files("houserules").joinpath(SCHEMA_DIR, f"{name}.schema.json")
