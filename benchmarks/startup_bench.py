"""Start-up of the command line (issue 15 item 1): each figure beside its target.

    .venv/bin/python benchmarks/startup_bench.py [--runs N]

Runs each command N times (default 7) as a designer does, as a new process, and prints the median and
the fastest wall time. `python -c pass` is measured beside them: on a loaded machine every figure
grows, and the difference from it is what cardtool costs. The load average is printed with the figures.

Each command first runs once unmeasured, with PYTHONDONTWRITEBYTECODE removed from its environment, so
Python's bytecode caches are written as they are for an installed cardtool (pip compiles them): with
that variable set, every module edited since its cache was written is compiled again on every run
(about 0.1 s for an Ecologies validate just after editing), which a designer never pays.
"""

from __future__ import annotations

import argparse
import os
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


def wall_times(command: list[str], runs: int) -> list[float]:
    subprocess.run(command, cwd=ROOT, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(command, cwd=ROOT, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       check=True)
        times.append(time.perf_counter() - started)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    print(f"start-up, {args.runs} runs each; load average before: {os.getloadavg()[0]:.2f}")
    print(f"{'command':38} {'median':>8} {'fastest':>8}  target")
    for what, command, target in CASES:
        times = wall_times(command, args.runs)
        median, fastest = statistics.median(times), min(times)
        verdict = "" if target is None else f"< {target:.2f} s  {'met' if median < target else 'NOT met'}"
        print(f"{what:38} {median:7.3f}s {fastest:7.3f}s  {verdict}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
