"""`cardtool simulate`: play a deck many times with bots and write a balance report.

Game-neutral: the game comes through its plugin (PlayableGame to play, RecordsGames to record).
Every option is checked before the first game; the outputs are written only once all are made.
"""

from __future__ import annotations

import argparse
import random
import sys
from contextlib import ExitStack
from pathlib import Path

from cardtool.commands.common import add_deck_argument, bots_help, caps_help, deck_from, modes_help
from cardtool.errors import UsageError
from cardtool.render.output import check_out_folder, staged_dir
from cardtool.sim.analysis import Spec, analyse
from cardtool.sim.config import DEFAULT_MAX_TURNS, Setup, config_json, prepare, simulated_game
from cardtool.sim.balance_report import ending_counts, run_json, simulation_files, terminal_rates
from cardtool.sim.outputs import preload_report, warm_report, write_outputs
from cardtool.sim.runner import RunResult, check_jobs, look_interval, progress_bar, run as run_games
from cardtool.sim.sequential import METHOD, SeatPrecision, check_precision, check_rotation, with_sequence_rates
from cardtool.sim.stream import GamesFile, concatenate, read_records

NAME = "simulate"
HELP = "play a deck many times with bots and report win rates, game length and card impact with their uncertainty"
EXAMPLES = """\
examples:
  cardtool simulate decks/symbiosis --games 2000 --players 4 --bots greedy --seed 1
  cardtool simulate decks/symbiosis --games 500 --mode duel --bots greedy,random --seed 7 --jobs 1
  cardtool simulate decks/symbiosis --games 100000 --scheduler tcp://10.0.0.5:8786   # on a Dask cluster
  cardtool simulate decks/ecologies-bizarre-biomes --games 2000 --players 4 --seed 1
  cardtool simulate decks/frozen-and-deep --games 1000 --players 3 --bots greedy,random --seed 2
  cardtool simulate decks/ecologies-bizarre-biomes --lineups "greedy*2" "search*2" mixed --games 400 --seed 1
Outputs (in --out, default build/<deck>/sim/): games.jsonl, summary.json, cards.csv, report.html, report.pdf.
"""
EXIT_INTERRUPTED = 130
DEFAULT_GAMES = 1000
DEFAULT_PRECISION_GAMES = 100_000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_deck_argument(parser, help="deck folder (or its deck.yaml)")
    add_simulation_arguments(parser)
    parser.add_argument("--lineups", nargs="+", metavar="LINEUP",
                        help="play every line-up in one run, under the same seeds, and add a robustness table: "
                             "each finding (seat win rates against a fair share, flagged cards, biome health, game "
                             "length) per line-up, robust when it has the same sign and is significant under every "
                             "line-up, fragile otherwise. A line-up is bots in seat order, NAME*K for K seats "
                             "(greedy*4, search*2,greedy*2); one without counts fills the seats; 'mixed' is the "
                             "game's bots strongest first (search, greedy, random) repeated to fill the seats. "
                             "Quote a word with * in it. Instead of --bots")
    parser.add_argument("--out", type=Path, metavar="DIR", help="where to write the outputs (default build/<deck>/sim/)")


