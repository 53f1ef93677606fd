"""`cardtool new`: scaffold a deck or an expansion that validates at once."""

from __future__ import annotations

import argparse
from pathlib import Path

from cardtool.deck.scaffold import new_deck, new_expansion
from cardtool.errors import UsageError
from cardtool.render.output import deck_folder_around

NAME = "new"
HELP = "create a new deck or expansion folder, valid and commented, to start designing from"
EXAMPLES = """\
examples:
  cardtool new deck "River Rats" --game ecologies          # writes decks/river-rats/
  cardtool new deck "Pond Party" --game symbiosis --dir my-decks
  cardtool new expansion "Frozen and Deep" --base decks/ecologies-bizarre-biomes
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("what", choices=("deck", "expansion"), help="a new deck, or an expansion of a base deck")
    parser.add_argument("name", metavar="NAME", help="the deck's name; its id and folder are made from it")
    from cardtool.games import GAMES

    parser.add_argument("--game", choices=list(GAMES), help="for a new deck: the game it plays")
    parser.add_argument("--base", metavar="DECK", help="for an expansion: the base deck folder it extends")
    parser.add_argument("--dir", metavar="DIR", type=Path, default=Path("decks"),
                        help="where to create the deck folder (default decks/)")


def run(args: argparse.Namespace) -> int:
    if args.dir.exists() and not args.dir.is_dir():
        raise UsageError(f"--dir {args.dir} is a file; give the folder to create the deck in")
    around = deck_folder_around(args.dir)
    if around is not None:
        raise UsageError(f"--dir {args.dir} is inside the deck folder {around}; a new deck goes beside it, "
                         "not inside it")
    if "/" in args.name or "\\" in args.name:  # a path typed where the name goes: say where a folder is given
        where = Path(args.name)
        raise UsageError(f"NAME is the deck's name, not a folder ({args.name!r}); to make it in {where.parent}, "
                         f"give --dir: cardtool new {args.what} {where.name!r} --dir {where.parent}")
    if args.what == "deck" and not args.game:
        from cardtool.games import GAMES

        raise UsageError("a new deck needs --game " + " or --game ".join(GAMES))
    if args.what == "expansion" and not args.base:
        raise UsageError("a new expansion needs --base DECK, the deck it extends")
    try:
        folder = (new_deck(args.name, args.game, args.dir) if args.what == "deck"
                  else new_expansion(args.name, Path(args.base), args.dir))
    except OSError as exc:
        raise UsageError(f"cannot create the deck in --dir {args.dir}: {exc.strerror or exc}") from None
    print(f"created {folder}/")
    for file in sorted(folder.iterdir()):
        print(f"  {file.name}")
    print(f"next: edit the files (start with the comments at their top), then run\n"
          f"  cardtool validate {folder}\n  cardtool info {folder}")
    return 0

