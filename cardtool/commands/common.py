"""Arguments every deck command shares: the deck, and --standalone for expansions."""

from __future__ import annotations

import argparse

from cardtool.deck.loader import load_deck
from cardtool.deck.model import Deck


def add_deck_argument(parser: argparse.ArgumentParser, help: str = "deck folder (or its deck.yaml)") -> None:
    parser.add_argument("deck", metavar="DECK", help=help)
    parser.add_argument("--standalone", action="store_true",
                        help="for an expansion: use its own cards alone, without its base decks")


def deck_from(args: argparse.Namespace) -> Deck:
    """The validated deck the arguments name (combined with its bases unless --standalone)."""
    return load_deck(args.deck, standalone=getattr(args, "standalone", False))
