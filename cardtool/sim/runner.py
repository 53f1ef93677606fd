"""Running a simulation: game i is played from its own seed, in chunks, on every core by default.

Results do not depend on how games are scheduled: each game's seed comes from (run seed, index) and
each seat's bot draws from a generator derived from the game's seed, so `--jobs 1`, `--jobs 8` and a
Dask cluster give the same records, which are put back in game order.

Ctrl-C stops the run cleanly: the workers ignore it, the parent stops them and keeps every game that
finished. A game that a cap stops (--max-turns, or the game's own) is recorded as capped, never dropped.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from cardtool.engine.bots import make_bots
from cardtool.engine.playout import play
from cardtool.errors import UsageError
from cardtool.sim.config import Setup, simulated_game
from cardtool.sim.records import SimRecord

#: Called with the number of games just finished.
Progress = Callable[[int], None]


@dataclass(frozen=True)
class RunResult:
    """The records of the games that finished, in game order, and how the run went."""

    records: list[SimRecord]
    interrupted: bool
    seconds: float
    jobs: int
    where: str  # "this process", "N processes" or the scheduler's address

    @property
    def games_per_second(self) -> float:
        return len(self.records) / self.seconds if self.seconds > 0 else 0.0


def play_game(setup: Setup, index: int) -> SimRecord:
    """Play and record game `index` of a setup."""
    plugin = simulated_game(setup.deck)
    seed = setup.game_seed(index)
    names = setup.bots_for(index)
    game = plugin.new_game(setup.deck, setup.players, setup.mode, seed)
    bots = make_bots(names, plugin.bots, game)  # each from its seat's public facts only
    state = play(game, bots, max_turns=setup.max_turns)
    return SimRecord.of(index, seed, names, state.is_over(), plugin.record(game, state))


def play_range(setup: Setup, start: int, stop: int) -> list[SimRecord]:
    """Games start..stop-1: one task for a worker."""
    return [play_game(setup, index) for index in range(start, stop)]


def chunks(games: int, workers: int) -> list[tuple[int, int]]:
    """(start, stop) ranges: about 16 per worker so the bar moves and cores stay busy, at most 250 games."""
    size = max(1, min(250, games // (workers * 16) or 1))
    return [(start, min(games, start + size)) for start in range(0, games, size)]


def check_jobs(jobs: int | None) -> int:
    """The number of worker processes: every core by default."""
    if jobs is None:
        return os.cpu_count() or 1
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {jobs}")
    return jobs


def run(setup: Setup, jobs: int | None = None, progress: Progress | None = None,
        scheduler: str | None = None) -> RunResult:
    """Play every game of the setup; on KeyboardInterrupt, stop and return the games that finished."""
    started = time.perf_counter()
    done: dict[int, SimRecord] = {}
    tick = progress or (lambda n: None)
    if scheduler is not None:
        from cardtool.sim.cluster import run_on_cluster

        interrupted = run_on_cluster(setup, scheduler, done, tick)
        jobs, where = 0, scheduler
    else:
        jobs = check_jobs(jobs)
        jobs = min(jobs, setup.games)
        if jobs == 1:
            interrupted, where = _run_here(setup, done, tick), "this process"
        else:
            interrupted, where = _run_pool(setup, jobs, done, tick), f"{jobs} processes"
    records = [done[index] for index in sorted(done)]
    return RunResult(records, interrupted, time.perf_counter() - started, jobs, where)


def _run_here(setup: Setup, done: dict[int, SimRecord], tick: Progress) -> bool:
    try:
        for start, stop in chunks(setup.games, 1):
            for index in range(start, stop):
                done[index] = play_game(setup, index)
            tick(stop - start)
    except KeyboardInterrupt:
        return True
    return False


_SETUP: Setup | None = None  # the setup a pool worker plays, set once when the worker starts


def _start_worker(setup: Setup) -> None:
    global _SETUP
    _SETUP = setup
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle


def _worker_range(bounds: tuple[int, int]) -> list[SimRecord]:
    return play_range(_SETUP, *bounds)


def _run_pool(setup: Setup, jobs: int, done: dict[int, SimRecord], tick: Progress) -> bool:
    # fork starts workers in milliseconds and hands them the deck without pickling it
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
    pool = multiprocessing.get_context(method).Pool(jobs, initializer=_start_worker, initargs=(setup,))
    try:
        for records in pool.imap_unordered(_worker_range, chunks(setup.games, jobs)):
            for record in records:
                done[record.index] = record
            tick(len(records))
    except KeyboardInterrupt:
        pool.terminate()
        pool.join()
        return True
    except BaseException:
        pool.terminate()
        raise
    pool.close()
    pool.join()
    return False


@contextmanager
def progress_bar(total: int, label: str) -> Iterator[Progress]:
    """A progress bar with games per second and ETA on a terminal's stderr; nothing elsewhere."""
    if not sys.stderr.isatty():
        yield lambda n: None
        return
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress as Bar, TextColumn, TimeElapsedColumn,
                               TimeRemainingColumn)

    bar = Bar(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
              TextColumn("[progress.data.speed]{task.fields[rate]}"),
              TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
              console=Console(stderr=True), transient=True)
    task = bar.add_task(label, total=total, rate="")
    started = time.perf_counter()
    finished = 0

    def advance(n: int) -> None:
        nonlocal finished
        finished += n
        elapsed = time.perf_counter() - started
        bar.update(task, advance=n, rate=f"{finished / elapsed:,.0f} games/s" if elapsed > 0 else "")

    with bar:
        yield advance
