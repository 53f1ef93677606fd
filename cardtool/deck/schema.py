"""JSON Schema validation of parsed YAML, reported as located issues with suggestions."""

from __future__ import annotations

import json
import re
import reprlib
from functools import lru_cache

from typing import TYPE_CHECKING

import jsonschema_rs

if TYPE_CHECKING:  # jsonschema itself is imported only to word the issues of a deck that has some
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

from cardtool.deck.yamlsource import SourceDoc
from cardtool.issues import Report
from cardtool.resources import schemas_dir
from cardtool.suggest import closest, did_you_mean

_TYPE_NAMES = {
    str: "text", int: "a whole number", float: "a decimal number", bool: "true/false",
    list: "a list", dict: "a mapping", type(None): "nothing (null)",
}


@lru_cache(maxsize=None)
def load_schema(name: str) -> dict:
    """A shipped schema by its path under schemas/, e.g. 'ecologies/cards.schema.json'."""
    return json.loads((schemas_dir() / name).read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def _validator(name: str) -> Draft202012Validator:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(load_schema(name))


_SHORT = reprlib.Repr()  # a value quoted in a message stays one short line, however long the value
_SHORT.maxstring, _SHORT.maxlong = 60, 40


def _describe(value: object) -> str:
    if isinstance(value, (dict, list)):
        return _TYPE_NAMES[type(value)]
    return f"{_TYPE_NAMES.get(type(value), type(value).__name__)} {_SHORT.repr(value)}"


def _expected(schema_type: object) -> str:
    names = {"string": "text", "integer": "a whole number", "number": "a number", "boolean": "true or false",
             "array": "a list", "object": "a mapping", "null": "null"}
    if isinstance(schema_type, list):
        return " or ".join(names.get(t, t) for t in schema_type)
    return names.get(schema_type, str(schema_type))


def card_id_at(data: object, path: tuple) -> str | None:
    """The id of the card a path points into (paths under a top-level `cards` list)."""
    if len(path) >= 2 and path[0] == "cards" and isinstance(data, dict):
        cards = data.get("cards")
        if isinstance(cards, list) and isinstance(path[1], int) and path[1] < len(cards):
            card = cards[path[1]]
            if isinstance(card, dict) and isinstance(card.get("id"), str):
                return card["id"]
    return None


@lru_cache(maxsize=None)
def _fast_validator(name: str) -> jsonschema_rs.Draft202012Validator:
    return jsonschema_rs.Draft202012Validator(load_schema(name))


def _surely_valid(data: object, schema_name: str) -> bool:
    """Whether jsonschema-rs (compiled, about a hundred times faster) finds doc valid. It is never more
    lenient than jsonschema on deck data: where they differ it is stricter (`$` before a final line
    break, `\\d` for non-ASCII digits, NaN) or refuses the value (a key that is not text), and then the
    full check below decides, so reports are the same as jsonschema's alone."""
    try:
        return _fast_validator(schema_name).is_valid(data)
    except (ValueError, TypeError, OverflowError):  # a value it cannot take (a key that is a number, ...)
        return False


def validate_against(doc: SourceDoc, schema_name: str, report: Report) -> None:
    """Add one located issue per schema violation in doc (found and worded by jsonschema)."""
    if _surely_valid(doc.data, schema_name):
        return
    errors = sorted(_validator(schema_name).iter_errors(doc.data), key=lambda e: list(map(str, e.absolute_path)))
    for error in errors:
        _report_error(doc, error, report)


def _report_error(doc: SourceDoc, error: ValidationError, report: Report) -> None:
    path = tuple(error.absolute_path)
    card = card_id_at(doc.data, path)
    schema = error.schema if isinstance(error.schema, dict) else {}
    hint = schema.get("x-hint")
    where = dict(location=doc.locate(path), card=card, path=path)
    field = _field_name(path)
    kind = error.validator
    if kind == "required":
        match = re.match(r"'(.+)' is a required property", error.message)
        missing = match.group(1) if match else error.message
        present = [k for k in error.instance if k not in schema.get("properties", {})]
        near = closest(missing, present)
        if near is not None:
            hint = f"found '{near}': did you mean '{missing}'?"
        report.error("missing-field", f"missing required field '{missing}'{_in(path)}", hint=hint, **where)
    elif kind == "additionalProperties":
        allowed = list(schema.get("properties", {}))
        for key in error.instance:
            if key in allowed:
                continue
            report.error(
                "unknown-key", f"unknown key '{key}'{_in(path)}",
                location=doc.locate(path + (key,), key=True), card=card, path=path + (key,),
                hint=did_you_mean(key, allowed) or f"allowed keys: {', '.join(allowed)}")
    elif kind in ("enum", "const"):
        choices = error.validator_value if kind == "enum" else [error.validator_value]
        report.error(
            "bad-value", f"{field}{_describe(error.instance)} is not one of: {', '.join(map(str, choices))}",
            hint=did_you_mean(error.instance, choices) or hint, **where)
    elif kind == "type":
        report.error(
            "bad-type", f"{field}expected {_expected(error.validator_value)}, found {_describe(error.instance)}",
            hint=hint, **where)
    elif kind == "pattern":
        report.error("bad-value", f"{field}{_describe(error.instance)} is not in the expected form",
                     hint=hint, **where)
    elif kind in ("oneOf", "anyOf"):
        report.error("bad-value", f"{field}{_describe(error.instance)} is not a valid value",
                     hint=hint or schema.get("description"), **where)
    elif kind == "uniqueItems":
        report.error("duplicate-entry", f"{field}the list has the same entry twice", hint=hint, **where)
    elif kind in ("minItems", "minProperties", "minLength"):
        report.error("empty-value", f"{field}must not be empty", hint=hint, **where)
    elif kind in ("maxItems", "maxLength", "maximum"):
        report.error("too-large", f"{field}{_over(kind, error.validator_value, error.instance)}",
                     hint=hint or _limit_hint(kind, error.validator_value), **where)
    elif kind == "minimum":
        report.error("bad-value", f"{field}must be at least {error.validator_value}, found {_SHORT.repr(error.instance)}",
                     hint=hint, **where)
    else:
        report.error("schema", f"{field}{error.message}", hint=hint, **where)


def _over(kind: str, limit: int, instance: object) -> str:
    """What exceeds a maximum, without echoing a huge value back."""
    if kind == "maxItems":
        return f"has {len(instance):,} entries, more than the {limit:,} allowed"
    if kind == "maxLength":
        return f"the text has {len(instance):,} characters, more than the {limit:,} allowed"
    return f"must be at most {limit:,}, found {instance:,}" if isinstance(instance, int) else f"must be at most {limit:,}"


def _limit_hint(kind: str, limit: int) -> str | None:
    if kind == "maxItems" and limit <= 10:
        return None  # a rule of the game (an organism lives in one or two biomes), not a size limit
    return "docs/deck-format.md#limits lists every limit; no real deck comes near them"


def _field_name(path: tuple) -> str:
    names = [p for p in path if isinstance(p, str)]
    return f"'{names[-1]}': " if names else ""


def _in(path: tuple) -> str:
    names = [p for p in path if isinstance(p, str)]
    return f" in '{names[-1]}'" if names and names[-1] != "cards" else ""
