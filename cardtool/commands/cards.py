"""`cardtool cards`: list a deck's cards (ids, names, kinds and the game's own columns), filtered."""

from __future__ import annotations

import argparse
import csv
import io
import json

from cardtool.commands.common import add_deck_argument, deck_from
from cardtool.csvtext import spreadsheet_text
from cardtool.errors import UsageError
from cardtool.suggest import did_you_mean

NAME = "cards"
HELP = "list a deck's cards: ids, names, kinds, copies and, for Ecologies, biomes, roles, VP and links"
EXAMPLES = """\
examples:
  cardtool cards decks/ecologies-bizarre-biomes
  cardtool cards decks/ecologies-bizarre-biomes --biome CAV --role C1     # who could feed a cave C2?
  cardtool cards decks/ecologies-bizarre-biomes --kind organism --format csv > organisms.csv
  cardtool cards decks/symbiosis --where animal=fish --format json
  cardtool cards decks/frozen-and-deep --own                              # only the expansion's cards
"""
BASE_COLUMNS = ("id", "name", "kind", "count")
LIST_JOIN = ", "  # in text; csv joins lists with "; "


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_deck_argument(parser)
    parser.add_argument("--kind", action="append", metavar="K", help="only cards of this kind (repeatable)")
    parser.add_argument("--biome", action="append", metavar="B",
                        help="only cards living in (or naming) this biome code (repeatable)")
    parser.add_argument("--role", action="append", metavar="R", help="only cards with this role (repeatable)")
    parser.add_argument("--where", action="append", metavar="COLUMN=VALUE", default=[],
                        help="only cards whose column holds this value, e.g. animal=fish (repeatable)")
    parser.add_argument("--own", action="store_true", help="only the cards the deck defines itself (an "
                                                          "expansion's new cards, without its bases')")
    parser.add_argument("--format", choices=("text", "json", "csv"), default="text",
                        help="text (a table, default), json or csv (lists joined with '; ')")


def rows(deck) -> tuple[tuple[str, ...], list[dict]]:
    """The columns and one row per card, in deck order (the game's columns through its plugin)."""
    from cardtool.games import GAMES
    from cardtool.games.plugin import ListsCards

    plugin = GAMES[deck.game]
    lists = isinstance(plugin, ListsCards)
    columns = BASE_COLUMNS + (tuple(plugin.card_columns(deck)) if lists else ()) + ("deck",)
    result = []
    for card in deck.cards:
        row = dict(id=card.id, name=card.name, kind=card.kind, count=card.count)
        if lists:
            row.update(plugin.card_row(deck, card))
        row["deck"] = deck.origins.get(card.id, deck.manifest.id)
        result.append(row)
    return columns, result


def _filters(args, columns) -> list[tuple[str, set[str]]]:
    wanted: list[tuple[str, set[str]]] = []
    for column, values in (("kind", args.kind), ("biomes", args.biome), ("roles", args.role)):
        if values:
            wanted.append((column, set(values)))
    for item in args.where:
        column, sep, value = item.partition("=")
        if not sep:
            raise UsageError(f"--where '{item}' needs the form COLUMN=VALUE, e.g. kind=organism")
        wanted.append((column, {value}))
    for column, _ in wanted:
        if column not in columns:
            option = {"biomes": "--biome", "roles": "--role"}.get(column, f"--where {column}=")
            hint = did_you_mean(column, columns)
            raise UsageError(f"{option}: this game's cards have no column '{column}'; they have "
                             f"{', '.join(columns)}" + (f" ({hint})" if hint else ""))
    return wanted


def _matches(row: dict, wanted) -> bool:
    for column, values in wanted:
        value = row.get(column)
        held = set(value) if isinstance(value, tuple) else {str(value)}
        if not held & values:
            return False
    return True


def _text(value, join: str) -> str:
    return join.join(value) if isinstance(value, tuple) else str(value)


def run(args: argparse.Namespace) -> int:
    deck = deck_from(args)
    columns, listed = rows(deck)
    wanted = _filters(args, columns)
    own = {card.id for card in deck.own_cards()} if args.own else None
    listed = [row for row in listed if _matches(row, wanted) and (own is None or row["id"] in own)]
    if args.format == "json":
        print(json.dumps([{c: list(r[c]) if isinstance(r[c], tuple) else r[c] for c in columns} for r in listed],
                         indent=2))
    elif args.format == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(columns)
        for row in listed:
            writer.writerow([spreadsheet_text(_text(row[c], "; ")) for c in columns])
        print(out.getvalue(), end="")
    else:
        table = [list(columns)] + [[_text(row[c], LIST_JOIN) for c in columns] for row in listed]
        widths = [max(len(line[i]) for line in table) for i in range(len(columns))]
        for line in table:
            print("  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip())
        copies = sum(row["count"] for row in listed)
        print(f"{len(listed)} different cards, {copies} copies")
    return 0
