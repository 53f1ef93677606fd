"""`cardtool diff`: a changelog between two versions of a deck."""

from __future__ import annotations

import argparse
import json
from contextlib import ExitStack

from cardtool.deck.diff import checkout, diff_decks, to_json, to_markdown
from cardtool.deck.loader import load_deck
from cardtool.errors import UsageError

NAME = "diff"
HELP = "print what changed between two versions of a deck: cards, fields, food-web links, healthy webs"
EXAMPLES = """\
examples:
  cardtool diff decks/old-version decks/ecologies-bizarre-biomes
  cardtool diff decks/ecologies-bizarre-biomes --rev v0.1..HEAD
  cardtool diff decks/ecologies-bizarre-biomes --rev HEAD~3          # that revision vs. the working tree
  cardtool diff decks/a decks/b --format json
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("decks", nargs="+", metavar="DECK", help="OLD NEW, or one DECK with --rev")
    parser.add_argument("--rev", metavar="A..B", help="compare one deck at two git revisions (B defaults to the working tree)")
    parser.add_argument("--format", choices=("markdown", "json"), default="markdown",
                        help="markdown (default, ready for release notes) or json")
    parser.add_argument("--standalone", action="store_true", help="compare expansions alone, without their bases")


def run(args: argparse.Namespace) -> int:
    with ExitStack() as stack:
        if args.rev:
            if len(args.decks) != 1:
                raise UsageError("with --rev, give one deck")
            if "..." in args.rev:
                raise UsageError(f"--rev {args.rev}: give two revisions joined by two dots, A..B, or one revision")
            old_rev, _, new_rev = args.rev.partition("..")
            old_path = stack.enter_context(checkout(args.decks[0], old_rev))
            new_path = stack.enter_context(checkout(args.decks[0], new_rev)) if new_rev else args.decks[0]
        else:
            if len(args.decks) != 2:
                raise UsageError("give two decks, OLD and NEW (or one deck with --rev A..B)")
            old_path, new_path = args.decks
        old = load_deck(old_path, standalone=args.standalone)
        new = load_deck(new_path, standalone=args.standalone)
        result = diff_decks(old, new)
    if args.format == "json":
        print(json.dumps(to_json(result), indent=2))
    else:
        print(to_markdown(result))
    return 0
