"""How likely a seat is to win from a position at the end of a turn: a logistic model fitted to the
outcomes of games, used by SearchBot (search.py) to weigh where its rollouts end.

The model reads the terms of position.py: for the seat and its best opponent (the other seat with the
most VP), each seat's terms, valued from its own observation of a world the search dealt itself. Its
inputs are named (INPUT_NAMES lists every input there is): `d_<term>`, the seat's term less its
opponent's; `near_d_<term>`, the same weighted by how close the race to 12 VP is; the VP race itself
(`lead_near_end`, `my_vp`, `their_vp`); the game's facts (`deck`, `turn`, `replies`: whether the other
seat still plays this round, and its products with the race); `intercept`. Which inputs a model uses
and their coefficients are data, in evaluation.json, written by `benchmarks/fit_ecologies_eval.py`
from the positions at the start of every turn of two-player games, each labelled with whether the seat
that had just played won.

Imports position.py; imported by search.py and the refit script.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path

from cardtool.games.ecologies.position import SEAT_TERMS, game_terms, seat_terms, valued

__all__ = ["INPUT_NAMES", "MODEL_FILE", "MODEL_FILES", "coefficients", "inputs", "named_inputs", "valued", "win_chance"]

MODEL_FILE = Path(__file__).with_name("evaluation.json")
#: The models a search may weigh its rollout ends by, by name (SearchBot's `eval=`): `fitted`, fitted to
#: who won greedy games (fit_ecologies_eval.py); `played`, fitted to full-game greedy play-outs from the
#: rollout ends of the search's own candidates (fit_ecologies_decisions.py).
MODEL_FILES = {"fitted": MODEL_FILE, "played": Path(__file__).with_name("evaluation_played.json")}
#: Every input a model may use, in the order named_inputs computes them.
INPUT_NAMES = (tuple(f"d_{name}" for name in SEAT_TERMS) + tuple(f"near_d_{name}" for name in SEAT_TERMS)
               + ("lead_near_end", "my_vp", "their_vp", "deck", "turn", "replies", "replies_my_vp",
                  "replies_their_vp", "replies_lead", "intercept"))
DECK_SCALE, TURN_SCALE = 50.0, 40.0  # keep the inputs near 1, so the fit's ridge treats them alike


def named_inputs(game, state, seat: int, mover: int | None = None) -> list[float]:
    """Every input (INPUT_NAMES) for a seat after `mover`'s turn (by default, the turn just ended)."""
    mine = seat_terms(game, state, seat)
    others = [seat_terms(game, state, s) for s in range(game.players) if s != seat]
    best = max(others, key=lambda terms: terms[0]) if others else [0.0] * len(mine)
    if mover is None:
        mover = (state.turn - 1) % game.players
    deck, _, turn, replies = game_terms(game, state, mover)
    target = float(game.target_vp)
    near = max(mine[0], best[0]) / target
    difference = [a - b for a, b in zip(mine, best)]
    lead, my_vp, their_vp = difference[0] * near, mine[0] / target, best[0] / target
    return (difference + [d * near for d in difference]
            + [lead, my_vp, their_vp, deck / DECK_SCALE, turn / TURN_SCALE, replies, replies * my_vp,
               replies * their_vp, replies * lead, 1.0])


@lru_cache(maxsize=4)
def model_in(path: Path) -> tuple[tuple[int, ...], tuple[float, ...], str]:
    """The fitted model in a file: the positions in INPUT_NAMES of its inputs, their coefficients, and its
    link: `logistic` (the chance is the logistic of the weighted sum) or `linear` (the sum is the chance)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    unknown = [name for name in data["inputs"] if name not in INPUT_NAMES]
    if unknown or len(data["inputs"]) != len(data["coefficients"]):
        raise ValueError(f"{path.name} was fitted for other inputs ({', '.join(unknown) or 'a count apart'}); "
                         "rerun benchmarks/fit_ecologies_eval.py")
    link = data.get("link", "logistic")
    if link not in ("logistic", "linear"):
        raise ValueError(f"{path.name}: unknown link {link!r}")
    return tuple(INPUT_NAMES.index(name) for name in data["inputs"]), tuple(map(float, data["coefficients"])), link


def model() -> tuple[tuple[int, ...], tuple[float, ...], str]:
    """The model in MODEL_FILE (read once)."""
    return model_in(MODEL_FILE)


def coefficients() -> tuple[float, ...]:
    """The fitted coefficients, in the order of the model file's inputs."""
    return model()[1]


def inputs(game, state, seat: int) -> list[float]:
    """The model's inputs for a seat, in the order of its coefficients."""
    every = named_inputs(game, state, seat)
    return [every[i] for i in model()[0]]


def win_chance(game, state, seat: int, path: Path = MODEL_FILE) -> float:
    """The chance that `seat` wins from this state by the model in `path` (1 or 0 once the game is over
    and decided)."""
    if state.is_over():
        winners = state.winners()
        return (1.0 / len(winners) if seat in winners else 0.0) if winners else 0.5
    indices, weights, link = model_in(path)
    every = named_inputs(game, state, seat)
    z = sum(w * every[i] for w, i in zip(weights, indices))
    if link == "linear":
        return z
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
