"""`cardtool foodweb`: food-web statistics, a healthy witness web and a table picture per biome."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import networkx as nx

from cardtool.commands.common import add_deck_argument, deck_from
from cardtool.errors import UsageError
from cardtool.games.ecologies import web_report
from cardtool.games.ecologies.model import EcologiesDeck
from cardtool.games.ecologies.webs import deck_graph
from cardtool.render.output import staged_dir
from cardtool.suggest import did_you_mean

NAME = "foodweb"
HELP = "print food-web statistics, a healthy witness web and table pictures for each biome (Ecologies)"
EXAMPLES = """\
examples:
  cardtool foodweb decks/ecologies-bizarre-biomes
  cardtool foodweb decks/ecologies-bizarre-biomes --biome CAV
  cardtool foodweb decks/ecologies-bizarre-biomes --format svg        # build/<deck>/foodweb/<CODE>.svg
  cardtool foodweb decks/ecologies-bizarre-biomes --format graphml > web.graphml
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_deck_argument(parser, help="an Ecologies deck folder")
    parser.add_argument("--biome", metavar="CODE", help="only this biome (three-letter code)")
    parser.add_argument("--format", choices=("text", "json", "graphml", "svg"), default="text",
                        help="text (default), json, graphml (to stdout) or svg (one file per biome)")
    parser.add_argument("--out", metavar="DIR", type=Path,
                        help="folder for --format svg (default build/<deck-id>/foodweb)")


def run(args: argparse.Namespace) -> int:
    deck = deck_from(args)
    if not isinstance(deck, EcologiesDeck):
        raise UsageError(f"foodweb works on Ecologies decks; {args.deck} is a {deck.game} deck")
    codes = list(deck.biome_codes)
    if args.biome:
        if args.biome not in codes:
            hint = did_you_mean(args.biome, codes)
            raise UsageError(f"the deck has no biome {args.biome}" + (f"; {hint}" if hint else "")
                             + f" (biomes: {', '.join(codes)})")
        codes = [args.biome]
    if args.out is not None and args.format != "svg":
        raise UsageError("--out is for --format svg; the other formats print to the terminal")
    if args.format == "graphml":
        graph = deck_graph(deck, args.biome)
        for node, data in graph.nodes(data=True):
            data["roles"] = " ".join(data["roles"])
            data["vp"] = str(data["vp"])
        print("\n".join(nx.generate_graphml(graph)))
    elif args.format == "svg":
        from cardtool.games.ecologies.render.foodweb_svg import render_svg

        out = args.out or Path("build") / deck.manifest.id / "foodweb"
        with staged_dir(out, reads=(Path(args.deck),), command="foodweb") as stage:
            for code in codes:
                (stage / f"{code}.svg").write_text(render_svg(deck, code), encoding="utf-8")
        for code in codes:
            print(out / f"{code}.svg")
    elif args.format == "json":
        print(json.dumps({code: web_report.summary(deck, code) for code in codes}, indent=2))
    else:
        print("\n".join(web_report.text(deck, code) for code in codes))
    return 0
