"""Running a simulation: game i is played from its own seed, in batches, on every core by default.

Results do not depend on how games are scheduled: each game's seed comes from (run seed, index) and
each seat's bot draws from a generator derived from the game's seed, so `--jobs 1`, `--jobs 8` and a
Dask cluster give the same records, which are put back in game order (cardtool.sim.ordering).
With a sink (a stream.GamesFile) the records go to games.jsonl as games finish and are not kept, so a
run's memory does not grow with its length; without one they come back in RunResult.records.

Ctrl-C stops the run cleanly: the workers ignore it, the parent tells them to stop at their next game
and keeps every game that finished. A stop rule (simulate --precision, see cardtool.sim.sequential)
stops it the same way once the games finished so far answer the question; it sees and keeps only games
0..n-1 without a gap, so which games are kept does not depend on which worker was quicker. A game
that a cap stops (--max-turns, or the game's own) is recorded as capped, never dropped.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from cardtool.errors import UsageError
from cardtool.sim.config import Setup
from cardtool.sim.ordering import Collector, Sink, Stop
from cardtool.sim import play as playing
from cardtool.sim.play import Batch, Progress, chunks, make_batch, play_batch, play_game, play_range  # noqa: F401
from cardtool.sim.records import SimRecord


@dataclass(frozen=True)
class RunResult:
    """How a run went, and the records of the games that finished, in game order (none when they were
    streamed to a sink: `games` counts them either way)."""

    records: list[SimRecord]
    interrupted: bool
    seconds: float
    jobs: int
    where: str  # "this process", "N processes" or the scheduler's address
    stopped: bool = False  # a stop rule ended the run before --games (only its unbroken run of games is kept)
    games: int = field(default=-1)  # games finished and kept; -1 means len(records)

    def __post_init__(self):
        if self.games < 0:
            object.__setattr__(self, "games", len(self.records))

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0


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
        scheduler: str | None = None, stop: Stop | None = None, look_every: int = 1,
        sink: Sink | None = None, batch: int | None = None) -> RunResult:
    """Play every game of the setup; on KeyboardInterrupt, stop and return the games that finished.
    With a stop rule, play until it says so, asked every `look_every` games (see Stop), at most every
    game of the setup. With a sink, the records go to it in game order as they finish. `batch` fixes
    the games per task (default: see play.chunks)."""
    sinks = None if sink is None else (sink,)
    if scheduler is not None:
        from cardtool.sim.cluster import run_on_cluster  # dask loads only for a cluster run

        started = time.perf_counter()
        collector = Collector(1, sinks, stop, look_every)
        interrupted = run_on_cluster((setup,), scheduler, collector, progress or (lambda n: None), batch)
        collector.finish(interrupted)
        return _result(collector, 0, interrupted, time.perf_counter() - started, 0, scheduler)
    return run_together((setup,), jobs, progress, stop, look_every, sinks, batch)[0]


def run_together(setups: tuple[Setup, ...], jobs: int | None = None, progress: Progress | None = None,
                 stop: Stop | None = None, look_every: int = 1, sinks: Sequence[Sink] | None = None,
                 batch: int | None = None) -> list[RunResult]:
    """Play several setups at once (e.g. the two decks of a comparison, game i of each in step), on
    one pool, with a stop rule that sees the games all of them finished (see Stop); with sinks (one
    per setup), stream each setup's records to its own."""
    started = time.perf_counter()
    tick = progress or (lambda n: None)
    total = max(setup.games for setup in setups)
    jobs = min(check_jobs(jobs), sum(setup.games for setup in setups))
    tasks = [(which, start, end) for start, end in chunks(total, jobs, batch)
             for which, setup in enumerate(setups) if start < setup.games]
    collector = Collector(len(setups), sinks, stop, look_every)
    if jobs == 1:
        interrupted, where = _run_here(setups, tasks, collector, tick), "this process"
    else:
        interrupted, where = _run_pool(setups, jobs, tasks, collector, tick), f"{jobs} processes"
    collector.finish(interrupted)
    seconds = time.perf_counter() - started
    return [_result(collector, which, interrupted, seconds, jobs, where) for which in range(len(setups))]


def _result(collector: Collector, which: int, interrupted: bool, seconds: float, jobs: int, where: str) -> RunResult:
    return RunResult(collector.kept[which], interrupted, seconds, jobs, where, collector.stopped,
                     collector.games[which])


