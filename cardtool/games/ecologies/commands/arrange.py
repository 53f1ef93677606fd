"""`cardtool arrange`: the rules engine's arrangement solver for designers.

Given a biome and some organisms, prints the best arrangement (most cards fed, then healthy) as the rows
sit on the table, top row first, whether it is healthy, why each card left over cannot be fed, and the
other arrangements as good, among which a web's owner chooses in a game.
"""

from __future__ import annotations

import argparse
from collections import Counter

from cardtool.commands.common import add_deck_argument, deck_from
from cardtool.errors import UsageError
from cardtool.games.ecologies.arrange import alternatives, arrange, why_unfed
from cardtool.games.ecologies.table import CardTable
from cardtool.games.ecologies.text import role_changes, rows
from cardtool.suggest import did_you_mean

NAME = "arrange"
HELP = "arrange organisms in one Ecologies food web: a role each, the rows, healthy or why a card cannot be fed"
EXAMPLES = """\
examples:
  cardtool arrange decks/ecologies-bizarre-biomes --biome CAV sulfur-oxidizing-bacteria cave-amphipod \\
      cave-springtail cave-spider cave-centipede
  cardtool arrange decks/frozen-and-deep --biome VNT vent-symbiotic-bacteria giant-tube-worm vent-crab --standalone

exit status: 0 when every card is fed, 1 when some card cannot be fed (or a card id is unknown),
2 on a usage error such as an unknown biome code.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_deck_argument(parser, help="Ecologies deck folder (or its deck.yaml)")
    parser.add_argument("--biome", required=True, metavar="CODE", help="the biome of the ecology, e.g. CAV")
    parser.add_argument("cards", nargs="+", metavar="CARD", help="organism card ids, one per copy on the table")


def run(args: argparse.Namespace) -> int:
    deck = deck_from(args)
    if deck.game != "ecologies":
        raise UsageError(f"cardtool arrange works on Ecologies decks; {deck.manifest.id} is a {deck.game} deck")
    table = CardTable.of(deck)
    code = args.biome
    if code not in table.codes:
        hint = did_you_mean(code, table.codes) or did_you_mean(code.upper(), table.codes)
        raise UsageError(f"--biome {code}: the deck has no such biome" + (f"; {hint}" if hint else "")
                         + f" (biomes: {', '.join(table.codes)})")
    cards = _cards(deck, table, args.cards)
    result = arrange(table, code, cards)
    fed = len(result.kept)
    head = f"{code} {table.biome_names[code]}: {len(cards)} organism{'s' if len(cards) != 1 else ''}, "
    head += "all fed" if fed == len(cards) else f"{fed} fed"
    print(head)
    for line in rows(table, result.cards, result.roles):
        print(f"  {line}")
    if result.healthy:
        print("healthy: P, C1, C2, C3 and SD are each filled")
    else:
        missing = [r for r in ("P", "C1", "C2", "C3", "SD") if r not in result.roles]
        print(f"not healthy: nothing acts as {', '.join(missing)}")
    for card in result.dropped:
        print(f"cannot be fed: {table.ids[card]}: {why_unfed(table, code, result, card)}")
    others = alternatives(table, code, cards)[1:]
    if others:  # in a game, the owner chooses among these (docs/rules/ecologies.md)
        print(f"{len(others)} other arrangement{'s' if len(others) != 1 else ''} as good, the owner's choice:")
        for roles in others:
            print(f"  {role_changes(table, result.cards, result.roles, roles)}")
    return 0 if fed == len(cards) else 1


def _cards(deck, table: CardTable, ids: list[str]) -> list[int]:
    """Physical card numbers for the ids given, each copy once; errors name what was meant."""
    for card_id in ids:
        deck.card(card_id)  # UnknownCardError with "did you mean" for an unknown id
    result = []
    for card_id, wanted in Counter(ids).items():
        numbers = table.find(card_id)
        kind = table.kind[numbers[0]]
        if kind != "organism":
            raise UsageError(f"{card_id} is a {kind} card: arrange takes organisms (the biome is --biome)")
        if wanted > len(numbers):
            raise UsageError(f"{card_id} is given {wanted} times but the deck has {len(numbers)} "
                             f"cop{'y' if len(numbers) == 1 else 'ies'}")
        result += numbers[:wanted]
    return result
