"""A Symbiosis table position written as YAML, read with positions kept and checked in full.

Like a deck, a position is gathered and validated first (YAML, then its JSON Schema, then card ids,
copies, seats and neighbours), every problem reported with its line and a "did you mean"; only a clean
position is scored. The format is described in docs/rules/symbiosis.md.

A position may carry the scoring of some cards itself (`printed:`): a printed example keeps the values it
was printed with while the deck's own values are tuned (the rulebook's worked example pins the scoring
rules, not the shipped deck's numbers).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

from cardtool.deck.schema import validate_against
from cardtool.deck.source import relative
from cardtool.deck.yamlsource import SourceDoc, load_yaml
from cardtool.errors import DeckError
from cardtool.games.symbiosis import scoring
from cardtool.games.symbiosis.layout import MODES, POND, RIVER
from cardtool.games.symbiosis.model import Scoring
from cardtool.games.symbiosis.table import CardTable
from cardtool.issues import Issue, Report
from cardtool.suggest import did_you_mean

SCHEMA = "symbiosis/position.schema.json"


class PositionError(DeckError):
    """A position file cannot be scored; carries the report of every problem found."""


@dataclass(frozen=True)
class Position:
    """A scored-ready table: names in seating order, ponds of card numbers, the River, column targets."""

    mode: str
    names: tuple[str, ...]
    ponds: tuple[tuple[int, ...], ...]
    river: tuple[int, ...]
    faces: tuple[tuple[int, int], ...]
    teams: tuple[tuple[int, ...], ...]
    description: str = ""
    printed: tuple[tuple[int, Scoring], ...] = ()  # (card number, its scoring as the position prints it)

    def scored_with(self, table: CardTable) -> CardTable:
        """The table this position is scored with: the deck's cards, those it prints with their printed scoring."""
        if not self.printed:
            return table
        cards = list(table.cards)
        for number, rule in self.printed:
            cards[number] = replace(cards[number], scoring=rule)
        return CardTable.of(replace(table.deck, cards=tuple(cards)))

    def breakdown(self, table: CardTable) -> tuple[scoring.PondScore, ...]:
        return scoring.score_table(self.scored_with(table), self.ponds, self.faces, self.river)


def load_position(file: Path, table: CardTable) -> Position:
    """The position in file, or PositionError with a report of everything wrong with it."""
    file = relative(Path(file))
    report = Report()
    doc = load_yaml(file, report)
    if doc is not None:
        scratch = Report()
        validate_against(doc, SCHEMA, scratch)
        for issue in scratch.issues:
            report.add(_clearer(doc, issue))
    if doc is None:
        raise PositionError(f"position {file} has errors", report)
    if not report.ok:  # the table checks too, as far as the data allows: every problem in one run
        if isinstance(doc.data, dict):
            try:
                _check(doc, table, report)
            except (KeyError, TypeError, AttributeError, IndexError, ValueError):
                pass  # a part the schema already refused; its error is reported
        raise PositionError(f"position {file} has errors", report)
    position = _check(doc, table, report)
    if not report.ok or position is None:
        raise PositionError(f"position {file} has errors", report)
    return position


def _clearer(doc: SourceDoc, issue: Issue) -> Issue:
    """Schema messages about list sizes, said in the position's own words."""
    path, value = issue.path, _at(doc.data, issue.path)
    if path == () and not isinstance(doc.data, dict):  # not a position at all: never echo what it holds
        return replace(issue, message="this is not a position file: it holds no mapping of mode, ponds and river",
                       hint="the format is described in docs/rules/symbiosis.md")
    if issue.code not in ("empty-value", "bad-value") or not isinstance(value, (list, dict)):
        return issue
    if path == ("ponds",):
        message = f"a position needs at least two ponds, found {len(value)}"
    elif len(path) == 2 and path[0] == "ponds":
        message = f"a pond has two rows of four cards, found {len(value)} row(s)"
    elif len(path) == 3 and path[0] == "ponds":
        message = f"a row of a pond has four cards, found {len(value)}"
    elif path == ("river",):
        message = f"the River holds at most eight cards (exactly eight in duel), found {len(value)}"
    else:
        return issue
    return replace(issue, code="bad-value", message=message)


