"""Runs that stop when their answer is known: the stop rules of `simulate --precision` and
`compare --precision`, and the intervals they promise.

Both look at the games after every batch and may stop at any look, so their intervals are
confidence sequences (cardtool.sim.stats.ConfidenceSequence), valid at every look at once, not
Wilson intervals, which looked at again and again would miss the true rate far more than 5% of
the time. A confidence sequence needs observations that are independent and alike: with seats
rotated, game i seats the line-up turned by i places, so the observation is a *rotation* (as many
games as seats, in which every bot plays every seat once): the share of its games a seat won, or
in a comparison how many more of them seat 1 won with deck B than with deck A. Only whole
rotations count, and a run keeps exactly the games its intervals were computed from.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import replace

from cardtool.errors import UsageError
from cardtool.sim.analysis import Analysis
from cardtool.sim.config import Setup
from cardtool.sim.records import SimRecord
from cardtool.sim.stats import ConfidenceSequence, Difference, Rate

#: The name of the interval method, as outputs record it.
METHOD = ("confidence sequence (testing by betting: Waudby-Smith and Ramdas 2024; Howard, Ramdas, McAuliffe "
          "and Sekhon 2021), valid at every look")


def check_precision(precision: float | None) -> float | None:
    """--precision PP, in percentage points, as a fraction; a usage error outside (0, 50]."""
    if precision is None:
        return None
    if not 0 < precision <= 50:
        raise UsageError(f"--precision is an interval half-width in percentage points, between 0 and 50, not "
                         f"{precision:g}")
    return precision / 100


def check_rotation(setup: Setup) -> int:
    """Games per observation: a whole turn of the line-up, or one game when seats are fixed; a usage
    error when --games does not reach one."""
    block = setup.players if setup.rotate else 1
    if setup.games < block:
        raise UsageError(f"--precision counts whole turns of the line-up ({block} games, one per seat); "
                         f"--games {setup.games} is fewer")
    return block


def with_sequence_rates(analysis: Analysis, rule: "SeatPrecision", records: Sequence[SimRecord] = ()) -> Analysis:
    """The analysis with each side's (and through it each seat's) and each bot's win rate carrying its
    confidence-sequence interval."""
    sides = [replace(side, win=rate) for side, rate in zip(analysis.sides, rule.rates(records))]
    seats = list(analysis.seats)
    for side in sides:
        for seat in side.seats:
            seats[seat] = side.win
    bots = rule.bot_rates()
    if {name: (r.k, r.n) for name, r in bots.items()} != {name: (r.k, r.n) for name, r in analysis.bots.items()}:
        raise AssertionError("the confidence sequences do not cover the games analysed")
    return replace(analysis, sides=sides, seats=seats, bots=bots)


class _Rule(ABC):
    def __init__(self, precision: float, block: int):
        self.precision, self.block = precision, block
        self.used = 0  # games the intervals are computed from (whole rotations, from game 0)
        self.looks = 0

    def __call__(self, new_games: Sequence[Sequence[SimRecord]]) -> bool:
        """Take in the games finished since the last call (one list per run, from where the last call
        left off: the runner's Stop protocol); only whole rotations count, a remainder is not kept."""
        whole = min(len(records) for records in new_games) // self.block * self.block
        if whole > 0:
            for start in range(0, whole, self.block):
                self._add([records[start:start + self.block] for records in new_games])
            self.used += whole
            self.looks += 1
        return self.used > 0 and self.answered

    def catch_up(self, *runs: Sequence[SimRecord]) -> list[list[SimRecord]]:
        """After the run (ended by the rule, by --games or by Ctrl-C): take in the games from game 0 on
        without a gap that it has not seen, and return each run's games that the intervals cover.
        The runner already does this (a run's records are exactly the covered games): then it is a no-op."""
        unbroken = []
        for records in runs:
            n = 0
            while n < len(records) and records[n].index == n:
                n += 1
            unbroken.append(list(records[:n]))
        if min(len(records) for records in unbroken) > self.used:
            self([records[self.used:] for records in unbroken])
        return [records[:self.used] for records in unbroken]

    @abstractmethod
    def _add(self, blocks: list[Sequence[SimRecord]]) -> None:
        """Take in one rotation of games (one list per run)."""

    @property
    @abstractmethod
    def answered(self) -> bool:
        """Whether the question is answered."""


class SeatPrecision(_Rule):
    """Stop once every side's (seat's, or in a team mode team's) win-rate interval has a half-width of
    at most `precision` (a fraction)."""

    def __init__(self, precision: float, block: int):
        super().__init__(precision, block)
        self.sides: tuple[tuple[int, ...], ...] = ()
        self.sequences: list[ConfidenceSequence] = []
        self.bots: dict[str, ConfidenceSequence] = {}  # each bot's share of its seats won (not a stop rule)
        self._bot_games: dict[str, list[int]] = {}
        self._side_wins: list[int] = []

    def _add(self, blocks):
        (games,) = blocks
        if not self.sequences:
            self.sides = games[0].sides
            self.sequences = [ConfidenceSequence() for _ in self.sides]
            self.bots = {name: ConfidenceSequence() for name in sorted({n for r in games for n in r.bots})}
            self._bot_games = {name: [0, 0] for name in self.bots}
            self._side_wins = [0 for _ in self.sides]
        for number, (side, sequence) in enumerate(zip(self.sides, self.sequences)):
            won = sum(r.side_won(side) for r in games)
            sequence.update([won / len(games)])
            self._side_wins[number] += won
        for name, sequence in self.bots.items():  # a rotation seats each bot equally often
            seats = [(r, seat) for r in games for seat, bot in enumerate(r.bots) if bot == name]
            won = sum(r.won(seat) for r, seat in seats)
            sequence.update([won / len(seats)])
            self._bot_games[name][0] += won
            self._bot_games[name][1] += len(seats)

    def bot_rates(self) -> dict[str, Rate]:
        """Each bot's win rate over its seats in the covered games, with its confidence-sequence interval."""
        return {name: Rate(*self._bot_games[name], *sequence.interval()) for name, sequence in self.bots.items()}

    def intervals(self) -> list[tuple[float, float]]:
        return [sequence.interval() for sequence in self.sequences]

    @property
    def answered(self) -> bool:
        return all((high - low) / 2 <= self.precision for low, high in self.intervals())

    def rates(self, records: Sequence[SimRecord] = ()) -> list[Rate]:
        """Each side's win rate over the covered games, with its confidence-sequence interval (counted as
        the games went by: `records` is not needed, and kept for callers that pass it)."""
        return [Rate(won, self.used, low, high) for won, (low, high) in zip(self._side_wins, self.intervals())]


class DecidedDifference(_Rule):
    """Stop once the headline difference of a comparison, seat 1's win rate (its team's, in a team mode)
    with deck B minus with deck A, game by game under the same seeds, is decided (its interval leaves
    out 0) or known to within `precision` either way."""

    def __init__(self, precision: float, block: int):
        super().__init__(precision, block)
        self.sequence = ConfidenceSequence()
        self.first: tuple[int, ...] = ()

    def _add(self, blocks):
        games_a, games_b = blocks
        self.first = games_a[0].sides[0]
        difference = sum(b.side_won(self.first) - a.side_won(self.first) for a, b in zip(games_a, games_b))
        self.sequence.update([(difference / len(games_a) + 1) / 2])  # from -1..1 to 0..1

    def difference(self) -> Difference:
        """B - A with its confidence-sequence interval; significant when the interval leaves out 0."""
        low, high = self.sequence.interval()
        n = self.sequence.n
        estimate = 2 * float(self.sequence.total[0]) / n - 1 if n else float("nan")
        low, high = 2 * low - 1, 2 * high - 1
        decided = low > 0 or high < 0
        return Difference(estimate, low, high, float("nan"), decided)

    @property
    def decided(self) -> bool:
        return self.difference().significant

    @property
    def answered(self) -> bool:
        d = self.difference()
        return d.significant or (d.high - d.low) / 2 <= self.precision
