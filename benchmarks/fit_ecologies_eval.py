"""Refit the Ecologies search's evaluation (cardtool/games/ecologies/evaluation.json) from games.

Plays two-player `multi` games of `greedy` against `greedy` on the shipped deck, records at the start of
every turn the inputs of cardtool.games.ecologies.evaluation for the seat that has just played, labelled
1 if that seat went on to win (a half for a shared win; capped games are left out), fits a logistic
regression to them with numpy (Newton's method, a small ridge penalty) and writes the coefficients with
how they were fitted. The last tenth of the games is held out and its log-loss printed beside a model
of VP alone, so a refit that does not predict better is seen.

    .venv/bin/python benchmarks/fit_ecologies_eval.py                 # 1500 games, seed 1
    .venv/bin/python benchmarks/fit_ecologies_eval.py --games 300 --dry-run
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardtool.deck.loader import load_deck  # noqa: E402
from cardtool.engine.bots import make_bots  # noqa: E402
from cardtool.engine.playout import bot_rng  # noqa: E402
from cardtool.engine.seeds import derive_seed  # noqa: E402
from cardtool.games import GAMES  # noqa: E402
from cardtool.games.ecologies import evaluation  # noqa: E402

DECK = "decks/ecologies-bizarre-biomes"
RIDGE = 1e-3  # per position, on standardised inputs: only keeps Newton's steps finite


def positions(deck, game_number: int, seed: int, bots: list[str]) -> tuple[list[list[float]], list[float]]:
    """One game's (inputs, label) rows: one per turn boundary, for the seat that just played."""
    plugin = GAMES["ecologies"]
    game = plugin.new_game(deck, 2, "multi", derive_seed(seed, game_number, "fit"))
    players = make_bots(bots, plugin.bots, game)
    rngs = [bot_rng(game, seat, bot) for seat, bot in enumerate(players)]
    state = game.new_initial_state()
    rows, movers = [], []
    while not state.is_over() and state.turns_played < 400:
        turn = state.turn
        seat = state.current_player
        state.apply(players[seat].choose(state.observation(seat), state.legal_actions(), rngs[seat]))
        if state.turn != turn and not state.is_over():
            mover = turn % game.players
            rows.append(evaluation.inputs(game, state, mover))
            movers.append(mover)
    winners = state.winners() if state.is_over() else []
    if not winners:
        return [], []
    return rows, [(1.0 / len(winners)) if m in winners else 0.0 for m in movers]


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Logistic regression by Newton's method on standardised inputs (the intercept column last)."""
    scale = x[:, :-1].std(axis=0)
    scale[scale == 0] = 1.0
    z = np.hstack([x[:, :-1] / scale, x[:, -1:]])
    w = np.zeros(z.shape[1])
    penalty = RIDGE * len(y) * np.eye(z.shape[1])
    penalty[-1, -1] = 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-z @ w))
        gradient = z.T @ (p - y) + penalty @ w
        hessian = (z * (p * (1 - p))[:, None]).T @ z + penalty
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return np.concatenate([w[:-1] / scale, w[-1:]])


def log_loss(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    p = np.clip(1.0 / (1.0 + np.exp(-x @ w)), 1e-9, 1 - 1e-9)
    return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default="greedy,greedy", help="the two seats' bots (default greedy,greedy)")
    parser.add_argument("--dry-run", action="store_true", help="print the fit, do not write the file")
    args = parser.parse_args(argv)
    deck = load_deck(ROOT / DECK)
    bots = args.bots.split(",")
    started = time.perf_counter()
    train_x, train_y, test_x, test_y = [], [], [], []
    held_out = max(1, args.games // 10)
    for number in range(args.games):
        rows, labels = positions(deck, number, args.seed, bots)
        (test_x if number >= args.games - held_out else train_x).extend(rows)
        (test_y if number >= args.games - held_out else train_y).extend(labels)
        if (number + 1) % 100 == 0:
            print(f"  {number + 1}/{args.games} games, {len(train_x) + len(test_x)} positions", file=sys.stderr)
    x, y = np.array(train_x), np.array(train_y)
    tx, ty = np.array(test_x), np.array(test_y)
    w = fit(x, y)
    vp_only = [evaluation.INPUTS.index("d_vp"), len(evaluation.INPUTS) - 1]
    w_vp = fit(x[:, vp_only], y)
    loss, loss_vp = log_loss(tx, ty, w), log_loss(tx[:, vp_only], ty, w_vp)
    print(f"{len(y)} positions to fit, {len(ty)} held out ({time.perf_counter() - started:.0f} s)")
    print(f"held-out log-loss: {loss:.4f} (VP difference alone: {loss_vp:.4f}; a coin: 0.6931)")
    for name, value in zip(evaluation.INPUTS, w):
        print(f"  {name:14} {value:+.4f}")
    if not args.dry_run:
        data = {"about": "Ecologies search evaluation: logistic model of winning from the end of a turn; "
                         "refit with benchmarks/fit_ecologies_eval.py",
                "inputs": list(evaluation.INPUTS), "coefficients": [round(float(v), 6) for v in w],
                "fitted_on": {"deck": DECK, "mode": "multi", "players": 2, "bots": bots, "games": args.games,
                              "seed": args.seed, "positions": len(y)},
                "held_out_log_loss": round(loss, 4), "vp_only_log_loss": round(loss_vp, 4)}
        evaluation.MODEL_FILE.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {evaluation.MODEL_FILE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
