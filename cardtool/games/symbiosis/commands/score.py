"""`cardtool score`: score a table position written as YAML, per column and per card."""

from __future__ import annotations

import argparse
import json

from cardtool.commands.common import add_deck_argument, deck_from
from cardtool.errors import UsageError
from cardtool.games import GAMES
from cardtool.games.plugin import ScoresPositions

NAME = "score"
HELP = "score a table position written as YAML and print the breakdown per column and per card"
EXAMPLES = """\
examples:
  cardtool score decks/symbiosis decks/symbiosis/examples/worked-example.yaml
  cardtool score decks/symbiosis decks/symbiosis/examples/duel-example.yaml --player Ada
  cardtool score decks/symbiosis my-table.yaml --format json
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_deck_argument(parser, help="deck folder (or its deck.yaml) whose cards the position uses")
    parser.add_argument("position", metavar="POSITION.yaml", help="the table: ponds, mode, neighbours (see "
                                                                  "docs/rules/symbiosis.md)")
    parser.add_argument("--player", action="append", default=[], metavar="NAME",
                        help="show only this player's breakdown (may be repeated); the result is always shown")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format (default text)")


def run(args: argparse.Namespace) -> int:
    deck = deck_from(args)
    plugin = GAMES[deck.game]
    if not isinstance(plugin, ScoresPositions):
        raise UsageError(f"score reads Symbiosis table positions; {plugin.title} decks have none to score")
    scored = plugin.score_position(deck, args.position)
    scored.check_players(args.player)
    if args.format == "json":
        print(json.dumps(scored.to_json(), indent=2))
    else:
        print(scored.text(args.player))
    return 0
