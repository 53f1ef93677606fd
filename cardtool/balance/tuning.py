"""TUNING.yaml: what the search may change, what must stay, the targets, and how candidates are played.

Read like a deck file: parsed safely, checked against schemas/tuning.schema.json, every problem a located
issue. Defaults fill what the file leaves out (see DEFAULTS and docs/balance.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path

from cardtool.deck.schema import validate_against
from cardtool.deck.yamlsource import SourceDoc, load_yaml
from cardtool.issues import Location, Report

SCHEMA = "tuning.schema.json"
MAX_VALUES = 64  # candidate values of one field
DEFAULT_LOOKS = (200, 400, 800)
DEFAULT_CHECK = {"games": 2000, "seed": 900_001, "lineups": ("greedy", {"lineup": "search,greedy", "games": 400})}


@dataclass(frozen=True)
class Change:
    """Cards (a selector, as include/exclude take) whose field may take one of values."""

    cards: dict
    field: str
    values: tuple
    where: Location
    why: str = ""


@dataclass(frozen=True)
class Fixed:
    cards: dict
    where: Location
    why: str = ""


@dataclass(frozen=True)
class Targets:
    seat_fairness: float | None = None  # points
    card_impact: float | None = None  # points
    stalled: float | None = None  # percent, at most
    cards_played: float | None = None  # percent, at least
    biome_healthy: float | None = None  # percent, at least
    length: tuple[float, float] | None = None  # median turns
    card_impact_vs_peers: float | None = None  # points: a card's impact minus the mean of its peers'
    peers: tuple[str, ...] = ("kind",)  # the card fields whose values group a card with its peers
    impact_event: str = ""  # card_impact's event ("" for the game's own: Symbiosis kept, Ecologies played)
    impact_where: Location | None = None  # where the file names it, for an event the game does not record


@dataclass(frozen=True)
class Plan:
    """How each candidate is played (the search) and how the result is checked (fresh seeds)."""

    players: int | None
    mode: str | None
    bots: str
    seed: int
    max_turns: int
    looks: tuple[int, ...]
    check_games: int
    check_seed: int
    lineups: tuple[tuple[str, int], ...]  # (line-up, games on the check)
    also: tuple[tuple[str, float], ...] = ()  # (line-up, share of each look's games) played beside `bots`
    aim: float = 0.0  # points inside each ± target that the search's penalty counts from


@dataclass(frozen=True)
class Tuning:
    file: Path
    changes: tuple[Change, ...]
    fixed: tuple[Fixed, ...]
    targets: Targets
    plan: Plan
    text: str  # the file as read, for the search's identity (a changed file starts a new search)
    cost_per_change: float = 0.0  # penalty for each value that differs from the deck's

    def aimed(self) -> Targets:
        """The targets the search's penalty counts from: each ± bound `simulation.aim` points tighter
        (never below 0), so a chosen value is not left on the line where a fresh seed's noise pushes it out.
        The check and the report judge `targets` as written."""
        aim, t = self.plan.aim, self.targets
        if not aim:
            return t
        def tighter(bound):
            return None if bound is None else max(0.0, bound - aim)
        return replace(t, seat_fairness=tighter(t.seat_fairness), card_impact=tighter(t.card_impact),
                       card_impact_vs_peers=tighter(t.card_impact_vs_peers))


def read_tuning(path: Path, report: Report) -> Tuning | None:
    """The tuning file, or None with located errors in report."""
    doc = load_yaml(Path(path), report)
    if doc is None:
        return None
    if not isinstance(doc.data, dict):
        report.error("schema", "a tuning file is a mapping with `change:` and `targets:` (docs/balance.md)",
                     location=doc.locate())
        return None
    validate_against(doc, SCHEMA, report)
    if not report.ok:
        return None
    data = doc.data
    changes = tuple(_change(doc, i, entry, report) for i, entry in enumerate(data["change"]))
    fixed = tuple(Fixed(entry["cards"], doc.locate(("fixed", i)), entry.get("why", ""))
                  for i, entry in enumerate(data.get("fixed") or ()))
    plan = _plan(doc, data, report)
    if not report.ok:
        return None
    t = data["targets"]
    impact, event = _impact(t.get("card_impact"))
    targets = Targets(t.get("seat_fairness"), impact, t.get("stalled"), t.get("cards_played"),
                      t.get("biome_healthy"), tuple(t["length"]) if "length" in t else None,
                      *_peers(t.get("card_impact_vs_peers")), event,
                      doc.locate(("targets", "card_impact", "event")) if event else None)
    if targets.length is not None and targets.length[0] > targets.length[1]:
        report.error("schema", f"targets.length: the low end {targets.length[0]:g} is above the high end "
                     f"{targets.length[1]:g}", location=doc.locate(("targets", "length")))
        return None
    return Tuning(Path(path), changes, fixed, targets, plan, Path(path).read_text(encoding="utf-8"),
                  data.get("cost_per_change", 0.0))


def _impact(entry) -> tuple:
    """card_impact as (bound, event): a number (the game's own impact event, ""), or {within, event}."""
    if isinstance(entry, dict):
        return entry["within"], entry.get("event", "")
    return entry, ""


def _peers(entry) -> tuple:
    """card_impact_vs_peers as (bound, peer fields): a number (peers: the same kind), or {within, peers}."""
    if entry is None:
        return None, ("kind",)
    if isinstance(entry, dict):
        return entry["within"], tuple(entry.get("peers") or ("kind",))
    return entry, ("kind",)


def _change(doc: SourceDoc, index: int, entry: dict, report: Report) -> Change:
    where = doc.locate(("change", index))
    if "values" in entry:
        values = tuple(entry["values"])
        if len(set(map(repr, values))) < len(values):
            report.error("schema", "change: a value is listed twice", location=doc.locate(("change", index, "values")))
    else:
        low, high = entry["range"]
        step = entry.get("step", 1)
        count = math.floor((high - low) / step + 1e-9) + 1 if high >= low else 0
        if count < 1 or count > MAX_VALUES:
            report.error("schema", f"change: range {low:g} to {high:g} in steps of {step:g} gives {max(count, 0)} "
                         f"values; give 1 to {MAX_VALUES}", location=doc.locate(("change", index, "range")))
            values = ()
        else:
            whole = all(float(v).is_integer() for v in (low, high, step))
            values = tuple(int(low + k * step) if whole else round(low + k * step, 6) for k in range(count))
    return Change(entry["cards"], entry["field"], values, where, entry.get("why", ""))


def _plan(doc: SourceDoc, data: dict, report: Report) -> Plan:
    sim = data.get("simulation") or {}
    check = {**DEFAULT_CHECK, **(data.get("check") or {})}
    seed = sim.get("seed", 1)
    looks = tuple(sim.get("looks", DEFAULT_LOOKS))
    if list(looks) != sorted(set(looks)):
        report.error("schema", "simulation.looks: give growing numbers of games, e.g. [200, 400, 800]",
                     location=doc.locate(("simulation", "looks")))
    if check["seed"] in search_seeds(seed, len(looks)):
        report.error("schema", f"check.seed {check['seed']} is a seed the search plays: the check must use fresh "
                     "seeds, or a result tuned to those games would pass it", location=doc.locate(("check", "seed")))
    return Plan(sim.get("players"), sim.get("mode"), sim.get("bots", "greedy"), seed, sim.get("max_turns", 1000),
                looks, check["games"], check["seed"],
                tuple((w, check["games"]) if isinstance(w, str) else (w["lineup"], w.get("games", check["games"]))
                      for w in check["lineups"]),
                tuple((w["bots"], w.get("share", 1.0)) for w in sim.get("also") or ()), sim.get("aim", 0.0))


def search_seeds(seed: int, looks: int) -> tuple[int, ...]:
    """The seed of each look's new games: every candidate plays the same games (common random numbers)."""
    return tuple(seed + k for k in range(looks))
