"""The search's parameters (one per card and field a change selects) and the deck a choice of values makes.

A candidate is written as an expansion-style deck that extends the deck being tuned and only overrides
fields (docs/expansions.md), so it is loaded and validated exactly as any deck is: a value the card
schema refuses is a located error, never a silently broken game.
"""

from __future__ import annotations

import copy
import os
from dataclasses import dataclass
from pathlib import Path

import yaml

from cardtool.balance.tuning import Tuning
from cardtool.deck.compose import selector_matches
from cardtool.deck.source import DeckSource
from cardtool.issues import Report
from cardtool.suggest import did_you_mean

NO_CARDS = "no-new-cards.yaml"  # a card file with no card: the deck format asks every deck for one


@dataclass(frozen=True)
class Parameter:
    """One field of one card and the values it may take; `current` is the deck's own value."""

    card: str
    field: str  # dotted, as the tuning file writes it
    values: tuple
    current: object

    @property
    def name(self) -> str:
        return f"{self.card}.{self.field}"


def parameters(tuning: Tuning, source: DeckSource, report: Report) -> list[Parameter]:
    """Every (card, field) the changes select, checked: a selector matching nothing, a field the card
    lacks, a value of another type than the field's, or a card a `fixed:` entry protects is an error."""
    fixed = {card_id for rule in tuning.fixed for card_id, entry in source.cards.items()
             if selector_matches(rule.cards, entry, biomes_any=True)}
    found: dict[str, Parameter] = {}
    for change in tuning.changes:
        matched = [entry for entry in source.cards.values() if selector_matches(change.cards, entry, biomes_any=True)]
        if not matched:
            hint = did_you_mean(next(iter(change.cards.get("ids", [""])), ""), source.cards)
            report.error("no-match", f"change: no card of the deck matches {change.cards}",
                         location=change.where, hint=hint)
            continue
        for entry in matched:
            where = f"change: {entry.id}.{change.field}"
            if entry.id in fixed:
                report.error("fixed-card", f"{where}: the card is listed under fixed:", location=change.where)
                continue
            try:
                current = read_field(entry.data, change.field)
            except (KeyError, IndexError, TypeError):
                report.error("unknown-field", f"{where}: the card has no such field", location=change.where,
                             hint=f"its fields: {', '.join(sorted(entry.data))}")
                continue
            if not all(_same_kind(value, current) for value in change.values):
                report.error("schema", f"{where}: the card's value is {current!r}; the values to try are of "
                             "another type", location=change.where)
                continue
            parameter = Parameter(entry.id, change.field, change.values, current)
            if parameter.name in found:
                report.error("schema", f"{where} is selected by two changes", location=change.where)
                continue
            found[parameter.name] = parameter
    return list(found.values())


def _same_kind(value: object, current: object) -> bool:
    numbers = (int, float)
    if isinstance(current, bool) or isinstance(value, bool):
        return False
    return isinstance(value, numbers) and isinstance(current, numbers) or type(value) is type(current)


def path_of(field: str) -> list:
    return [int(part) if part.isdigit() else part for part in field.split(".")]


def read_field(data: dict, field: str):
    value = data
    for part in path_of(field):
        value = value[part]
    return value


def overrides(params: list[Parameter], chosen: dict[str, object], source: DeckSource) -> list[dict]:
    """The `overrides:` entries that set each parameter to its chosen value (a whole top-level field
    each, as overrides replace whole fields), only for values that differ from the deck's."""
    by_card: dict[str, dict] = {}
    for parameter in params:
        value = chosen[parameter.name]
        if value == parameter.current:
            continue
        path = path_of(parameter.field)
        top = path[0]
        fields = by_card.setdefault(parameter.card, {})
        if top not in fields:
            fields[top] = copy.deepcopy(source.cards[parameter.card].data[top])
        if len(path) == 1:
            fields[top] = value
        else:
            target = fields[top]
            for part in path[1:-1]:
                target = target[part]
            target[path[-1]] = value
    return [{"id": card, **fields} for card, fields in by_card.items()]


def overrides_yaml(entries: list[dict], params: list[Parameter], deck_name: str) -> str:
    """The chosen values as an `overrides:` list to paste into an expansion-style deck's deck.yaml, each
    changed field's old value in a comment above it."""
    lines = [f"# The values `cardtool balance` chose for {deck_name}, as overrides (docs/expansions.md).",
             "# Paste them into a deck.yaml that extends the deck, or run `cardtool balance ... --deck-out DIR`.",
             "overrides:"]
    was = {p.name: p.current for p in params}
    for entry in entries:
        changed = [f"{name} was {value!r}" for name, value in was.items() if name.startswith(entry["id"] + ".")]
        lines.append("  # " + "; ".join(changed))
        body = yaml.safe_dump([entry], sort_keys=False, allow_unicode=True, default_flow_style=None)
        lines += ["  " + line for line in body.splitlines()]
    if not entries:
        lines[-1] = "overrides: []  # no candidate did better than the deck as it is"
    return "\n".join(lines) + "\n"


def write_deck(folder: Path, deck_path: Path, source: DeckSource, entries: list[dict], label: str,
               final: Path | None = None) -> Path:
    """An expansion-style deck in folder that extends deck_path and applies entries as overrides; `final`
    is where the folder will be once moved (its path to the base is written relative to that)."""
    folder.mkdir(parents=True, exist_ok=True)
    manifest = source.manifest
    base = Path(os.path.relpath(Path(deck_path).resolve(), Path(final or folder).resolve())).as_posix()
    data = {"id": f"{manifest.id}-tuned", "name": f"{manifest.name} ({label})", "version": manifest.version,
            "game": manifest.game, "description": f"{manifest.name} with the values `cardtool balance` chose "
            f"({label}); it applies them to the deck as overrides.", "extends": [base], "cards": [NO_CARDS],
            "overrides": entries}
    head = (f"# Made by `cardtool balance`: {manifest.name} with {len(entries)} card(s) changed ({label}).\n"
            "# Play, simulate or build it as any deck; `cardtool diff` against the original shows every change.\n")
    (folder / NO_CARDS).write_text("# This deck adds no card: it only changes values of its base's cards.\ncards: []\n",
                                   encoding="utf-8")
    (folder / "deck.yaml").write_text(head + yaml.safe_dump(data, sort_keys=False, allow_unicode=True),
                                      encoding="utf-8")
    return folder
