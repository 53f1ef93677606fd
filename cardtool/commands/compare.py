"""`cardtool compare`: two decks (e.g. two versions of one) under common random numbers, side by side.

Both decks are checked and both setups made before any game runs; game i of each is played from the
same seed, by the same bots in the same seats.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cardtool.commands.common import add_deck_argument
from cardtool.commands.simulate import (EXIT_INTERRUPTED, add_simulation_arguments, check_runner,
                                        make_out_dir, seed_of, setup_from, simulate, stop_reason, stopping_json)
from cardtool.deck.loader import load_deck
from cardtool.errors import UsageError
from cardtool.render.output import staged_dir
from cardtool.sim.analysis import Spec, analyse
from cardtool.sim.compare import compare, with_headline
from cardtool.sim.config import config_json, simulated_game
from cardtool.sim.balance_report import ending_counts, run_json, terminal_rates
from cardtool.sim.compare_report import comparison_files
from cardtool.sim.outputs import write_outputs
from cardtool.sim.wording import rate_diff
from cardtool.sim.runner import check_jobs, look_interval, progress_bar, run_together
from cardtool.sim.sequential import DecidedDifference, check_precision, check_rotation

NAME = "compare"
HELP = "simulate two decks under the same seeds and report which differences between them are significant"
EXAMPLES = """\
examples:
  cardtool compare decks/symbiosis my-decks/symbiosis-v2 --games 2000 --players 4 --seed 1
  cardtool compare old/ new/ --games 5000 --mode duel --bots greedy --seed 3 --out build/fox-change
Outputs (in --out, default build/compare/<A>-vs-<B>/): report.html, report.pdf, summary.json, comparison.csv,
games-a.jsonl and games-b.jsonl.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_deck_argument(parser, help="deck A, e.g. the version before a change (folder or deck.yaml)")
    parser.add_argument("deck_b", metavar="DECK_B", help="deck B, e.g. the version after it")
    add_simulation_arguments(parser)
    parser.add_argument("--out", type=Path, metavar="DIR",
                        help="where to write the outputs (default build/compare/<A>-vs-<B>/)")


def run(args: argparse.Namespace) -> int:
    standalone = args.standalone
    deck_a = load_deck(args.deck, standalone=standalone)
    deck_b = load_deck(args.deck_b, standalone=standalone)
    if deck_a.game != deck_b.game:
        raise UsageError(f"cannot compare decks of two games: A plays {deck_a.game}, B plays {deck_b.game}")
    seed = seed_of(args)
    setup_a = setup_from(args, deck_a, seed)
    setup_b = setup_from(args, deck_b, seed)
    if (setup_a.mode, setup_a.players) != (setup_b.mode, setup_b.players):
        raise UsageError(f"the decks default to different tables ({setup_a.players} players in A, "
                         f"{setup_b.players} in B): give --players and --mode")
    check_runner(args)
    reads = (Path(args.deck), Path(args.deck_b))
    out = make_out_dir(args.out or Path("build") / "compare" / _pair_name(args, deck_a, deck_b), reads)
    config_a, config_b = config_json(setup_a, args.deck), config_json(setup_b, args.deck_b)

    precision = check_precision(args.precision)
    rule = DecidedDifference(precision, check_rotation(setup_a)) if precision is not None else None
    if rule is None:
        result_a = simulate(setup_a, args, f"A {deck_a.manifest.id}")
        result_b = None if result_a.interrupted else simulate(setup_b, args, f"B {deck_b.manifest.id}")
        records_a, records_b = result_a.records, result_b.records if result_b else []
    else:
        result_a, result_b = _play_in_step(setup_a, setup_b, args, rule)
        records_a, records_b = rule.catch_up(result_a.records, result_b.records)
    if result_b is None or not records_b:
        print("cardtool: interrupted before both decks were played; nothing written", file=sys.stderr)
        return EXIT_INTERRUPTED
    plugin = simulated_game(deck_a)
    analysis_a = analyse(records_a, Spec.of(plugin, deck_a))
    analysis_b = analyse(records_b, Spec.of(plugin, deck_b))
    comparison = compare(records_a, records_b, analysis_a, analysis_b)
    run_a, run_b = run_json(result_a), run_json(result_b)
    if rule is not None:
        comparison = with_headline(comparison, rule.difference())
        what = f"{analysis_a.sides[0].name}'s win rate B - A"
        shown = rate_diff(comparison.metrics[0].difference)
        answered = (f"{what} is decided, {shown}" if rule.decided else
                    f"{what} is known to within {args.precision:g} pp either side, {shown}")
        why = stop_reason(rule, result_b, setup_a.games, answered)
        run_a["sequential"] = stopping_json(rule, result_b, setup_a.games, why)
    with staged_dir(out, reads, command="compare") as stage:
        write_outputs(stage, comparison_files(records_a, records_b, comparison, config_a, config_b, run_a, run_b))

    significant = [row for row in comparison.metrics + comparison.cards if row.difference.significant]
    print(f"{comparison.games} pairs of games compared: {len(significant)} significant difference(s).")
    if rule is not None:
        print(f"Stopped after {comparison.games} pairs of games ({rule.looks} looks): {why}.")
    for label, analysis in (("A", analysis_a), ("B", analysis_b)):
        print(f"End reasons of {label}: {ending_counts(analysis)} ({analysis.capped.k} capped, won by nobody).")
    for label, analysis in (("A", analysis_a), ("B", analysis_b)):
        print("\n".join(terminal_rates(analysis, of=f"deck {label}")))
    for row in significant[:12]:
        print(f"  {row.metric}: A {row.a}, B {row.b}")
    if args.seed is None:
        print(f"(seed {seed}: add --seed {seed} to repeat this comparison)")
    print(f"Report: {out / 'report.html'} (and report.pdf); data: summary.json, comparison.csv, games-a/b.jsonl")
    if result_b.interrupted:
        print("cardtool: interrupted; only the games both decks finished are compared", file=sys.stderr)
        return EXIT_INTERRUPTED
    return 0


def _play_in_step(setup_a, setup_b, args: argparse.Namespace, rule):
    """Both decks at once, game i of each in step, until the rule decides (--precision)."""
    jobs = min(check_jobs(args.jobs), 2 * setup_a.games)
    print(f"Playing up to {setup_a.games} {setup_a.mode} games of each deck in step, {setup_a.players} players "
          f"({', '.join(setup_a.lineup)}), seed {setup_a.seed}, in {jobs} process(es)...", flush=True)
    with progress_bar(setup_a.games + setup_b.games, "A and B") as tick:
        return run_together((setup_a, setup_b), args.jobs, tick, rule, look_interval(setup_a.games, rule.block))


def _pair_name(args: argparse.Namespace, deck_a, deck_b) -> str:
    a, b = deck_a.manifest.id, deck_b.manifest.id
    if a == b:  # two versions of one deck: name them by folder
        a, b = Path(args.deck).resolve().name, Path(args.deck_b).resolve().name
    return f"{a}-vs-{b}" if a != b else "a-vs-b"
