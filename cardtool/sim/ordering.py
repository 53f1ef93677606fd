"""Putting finished batches back in game order, for the sinks (games.jsonl) and a stop rule.

Workers finish batches in any order. `Collector` holds a batch until every earlier game of its setup
has arrived, then hands its games on in order: to the setup's sink (a `stream.GamesFile`), or to a
list in memory when there is none. With a stop rule, it first shows the rule the games at every
multiple of `every` games that all setups have reached, and passes on only games the rule has seen,
so where a run stops, and which games it keeps, depends on the games alone, not on the number of
workers or which was quicker. What is held at any time is the batches in flight, never the run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from cardtool.sim.play import Batch
from cardtool.sim.records import SimRecord

#: A stop rule: called with the games finished since its last call (one list per setup run together,
#: all of one length, continuing from game 0 without a gap); True ends the run with exactly the games
#: it has been shown. A rule with a `block` (games per observation) is shown whole blocks at its looks,
#: and at the end of a run it did not stop only whole blocks are kept.
Stop = Callable[[list[list[SimRecord]]], bool]


class Sink(Protocol):
    """Where a setup's games go, in game order (stream.GamesFile is one)."""

    def write_lines(self, lines: str, games: int) -> None: ...


class Collector:
    """Takes batches as they finish; passes their games on in game order (see the module docstring)."""

    def __init__(self, setups: int, sinks: Sequence[Sink] | None, stop: Stop | None, every: int = 1):
        self.sinks, self.stop = sinks, stop
        self.block = max(1, int(getattr(stop, "block", 1)))
        self.every = -(-max(1, every) // self.block) * self.block  # looks fall on whole blocks
        self.kept: list[list[SimRecord]] = [[] for _ in range(setups)]  # only without sinks
        self.games = [0] * setups  # games passed on, per setup
        self.stopped = False
        self._pending: list[dict[int, Batch]] = [{} for _ in range(setups)]
        self._next = [0] * setups  # the first game of each setup not yet arrived in order
        self._unseen: list[list[tuple[SimRecord, str | None]]] = [[] for _ in range(setups)]  # stop rule only

    @property
    def wants_records(self) -> bool:
        """Whether workers must send records (to keep in memory, or for the stop rule)."""
        return self.sinks is None or self.stop is not None

    @property
    def wants_lines(self) -> bool:
        """Whether workers must send games.jsonl lines (to stream)."""
        return self.sinks is not None

    def add(self, batch: Batch) -> bool:
        """Take one finished batch; True once the stop rule has ended the run."""
        if self.stopped:
            return True
        which = batch.which
        self._pending[which][batch.start] = batch
        while self._next[which] in self._pending[which]:
            ready = self._pending[which].pop(self._next[which])
            self._next[which] = ready.stop
            if self.stop is None:
                self._pass_on(which, ready.records, ready.lines, ready.games)
            else:
                lines = ready.lines.splitlines(keepends=True) if ready.lines is not None else [None] * ready.games
                self._unseen[which].extend(zip(ready.records, lines))
        if self.stop is not None:
            while not self.stopped and min(len(unseen) for unseen in self._unseen) >= self.every:
                self._look(self.every)
        return self.stopped

    def finish(self, interrupted: bool) -> None:
        """After the last batch (or Ctrl-C): without a stop rule, pass on what arrived out of order (only
        an interrupted run has gaps); with one that did not stop, show it the games after its last look
        and keep its whole blocks."""
        if self.stop is None:
            for which, pending in enumerate(self._pending):
                for start in sorted(pending):
                    batch = pending.pop(start)
                    self._pass_on(which, batch.records, batch.lines, batch.games)
        elif not self.stopped:
            tail = min(len(unseen) for unseen in self._unseen)
            if tail:
                self._look(tail, keep=tail // self.block * self.block)

    def _look(self, games: int, keep: int | None = None) -> None:
        shown = [unseen[:games] for unseen in self._unseen]
        for unseen in self._unseen:
            del unseen[:games]
        answered = bool(self.stop([[record for record, _ in games_] for games_ in shown]))
        self.stopped = answered and keep is None  # the last look at the end of a run does not stop it
        for which, games_ in enumerate(shown):
            games_ = games_[:keep] if keep is not None else games_
            if games_:
                records = tuple(record for record, _ in games_)
                lines = "".join(line for _, line in games_) if self.sinks is not None else None
                self._pass_on(which, records, lines, len(games_))

    def _pass_on(self, which: int, records, lines: str | None, games: int) -> None:
        if self.sinks is None:
            self.kept[which].extend(records)
        else:
            self.sinks[which].write_lines(lines, games)
        self.games[which] += games
