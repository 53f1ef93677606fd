"""Running a simulation: game i is played from its own seed, in chunks, on every core by default.

Results do not depend on how games are scheduled: each game's seed comes from (run seed, index) and
each seat's bot draws from a generator derived from the game's seed, so `--jobs 1`, `--jobs 8` and a
Dask cluster give the same records, which are put back in game order.

Ctrl-C stops the run cleanly: the workers ignore it, the parent stops them and keeps every game that
finished. A stop rule (simulate --precision, see cardtool.sim.sequential) stops it the same way once
the games finished so far answer the question; it sees and keeps only games 0..n-1 without a gap, so
which games are kept does not depend on which worker was quicker. A game that a cap stops (--max-turns, or the game's own) is recorded as capped, never dropped.
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
#: A stop rule: called with the games finished so far from game 0 on without a gap (one list per setup
#: run together, all of one length), at fixed numbers of games; True ends the run with exactly those games.
Stop = Callable[[list[list[SimRecord]]], bool]


@dataclass(frozen=True)
class RunResult:
    """The records of the games that finished, in game order, and how the run went."""

    records: list[SimRecord]
    interrupted: bool
    seconds: float
    jobs: int
    where: str  # "this process", "N processes" or the scheduler's address
    stopped: bool = False  # a stop rule ended the run before --games (only its unbroken run of games is kept)

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


def look_interval(games: int, block: int) -> int:
    """How often a stop rule looks: about 32 times over `games` (every 250 games at most), at whole
    multiples of `block` games; the same on any number of workers."""
    size = max(1, min(250, games // 32))
    return max(block, -(-size // block) * block)


def check_jobs(jobs: int | None) -> int:
    """The number of worker processes: every core by default."""
    if jobs is None:
        return os.cpu_count() or 1
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {jobs}")
    return jobs


def run(setup: Setup, jobs: int | None = None, progress: Progress | None = None,
        scheduler: str | None = None, stop: Stop | None = None, look_every: int = 1) -> RunResult:
    """Play every game of the setup; on KeyboardInterrupt, stop and return the games that finished.
    With a stop rule, play until it says so, asked every `look_every` games (see Stop), at most every
    game of the setup."""
    if scheduler is not None:
        if stop is not None:
            raise UsageError("a run that stops when its answer is known (--precision) cannot run on a Dask "
                             "cluster yet: drop --scheduler")
        started = time.perf_counter()
        done: dict[int, SimRecord] = {}
        from cardtool.sim.cluster import run_on_cluster

        interrupted = run_on_cluster(setup, scheduler, done, progress or (lambda n: None))
        records = [done[index] for index in sorted(done)]
        return RunResult(records, interrupted, time.perf_counter() - started, 0, scheduler)
    return run_together((setup,), jobs, progress, stop, look_every)[0]


def run_together(setups: tuple[Setup, ...], jobs: int | None = None, progress: Progress | None = None,
                 stop: Stop | None = None, look_every: int = 1) -> list[RunResult]:
    """Play several setups at once (e.g. the two decks of a comparison, game i of each in step), on
    one pool, with a stop rule that sees the games all of them finished (see Stop)."""
    started = time.perf_counter()
    done: list[dict[int, SimRecord]] = [{} for _ in setups]
    tick = progress or (lambda n: None)
    total = max(setup.games for setup in setups)
    jobs = min(check_jobs(jobs), sum(setup.games for setup in setups))
    tasks = [(which, start, end) for start, end in chunks(total, jobs)
             for which, setup in enumerate(setups) if start < setup.games]
    watch = _Watch(done, stop, look_every)
    if jobs == 1:
        interrupted, where = _run_here(setups, tasks, watch, tick), "this process"
    else:
        interrupted, where = _run_pool(setups, jobs, tasks, watch, tick), f"{jobs} processes"
    seconds = time.perf_counter() - started
    results = []
    for finished in done:
        kept = sorted(finished)[:watch.stopped_at] if watch.stopped else sorted(finished)
        results.append(RunResult([finished[index] for index in kept], interrupted, seconds, jobs, where, watch.stopped))
    return results


class _Watch:
    """Asks the stop rule about the games finished from game 0 on without a gap, at every multiple of
    `every` games they reach (in order, whatever order the batches came back in), so where a run
    stops depends on the games alone, not on the number of workers."""

    def __init__(self, done: list[dict[int, SimRecord]], stop: Stop | None, every: int):
        self.done, self.stop, self.every = done, stop, max(1, every)
        self.asked = 0
        self.stopped = False
        self.stopped_at = 0

    def __call__(self) -> bool:
        if self.stop is None or self.stopped:
            return self.stopped
        unbroken = min(_unbroken(finished) for finished in self.done)
        while self.asked + self.every <= unbroken:
            self.asked += self.every
            if self.stop([[finished[index] for index in range(self.asked)] for finished in self.done]):
                self.stopped, self.stopped_at = True, self.asked
                break
        return self.stopped


def _unbroken(finished: dict[int, SimRecord]) -> int:
    """How many games from game 0 on finished without a gap."""
    n = 0
    while n in finished:
        n += 1
    return n


def _run_here(setups, tasks, watch: _Watch, tick: Progress) -> bool:
    try:
        for which, start, stop in tasks:
            for index in range(start, stop):
                watch.done[which][index] = play_game(setups[which], index)
            tick(stop - start)
            if watch():
                break
    except KeyboardInterrupt:
        return True
    return False


_SETUPS: tuple[Setup, ...] = ()  # the setups a pool worker plays, set once when the worker starts


def _start_worker(setups: tuple[Setup, ...]) -> None:
    global _SETUPS
    _SETUPS = setups
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle


def _worker_range(task: tuple[int, int, int]) -> tuple[int, list[SimRecord]]:
    which, start, stop = task
    return which, play_range(_SETUPS[which], start, stop)


def _run_pool(setups, jobs: int, tasks, watch: _Watch, tick: Progress) -> bool:
    # fork starts workers in milliseconds and hands them the deck without pickling it
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
    pool = multiprocessing.get_context(method).Pool(jobs, initializer=_start_worker, initargs=(tuple(setups),))
    try:
        for which, records in pool.imap_unordered(_worker_range, tasks):
            for record in records:
                watch.done[which][record.index] = record
            tick(len(records))
            if watch():  # the answer is known: the games still running are not needed
                pool.terminate()
                pool.join()
                return False
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
