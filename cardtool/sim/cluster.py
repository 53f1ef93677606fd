"""Running a simulation on a Dask distributed cluster (`pip install cardtool[cluster]`).

The setup (deck included) is sent to the workers once; each task plays a range of games exactly as a
local worker would, so the same seeds give the same records. The workers need cardtool installed,
not the deck files.
"""

from __future__ import annotations

from cardtool.errors import UsageError
from cardtool.sim.config import Setup
from cardtool.sim.records import SimRecord
from cardtool.sim.runner import Progress, chunks, play_range

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


def run_on_cluster(setup: Setup, address: str, done: dict[int, SimRecord], tick: Progress) -> bool:
    """Play every game on the cluster into `done`; True when Ctrl-C stopped the run early."""
    from distributed import as_completed

    client = _client(address)
    futures = []
    try:
        workers = max(1, sum(client.nthreads().values()))
        shared = client.scatter(setup, broadcast=True)
        futures = [client.submit(play_range, shared, start, stop, pure=False)
                   for start, stop in chunks(setup.games, workers)]
        with client.as_current():
            for future in as_completed(futures):
                records = future.result()
                for record in records:
                    done[record.index] = record
                tick(len(records))
    except KeyboardInterrupt:
        client.cancel(futures)
        return True
    finally:
        client.close()
    return False
