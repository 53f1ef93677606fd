"""Ecologies engine speed: GreedyBot games per second on one core, four seats and two, beside the target.

Not a test: a script that prints figures, to run on the machine whose figures the README shows.

    .venv/bin/python benchmarks/ecologies_engine_bench.py                    # this checkout alone
    .venv/bin/python benchmarks/ecologies_engine_bench.py --against /tmp/old  # beside an older tree

Each figure plays whole games of the base deck (multi mode, seeds 0, 1, 2, ... as `cardtool simulate`
plays them, with its turn cap) in one process after a warm-up, and counts games per second of the
process's CPU time (what one core gives when it is not shared) and of wall-clock time. The machine may
be shared and busy: the load average is printed beside the figures, and `--against DIR` measures an
older checkout (e.g. `git worktree add DIR <commit>`) in alternating rounds, each in its own process,
so the ratio of the two is fair even when the absolute figures are not. This checkout is also measured
on its pure-Python path (CARDTOOL_PURE=1: without the compiled arrangement solver, GreedyBot decision
and engine steps of accel/) unless `--no-pure`; every way must end each game with the same scores, which the script
checks. The kernels this checkout's rounds use are printed first.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Issue 15 item 5: four-player GreedyBot games per second on one core.
TARGET_4P = 150.0
TABLES = (("4p greedy", 4), ("2p greedy", 2))
MAX_TURNS = 1000  # cardtool simulate's default turn cap

_CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from cardtool.deck.loader import load_deck
from cardtool.engine.playout import play
from cardtool.games import GAMES
from cardtool.games.ecologies.engine import EcologiesGame
deck = load_deck(sys.argv[2])
players, games, warm, max_turns = (int(a) for a in sys.argv[3:7])
bots = GAMES["ecologies"].bots
def one(seed):
    game = EcologiesGame(deck, players, "multi", seed)
    return play(game, [bots["greedy"](game.public(s)) for s in range(players)], max_turns=max_turns)
for seed in range(10_000, 10_000 + warm):
    one(seed)
cpu, wall = time.process_time(), time.perf_counter()
scores = [[str(s) for s in one(seed).scores()] for seed in range(games)]
print(json.dumps({"cpu": time.process_time() - cpu, "wall": time.perf_counter() - wall, "games": games,
                  "scores": scores}))
"""


def measure(tree: Path, players: int, games: int, warm: int, pure: bool = False, own_deck: bool = False) -> dict:
    """Play `games` games in a fresh process running the cardtool of `tree` (on its pure-Python path if
    `pure`), on this checkout's base deck or, with `own_deck`, on the tree's own; CPU and wall seconds,
    and every game's scores."""
    deck = (tree if own_deck else ROOT) / "decks" / "ecologies-bizarre-biomes"
    env = {**os.environ, "CARDTOOL_PURE": "1" if pure else ""}
    out = subprocess.run([sys.executable, "-c", _CHILD, str(tree), str(deck), str(players), str(games), str(warm),
                          str(MAX_TURNS)], check=True, capture_output=True, text=True, cwd=tree, env=env)
    return json.loads(out.stdout)


def rate(runs: list[dict], clock: str) -> float:
    return sum(r["games"] for r in runs) / sum(r[clock] for r in runs)


def kernels() -> str:
    """Which compiled kernels this checkout's 'this' rounds use on the base deck (greedy_kernel.py refuses
    a table it does not hold, and GreedyBot then decides in Python: said here, not silently)."""
    out = subprocess.run([sys.executable, "-c", _KERNELS, str(ROOT), str(ROOT / "decks" / "ecologies-bizarre-biomes")],
                         check=True, capture_output=True, text=True, cwd=ROOT, env={**os.environ, "CARDTOOL_PURE": ""})
    return out.stdout.strip()


_KERNELS = r"""
import sys
sys.path.insert(0, sys.argv[1])
from cardtool.deck.loader import load_deck
from cardtool.games.ecologies import accel, greedy_kernel
from cardtool.games.ecologies.engine import EcologiesGame
game = EcologiesGame(load_deck(sys.argv[2]), 4, "multi", 0)
serves = greedy_kernel.kernel_table(game) is not None
print(f"arrangement solver {'installed' if accel.installed() else 'MISSING'}, GreedyBot decision "
      f"{('serving this deck' if serves else 'NOT serving this deck') if accel.greedy_installed() else 'MISSING'}"
      + (f", engine steps {'installed' if accel.ENGINE is not None else 'MISSING'}" if hasattr(accel, "ENGINE") else ""))
"""


def load() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per round (default 200)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per tree, alternating (default 3)")
    parser.add_argument("--warm", type=int, default=20, help="warm-up games before each round (default 20)")
    parser.add_argument("--against", type=Path, help="an older checkout to measure in alternating rounds")
    parser.add_argument("--own-decks", action="store_true",
                        help="each tree plays its own base deck (for a tree older than this deck's rules: e.g. the "
                             "engine as issue 15 found it, 269aa42, to tell the code's speed-up from the machine's)")
    parser.add_argument("--no-pure", action="store_true", help="skip this checkout's pure-Python path")
    args = parser.parse_args()
    trees = [("this", ROOT, False)] + ([] if args.no_pure else [("pure", ROOT, True)])
    trees += [("against", args.against.resolve(), False)] if args.against else []
    print(f"Ecologies engine benchmark: Python {sys.version.split()[0]}, {os.cpu_count()} core(s), "
          f"load average {load()} (1/5/15 min) at the start")
    print(f"compiled kernels: {kernels()}")
    for label, players in TABLES:
        runs: dict[str, list[dict]] = {name: [] for name, _, _ in trees}
        for _ in range(args.rounds):
            for name, tree, pure in trees:
                runs[name].append(measure(tree, players, args.games, args.warm, pure, args.own_decks))
        for name, tree, _ in trees:
            cpu, wall = rate(runs[name], "cpu"), rate(runs[name], "wall")
            target = f"  (target >= {TARGET_4P:.0f} games/s per core)" if players == 4 else ""
            where = f" [{tree}]" if name == "against" else " (CARDTOOL_PURE=1)" if name == "pure" else ""
            print(f"{label} {name:<7} {cpu:7.1f} games/s of CPU, {wall:7.1f} of wall{target}{where}", flush=True)
        for name in runs:
            if name != "this":
                ratio = rate(runs["this"], "cpu") / rate(runs[name], "cpu")
                print(f"{label} speed-up this/{name}: {ratio:.2f}x (CPU time, same seeds, alternating rounds)")
        differ = [name for name in runs if [r["scores"] for r in runs[name]] != [r["scores"] for r in runs["this"]]]
        if differ and args.own_decks:
            print(f"{label}: other decks, other games: {', '.join(differ)} (--own-decks)")
        elif differ:
            print(f"{label}: DIFFERENT SCORES from the same seeds: {', '.join(differ)}")
    print(f"load average {load()} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
