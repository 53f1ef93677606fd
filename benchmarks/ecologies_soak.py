"""Soak test of the Ecologies engine: many seeded games with every bot mix and mode, the conformance
invariants (tests/test_ecologies_conformance.py) checked after every action, and exact replay.

Not part of the test suite (it takes minutes); run it after a rules change:

    .venv/bin/python benchmarks/ecologies_soak.py --games 3000
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardtool.deck.loader import load_deck  # noqa: E402
from cardtool.engine.playout import bot_rng  # noqa: E402
from cardtool.engine.protocol import replay  # noqa: E402
from cardtool.games.ecologies.bots import BOTS  # noqa: E402
from cardtool.games.ecologies.engine import EcologiesGame  # noqa: E402
from tests.test_ecologies_conformance import check_invariants, fingerprint  # noqa: E402

TABLES = [("multi", 2), ("multi", 3), ("multi", 4), ("multi", 5), ("multi", 6), ("single", 1), ("simplified", 3)]
MIXES = [("greedy",), ("random", "greedy"), ("greedy", "random"), ("random",)]


def soak(games: int, search_every: int) -> int:
    decks = [load_deck(ROOT / "decks" / name) for name in ("ecologies-bizarre-biomes", "frozen-and-deep")]
    outcomes: Counter = Counter()
    started = time.perf_counter()
    for seed in range(games):
        mode, players = TABLES[seed % len(TABLES)]
        mix = ("search", "greedy") if search_every and seed % search_every == 0 else MIXES[seed // len(TABLES) % len(MIXES)]
        deck = decks[seed % len(decks)]
        game = EcologiesGame(deck, players, mode, seed)
        bots = [BOTS[mix[i % len(mix)]](game.public(i)) for i in range(players)]
        rngs = [bot_rng(game, seat, bot) for seat, bot in enumerate(bots)]
        state = game.new_initial_state()
        while not state.is_over():
            seat = state.current_player
            legal = state.legal_actions()
            action = bots[seat].choose(state.observation(seat), legal, rngs[seat])
            assert action in legal, (seed, action)
            state.apply(action)
            check_invariants(state)
        winners = state.winners()
        outcomes["shared victory" if len(winners) > 1 else "single winner"] += 1
        if seed % 10 == 0:
            assert fingerprint(replay(EcologiesGame(deck, players, mode, seed), state.history)) == fingerprint(state)
        if (seed + 1) % 100 == 0:
            print(f"{seed + 1} games, {time.perf_counter() - started:.0f} s: {dict(outcomes)}", flush=True)
    print(f"{games} games with every invariant holding after every action "
          f"({', '.join(f'{n} {k}' for k, n in outcomes.items())}) in {time.perf_counter() - started:.0f} s")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--search-every", type=int, default=50, help="seat a search bot every N games (0: never)")
    args = parser.parse_args()
    return soak(args.games, args.search_every)


if __name__ == "__main__":
    sys.exit(main())
