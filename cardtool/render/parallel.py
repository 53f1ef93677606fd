"""Sharing slow rendering work between the machine's cores: forked worker processes, each given a slice.

Forking (not spawning) lets a worker start with everything already imported and laid out in memory;
where the platform cannot fork, or has one core, the work runs in this process.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

MAX_WORKERS = 2
RELAXED_COLLECTION = (200_000, 50, 1000)  # gc thresholds while laying out (Python's default is 700, 10, 10)


def workers() -> int:
    """Processes to use: one per core, at most MAX_WORKERS; CARDTOOL_WORKERS overrides (1 turns it off)."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return 1
    wanted = os.environ.get("CARDTOOL_WORKERS", "")
    if wanted.isdigit():
        return max(1, int(wanted))
    return max(1, min(MAX_WORKERS, os.cpu_count() or 1))


def slices(count: int, parts: int) -> list[tuple[int, int]]:
    """count items cut into `parts` runs of nearly equal length, as (start, end)."""
    bounds = [round(i * count / parts) for i in range(parts + 1)]
    return [(bounds[i], bounds[i + 1]) for i in range(parts) if bounds[i] < bounds[i + 1]]


_TASK: Callable | None = None  # the function forked workers run: inherited, never pickled


def _run(start: int, end: int):
    return _TASK(start, end)


def run_sliced(task: Callable[[int, int], Any], count: int, minimum: int = 2) -> list[Any]:
    """task(start, end) over slices of range(count), in parallel when worth it; results in order."""
    global _TASK
    parts = workers() if count >= minimum else 1
    runs = slices(count, parts) if count else [(0, 0)]
    if len(runs) == 1:
        return [task(*runs[0])]
    _TASK = task
    try:
        with multiprocessing.get_context("fork").Pool(len(runs) - 1) as pool:
            others = [pool.apply_async(_run, run) for run in runs[1:]]
            first = task(*runs[0])
            return [first, *(other.get() for other in others)]
    finally:
        _TASK = None


def each_apart(count: int, minimum: int = 2) -> bool:
    """Whether run_sliced(task, count, minimum) runs each of the count items in a process of its own."""
    parts = workers() if count >= minimum else 1
    return count > 1 and len(slices(count, parts)) == count


class Exchange:
    """What the parts of a run_sliced task, each in a process of its own (each_apart), hand one another
    while they run: part k gives a value to every other part, and later takes every other part's. A
    part that fails before giving must give None, so that no other part waits for it forever. Made
    before the processes fork; a giver never waits (a queue's thread sends), and no process waits at
    its exit for what it gave to be taken (the other part may have stopped)."""

    def __init__(self, parts: int):
        context = multiprocessing.get_context("fork")
        self._inboxes = [context.Queue() for _ in range(parts)]
        for inbox in self._inboxes:
            inbox.cancel_join_thread()

    def give(self, part: int, value: Any) -> None:
        for other, inbox in enumerate(self._inboxes):
            if other != part:
                inbox.put((part, value))

    def take(self, part: int) -> dict[int, Any]:
        """Every other part's value, by part, waiting for those not given yet."""
        taken: dict[int, Any] = {}
        while len(taken) < len(self._inboxes) - 1:
            giver, value = self._inboxes[part].get()
            taken[giver] = value
        return taken

    def close(self) -> None:
        for inbox in self._inboxes:
            inbox.close()


def join(results: Sequence[list]) -> list:
    return [item for result in results for item in result]


@contextmanager
def few_collections() -> Iterator[None]:
    """While inside, Python's cycle collector runs far less often. Laying out cards makes millions of
    short-lived objects that reference counting frees anyway, and the collector's passes over them took
    about an eighth of the CPU (measured on the 95 Ecologies faces; peak memory the same). Workers forked
    inside inherit it; the thresholds are restored on leaving."""
    before = gc.get_threshold()
    gc.set_threshold(*RELAXED_COLLECTION)
    try:
        yield
    finally:
        gc.set_threshold(*before)
