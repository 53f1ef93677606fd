"""Playing games for a simulation: one game from its seed, and a batch of games as one worker task.

Imported by every runner (this process, the process pool, a Dask cluster) and by nothing it imports,
so the runners share one way to play a game and no runner imports another.

A batch carries its games as records, as games.jsonl lines, or both: a run that streams to a file
has the worker write the lines, so the parent only writes text and never unpickles records it does
not need.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from cardtool.engine.bots import make_bots
from cardtool.engine.playout import play
from cardtool.sim.config import Setup, simulated_game
from cardtool.sim.records import SimRecord

#: Called with the number of games just finished.
Progress = Callable[[int], None]

#: The most games in one task: enough to make a task's overhead negligible, few enough that the
#: progress bar moves and a stop rule or Ctrl-C does not wait long for the games in flight.
MAX_BATCH = 250


@dataclass(frozen=True)
class Batch:
    """Games start..stop-1 of setup `which`: their records, their games.jsonl lines, or both."""

    which: int
    start: int
    stop: int
    records: tuple[SimRecord, ...] | None
    lines: str | None

    @property
    def games(self) -> int:
        return self.stop - self.start


def play_game(setup: Setup, index: int) -> SimRecord:
    """Play and record game `index` of a setup."""
    plugin = _plugin(setup)
    seed = setup.game_seed(index)
    names = setup.bots_for(index)
    game = plugin.new_game(setup.deck, setup.players, setup.mode, seed)
    bots = make_bots(names, plugin.bots, game)  # each from its seat's public facts only
    state = play(game, bots, max_turns=setup.max_turns)
    return SimRecord.of(index, seed, names, state.is_over(), plugin.record(game, state))


_LAST: list = [None, None]  # the last deck played and its plugin


def _plugin(setup: Setup):
    """The setup's game, looked up once per deck: its protocol checks cost a fair share of a quick game."""
    if _LAST[0] is not setup.deck:
        _LAST[:] = [setup.deck, simulated_game(setup.deck)]
    return _LAST[1]


def play_range(setup: Setup, start: int, stop: int) -> list[SimRecord]:
    """Games start..stop-1, as records."""
    return [play_game(setup, index) for index in range(start, stop)]


def play_batch(setup: Setup, which: int, start: int, stop: int, records: bool, lines: bool) -> Batch:
    """Games start..stop-1 as one task: records if asked, games.jsonl lines if asked."""
    return make_batch(which, start, play_range(setup, start, stop), records, lines)


def make_batch(which: int, start: int, played: list[SimRecord], records: bool, lines: bool) -> Batch:
    """The batch of games start.. (as many as were played) of setup `which`."""
    text = "".join(json_line(record) for record in played) if lines else None
    return Batch(which, start, start + len(played), tuple(played) if records else None, text)


def json_line(record: SimRecord) -> str:
    """The record's line of games.jsonl."""
    return json.dumps(record.to_json(), separators=(",", ":")) + "\n"


def chunks(games: int, workers: int, size: int | None = None) -> list[tuple[int, int]]:
    """(start, stop) ranges of `size` games; by default about 16 per worker so the bar moves and cores
    stay busy to the end, at most MAX_BATCH games."""
    if size is None:
        size = max(1, min(MAX_BATCH, games // (workers * 16) or 1))
    return [(start, min(games, start + size)) for start in range(0, games, size)]
