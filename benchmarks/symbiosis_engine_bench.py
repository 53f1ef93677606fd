"""How fast Symbiosis plays: four-player GreedyBot games per second on one core, beside issue 15's target.

Not a test: a script that prints the figure the README's Benchmarks section shows.

    .venv/bin/python benchmarks/symbiosis_engine_bench.py               # about 3 s a measurement, 3 rounds
    .venv/bin/python benchmarks/symbiosis_engine_bench.py --seconds 5 --rounds 5

One process, one core: `cardtool.engine.playout.play` with four GreedyBots on the shipped deck, each game
dealt from its own seed. The machine is shared, so every figure is given two ways: games per CPU second
of this process (what one core does for it, whatever else runs) and games per wall-clock second, with
the load average (os.getloadavg) beside them. Each round plays the same games three ways, side by side:
with the compiled kernel (accel/, when installed), on the pure-Python path (CARDTOOL_PURE=1, what runs
without the kernel) and with the readable reference GreedyBot (bots.SwapValues, floats; the same
choices), checks that all three end every game with the same scores, and prints the ratios.
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
from cardtool.games.symbiosis import PLUGIN, accel  # noqa: E402
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


def rate(deck, factory, seconds: float, first: int, pure: bool = False) -> tuple[float, float, int, list]:
    """(games per CPU second, games per wall second, games, final scores) of four-player games; with
    pure, on the pure-Python path (as without the compiled kernel)."""
    accel.set_pure(pure)
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
    kernel = accel.installed()
    if not kernel:
        print("  the compiled kernel is not installed (pip install ./accel): pure-Python figures only")
    best = {"kernel": 0.0, "pure": 0.0}
    wall = 0.0
    for index in range(args.rounds):
        line = []
        if kernel:
            cpu, wall_rate, games, scores = rate(deck, GreedyBot, args.seconds, 0)
            best["kernel"], wall = max(best["kernel"], cpu), max(wall, wall_rate)
            line.append(f"kernel {cpu:,.0f} games/CPU-s ({wall_rate:,.0f}/wall-s, {games} games)")
        pure_cpu, pure_wall, pure_games, pure_scores = rate(deck, GreedyBot, args.seconds / (3 if kernel else 1), 0,
                                                           pure=True)
        best["pure"] = max(best["pure"], pure_cpu)
        wall = wall if kernel else max(wall, pure_wall)
        line.append(f"pure {pure_cpu:,.0f} games/CPU-s ({pure_wall:,.0f}/wall-s, {pure_games} games)")
        reference_cpu, _, reference_games, reference_scores = rate(deck, ReferenceGreedy, args.seconds / 6, 0)
        line.append(f"reference {reference_cpu:,.0f} games/CPU-s")
        checks = [("pure", pure_scores, "reference", reference_scores)]
        if kernel:
            checks.insert(0, ("kernel", scores, "pure", pure_scores))
        same = [f"{'same' if x[:n] == y[:n] else 'DIFFERENT'} scores {a} and {b} over {n} games"
                for a, x, b, y in checks for n in [min(len(x), len(y))]]
        print(f"  round {index + 1}: " + "; ".join(line) + "; " + ", ".join(same))
    load = os.getloadavg()
    for name in (["kernel"] if kernel else []) + ["pure"]:
        verdict = "met" if best[name] >= TARGET else "MISSED"
        print(f"best {'with the compiled kernel' if name == 'kernel' else 'pure Python'}: {best[name]:,.0f} games/s "
              f"per core (CPU time)   target >= {TARGET:,.0f}: {verdict}")
    print(f"({wall:,.0f} games/s by wall clock at best; load average now {load[0]:.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
