"""`cardtool info`: what a deck holds, counted from its data."""

from __future__ import annotations

import argparse

from cardtool.deck.loader import load_deck
from cardtool.games import GAMES

NAME = "info"
HELP = "print a deck's composition: counts by kind, and by biome and trophic role for Ecologies"
EXAMPLES = """\
examples:
  cardtool info decks/ecologies-bizarre-biomes
  cardtool info decks/symbiosis
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("deck", metavar="DECK", help="deck folder (or its deck.yaml)")


def run(args: argparse.Namespace) -> int:
    deck = load_deck(args.deck)
    manifest = deck.manifest
    game = GAMES[manifest.game]
    print(f"{manifest.name} ({manifest.id}) version {manifest.version}")
    print(f"game: {game.title}")
    if manifest.description:
        print(manifest.description.strip())
    print(f"{deck.size} cards ({len(deck.cards)} different)")
    for title, counts in game.composition(deck):
        print(f"\n{title}:")
        width = max((len(k) for k in counts), default=0)
        for key, value in counts.items():
            print(f"  {key:<{width}}  {value:>4}")
    return 0
