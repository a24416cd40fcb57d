"""The committed JSON Schemas are the ones the loader uses, and editors are pointed at them."""

from __future__ import annotations

import json

import pytest

from conftest import DATA, ROOT
from houserules import schema, vocab


@pytest.mark.parametrize("name", sorted(schema.SCHEMAS))
def test_committed_schema_is_current(name):
    committed = ROOT / "tools/houserules/schema" / f"{name}.schema.json"
    assert committed.read_text(encoding="utf-8") == schema.schema_text(name), \
        "run 'houserules schema --write' and commit the result"


def test_schema_enums_come_from_the_vocabularies():
    entry = json.loads(schema.schema_text("entry"))
    assert entry["properties"]["kind"]["enum"] == list(vocab.KINDS)
    assert entry["properties"]["authority"]["enum"] == list(vocab.AUTHORITIES)
    assert entry["additionalProperties"] is False


def test_editor_settings_map_data_files_to_schemas():
    settings = json.loads((ROOT / ".vscode/settings.json").read_text(encoding="utf-8"))
    mapping = settings["yaml.schemas"]
    assert mapping["tools/houserules/schema/entry.schema.json"][0] == "rules_data/*/entries/*.yaml"
    assert "examples/house-rules/profile.yaml" in mapping["tools/houserules/schema/profile.schema.json"]
    assert mapping["tools/houserules/schema/game.schema.json"] == ["rules_data/*/game.yaml"]
    assert mapping["tools/houserules/schema/glossary.schema.json"] == ["rules_data/*/glossary.yaml"]


@pytest.mark.parametrize("path", sorted(DATA.glob("*/entries/*.yaml"))[:1] + sorted(DATA.glob("*/game.yaml"))[:1])
def test_data_files_carry_a_schema_modeline(path):
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# yaml-language-server: $schema=")
    target = (path.parent / first.split("=", 1)[1]).resolve()
    assert target.is_file(), target
