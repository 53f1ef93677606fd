"""Report writing in a fresh `cardtool simulate` process (issue 15 item 4: under 1.5 s for 200 games).

Not a test: a script that prints figures beside their target. Each round runs `cardtool simulate DECK
--games 200 --players 4 --seed 1` as a new process, as a designer does, and measures:

- the report interval: from the last game finishing to the report being written, read from the
  outputs' own times (games.jsonl is last written as the last game's record reaches it; report.pdf is
  written last of all the outputs), so nothing in cardtool is instrumented;
- the CPU seconds on that interval's critical path (this process's after the last game, plus the larger
  of the two layout processes' work on the report, plus any wait for their warm-up still running when
  the games ended), steadier than wall time on a loaded machine;
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
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
from report_bench import TARGET, verdict  # noqa: E402  (the same 1.5 s target and verdict, from the last game)

#: Runs cardtool's command line; with "cold" first, the report's layout processes are not started early.
DRIVER = """\
import contextlib, json, os, resource, sys, time
trace = open(os.environ["CARDTOOL_BENCH_TRACE"], "a")
def note(**figures):
    trace.write(json.dumps(figures) + "\\n"); trace.flush()
import cardtool.sim.outputs as outputs, cardtool.sim.report_warm as warm
if sys.argv[1] == "cold":  # before the command imports them by name
    warm.warm_layout = lambda fetcher_for: contextlib.nullcontext()
    outputs.preload_report = lambda *template: None
else:  # the CPU each layout process spends on the report (the part, then the page numbers)
    lay_out_parts = warm.lay_out_parts
    def timed(*args):
        began = time.process_time(); lay_out_parts(*args); note(layout=time.process_time() - began, pid=os.getpid())
    warm.lay_out_parts = timed
    warm_up = warm._warm_up
    def warmed(fetcher_for):
        warm_up(fetcher_for); note(warm=time.time())
    warm._warm_up = warmed
import cardtool.commands.simulate as simulate
def children():
    used = resource.getrusage(resource.RUSAGE_CHILDREN); return used.ru_utime + used.ru_stime
played, written = simulate.simulate, simulate.write_outputs
def games(*args, **kwargs):
    result = played(*args, **kwargs); note(games_end=time.process_time(), at=time.time(), children=children()); return result
def outputs_written(*args):
    written(*args); note(written=time.process_time(), children=children())
simulate.simulate, simulate.write_outputs = games, outputs_written
from cardtool.cli import main
sys.exit(main(sys.argv[2:]))
"""


def one_run(variant: str, deck: str, args, out: Path) -> tuple[float, ...]:
    """(report interval, wall, CPU, the interval's critical-path CPU) seconds of one fresh `cardtool simulate`."""
    command = [sys.executable, "-c", DRIVER, variant, "simulate", deck, "--games", str(args.games),
               "--players", str(args.players), "--seed", "1", "--out", str(out)]
    if args.jobs:
        command += ["--jobs", str(args.jobs)]
    trace = out.with_suffix(".trace")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env={**os.environ, "CARDTOOL_BENCH_TRACE": str(trace)})
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    interval = (out / "report.pdf").stat().st_mtime - (out / "games.jsonl").stat().st_mtime
    return interval, wall, cpu, _critical(trace)


def _critical(trace: Path) -> float:
    """CPU seconds on the report's critical path after the last game: this process's, plus the larger of
    the warm layout processes' (they work side by side while it waits), plus any wait for a warm-up that
    had not finished when the games did (wall seconds: Symbiosis' 200 games can end first); in the
    reference, this process's or, if larger, the forked helper's that laid out the second part beside it."""
    notes = [json.loads(line) for line in trace.read_text().splitlines()]
    end = next(n for n in notes if "games_end" in n)
    done = next(n for n in notes if "written" in n)
    mine = done["written"] - end["games_end"]
    layouts: dict[int, float] = {}
    for n in notes:
        if "layout" in n:
            layouts[n["pid"]] = layouts.get(n["pid"], 0.0) + n["layout"]
    late = max([n["warm"] - end["at"] for n in notes if "warm" in n] or [0.0])
    if layouts:  # and a warm-up still running when the games ended, as wall time (it is not waited for in CPU)
        return mine + max(layouts.values()) + max(0.0, late)
    return max(mine, done["children"] - end["children"])


def bench_deck(deck: str, args, folder: Path) -> dict[str, list[tuple[float, ...]]]:
    variants = ["warm", "cold"] if args.reference else ["warm"]
    runs: dict[str, list[tuple[float, ...]]] = {v: [] for v in variants}
    name = Path(deck).name
    for index in range(args.rounds):
        order = variants if index % 2 == 0 else variants[::-1]  # alternate who goes first
        for variant in order:
            runs[variant].append(one_run(variant, deck, args, folder / f"{name}-{variant}-{index}"))
            interval, wall, cpu, critical = runs[variant][-1]
            print(f"{name} round {index + 1} {_label(variant)}: report {interval:.2f} s after the last game "
                  f"({critical:.2f} s critical-path cpu); command {wall:.2f} s wall, {cpu:.2f} s cpu "
                  f"(load {os.getloadavg()[0]:.2f})", flush=True)
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
            interval, wall, cpu, critical = (statistics.median(f[i] for f in figures) for i in range(4))
            judged = f"   target < {TARGET} s: {verdict(interval, critical)}" if variant == "warm" else ""
            print(f"  {Path(deck).name:<26} {_label(variant):<46} report {interval:5.2f} s wall after the last game "
                  f"({critical:.2f} s critical-path cpu), command {wall:6.2f} s wall {cpu:6.2f} s cpu{judged}")
        if "cold" in runs:
            ratios = [w[0] / c[0] for w, c in zip(runs["warm"], runs["cold"])]
            print(f"  {'':<26} report interval warm / reference, round by round: "
                  + ", ".join(f"{r:.2f}" for r in ratios) + f" (median {statistics.median(ratios):.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
