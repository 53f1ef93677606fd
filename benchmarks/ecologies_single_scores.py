"""Single-player Ecologies scores: what the rulebook's "Don't recycle the discard pile" costs a player.

Plays seeded single-player games of the greedy bot on each shipped deck, by the rules and (with
--recycling) as the engine played them before, when the Cave bonus and the take-from-discard cards could
be used alone, and prints each mean score and how many cards a game took back from the discard pile:

    .venv/bin/python benchmarks/ecologies_single_scores.py --games 400
    .venv/bin/python benchmarks/ecologies_single_scores.py --games 400 --recycling
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardtool.deck.loader import load_deck  # noqa: E402
from cardtool.engine.playout import play  # noqa: E402
from cardtool.games.ecologies import effects  # noqa: E402
from cardtool.games.ecologies.bots import BOTS  # noqa: E402
from cardtool.games.ecologies.engine import EcologiesGame  # noqa: E402
from cardtool.games.ecologies.model import Biome, Factor  # noqa: E402

DECKS = ("ecologies-bizarre-biomes", "frozen-and-deep")


def with_recycling(deck):
    """The deck as it was before the single-player marks: take-from-discard effects usable alone."""
    def unmark(card):
        found = card.bonus if isinstance(card, Biome) else card.effects if isinstance(card, Factor) else ()
        if not any(e.action == "take_from_discard" for e in found):
            return card
        freed = tuple(dataclasses.replace(e, multiplayer_only=e.target != "you") for e in found)
        return dataclasses.replace(card, **({"bonus": freed} if isinstance(card, Biome) else {"effects": freed}))

    effects.RECYCLING_WORDS = ("draw_from_discard",)
    return dataclasses.replace(deck, cards=tuple(unmark(c) for c in deck.cards))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--recycling", action="store_true", help="let the Cave and take-from-discard cards recycle")
    args = parser.parse_args()
    for folder in DECKS:
        deck = load_deck(ROOT / "decks" / folder)
        if args.recycling:
            deck = with_recycling(deck)
        started, scores, taken = time.perf_counter(), [], 0
        for seed in range(args.games):
            game = EcologiesGame(deck, 1, "single", seed)
            state = play(game, [BOTS["greedy"](game.public(0))])
            scores.append(float(state.scores()[0]))
            taken += sum(1 for event in state.events if event[1] == "take")
        print(f"{folder}: {statistics.mean(scores):.1f} VP on average (sd {statistics.stdev(scores):.1f}) over "
              f"{args.games} games, {taken / args.games:.1f} cards taken back from the discard pile a game "
              f"({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
