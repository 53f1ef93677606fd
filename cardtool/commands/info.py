"""`cardtool info`: what a deck holds, counted from its data."""

from __future__ import annotations

import argparse

from cardtool.commands.common import add_deck_argument, deck_from
from cardtool.games import GAMES

NAME = "info"
HELP = "print a deck's composition: copies by kind, and by biome and trophic role for Ecologies"
EXAMPLES = """\
examples:
  cardtool info decks/ecologies-bizarre-biomes
  cardtool info decks/symbiosis
  cardtool info decks/frozen-and-deep --standalone
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_deck_argument(parser)


def run(args: argparse.Namespace) -> int:
    deck = deck_from(args)
    manifest = deck.manifest
    game = GAMES[manifest.game]
    print(f"{manifest.name} ({manifest.id}) version {manifest.version}")
    print(f"game: {game.title}")
    if manifest.description:
        print(manifest.description.strip())
    if deck.bases:
        own = deck.own_cards()
        print(f"expansion of {', '.join(deck.bases)}: {sum(c.count for c in own)} cards of its own "
              f"({len(own)} different), combined with its bases")
    elif deck.standalone:
        print("expansion taken alone, without its base decks")
    print(f"{deck.size} cards ({len(deck.cards)} different)")
    if deck.left_out:
        print(f"left out of the bases: {', '.join(deck.left_out)}")
    for override in deck.overrides:
        print(f"override of {override.card}.{override.field}:\n    was: {override.old!r}\n    now: {override.new!r}")
    print("\nThe tables count copies (a card with count: 3 counts three times); "
          f"`cardtool cards {args.deck}` lists each card with its id.")
    for title, counts in game.composition(deck):
        print(f"\n{title}, in copies:")
        width = max((len(k) for k in counts), default=0)
        for key, value in counts.items():
            print(f"  {key:<{width}}  {value:>4}")
    return 0
