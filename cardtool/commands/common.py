"""Arguments every deck command shares: the deck, and --standalone for expansions."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from cardtool.deck.loader import load_deck
from cardtool.deck.model import Deck


def add_deck_argument(parser: argparse.ArgumentParser, help: str = "deck folder (or its deck.yaml)") -> None:
    parser.add_argument("deck", metavar="DECK", help=help)
    parser.add_argument("--standalone", action="store_true",
                        help="for an expansion: use its own cards alone, without its base decks")


def file_path(text: str) -> Path:
    """An argparse type for an output file: a name ending in a slash names a folder, not a file."""
    if text.endswith(("/", os.sep)) or text in ("", ".", ".."):
        raise argparse.ArgumentTypeError(f"'{text}' names a folder, and a file is wanted here: give a file name")
    return Path(text)


def deck_from(args: argparse.Namespace) -> Deck:
    """The validated deck the arguments name (combined with its bases unless --standalone)."""
    return load_deck(args.deck, standalone=getattr(args, "standalone", False))


def modes_help() -> str:
    """The modes of every playable game, for --mode's help."""
    from cardtool.games import GAMES

    return "; ".join(f"{g.title}: {', '.join(g.modes)}" for g in GAMES.values() if hasattr(g, "modes"))


def caps_help() -> str:
    """The caps games apply themselves besides --max-turns (e.g. a round limit), for the help."""
    from cardtool.engine.protocol import TURN_CAP
    from cardtool.games import GAMES

    caps = [f"{g.title}: {r.word}, {r.text}" for g in GAMES.values() for r in getattr(g, "end_reasons", ())
            if r.cap and r.word != TURN_CAP]
    return ("The engines' own caps, also won by nobody: " + "; ".join(caps) + ".") if caps else ""


def bots_help() -> str:
    """The bots of every playable game, for --bots's help."""
    from cardtool.games import GAMES

    return "; ".join(f"{g.title}: {', '.join(g.bots)}" for g in GAMES.values() if hasattr(g, "bots"))
