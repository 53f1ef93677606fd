"""`cardtool foodweb`: food-web statistics, a healthy witness web and a table picture per biome."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from pathlib import Path

import networkx as nx

from cardtool.commands.common import add_deck_argument, deck_from
from cardtool.errors import UsageError
from cardtool.games.ecologies.model import HEALTHY_ROLES, EcologiesDeck
from cardtool.games.ecologies.webs import deck_graph, find_witness, metrics, organisms_in, why_unhealthy
from cardtool.render.environment import write_atomic
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
    if args.format == "graphml":
        graph = deck_graph(deck, args.biome)
        for node, data in graph.nodes(data=True):
            data["roles"] = " ".join(data["roles"])
            data["vp"] = str(data["vp"])
        print("\n".join(nx.generate_graphml(graph)))
    elif args.format == "svg":
        from cardtool.render.foodweb_svg import render_svg

        out = args.out or Path("build") / deck.manifest.id / "foodweb"
        for code in codes:
            path = out / f"{code}.svg"
            write_atomic(path, render_svg(deck, code))
            print(path)
    elif args.format == "json":
        print(json.dumps({code: _summary(deck, code) for code in codes}, indent=2))
    else:
        for code in codes:
            _print_text(deck, code)
    return 0


def _summary(deck: EcologiesDeck, code: str) -> dict:
    witness = find_witness(deck, code)
    return {"name": deck.biome(code).name, "metrics": asdict(metrics(deck, code)),
            "healthy_witness": witness, "why_unhealthy": None if witness else why_unhealthy(deck, code)}


def _print_text(deck: EcologiesDeck, code: str) -> None:
    m = metrics(deck, code)
    print(f"{code} {deck.biome(code).name}")
    print(f"  species {m.species}, links {m.links}, links/species {m.links_per_species:.2f}, "
          f"connectance {m.connectance:.3f}")
    print(f"  basal {m.basal:.0%}, intermediate {m.intermediate:.0%}, top {m.top:.0%}; "
          f"longest chain {m.longest_chain} links; omnivores {m.omnivores:.0%}; "
          f"trophic incoherence {'n/a' if m.incoherence is None else f'{m.incoherence:.2f}'}")
    witness = find_witness(deck, code)
    if witness is None:
        print(f"  cannot be healthy: {why_unhealthy(deck, code)}")
    else:
        living = organisms_in(deck, code)
        print("  a healthy web (top row first):")
        for role in reversed(HEALTHY_ROLES[:-1]):
            line = f"    {role:<3} {living[witness[role]].name}"
            if role == "C1":
                line += f"   |  SD  {living[witness['SD']].name}"
            print(line)
    print()
