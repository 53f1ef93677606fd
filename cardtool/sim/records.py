"""One record per simulated game: what the game reported, with the seed, the bots and the outcome.

The outcome is `finished` (by the game's rules: the record's end reason says which ending) or `capped`
(a safeguard outside the rules stopped it, the game's own or --max-turns: nobody won it).
In memory seats count from 0, as in the engine; in games.jsonl they count from 1, as people and
`cardtool play` count them (the first to play is seat 1).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from cardtool.games.plugin import GameRecord

FINISHED, CAPPED = "finished", "capped"


@dataclass(frozen=True)
class SimRecord:
    """One game of a simulation."""

    index: int  # game number within the run, from 0
    seed: int  # the game's own seed, derived from the run's seed and the index
    bots: tuple[str, ...]  # bot name per seat
    outcome: str  # FINISHED, or CAPPED when a cap stopped the game
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    turns: int
    curve: tuple[tuple[float, ...], ...] = ()
    cards: Mapping[str, tuple[tuple[str, ...], ...]] = field(default_factory=dict)
    extras: Mapping[str, object] = field(default_factory=dict)
    end_reason: str = ""  # one of the game's end reason words (e.g. "target", "round-cap")
    teams: tuple[tuple[int, ...], ...] = ()  # seats that win together; () when each plays alone

    @classmethod
    def of(cls, index: int, seed: int, bots: tuple[str, ...], over: bool, record: GameRecord) -> "SimRecord":
        """The record of a game the simulator played; `over` is the state's is_over() (a game the loop
        left unfinished counts as capped)."""
        capped = record.capped or not over
        return cls(index, seed, tuple(bots), CAPPED if capped else FINISHED,
                   tuple(_number(s) for s in record.scores), () if capped else tuple(record.winners),
                   record.turns, tuple(tuple(_number(s) for s in row) for row in record.curve),
                   {event: tuple(tuple(ids) for ids in seats) for event, seats in record.cards.items()},
                   dict(record.extras), record.end_reason, tuple(tuple(team) for team in record.teams))

    @property
    def players(self) -> int:
        return len(self.bots)

    @property
    def capped(self) -> bool:
        return self.outcome == CAPPED

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """Who plays to win: the teams, or each seat alone."""
        return self.teams or tuple((seat,) for seat in range(self.players))

    def won(self, seat: int) -> bool:
        return seat in self.winners

    def side_won(self, side: tuple[int, ...]) -> bool:
        return any(seat in self.winners for seat in side)

    @property
    def winning_sides(self) -> int:
        """How many sides (teams, or seats) share the victory: 0 capped, 1 a win, more a tie."""
        return sum(1 for side in self.sides if self.side_won(side))

    def to_json(self) -> dict:
        data = {"game": self.index, "seed": self.seed, "bots": list(self.bots), "outcome": self.outcome,
                "end_reason": self.end_reason, "scores": list(self.scores),
                "winners": [seat + 1 for seat in self.winners], "turns": self.turns,
                "curve": [list(row) for row in self.curve],
                "cards": {event: [list(ids) for ids in seats] for event, seats in self.cards.items()},
                "extras": self.extras}
        if self.teams:
            data["teams"] = [[seat + 1 for seat in team] for team in self.teams]
        return data

    @classmethod
    def from_json(cls, data: dict) -> "SimRecord":
        outcome = CAPPED if data["outcome"] == "stalled" else data["outcome"]  # files written before end reasons
        return cls(data["game"], data["seed"], tuple(data["bots"]), outcome, tuple(data["scores"]),
                   tuple(seat - 1 for seat in data["winners"]), data["turns"],
                   tuple(tuple(row) for row in data.get("curve", ())),
                   {event: tuple(tuple(ids) for ids in seats) for event, seats in data.get("cards", {}).items()},
                   data.get("extras", {}), data.get("end_reason", ""),
                   tuple(tuple(seat - 1 for seat in team) for team in data.get("teams", ())))


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
