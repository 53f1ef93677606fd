"""The shipped JSON Schemas are valid draft 2020-12 and describe every property for editors."""

from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator

from cardtool.resources import schemas_dir
from tests.conftest import DECKS

SCHEMAS = sorted(schemas_dir().rglob("*.schema.json"))


def test_schemas_exist():
    names = {str(p.relative_to(schemas_dir())) for p in SCHEMAS}
    assert {"deck.schema.json", "ecologies/cards.schema.json", "symbiosis/cards.schema.json"} <= names


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.name)
def test_schema_is_valid_2020_12(path):
    schema = json.loads(path.read_text())
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"]
    Draft202012Validator.check_schema(schema)


def _properties(node, where="#"):
    if isinstance(node, dict):
        for name, sub in node.get("properties", {}).items():
            yield f"{where}/properties/{name}", sub
        for key, value in node.items():
            yield from _properties(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _properties(value, f"{where}/{i}")


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.name)
def test_every_property_has_a_description(path):
    schema = json.loads(path.read_text())

    def described(sub):
        if "description" in sub:
            return True
        ref = sub.get("$ref", "")
        if ref.startswith("#/$defs/"):
            return described(schema["$defs"][ref.split("/")[-1]])
        return False

    # Properties inside an `if` are conditions, not fields a designer writes.
    missing = [where for where, sub in _properties(schema) if "/if/" not in where and not described(sub)]
    assert not missing


def test_shipped_deck_files_name_their_schema():
    for file in DECKS.rglob("*.yaml"):
        first = file.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("# yaml-language-server: $schema="), file
        target = (file.parent / first.split("$schema=", 1)[1]).resolve()
        assert target.is_file(), f"{file}: schema path {target} does not exist"
