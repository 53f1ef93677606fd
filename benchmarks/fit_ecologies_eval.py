"""Refit the Ecologies search's evaluation (cardtool/games/ecologies/evaluation.json) from games.

Plays two-player `multi` games of `greedy` against `greedy` on the shipped deck, records at the start of
every turn every input of cardtool.games.ecologies.evaluation (INPUT_NAMES) for the seat that has just
played, labelled 1 if that seat went on to win (a half for a shared win; capped games are left out),
fits a logistic regression of one set of inputs (INPUT_SETS, `--inputs`) to them with numpy (Newton's
method, a small ridge penalty) and writes the inputs and coefficients with how they were fitted. The
last tenth of the games is held out and its log-loss printed for VP alone and every input set, so a
refit that does not predict better is seen. `earlier` (the default, the shipped model's) is eight
terms' differences and the VP race; `rich` every term of position.py, near the end of the race too,
and the game's facts: it predicts better (0.502 against 0.533 on 88,000 positions) but did not make
the search stronger (docs/simulation.md).

    .venv/bin/python benchmarks/fit_ecologies_eval.py --jobs 2       # 4000 games, seed 11, on 2 cores
    .venv/bin/python benchmarks/fit_ecologies_eval.py --inputs rich --games 300 --dry-run
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
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
SEAT_TERMS = evaluation.SEAT_TERMS
#: The input sets a model may be fitted on, by name (`--inputs`): `earlier` eight terms' differences
#: and the VP race (the shipped model's); `rich` every term's difference, the same (but VP, which the
#: race weighs) near the end of the race, the race and the game's facts.
INPUT_SETS = {
    "earlier": ["d_vp", "d_webs", "d_lasting", "d_hand", "d_hand_size", "d_healthy", "d_ecologies", "d_fits",
                "lead_near_end", "my_vp", "their_vp", "intercept"],
    "rich": ([f"d_{name}" for name in SEAT_TERMS] + [f"near_d_{name}" for name in SEAT_TERMS[1:]]
             + ["lead_near_end", "my_vp", "their_vp", "deck", "turn", "replies", "replies_my_vp",
                "replies_their_vp", "replies_lead", "intercept"]),
}


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
            rows.append(evaluation.named_inputs(game, state, mover, mover))
            movers.append(mover)
    winners = state.winners() if state.is_over() else []
    if not winners:
        return [], []
    return rows, [(1.0 / len(winners)) if m in winners else 0.0 for m in movers]


def play_block(numbers: range, seed: int, bots: list[str]) -> list[tuple[list[list[float]], list[float]]]:
    """The positions of some games, each game's apart (one process's share)."""
    deck = load_deck(ROOT / DECK)
    return [positions(deck, number, seed, bots) for number in numbers]


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
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=11, help="master seed (default 11: not a seed the "
                        "strength benchmark reports, so the model is not fitted on the deals it is judged on)")
    parser.add_argument("--jobs", type=int, default=1, help="processes playing the games (the same games)")
    parser.add_argument("--inputs", choices=INPUT_SETS, default="earlier", help="the input set fitted and written")
    parser.add_argument("--bots", default="greedy,greedy", help="the two seats' bots (default greedy,greedy)")
    parser.add_argument("--dry-run", action="store_true", help="print the fit, do not write the file")
    args = parser.parse_args(argv)
    bots = args.bots.split(",")
    started = time.perf_counter()
    jobs = max(1, args.jobs)
    blocks = [range(args.games * j // (4 * jobs), args.games * (j + 1) // (4 * jobs)) for j in range(4 * jobs)]
    with ProcessPoolExecutor(jobs) as pool:
        games = [one for block in pool.map(play_block, blocks, [args.seed] * len(blocks), [bots] * len(blocks))
                 for one in block]
    held_out = max(1, args.games // 10)
    train, test = games[:-held_out], games[-held_out:]
    x = np.array([row for rows, _ in train for row in rows])
    y = np.array([label for _, labels in train for label in labels])
    tx = np.array([row for rows, _ in test for row in rows])
    ty = np.array([label for _, labels in test for label in labels])
    losses, fitted = {}, {}
    for name, chosen in {"vp": ["d_vp", "intercept"], **INPUT_SETS}.items():
        columns = [evaluation.INPUT_NAMES.index(i) for i in chosen]
        fitted[name] = fit(x[:, columns], y)
        losses[name] = log_loss(tx[:, columns], ty, fitted[name])
    print(f"{len(y)} positions to fit, {len(ty)} held out ({time.perf_counter() - started:.0f} s)")
    print("held-out log-loss: " + ", ".join(f"{name} {loss:.4f}" for name, loss in losses.items())
          + " (vp: the VP difference alone; a coin: 0.6931)")
    chosen, w = INPUT_SETS[args.inputs], fitted[args.inputs]
    for name, value in zip(chosen, w):
        print(f"  {name:20} {value:+.4f}")
    loss, loss_vp = losses[args.inputs], losses["vp"]
    if not args.dry_run:
        data = {"about": "Ecologies search evaluation: logistic model of winning from the end of a turn; "
                         "refit with benchmarks/fit_ecologies_eval.py",
                "inputs": chosen, "coefficients": [round(float(v), 6) for v in w],
                "fitted_on": {"deck": DECK, "mode": "multi", "players": 2, "bots": bots, "games": args.games,
                              "seed": args.seed, "positions": len(y)},
                "held_out_log_loss": round(loss, 4), "vp_only_log_loss": round(loss_vp, 4)}
        evaluation.MODEL_FILE.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {evaluation.MODEL_FILE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