def _at(data, path):
    for key in path:
        try:
            data = data[key]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _check(doc: SourceDoc, table: CardTable, report: Report) -> Position | None:
    data = doc.data
    mode = data.get("mode", "standard")
    rules = MODES[mode]
    names = tuple(data["ponds"])
    seats = rules.players(sum(table.copies))  # the same counts as `cardtool play`
    if len(names) not in seats:
        from cardtool.games.symbiosis.engine import players_error  # the engine loads only to word this error

        message = players_error(rules, len(names), seats, sum(table.copies))
        report.error("player-count", message.replace(", not ", ": this position has "),
                     location=doc.locate(("ponds",), key=True), path=("ponds",),
                     hint="for two players, use mode: duel" if len(names) == 2 and mode != "duel" else None)
    for name in names:
        if name.strip().lower() == "river":
            report.error("bad-value", "'river' names the River, not a player: choose another name",
                         location=doc.locate(("ponds", name), key=True), path=("ponds", name))

    used: Counter = Counter()

    def number(path: tuple) -> int:
        card_id = _at(data, path)
        if card_id not in table.index:
            report.error("unknown-ref", f"unknown card '{card_id}'", location=doc.locate(path), path=path,
                         hint=did_you_mean(card_id, table.index) or "card ids are listed by `cardtool info`")
            return -1
        used[card_id] += 1
        copies = table.copies[table.index[card_id]]
        if used[card_id] == copies + 1:
            report.error("too-many-copies", f"card '{card_id}' is used more often than the deck holds it",
                         location=doc.locate(path), card=card_id, path=path,
                         hint=f"the deck holds {copies} cop{'y' if copies == 1 else 'ies'} of '{card_id}'")
        return table.index[card_id]

    ponds = tuple(tuple(number(("ponds", name, row, col)) for row in range(2) for col in range(POND // 2))
                  for name in names)
    river = tuple(number(("river", i)) for i in range(len(data.get("river", ()))))
    faces = list(rules.faces(len(names))) if len(names) in seats else [(0, 0)] * len(names)
    for name, sides in data.get("neighbours", {}).items():
        where = doc.locate(("neighbours", name), key=True)
        if name not in names:
            report.error("unknown-ref", f"'{name}' has no pond in this position", location=where,
                         path=("neighbours", name), hint=did_you_mean(name, names))
            continue
        seat = names.index(name)
        left, right = faces[seat]
        for side, target in sides.items():
            resolved = _target(doc, data, name, side, target, names, report)
            if resolved is not None:
                left, right = (resolved, right) if side == "left" else (left, resolved)
        faces[seat] = (left, right)
    printed = _printed(doc, data.get("printed", {}), table, report)
    if not report.ok:
        return None
    return Position(mode=mode, names=names, ponds=ponds, river=river, faces=tuple(faces),
                    teams=rules.teams(len(names)), description=data.get("description", ""), printed=printed)


def _printed(doc: SourceDoc, printed: dict, table: CardTable, report: Report) -> tuple[tuple[int, Scoring], ...]:
    """The cards the position scores as printed: known card ids, counting Animals and Seasons the deck has."""
    found = []
    known = {"animal": [a.id for a in table.deck.animals], "season": [s.id for s in table.deck.seasons]}
    for card_id, rule in printed.items():
        path = ("printed", card_id)
        if card_id not in table.index:
            report.error("unknown-ref", f"printed: unknown card '{card_id}'", location=doc.locate(path, key=True),
                         path=path, hint=did_you_mean(card_id, table.index) or "card ids are listed by `cardtool info`")
            continue
        kind = {"per_animal": "animal", "per_season": "season"}.get(rule["rule"])
        if kind is not None and rule[kind] not in known[kind]:
            report.error("unknown-ref", f"printed: {card_id} counts an unknown {kind} '{rule[kind]}'",
                         location=doc.locate(path + (kind,)), card=card_id, path=path + (kind,),
                         hint=did_you_mean(rule[kind], known[kind]) or f"{kind}s: {', '.join(known[kind])}")
            continue
        found.append((table.index[card_id], Scoring(**rule)))  # as the deck's loader reads a card's scoring
    return tuple(found)


def _target(doc, data, name, side, target, names, report) -> int | None:
    path = ("neighbours", name, side)
    where = doc.locate(path)
    if target.strip().lower() == "river":
        if not data.get("river"):
            report.error("unknown-ref", f"{name}'s {side} column counts the River, but the position has none",
                         location=where, path=path, hint="list the River's cards under 'river:'")
            return None
        return RIVER
    if target not in names:
        report.error("unknown-ref", f"'{target}' has no pond in this position", location=where, path=path,
                     hint=did_you_mean(target, [*names, "river"]) or f"players: {', '.join(names)}")
        return None
    if target == name:
        report.error("bad-value", f"{name}'s {side} column cannot count {name}'s own pond", location=where,
                     path=path, hint="side columns count a neighbour's pond (or the River); "
                                     "only the middle columns count the player's own")
        return None
    return names.index(target)
