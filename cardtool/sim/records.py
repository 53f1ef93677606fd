"""One record per simulated game: what the game reported, with the seed, the bots and the outcome.

In memory seats count from 0, as in the engine; in games.jsonl they count from 1, as people and
`cardtool play` count them (the first to play is seat 1).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from cardtool.games.plugin import GameRecord

FINISHED, STALLED = "finished", "stalled"


@dataclass(frozen=True)
class SimRecord:
    """One game of a simulation."""

    index: int  # game number within the run, from 0
    seed: int  # the game's own seed, derived from the run's seed and the index
    bots: tuple[str, ...]  # bot name per seat
    outcome: str  # FINISHED, or STALLED when the turn cap stopped the game
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    turns: int
    curve: tuple[tuple[float, ...], ...] = ()
    cards: Mapping[str, tuple[tuple[str, ...], ...]] = field(default_factory=dict)
    extras: Mapping[str, object] = field(default_factory=dict)

    @classmethod
    def of(cls, index: int, seed: int, bots: tuple[str, ...], over: bool, record: GameRecord) -> "SimRecord":
        return cls(index, seed, tuple(bots), FINISHED if over else STALLED,
                   tuple(_number(s) for s in record.scores), tuple(record.winners) if over else (),
                   record.turns, tuple(tuple(_number(s) for s in row) for row in record.curve),
                   {event: tuple(tuple(ids) for ids in seats) for event, seats in record.cards.items()},
                   dict(record.extras))

    @property
    def players(self) -> int:
        return len(self.bots)

    @property
    def stalled(self) -> bool:
        return self.outcome == STALLED

    def won(self, seat: int) -> bool:
        return seat in self.winners

    def to_json(self) -> dict:
        return {"game": self.index, "seed": self.seed, "bots": list(self.bots), "outcome": self.outcome,
                "scores": list(self.scores), "winners": [seat + 1 for seat in self.winners], "turns": self.turns,
                "curve": [list(row) for row in self.curve],
                "cards": {event: [list(ids) for ids in seats] for event, seats in self.cards.items()},
                "extras": self.extras}

    @classmethod
    def from_json(cls, data: dict) -> "SimRecord":
        return cls(data["game"], data["seed"], tuple(data["bots"]), data["outcome"], tuple(data["scores"]),
                   tuple(seat - 1 for seat in data["winners"]), data["turns"],
                   tuple(tuple(row) for row in data.get("curve", ())),
                   {event: tuple(tuple(ids) for ids in seats) for event, seats in data.get("cards", {}).items()},
                   data.get("extras", {}))


def to_jsonl(records) -> str:
    """games.jsonl: one line per game, in game order."""
    return "".join(json.dumps(record.to_json(), separators=(",", ":")) + "\n" for record in records)


def from_jsonl(text: str) -> list[SimRecord]:
    return [SimRecord.from_json(json.loads(line)) for line in text.splitlines() if line.strip()]


def _number(score) -> float | int:
    """A score as a JSON number: an int stays one, a Fraction becomes a float."""
    if isinstance(score, Fraction):
        return int(score) if score.denominator == 1 else float(score)
    return score