def _run_here(setups, tasks, collector: Collector, tick: Progress) -> bool:
    for which, start, stop in tasks:
        played = []
        try:
            for index in range(start, stop):
                played.append(playing.play_game(setups[which], index))
        except KeyboardInterrupt:  # keep the games of the batch that finished
            collector.add(make_batch(which, start, played, collector.wants_records, collector.wants_lines))
            return True
        stopped = collector.add(make_batch(which, start, played, collector.wants_records, collector.wants_lines))
        try:
            tick(len(played))
        except KeyboardInterrupt:
            return True
        if stopped:
            break
    return False


# What a pool worker plays and sends back, set once when the worker starts (forked: not pickled per task).
_SETUPS: tuple[Setup, ...] = ()
_WANTS = (True, False)
_HALT = None  # a shared byte the parent sets to 1 when the games still to play are not wanted


def _start_worker(setups: tuple[Setup, ...], wants: tuple[bool, bool], halt) -> None:
    global _SETUPS, _WANTS, _HALT
    _SETUPS, _WANTS, _HALT = setups, wants, halt
    gc.freeze()  # what the fork inherited is never garbage: the collector need not walk (and copy) it
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle


def _worker_batch(task: tuple[int, int, int]) -> Batch:
    """Games start..stop-1, or those played before the parent said halt (then the batch is short)."""
    which, start, stop = task
    setup, played = _SETUPS[which], []
    for index in range(start, stop):
        if _HALT is not None and _HALT.value:
            break
        played.append(play_game(setup, index))
    return make_batch(which, start, played, *_WANTS)


#: Bytes the pool's results pipe holds: a batch of games.jsonl lines (about 0.8 MB for 250 Symbiosis games)
#: then passes in a few writes, where Linux's default 64 KiB made a dozen wake-ups of the writing worker
#: and of the reading thread a batch.
RESULTS_PIPE_BYTES = 1 << 20


def _widen_results_pipe(pool) -> None:
    """Give the pool's results pipe RESULTS_PIPE_BYTES (the most an unprivileged process may ask of Linux
    by default). Best effort: without F_SETPIPE_SZ, or with a pool made otherwise, nothing changes."""
    try:
        import fcntl
    except ImportError:  # not a Unix
        return
    reader = getattr(getattr(pool, "_outqueue", None), "_reader", None)  # multiprocessing.Pool's own pipe
    if not hasattr(fcntl, "F_SETPIPE_SZ") or reader is None:
        return
    try:
        fcntl.fcntl(reader.fileno(), fcntl.F_SETPIPE_SZ, RESULTS_PIPE_BYTES)
    except (OSError, ValueError):  # above /proc/sys/fs/pipe-max-size, or not a pipe
        pass


def _run_pool(setups, jobs: int, tasks, collector: Collector, tick: Progress) -> bool:
    # fork starts workers in milliseconds and hands them the deck without pickling it
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
    wants = (collector.wants_records, collector.wants_lines)
    halt = context.RawValue("b", 0)
    # The pool's three threads start with Ctrl-C blocked, so the kernel gives it to this (the main) thread.
    # Python 3.11 handles a signal that another thread received only when the main thread next looks
    # (which, while it waits on the pool's results, can be many seconds later: the games played on).
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        pool = context.Pool(jobs, initializer=_start_worker, initargs=(tuple(setups), wants, halt))
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
    _widen_results_pipe(pool)
    results = pool.imap_unordered(_worker_batch, tasks)
    try:
        for batch in results:
            stopped = collector.add(batch)
            tick(batch.games)
            if stopped:  # the answer is known: the games still running are not needed
                _wind_down(pool, results, halt, keep=None)
                return False
    except KeyboardInterrupt:
        _wind_down(pool, results, halt, keep=collector.add)  # keep the games that finish meanwhile
        return True
    except BaseException:
        _wind_down(pool, results, halt, keep=None)
        raise
    pool.close()
    pool.join()
    return False


def _wind_down(pool, results, halt, keep) -> None:
    """Stop a pool early without killing a worker: each stops at its next game and sends what it
    played; a worker killed while sending (Pool.terminate) can leave the results queue's lock taken,
    and the pool's threads then wait on it for ever. A second Ctrl-C meanwhile stops the pool at once."""
    halt.value = 1
    pool.close()
    try:
        while True:
            try:
                batch = next(results)
            except StopIteration:
                break
            except Exception:  # another game's error: the run is ending anyway
                continue
            if keep is not None:
                keep(batch)
        pool.join()
    except KeyboardInterrupt:
        pool.terminate()
        pool.join()


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
