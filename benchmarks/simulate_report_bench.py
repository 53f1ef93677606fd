"""Report writing in a fresh `cardtool simulate` process (issue 15 item 4: under 1.5 s for 200 games).

Not a test: a script that prints figures beside their target. Each round runs `cardtool simulate DECK
--games 200 --players 4 --seed 1` as a new process, as a designer does, and measures:

- the report interval: from the last game finishing to the report being written, read from the
  outputs' own times (games.jsonl is last written as the last game's record reaches it; report.pdf is
  written last of all the outputs), so nothing in cardtool is instrumented;
- the whole command's wall time, and the CPU time of it and every process it started.

With --reference, each round also runs the same command as cardtool ran it before: no layout processes
started before the games (cardtool.sim.report_warm's block made empty) and nothing imported during them
(outputs.preload_report a no-op), so WeasyPrint, numpy and the rest are imported and first used after the
last game; alternating with the real one, for a ratio measured side by side.
On a shared machine the wall figures rise with the load (printed beside them); the ratios are steadier.

    .venv/bin/python benchmarks/simulate_report_bench.py                    # both decks, 3 rounds
    .venv/bin/python benchmarks/simulate_report_bench.py --reference --rounds 5
    .venv/bin/python benchmarks/simulate_report_bench.py --deck decks/symbiosis --jobs 1
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 1.5  # seconds from the last game to the report, 200 games

#: Runs cardtool's command line; with "cold" first, the report's layout processes are not started early.
DRIVER = """\
import contextlib, sys
if sys.argv[1] == "cold":  # before the command imports them by name
    import cardtool.sim.outputs as outputs, cardtool.sim.report_warm as warm
    warm.warm_layout = lambda fetcher_for: contextlib.nullcontext()
    outputs.preload_report = lambda *template: None
from cardtool.cli import main
sys.exit(main(sys.argv[2:]))
"""


def one_run(variant: str, deck: str, args, out: Path) -> tuple[float, float, float]:
    """(report interval, wall, CPU) seconds of one fresh `cardtool simulate`."""
    command = [sys.executable, "-c", DRIVER, variant, "simulate", deck, "--games", str(args.games),
               "--players", str(args.players), "--seed", "1", "--out", str(out)]
    if args.jobs:
        command += ["--jobs", str(args.jobs)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    interval = (out / "report.pdf").stat().st_mtime - (out / "games.jsonl").stat().st_mtime
    return interval, wall, cpu


def bench_deck(deck: str, args, folder: Path) -> dict[str, list[tuple[float, float, float]]]:
    variants = ["warm", "cold"] if args.reference else ["warm"]
    runs: dict[str, list[tuple[float, float, float]]] = {v: [] for v in variants}
    name = Path(deck).name
    for index in range(args.rounds):
        order = variants if index % 2 == 0 else variants[::-1]  # alternate who goes first
        for variant in order:
            runs[variant].append(one_run(variant, deck, args, folder / f"{name}-{variant}-{index}"))
            interval, wall, cpu = runs[variant][-1]
            print(f"{name} round {index + 1} {_label(variant)}: report {interval:.2f} s after the last game; "
                  f"command {wall:.2f} s wall, {cpu:.2f} s cpu (load {os.getloadavg()[0]:.2f})", flush=True)
    return runs


def _label(variant: str) -> str:
    return "layout warmed during the games" if variant == "warm" else "reference, WeasyPrint started after the games"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deck", action="append", help="a deck folder (repeat for several; default: "
                                                         "decks/ecologies-bizarre-biomes and decks/symbiosis)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--jobs", type=int, help="simulate --jobs (default: every core)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--reference", action="store_true",
                        help="also run each round without the early layout processes, alternating, for a ratio")
    args = parser.parse_args()
    decks = args.deck or [str(ROOT / "decks" / "ecologies-bizarre-biomes"), str(ROOT / "decks" / "symbiosis")]
    with tempfile.TemporaryDirectory(prefix="cardtool-simulate-report-") as folder:
        results = {deck: bench_deck(deck, args, Path(folder)) for deck in decks}
    print(f"\nfresh `cardtool simulate --games {args.games} --players {args.players}`, median of {args.rounds} "
          f"(load {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores):")
    for deck, runs in results.items():
        for variant, figures in runs.items():
            interval, wall, cpu = (statistics.median(f[i] for f in figures) for i in range(3))
            verdict = f"   target < {TARGET} s: {'met' if interval < TARGET else 'NOT met'}" if variant == "warm" else ""
            print(f"  {Path(deck).name:<26} {_label(variant):<46} report {interval:5.2f} s after the last game, "
                  f"command {wall:6.2f} s wall {cpu:6.2f} s cpu{verdict}")
        if "cold" in runs:
            ratios = [w[0] / c[0] for w, c in zip(runs["warm"], runs["cold"])]
            print(f"  {'':<26} report interval warm / reference, round by round: "
                  + ", ".join(f"{r:.2f}" for r in ratios) + f" (median {statistics.median(ratios):.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
