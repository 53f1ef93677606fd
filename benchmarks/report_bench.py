"""Report writing for 200 games: every output of `cardtool simulate` made from records already played
(issue 15 item 4: target under 1.5 s), phase by phase, beside its target, for each game.

Not a test: a script that prints figures beside their targets. For each deck (by default the
bizarre-biomes Ecologies deck and Symbiosis) it plays the games first (not timed; four-player GreedyBot
games), then times, side by side in one process, each phase of making the outputs: the analysis (one
pass over the records), the charts and HTML, summary.json and cards.csv, and the PDF (WeasyPrint).
Wall and CPU seconds are both printed, with the machine's load: on a shared machine CPU seconds are
the steadier figure, and a load above the number of cores means the wall figures are high. The first
round includes importing the libraries each phase needs (numpy and scipy.special for the statistics,
WeasyPrint for the PDF), as a `cardtool simulate` run pays them; it is printed on its own line, beside
the target too.

    .venv/bin/python benchmarks/report_bench.py                  # 200 games of each deck, 3 rounds
    .venv/bin/python benchmarks/report_bench.py --deck decks/symbiosis --games 200
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardtool.deck.loader import load_deck  # noqa: E402
from cardtool.sim.config import config_json, prepare, simulated_game  # noqa: E402
from cardtool.sim.runner import run  # noqa: E402

TARGET = 1.5  # seconds for every output of 200 games


def clock() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


def one_round(records, spec, config, run_info) -> dict[str, tuple[float, float]]:
    """(wall, cpu) seconds of each phase of making every output once."""
    from cardtool.sim import balance_report, outputs
    from cardtool.sim.analysis import analyse
    from cardtool.sim.records import to_jsonl

    phases = {}
    w, c = clock()
    analysis = analyse(iter(records), spec)
    phases["analysis"] = clock()
    context = balance_report.simulation_context(analysis, config, run_info)
    outputs.render_html("sim/report.html.j2", context)
    printed = outputs.render_html("sim/report.html.j2", {**context, "pdf": True})  # the page the PDF is made of
    phases["charts + html"] = clock()
    json.dumps(balance_report.summary_json(analysis, config, run_info))
    balance_report.cards_csv(analysis)
    to_jsonl(records)
    phases["json + csv + jsonl"] = clock()
    outputs.render_pdf(printed)
    phases["pdf"] = clock()
    result, before = {}, (w, c)
    for name, now in phases.items():
        result[name] = (now[0] - before[0], now[1] - before[1])
        before = now
    result["total"] = (before[0] - w, before[1] - c)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deck", action="append", help="a deck folder (repeat for several; default: "
                                                         "decks/ecologies-bizarre-biomes and decks/symbiosis)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    decks = args.deck or [str(ROOT / "decks" / "ecologies-bizarre-biomes"), str(ROOT / "decks" / "symbiosis")]
    summary = [bench_deck(deck, args) for deck in decks]
    print(f"\nreport writing for {args.games} games, every output (median of {args.rounds} rounds; "
          f"load {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores):")
    for index, (name, (wall, cpu), (first_wall, first_cpu)) in enumerate(summary):
        print(f"  {name:<26} {wall:6.2f} s wall {cpu:6.2f} s cpu   target < {TARGET} s: {_verdict(wall, cpu)}")
        if index == 0:  # later decks find the libraries imported already
            print(f"  {'  first round, imports in':<26} {first_wall:6.2f} s wall {first_cpu:6.2f} s cpu   "
                  f"target < {TARGET} s: {_verdict(first_wall, first_cpu)}")
    return 0


def _verdict(wall: float, cpu: float) -> str:
    if wall < TARGET:
        return "met"
    return "met in CPU time (wall is high: the machine is loaded)" if cpu < TARGET else "NOT met"


def bench_deck(path: str, args) -> tuple[str, tuple[float, float], tuple[float, float]]:
    """Play the games, time `rounds` rounds of making every output; (deck, median total, first total)."""
    from cardtool.sim.analysis import Spec

    deck = load_deck(Path(path))
    setup = prepare(deck, games=args.games, players=args.players, bots="greedy", seed=1)
    print(f"playing {args.games} {setup.players}-player games of {deck.manifest.id} (not timed)...", flush=True)
    result = run(setup, None)
    records = result.records
    spec = Spec.of(simulated_game(deck), deck)
    config = config_json(setup, path)
    run_info = {"finished_games": len(records), "interrupted": False, "seconds": 1.0, "games_per_second": 1.0,
                "where": "benchmark"}
    rounds = []
    for index in range(args.rounds):
        rounds.append(one_round(records, spec, config, run_info))
        print(f"round {index + 1}: " + ", ".join(f"{k} {w:.2f}s wall / {c:.2f}s cpu" for k, (w, c) in rounds[-1].items())
              + f"  (load {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores)", flush=True)
    print(f"{deck.manifest.id}: report writing for {len(records)} games, median of {len(rounds)} rounds "
          "(first round includes imports):")
    for phase in rounds[0]:
        wall = statistics.median(r[phase][0] for r in rounds)
        cpu = statistics.median(r[phase][1] for r in rounds)
        target = f"   target < {TARGET} s: {_verdict(wall, cpu)}" if phase == "total" else ""
        print(f"  {phase:<20} {wall:6.2f} s wall  {cpu:6.2f} s cpu{target}")
    total = (statistics.median(r["total"][0] for r in rounds), statistics.median(r["total"][1] for r in rounds))
    return deck.manifest.id, total, rounds[0]["total"]


if __name__ == "__main__":
    sys.exit(main())