def add_simulation_arguments(parser: argparse.ArgumentParser) -> None:
    """The options simulate and compare share."""
    parser.add_argument("--games", type=int, metavar="N",
                        help=f"games to play (default {DEFAULT_GAMES}); with --precision, the most to play (default "
                             f"{DEFAULT_PRECISION_GAMES})")
    parser.add_argument("--precision", type=float, metavar="PP",
                        help="stop once the answer is known to within PP percentage points: simulate, once every "
                             "seat's (team's) win-rate interval is at most PP either side; compare, once seat 1's "
                             "win-rate difference B - A is decided (its interval leaves out 0) or within PP. Games "
                             "are checked after each batch, and the intervals are confidence sequences, valid "
                             "however often they are looked at (docs/simulation.md)")
    parser.add_argument("--players", type=int, metavar="P",
                        help="number of seats (default: one per bot named in --bots when it names several, else as "
                             "many as the mode and deck allow)")
    parser.add_argument("--mode", help=f"how to play (default: the game's first mode). {modes_help()}")
    parser.add_argument("--bots", metavar="NAME[,NAME...]", default="",
                        help=f"the bots in seat order, repeated to fill the seats (default greedy). {bots_help()}")
    parser.add_argument("--fixed-seats", action="store_true",
                        help="keep each bot in its seat; by default game i turns the line-up by i seats, so "
                             "every bot plays every seat equally often")
    parser.add_argument("--seed", type=int, metavar="S",
                        help="the run's seed; game i is played from a seed derived from (S, i) (default: a random "
                             "seed, printed and recorded)")
    parser.add_argument("--max-turns", type=int, default=DEFAULT_MAX_TURNS, metavar="T",
                        help=f"stop a game still going after T turns (a turn is one seat's go, however many actions "
                             f"it takes) and count it as capped, end reason turn-cap, won by nobody (default "
                             f"{DEFAULT_MAX_TURNS}). {caps_help()}")
    parser.add_argument("--jobs", type=int, metavar="J", help="worker processes (default: every core)")
    parser.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                        help="run on this Dask distributed scheduler instead (needs cardtool[cluster])")


def setup_from(args: argparse.Namespace, deck, seed: int) -> Setup:
    """The checked setup the options describe, for one deck."""
    games = args.games if args.games is not None else (
        DEFAULT_PRECISION_GAMES if args.precision is not None else DEFAULT_GAMES)
    return prepare(deck, games=games, players=args.players, mode=args.mode, bots=args.bots, seed=seed,
                   max_turns=args.max_turns, rotate=not args.fixed_seats)


def check_runner(args: argparse.Namespace) -> None:
    """--jobs and --scheduler, checked before any game."""
    if args.scheduler is not None:
        if args.jobs is not None:
            raise UsageError("--jobs and --scheduler exclude each other: the cluster decides how many workers run")
        try:
            from distributed.comm import parse_address
            from distributed.comm.addressing import parse_host_port
        except ImportError:
            raise UsageError("--scheduler needs Dask: pip install 'cardtool[cluster]'") from None
        try:  # a malformed address is a usage error here, not a half-made client failing later
            scheme, location = parse_address(args.scheduler)
            if scheme in ("tcp", "tls"):
                parse_host_port(location)
        except ValueError as exc:
            raise UsageError(f"--scheduler {args.scheduler}: {exc}; write it as tcp://HOST:PORT") from None
    else:
        check_jobs(args.jobs)
    check_precision(args.precision)
    if args.precision is not None and args.scheduler is not None:
        raise UsageError("--precision cannot run on a Dask cluster yet: drop --scheduler, or give --games alone")


def seed_of(args: argparse.Namespace) -> int:
    return args.seed if args.seed is not None else random.SystemRandom().randrange(1, 10**9)


class _NothingFinished(Exception):
    """Ctrl-C came before the first game finished: there is nothing to report, so nothing is written."""


def simulate(setup: Setup, args: argparse.Namespace, label: str, stop=None, sink=None) -> RunResult:
    """Play the setup's games with a progress bar (until the stop rule says so, with one); with a sink
    (a stream.GamesFile), the records go to it as they finish instead of into the result."""
    where = f"on {args.scheduler}" if args.scheduler else f"in {min(check_jobs(args.jobs), setup.games)} process(es)"
    games = f"up to {setup.games}" if stop is not None else f"{setup.games}"
    print(f"Playing {games} {setup.mode} games of {label}, {setup.players} players "
          f"({', '.join(setup.lineup)}), seed {setup.seed}, {where}...", flush=True)
    with progress_bar(setup.games, label) as bar:
        tick = preloading(bar)
        if stop is None:
            return run_games(setup, args.jobs, tick, args.scheduler, sink=sink)
        return run_games(setup, args.jobs, tick, args.scheduler, stop, look_interval(setup.games, stop.block),
                         sink=sink)


