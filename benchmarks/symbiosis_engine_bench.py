"""How fast Symbiosis plays: four-player GreedyBot games per second on one core, beside issue 15's target.

Not a test: a script that prints the figure the README's Benchmarks section shows.

    .venv/bin/python benchmarks/symbiosis_engine_bench.py               # about 3 s a measurement, 3 rounds
    .venv/bin/python benchmarks/symbiosis_engine_bench.py --seconds 5 --rounds 5

One process, one core: `cardtool.engine.playout.play` with four GreedyBots on the shipped deck, each game
dealt from its own seed. The machine is shared, so every figure is given two ways: games per CPU second
of this process (what one core does for it, whatever else runs) and games per wall-clock second, with
the load average (os.getloadavg) beside them. To compare like with like on a noisy machine, each round
also plays the same games with the readable reference GreedyBot (bots.SwapValues, floats; the same
choices), side by side, and prints the ratio.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardtool.deck.loader import load_deck  # noqa: E402
from cardtool.engine.playout import play  # noqa: E402
from cardtool.engine.seeds import derive_seed  # noqa: E402
from cardtool.games.symbiosis import PLUGIN  # noqa: E402
from cardtool.games.symbiosis.bots import GreedyBot, SwapValues  # noqa: E402

TARGET = 2000.0  # games/s per core, issue 15 item 5


class ReferenceGreedy(GreedyBot):
    """GreedyBot deciding with the readable float arithmetic (SwapValues), as it did before gains.py."""

    def choose(self, observation, legal, rng):
        seat = observation.seat
        mine = observation.pond(seat)
        hidden = [slot for slot, card in enumerate(mine) if card is None]
        if not hidden:
            return self._choose_among(observation, legal, rng)
        best, tied = None, []
        for river, row in enumerate(SwapValues(self.game, observation).deltas()):
            for pond, delta in enumerate(row):
                value = round(delta, 9)
                if best is None or value > best:
                    best, tied = value, [(river, pond)]
                elif value == best:
                    tied.append((river, pond))
        river, pond = tied[rng.randrange(len(tied))] if len(tied) > 1 else tied[0]
        if mine[pond] is None:
            return self.game.swap(river, pond)
        return self.game.swap(river, pond, hidden[rng.randrange(len(hidden))] if len(hidden) > 1 else hidden[0])


def rate(deck, factory, seconds: float, first: int) -> tuple[float, float, int, list]:
    """(games per CPU second, games per wall second, games, final scores) of four-player games."""
    games, scores = 0, []
    cpu, wall = time.process_time(), time.perf_counter()
    while games == 0 or time.process_time() - cpu < seconds:
        game = PLUGIN.new_game(deck, 4, "standard", derive_seed(1, first + games))
        state = play(game, [factory(game.public(seat)) for seat in range(4)])
        scores.append(tuple(state.scores()))
        games += 1
    return games / (time.process_time() - cpu), games / (time.perf_counter() - wall), games, scores


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds a measurement (default 3)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of both measurements (default 3)")
    args = parser.parse_args(argv)
    deck = load_deck(ROOT / "decks" / "symbiosis")
    load = os.getloadavg()
    print(f"Symbiosis, standard, 4 players, GreedyBot: one process, Python {sys.version.split()[0]}, "
          f"{os.cpu_count()} cores, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    best_cpu = best_wall = best_ratio = 0.0
    for index in range(args.rounds):
        cpu, wall, games, scores = rate(deck, GreedyBot, args.seconds, 0)
        reference_cpu, _, reference_games, reference_scores = rate(deck, ReferenceGreedy, args.seconds / 3, 0)
        shared = min(games, reference_games)
        same = scores[:shared] == reference_scores[:shared]
        ratio = cpu / reference_cpu
        best_cpu, best_wall, best_ratio = max(best_cpu, cpu), max(best_wall, wall), max(best_ratio, ratio)
        print(f"  round {index + 1}: {cpu:,.0f} games/CPU-s ({wall:,.0f} games/wall-s, {games} games); "
              f"reference GreedyBot {reference_cpu:,.0f} games/CPU-s: {ratio:.2f}x, "
              f"{'same' if same else 'DIFFERENT'} scores over {shared} games")
    load = os.getloadavg()
    verdict = "met" if best_cpu >= TARGET else "MISSED"
    print(f"best: {best_cpu:,.0f} games/s per core (CPU time; {best_wall:,.0f} by wall clock), "
          f"{best_ratio:.2f}x the reference   target >= {TARGET:,.0f}: {verdict}   "
          f"(load average now {load[0]:.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
