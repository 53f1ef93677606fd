"""`cardtool ladder`: the bots against each other in pairs, and their ratings with intervals.

Every option is checked before the first game; ladder.json, ladder.svg and the manifest are written
only once all are made (render.output's rules for --out, as simulate's).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from cardtool.commands.common import add_deck_argument, bots_help, caps_help, deck_from, modes_help
from cardtool.commands.simulate import EXIT_INTERRUPTED, make_out_dir, seed_of
from cardtool.render.output import check_out_folder, staged_dir
from cardtool.sim import ladder as ladders
from cardtool.sim.config import DEFAULT_MAX_TURNS, config_json, simulated_game
from cardtool.sim.outputs import write_outputs
from cardtool.sim.wording import rate_text
from cardtool.sim.runner import check_jobs, progress_bar, run_together

NAME = "ladder"
HELP = "play every pair of bots against each other and rate them, with 95% intervals"
EXAMPLES = """\
examples:
  cardtool ladder decks/ecologies-bizarre-biomes --seed 1
  cardtool ladder decks/symbiosis --bots random,greedy,search --games 100 --seed 1 --out build/ladder
Outputs (in --out, default build/<deck>/ladder/): ladder.json and ladder.svg.
"""
DEFAULT_GAMES = 400  # at 57% wins (50 points) the gap to the other bot leaves out 0 from about this many games


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_deck_argument(parser)
    parser.add_argument("--bots", metavar="NAME,NAME[,...]", default="",
                        help=f"the bots to rate, at least two (default: every bot of the game). {bots_help()}")
    parser.add_argument("--anchor", metavar="NAME",
                        help=f"the bot rated {ladders.ANCHOR_RATING:g}: the others' ratings and intervals are their "
                             f"gaps to it (default {ladders.DEFAULT_ANCHOR} when it plays, else the first bot)")
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES, metavar="N",
                        help=f"games per pair of bots, half with each in the first seat (default {DEFAULT_GAMES})")
    parser.add_argument("--mode", help=f"a two-player mode (default: the game's first that seats two). {modes_help()}")
    parser.add_argument("--seed", type=int, metavar="S",
                        help="the run's seed: each pair's games and the bootstrap derive from it (default: a random "
                             "seed, printed and recorded)")
    parser.add_argument("--max-turns", type=int, default=DEFAULT_MAX_TURNS, metavar="T",
                        help=f"stop a game still going after T turns and count it as capped: won by nobody, left out "
                             f"of the ratings (default {DEFAULT_MAX_TURNS}). {caps_help()}")
    parser.add_argument("--jobs", type=int, metavar="J", help="worker processes (default: every core)")
    parser.add_argument("--out", type=Path, metavar="DIR", help="where to write the outputs (default build/<deck>/ladder/)")


def run(args: argparse.Namespace) -> int:
    deck = deck_from(args)
    out = args.out or Path("build") / deck.manifest.id / "ladder"
    check_out_folder(out, (Path(args.deck),))
    check_jobs(args.jobs)
    plugin = simulated_game(deck)
    names = [name.strip() for name in args.bots.split(",") if name.strip()] or list(plugin.bots)
    anchor = ladders.anchor_of(names, args.anchor)
    seed = seed_of(args)
    mode = ladders.two_seat_mode(plugin, deck, args.mode)
    setups = ladders.setups(deck, names, games=args.games, mode=mode, seed=seed, max_turns=args.max_turns)
    out = make_out_dir(out, (Path(args.deck),))
    config = {**config_json(setups[0], args.deck), "bots": names, "games_per_pair": args.games, "seed": seed,
              "anchor": anchor}
    for key in ("games", "players"):
        config.pop(key, None)

    pairs = len(setups)
    jobs = min(check_jobs(args.jobs), pairs * args.games)
    print(f"Playing {args.games} {mode} games for each of {pairs} pairs of {', '.join(names)}, seed {seed}, "
          f"in {jobs} process(es)...", flush=True)
    with progress_bar(pairs * args.games, deck.manifest.id) as tick:
        results = run_together(tuple(setups), args.jobs, tick)
    if any(result.interrupted for result in results):
        print("cardtool: interrupted; a ladder needs every game of every pair, nothing written", file=sys.stderr)
        return EXIT_INTERRUPTED
    pairings = [ladders.pairing(setup, result.records) for setup, result in zip(setups, results)]
    result = ladders.ladder(names, pairings, seed, anchor)

    with staged_dir(out, (Path(args.deck),), command="ladder") as stage:
        write_outputs(stage, {"ladder.json": json.dumps(ladders.ladder_json(result, config), indent=2) + "\n",
                              "ladder.svg": ladders.chart(result)})

    width = max(len(r.bot) for r in result.ratings)
    print(f"{'rank':>4}  {'bot':<{width}}  {'rating (95% interval)':<24}  win rate (95% interval)")
    for k, r in enumerate(result.ratings, 1):
        interval = "(anchor)" if r.bot == anchor else f"({r.low:.0f} to {r.high:.0f})"
        print(f"{k:>4}  {r.bot:<{width}}  {r.rating:>6.0f} {interval:<17}  {rate_text(r.score)}")
    capped = sum(p.capped for p in pairings)
    print(f"Elo scale, {anchor} fixed at {ladders.ANCHOR_RATING:g}: each interval is of a bot's gap to {anchor}; "
          f"ties count half a win; {capped} capped game(s) left out.")
    if args.seed is None:
        print(f"(seed {seed}: add --seed {seed} to repeat this ladder)")
    print(f"Ladder: {out / 'ladder.json'} and {out / 'ladder.svg'}")
    return 0
