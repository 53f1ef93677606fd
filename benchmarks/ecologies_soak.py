"""Soak test of the Ecologies engine: many seeded games for every bot mix and table, the conformance
invariants (tests/test_ecologies_conformance.py) checked after every action, exact replay, and how
each game ended (its end reason), counted per mix.

Not part of the test suite (it takes minutes); run it after a rules change:

    .venv/bin/python benchmarks/ecologies_soak.py --games 60 --markdown

--games is per mix; games alternate between the base deck and the Frozen and Deep expansion.
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
from cardtool.engine.bots import make_bots  # noqa: E402
from cardtool.engine.playout import bot_rng  # noqa: E402
from cardtool.engine.protocol import replay  # noqa: E402
from cardtool.games.ecologies.bots import BOTS  # noqa: E402
from cardtool.games.ecologies.engine import EcologiesGame  # noqa: E402
from cardtool.games.ecologies.state import END_REASONS  # noqa: E402
from tests.test_ecologies_conformance import check_invariants, fingerprint  # noqa: E402

#: (label, mode, players, bots in seat order, repeated to fill the seats)
MIXES = [
    ("random x4", "multi", 4, ("random",)),
    ("greedy x4", "multi", 4, ("greedy",)),
    ("mixed x4 (greedy, random)", "multi", 4, ("greedy", "random")),
    ("random x2", "multi", 2, ("random",)),
    ("greedy x2", "multi", 2, ("greedy",)),
    ("mixed x2", "multi", 2, ("greedy", "random")),
    ("random x3", "multi", 3, ("random",)),
    ("greedy x3", "multi", 3, ("greedy",)),
    ("mixed x3", "multi", 3, ("greedy", "random")),
    ("mixed x6", "multi", 6, ("greedy", "random")),
    ("search and greedy x2", "multi", 2, ("search", "greedy")),
    ("single greedy", "single", 1, ("greedy",)),
    ("single random", "single", 1, ("random",)),
    ("simplified greedy x3", "simplified", 3, ("greedy",)),
    ("simplified random x3", "simplified", 3, ("random",)),
]
SEARCH_SHARE = 5  # a mix with a search bot plays a fifth of the games: it is some 30 times slower


def play_checked(game: EcologiesGame, names: tuple[str, ...]):
    """Play one game with the invariants checked after every action; the final state."""
    bots = make_bots(names, BOTS, game)
    rngs = [bot_rng(game, seat, bot) for seat, bot in enumerate(bots)]
    state = game.new_initial_state()
    while not state.is_over():
        seat = state.current_player
        legal = state.legal_actions()
        action = bots[seat].choose(state.observation(seat), legal, rngs[seat])
        assert action in legal, (game.seed, action)
        state.apply(action)
        check_invariants(state)
    return state


def soak(games: int) -> list[tuple[str, Counter, float, int]]:
    """Every mix played `games` times: (label, end reasons counted, seconds, shared victories)."""
    decks = [load_deck(ROOT / "decks" / name) for name in ("ecologies-bizarre-biomes", "frozen-and-deep")]
    results = []
    started = time.perf_counter()
    for number, (label, mode, players, mix) in enumerate(MIXES):
        count = max(1, games // SEARCH_SHARE) if "search" in mix else games
        reasons: Counter = Counter()
        shared = 0
        began = time.perf_counter()
        for index in range(count):
            seed = number * 100_000 + index
            deck = decks[index % len(decks)]
            names = tuple(mix[seat % len(mix)] for seat in range(players))
            game = EcologiesGame(deck, players, mode, seed)
            state = play_checked(game, names)
            reasons[state.end_reason] += 1
            shared += len(state.winners()) > 1
            if index % 10 == 0:
                again = replay(EcologiesGame(deck, players, mode, seed), state.history)
                assert fingerprint(again) == fingerprint(state), (label, seed)
        seconds = time.perf_counter() - began
        results.append((label, reasons, seconds, shared))
        print(f"{label}: {count} games in {seconds:.0f} s: "
              + ", ".join(f"{n} {reason}" for reason, n in reasons.most_common())
              + f" ({time.perf_counter() - started:.0f} s so far)", flush=True)
    return results


def markdown(results, games: int) -> str:
    """The distribution as a table for docs/simulation.md."""
    head = "| bot mix | mode, players | games | " + " | ".join(f"`{r}`" for r in END_REASONS) + " | ties |"
    lines = [head, "|" + " --- |" * (4 + len(END_REASONS))]
    for (label, mode, players, _), (_, reasons, _, shared) in zip(MIXES, results):
        total = sum(reasons.values())
        cells = [f"{reasons[r]} ({100 * reasons[r] / total:.0f}%)" if reasons[r] else "0" for r in END_REASONS]
        lines.append(f"| {label} | {mode}, {players} | {total} | " + " | ".join(cells) + f" | {shared} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per bot mix (a fifth of it with a search bot)")
    parser.add_argument("--markdown", action="store_true", help="also print the end reasons as a Markdown table")
    args = parser.parse_args()
    started = time.perf_counter()
    results = soak(args.games)
    total = sum(sum(reasons.values()) for _, reasons, _, _ in results)
    print(f"{total} games with every invariant holding after every action in {time.perf_counter() - started:.0f} s")
    if args.markdown:
        print(markdown(results, args.games))
    return 0


if __name__ == "__main__":
    sys.exit(main())
