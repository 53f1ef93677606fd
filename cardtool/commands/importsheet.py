"""`cardtool import`: merge a spreadsheet's edits back into a deck's own YAML files."""

from __future__ import annotations

import argparse
from pathlib import Path

from cardtool.deck.source import relative

NAME = "import"
HELP = "merge edits from a spreadsheet (csv, xlsx or ods from cardtool export) back into a deck's YAML files"
EXAMPLES = """\
examples:
  cardtool import decks/ecologies-bizarre-biomes build/ecologies-bizarre-biomes/sheets/cards.xlsx
  cardtool import decks/frozen-and-deep sheets/organisms.csv sheets/biomes.csv
  cardtool import decks/symbiosis symbiosis.ods --dry-run      # say what would change, write nothing
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("deck", metavar="DECK", help="deck folder (or its deck.yaml)")
    parser.add_argument("sheets", nargs="+", metavar="SHEET", type=Path,
                        help="a .xlsx or .ods file, or .csv files (one per kind, named as export wrote them)")
    parser.add_argument("--dry-run", action="store_true", help="check the edits and list them; write nothing")


def run(args: argparse.Namespace) -> int:
    from cardtool.sheets.merge import merge

    report, edits, written = merge(Path(args.deck), list(args.sheets), dry_run=args.dry_run)
    from cardtool.issues import Severity

    shown = [issue for issue in report.sorted() if issue.severity is not Severity.NOTE or not report.ok]
    if shown:
        print("\n".join(issue.format() for issue in shown))
    if not report.ok:
        print(f"{args.deck}: {len(report.errors)} error(s) in the sheet(s); the deck was not changed")
        return 1
    for edit in edits:
        what = "new card" if edit.new else ", ".join(edit.changed)
        print(f"  {edit.card_id}: {what}")
    if not edits:
        print(f"{args.deck}: no changes in the sheet(s); nothing written")
    elif args.dry_run:
        print(f"{args.deck}: {len(edits)} card(s) would change; nothing written (--dry-run)")
    else:
        print(f"{args.deck}: {len(edits)} card(s) changed in {', '.join(str(relative(p)) for p in written)}")
    return 0