def preloading(tick):
    """The progress tick, which at its first call (the games' processes are playing by then) also imports
    what the report will need here (outputs.preload_report), so that the report does not wait for it."""
    pending = [True]

    def advance(n: int) -> None:
        tick(n)
        if pending:
            pending.clear()
            preload_report()

    return advance


def stopping_json(rule, result: RunResult, bound: int, why: str) -> dict:
    """How a run with --precision went, as summary.json and the report record it."""
    return {"precision_pp": round(100 * rule.precision, 6), "games_bound": bound, "games": rule.used,
            "looks": rule.looks, "games_per_look": rule.block, "stopped": why, "method": METHOD}


def stop_reason(rule, result: RunResult, bound: int, answered: str) -> str:
    if rule.used and rule.answered:
        return answered
    if result.interrupted:
        return "interrupted (Ctrl-C) before the precision was reached"
    return f"played the most games allowed (--games {bound}) before the precision was reached"


def make_out_dir(out: Path, reads: tuple[Path, ...]) -> Path:
    """The output folder, checked (see render.output) and made before any game is played."""
    check_out_folder(out, reads)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot create the output folder {out}: {exc.strerror or exc}") from None
    return out


def run(args: argparse.Namespace) -> int:
    deck = deck_from(args)
    seed = seed_of(args)
    if getattr(args, "lineups", None):
        return run_lineups(args, deck, seed)
    setup = setup_from(args, deck, seed)
    check_runner(args)
    out = make_out_dir(args.out or Path("build") / deck.manifest.id / "sim", (Path(args.deck),))
    config = config_json(setup, args.deck)

    precision = check_precision(args.precision)
    rule = SeatPrecision(precision, check_rotation(setup)) if precision is not None else None
    interval = "95% interval"
    try:  # the report's layout processes warm up while the games are played (cardtool.sim.report_warm)
        with warm_report(), staged_dir(out, (Path(args.deck),), command="simulate") as stage:
            # the games stream to games.jsonl as they finish and are read back one at a time: a run's
            # memory does not grow with its length (cardtool.sim.stream)
            with GamesFile(stage / "games.jsonl") as sink:
                result = simulate(setup, args, deck.manifest.id, rule, sink)
            if not result.games:
                raise _NothingFinished
            analysis = analyse(read_records(stage / "games.jsonl"), Spec.of(simulated_game(deck), deck))
            run_info = run_json(result)
            if rule is not None:
                analysis = with_sequence_rates(analysis, rule)
                why = stop_reason(rule, result, setup.games, f"every {'team' if analysis.teams else 'seat'}'s "
                                                             f"interval is at most {args.precision:g} pp either side")
                run_info["sequential"] = stopping_json(rule, result, setup.games, why)
                interval = "95% confidence sequence"
            write_outputs(stage, simulation_files(None, analysis, config, run_info))
    except _NothingFinished:
        print("cardtool: interrupted before any game finished; nothing written", file=sys.stderr)
        return EXIT_INTERRUPTED

    a = analysis
    print(f"{result.games} games in {result.seconds:.1f} s ({result.games_per_second:,.0f} games/s): "
          f"{a.finished} ended by the rules, {a.capped.k} capped (won by nobody).")
    if rule is not None:
        print(f"Stopped after {result.games} games ({rule.looks} looks): {why}.")
    print(f"End reasons: {ending_counts(a)}.")
    for ending in a.endings:
        if ending.reason.cap and ending.games.k:
            print(f"  {ending.games.k} {ending.reason.word}: {ending.reason.text}")
    print("\n".join(terminal_rates(a, interval)))
    if a.capped.k:
        print(f"No winner (capped): {100 * a.capped.value:.1f}%")
    if args.seed is None:
        print(f"(seed {seed}: add --seed {seed} to repeat this run)")
    print(f"Report: {out / 'report.html'} (and report.pdf); data: games.jsonl, summary.json, cards.csv")
    if result.interrupted:
        print(f"cardtool: interrupted; the {result.games} finished games of {setup.games} are reported",
              file=sys.stderr)
        return EXIT_INTERRUPTED
    return 0


