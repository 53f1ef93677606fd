"""`cardtool build`: the whole pipeline for a deck into build/<deck-id>/, moved in only when complete."""

from __future__ import annotations

import argparse
from pathlib import Path

from cardtool.commands.common import add_deck_argument
from cardtool.commands.render import POD_BLEED, add_sheet_options, check_dpi, sheet_spec
from cardtool.errors import UsageError
from cardtool.render.pipeline import BuildOptions, build_deck
from cardtool.render.sheets import parse_length

NAME = "build"
HELP = ("validate a deck and build everything into build/<deck-id>/: food-web report, cards PDF, "
        "card images, rulebook, a short simulation report and an index.html")
EXAMPLES = """\
examples:
  cardtool build decks/ecologies-bizarre-biomes            # build/ecologies-bizarre-biomes/index.html
  cardtool build decks/symbiosis --paper letter --duplex short
  cardtool build decks/frozen-and-deep --out /tmp/frozen
  cardtool build decks/symbiosis --sim-games 1000 --seed 7     # a longer simulation
  cardtool build decks/symbiosis --sim-games 0                 # no simulation
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_deck_argument(parser)
    parser.add_argument("--out", metavar="DIR", type=Path, help="the folder to build (default build/<deck-id>)")
    add_sheet_options(parser)
    parser.add_argument("--dpi", type=int, default=300, help="card images' pixels per inch (default 300)")
    parser.add_argument("--image-bleed", default=POD_BLEED, metavar="LENGTH",
                        help=f"bleed of the card images (default {POD_BLEED}, what print shops ask for)")
    parser.add_argument("--sim-games", type=int, default=200, metavar="N",
                        help="games in the short simulation with the game's default bots (default 200; 0: none)")
    parser.add_argument("--seed", type=int, default=1, help="the simulation's seed (default 1)")
    parser.add_argument("--no-cache", dest="cache", action="store_false",
                        help="make every output anew, ignoring and then emptying the build folder's cache "
                             "(<out>/.cardtool-cache; by default what did not change is reused)")


def run(args: argparse.Namespace) -> int:
    if args.sim_games < 0:
        raise UsageError(f"--sim-games must be 0 or more, not {args.sim_games}")
    check_dpi(args.dpi)
    options = BuildOptions(sheet=sheet_spec(args), dpi=args.dpi,
                           image_bleed=parse_length(args.image_bleed, what="image bleed"), standalone=args.standalone,
                           sim_games=args.sim_games, sim_seed=args.seed, cache=args.cache)
    result = build_deck(Path(args.deck), options, args.out, report=print)
    files = len(result.written) + len(result.unchanged)
    changed = (f"nothing changed: none of its {files} files rewritten" if not result.written else
               f"{len(result.written)} of {files} files written, {len(result.unchanged)} unchanged")
    reused = f"; reused {', '.join(result.reused)}" if result.reused else ""
    print(f"{result.out}/index.html: {len(result.outputs)} outputs in {result.seconds:.1f} s ({changed}{reused})")
    if any(o.path == "sim/report.html" for o in result.outputs):
        print(f"simulation report: {result.out}/sim/report.html (and report.pdf)")
    return 0
