"""Tune the weights Ecologies' GreedyBot values by (valuer.Weights) for two-player games, with Optuna.

Each trial is a set of weights, each drawn on a log scale between a third of its hand-set value and
three times it (`threshold`, whose hand-set value is near 0, between 0 and 0.4). It plays `--games`
two-player `multi` games of a GreedyBot with those weights against the hand-set GreedyBot, seats
alternating, on the same deals in every trial (game i's seed comes from `--seed` and i), and scores
the share it won (a shared win counts half; a capped game is lost). Optuna's TPE sampler, with its
multivariate model, proposes the next set. The best few trials are then played again on `--check`
games of other deals (seed `--seed` + 1), and the best of those is written to
cardtool/games/ecologies/greedy_tuned.json (`greedy:policy=tuned`, `search:policy=tuned`), with how it
was found and what it won. Not a test: a script run by hand, whose figures docs/simulation.md reports.

    .venv/bin/python benchmarks/tune_ecologies_greedy.py --trials 150 --games 1000 --jobs 2
    .venv/bin/python benchmarks/tune_ecologies_greedy.py --trials 5 --games 60 --check 60 --dry-run
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import optuna  # noqa: E402

from cardtool.deck.loader import load_deck  # noqa: E402
from cardtool.engine.playout import play  # noqa: E402
from cardtool.engine.seeds import derive_seed  # noqa: E402
from cardtool.games import GAMES  # noqa: E402
from cardtool.games.ecologies.greedy import GreedyBot  # noqa: E402
from cardtool.games.ecologies.weights import DEFAULT_WEIGHTS, POLICY_FILES, Weights  # noqa: E402

DECK = ROOT / "decks" / "ecologies-bizarre-biomes"
OUT = POLICY_FILES["tuned"]

_DECK = None


def _deck():
    global _DECK
    if _DECK is None:
        _DECK = load_deck(DECK)
    return _DECK


def play_share(weights: dict, seed: int, numbers: range) -> float:
    """Games won by the weighted GreedyBot among these games (seat i % 2 in game i), a shared win half."""
    plugin, deck = GAMES["ecologies"], _deck()
    tuned = replace(DEFAULT_WEIGHTS, **weights)
    won = 0.0
    for number in numbers:
        game = plugin.new_game(deck, 2, "multi", derive_seed(seed, number, "tune"))
        seat = number % 2
        bots = [GreedyBot(game.public(s), weights=tuned if s == seat else None) for s in range(2)]
        state = play(game, bots, max_turns=400)
        winners = state.winners() if state.is_over() else []
        if seat in winners:
            won += 1.0 / len(winners)
    return won


def share(pool: ProcessPoolExecutor, jobs: int, weights: dict, seed: int, games: int) -> float:
    """The weighted GreedyBot's share of `games` games at `seed`, played on `jobs` processes."""
    parts = [range(start, games, jobs) for start in range(jobs)]
    return sum(pool.map(play_share, [weights] * jobs, [seed] * jobs, parts)) / games


def suggest(trial: optuna.Trial) -> dict:
    weights = {}
    for name in Weights.names():
        default = getattr(DEFAULT_WEIGHTS, name)
        if name == "threshold":
            weights[name] = trial.suggest_float(name, 0.0, 0.4)
        else:
            weights[name] = trial.suggest_float(name, default / 3, default * 3, log=True)
    return weights


def interval(rate: float, games: int) -> tuple[float, float]:
    """The Wilson 95% interval of a win rate."""
    z = 1.959964
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=150)
    parser.add_argument("--games", type=int, default=1000, help="games a trial (the same deals in every trial)")
    parser.add_argument("--check", type=int, default=4000, help="games on other deals for each of the best trials")
    parser.add_argument("--best", type=int, default=5, help="how many of the best trials are checked")
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--dry-run", action="store_true", help="print what was found, do not write the file")
    args = parser.parse_args()
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(direction="maximize",
                                sampler=optuna.samplers.TPESampler(seed=args.seed, multivariate=True))
    study.enqueue_trial(asdict(DEFAULT_WEIGHTS))  # the hand-set weights first: what chance alone gives
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        for number in range(args.trials):
            trial = study.ask()
            value = share(pool, args.jobs, suggest(trial), args.seed, args.games)
            study.tell(trial, value)
            print(f"trial {number:3d}: {100 * value:5.1f}%   best {100 * study.best_value:5.1f}%   "
                  f"{time.perf_counter() - started:6.0f} s", flush=True)
        done = [t for t in study.trials if t.value is not None]
        best = sorted(done, key=lambda t: -t.value)[: args.best]
        checked = []
        for trial in best:
            rate = share(pool, args.jobs, trial.params, args.seed + 1, args.check)
            low, high = interval(rate, args.check)
            checked.append((rate, trial))
            print(f"check trial {trial.number:3d}: {100 * trial.value:5.1f}% on the tuning deals, "
                  f"{100 * rate:5.1f}% ({100 * low:.1f}% to {100 * high:.1f}%) of {args.check} others", flush=True)
    rate, trial = max(checked, key=lambda item: item[0])
    low, high = interval(rate, args.check)
    print(f"best: trial {trial.number}, {100 * rate:.1f}% ({100 * low:.1f}% to {100 * high:.1f}%) against greedy")
    for name in Weights.names():
        print(f"  {name:24s} {getattr(DEFAULT_WEIGHTS, name):6.3f} -> {trial.params[name]:6.3f}")
    if args.dry_run:
        return 0
    OUT.write_text(json.dumps({
        "about": "Weights of Ecologies' GreedyBot (greedy:policy=tuned) found by benchmarks/tune_ecologies_greedy.py",
        "weights": {name: round(trial.params[name], 4) for name in Weights.names()},
        "tuned_on": {"deck": "decks/ecologies-bizarre-biomes", "deck_version": _deck().manifest.version,
                     "players": 2, "mode": "multi", "opponent": "greedy", "trials": args.trials,
                     "games_a_trial": args.games, "seed": args.seed},
        "checked": {"games": args.check, "seed": args.seed + 1, "win_rate": round(rate, 4),
                    "interval_95": [round(low, 4), round(high, 4)]},
    }, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