def run_lineups(args: argparse.Namespace, deck, seed: int) -> int:
    """simulate --lineups: every line-up played under the same seeds, one report with its robustness table."""
    from cardtool.sim import lineups
    from cardtool.sim.lineup_report import LineupRun, lineup_files, terminal_table
    from cardtool.sim.robustness import findings
    from cardtool.sim.runner import run_together

    if args.bots:
        raise UsageError("--lineups and --bots exclude each other: name the bots in each line-up")
    if args.precision is not None:
        raise UsageError("--precision cannot be combined with --lineups yet: give --games")
    if len(args.lineups) < 2:
        raise UsageError("--lineups compares line-ups: give two or more (one line-up is --bots, e.g. --bots "
                         "greedy --players 4)")
    games = args.games if args.games is not None else DEFAULT_GAMES
    pairs = lineups.setups(deck, args.lineups, games=games, players=args.players, mode=args.mode, seed=seed,
                           max_turns=args.max_turns, rotate=not args.fixed_seats)
    check_runner(args)
    out = make_out_dir(args.out or Path("build") / deck.manifest.id / "sim", (Path(args.deck),))
    labels = [lineup.label for lineup, _ in pairs]
    setups = tuple(setup for _, setup in pairs)
    spec = Spec.of(simulated_game(deck), deck)
    try:
        with warm_report(), staged_dir(out, (Path(args.deck),), command="simulate") as stage:
            parts = [stage / f".games-{index}.part" for index in range(len(setups))]
            with ExitStack() as files:  # each line-up's games stream to its own part of games.jsonl
                sinks = [files.enter_context(GamesFile(part, lineup=label)) for part, label in zip(parts, labels)]
                if args.scheduler:
                    results = [simulate(setup, args, f"{deck.manifest.id} {label}", sink=sink)
                               for label, setup, sink in zip(labels, setups, sinks)]
                else:
                    where = f"in {min(check_jobs(args.jobs), sum(s.games for s in setups))} process(es)"
                    print(f"Playing {games} {setups[0].mode} games of {deck.manifest.id} for each of {len(setups)} "
                          f"line-ups, {setups[0].players} players ({'; '.join(labels)}), seed {seed}, {where}...",
                          flush=True)
                    with progress_bar(sum(s.games for s in setups), deck.manifest.id) as bar:
                        results = run_together(setups, args.jobs, preloading(bar), sinks=sinks)
            if not any(result.games for result in results):
                raise _NothingFinished
            runs = [LineupRun(label, analyse(read_records(part), spec), config_json(setup, args.deck), run_json(result))
                    for label, setup, result, part in zip(labels, setups, results, parts)]
            concatenate(parts, stage / "games.jsonl")
            write_outputs(stage, lineup_files(runs, None))
    except _NothingFinished:
        print("cardtool: interrupted before any game finished; nothing written", file=sys.stderr)
        return EXIT_INTERRUPTED

    seconds = max(result.seconds for result in results)
    print(f"{sum(r.analysis.games for r in runs)} games in {seconds:.1f} s.")
    for r in runs:
        print(f"Line-up {r.label} ({', '.join(r.config['bots'])}): {r.analysis.games} games; end reasons: "
              f"{ending_counts(r.analysis)}.")
        print("\n".join("  " + line for line in terminal_rates(r.analysis)))
    print("\n".join(terminal_table(findings(labels, [r.analysis for r in runs]), labels)))
    if args.seed is None:
        print(f"(seed {seed}: add --seed {seed} to repeat this run)")
    print(f"Report: {out / 'report.html'} (and report.pdf); data: games.jsonl (each line with its line-up), "
          "summary.json, cards.csv")
    if any(result.interrupted for result in results):
        print("cardtool: interrupted; the finished games are reported", file=sys.stderr)
        return EXIT_INTERRUPTED
    return 0
