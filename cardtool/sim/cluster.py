"""Running a simulation on a Dask distributed cluster (`pip install cardtool[cluster]`).

The setups (deck included) are sent to every worker once; each task plays a batch of games exactly
as a local worker would (cardtool.sim.play), so the same seeds give the same records, and the
batches go through the same Collector as a local run (game order, sinks, stop rule). The workers
need cardtool installed, not the deck files. Dask is imported only here, and this module only when
a run names a scheduler.
"""

from __future__ import annotations

from cardtool.errors import UsageError
from cardtool.sim.config import Setup
from cardtool.sim.ordering import Collector
from cardtool.sim.play import MAX_BATCH, Progress, chunks, play_batch

CONNECT_TIMEOUT = "10s"


def _client(address: str):
    try:
        from distributed import Client
    except ImportError:
        raise UsageError("--scheduler needs Dask: install cardtool with the cluster extra "
                         "(pip install 'cardtool[cluster]')") from None
    try:
        return Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise UsageError(f"cannot reach the Dask scheduler at {address}: {exc}") from None


def worker_threads(client) -> int:
    """How many games the cluster plays at once: its worker threads."""
    return max(1, sum(client.nthreads().values()))


def cluster_batch(games: int, threads: int) -> int:
    """Games per task on a cluster: as on one machine (about 16 tasks per thread, at most MAX_BATCH), but
    at least 2 per worker thread, because the scheduler and the client handle every task on one core
    each: measured (docs/simulation.md), a task costs them about two games' time, so with `threads`
    threads a batch under 2 x threads games makes them, not the workers, the limit (but never so big
    that some threads get no task)."""
    size = chunks(games, threads)[0][1] if games else 1
    return max(size, min(MAX_BATCH, 2 * threads, -(-games // threads)))


def run_on_cluster(setups: tuple[Setup, ...], address: str, collector: Collector, tick: Progress,
                   batch: int | None = None) -> bool:
    """Play every game of the setups on the cluster into the collector; True when Ctrl-C stopped the
    run early. A stop rule that answers cancels the batches still queued."""
    from distributed import as_completed

    client = _client(address)
    futures = []
    try:
        total = max(setup.games for setup in setups)
        shared = [client.scatter(setup, broadcast=True) for setup in setups]
        wants = (collector.wants_records, collector.wants_lines)
        size = batch or cluster_batch(total, worker_threads(client))
        futures = [client.submit(play_batch, shared[which], which, start, stop, *wants, pure=False)
                   for start, stop in chunks(total, 1, size)
                   for which, setup in enumerate(setups) if start < setup.games]
        with client.as_current():
            queue = as_completed(futures)
            futures = set(futures)
            for future in queue:
                result = future.result()
                futures.discard(future)  # let the worker drop the result: only batches in flight are held
                future.release()
                stopped = collector.add(result)
                tick(result.games)
                if stopped:
                    client.cancel(list(futures))
                    break
    except KeyboardInterrupt:
        client.cancel(list(futures))
        return True
    finally:
        client.close()
    return False
