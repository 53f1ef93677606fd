"""Start-up of the command line (issue 15 item 1): each figure beside its target.

    .venv/bin/python benchmarks/startup_bench.py [--runs N]

Runs each command N times (default 7) as a designer does, as a new process, and prints the median and
the fastest wall time, and the median CPU time (user + system) of the process: on a loaded machine wall
time waits for a core, CPU time much less. `python -c pass` is measured beside them: on a loaded machine
every figure grows, and the difference from it is what cardtool costs. The load average is printed too.

Each command first runs once unmeasured, with PYTHONDONTWRITEBYTECODE removed from its environment, so
Python's bytecode caches are written as they are for an installed cardtool (pip compiles them): with
that variable set, every module edited since its cache was written is compiled again on every run
(about 0.1 s for an Ecologies validate just after editing), which a designer never pays.

validate checks the deck's palette on every run, new or not (render/colour_science.py, in plain Python:
no colour library is imported and nothing is cached), so one line stands for a palette seen before and a
designer's first validate of a new palette.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DECK = ROOT / "decks" / "ecologies-bizarre-biomes"


def _cardtool() -> list[str]:
    script = Path(sys.executable).with_name("cardtool")  # the console script a designer runs
    return [str(script)] if script.is_file() else [sys.executable, "-m", "cardtool"]


#: (what, command, target in seconds or None for a reference figure)
CASES = (
    ("python -c pass (reference)", [sys.executable, "-c", "pass"], None),
    ("cardtool --version", [*_cardtool(), "--version"], 0.15),
    ("cardtool --help", [*_cardtool(), "--help"], None),
    ("cardtool validate <base deck>", [*_cardtool(), "validate", str(DECK)], 0.5),
    ("cardtool info <base deck>", [*_cardtool(), "info", str(DECK)], 0.5),
    ("cardtool validate decks/symbiosis", [*_cardtool(), "validate", str(ROOT / "decks" / "symbiosis")], 0.5),
)


#: The commands' environment: this one, less what keeps bytecode caches from being written.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_times(command: list[str], runs: int) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of each run."""
    subprocess.run(command, cwd=ROOT, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    walls, cpus = [], []
    for _ in range(runs):
        cpu, started = _children_cpu(), time.perf_counter()
        subprocess.run(command, cwd=ROOT, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        walls.append(time.perf_counter() - started)
        cpus.append(_children_cpu() - cpu)
    return walls, cpus


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    print(f"start-up, {args.runs} runs each; load average before: {os.getloadavg()[0]:.2f}")
    print(f"{'command':38} {'median':>8} {'fastest':>8} {'cpu':>8}  target (wall median)")
    for what, command, target in CASES:
        times, cpus = run_times(command, args.runs)
        median, fastest = statistics.median(times), min(times)
        verdict = "" if target is None else f"< {target:.2f} s  {'met' if median < target else 'NOT met'}"
        print(f"{what:38} {median:7.3f}s {fastest:7.3f}s {statistics.median(cpus):7.3f}s  {verdict}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
