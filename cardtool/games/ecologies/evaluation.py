"""How likely a seat is to win from a position at the end of a turn: a logistic model fitted to the
outcomes of games, used by SearchBot (search.py) to weigh where its rollouts end.

`features(game, state, seat)` describes one seat's position in a state (a sampled world, never the real
game: the search only evaluates worlds it dealt itself) by the terms GreedyBot's Valuer knows (VP, webs'
health, lasting factor cards, the hand's worth) and a few counts; `win_chance` feeds the differences
between the seat and its best opponent, and a few terms of the race to 12 VP, to the logistic model
whose coefficients are in evaluation.json. `benchmarks/fit_ecologies_eval.py` refits them from
greedy-against-greedy games (the positions at the start of every turn, labelled with whether the seat
that had just played won) and rewrites that file.

Imports greedy.py (Valuer); imported by search.py and the refit script.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path

from cardtool.games.ecologies.arrange import fits as fits_web
from cardtool.games.ecologies.greedy import Valuer

MODEL_FILE = Path(__file__).with_name("evaluation.json")
#: The per-seat terms, in order (the model sees the seat's minus its best opponent's).
SEAT_TERMS = ("vp", "webs", "lasting", "hand", "hand_size", "healthy", "ecologies", "fits")
#: Every input of the model, in the order of its coefficients (the intercept last).
INPUTS = tuple(f"d_{name}" for name in SEAT_TERMS) + ("lead_near_end", "my_vp", "their_vp", "intercept")


def valued(game, state, seat: int) -> tuple[Valuer, float, float, float]:
    """GreedyBot's Valuer from the seat's own observation, and what it makes of the seat's webs (health
    and food security), of its lasting factor cards and of its hand's best six cards; the search's
    `standing` weighs the same three."""
    valuer = Valuer(game, state.observation(seat))
    table = game.table
    webs = sum(0.4 + valuer.eco_value(eco.code, eco.biome, eco.cards) for eco in valuer.mine)
    placed = [card for card, owner in state.table_factors if owner == seat]
    placed += [card for eco in state.ecos.values() for card, placer in eco.factors if placer == seat]
    lasting = sum(valuer.effect_value(e, ongoing=True) for card in placed for e in table.effects[card]
                  if e.trigger != "play" and e.action not in ("gain_vp", "vp_per"))
    hand = sum(sorted((valuer.card_value(c) for c in valuer.hand), reverse=True)[:6])
    return valuer, webs, lasting, hand


def seat_terms(game, state, seat: int) -> list[float]:
    """One seat's terms (SEAT_TERMS), valued from that seat's own observation of the state."""
    valuer, webs, lasting, hand = valued(game, state, seat)
    table = game.table
    healthy = sum(1 for eco in valuer.mine if eco.healthy)
    fits = sum(1 for c in valuer.hand if table.kind[c] == "organism" and any(
        eco.code in table.biomes[c] and fits_web(table, eco.code, eco.cards + (c,)) for eco in valuer.mine))
    return [float(state.vp(seat)), webs, lasting, hand, float(len(valuer.hand)), float(healthy),
            float(len(valuer.mine)), float(fits)]


def inputs(game, state, seat: int) -> list[float]:
    """The model's inputs (INPUTS) for a seat: its terms less its best opponent's (the opponent with
    the most VP), and the VP race."""
    mine = seat_terms(game, state, seat)
    others = [seat_terms(game, state, s) for s in range(game.players) if s != seat]
    best = max(others, key=lambda terms: terms[0]) if others else [0.0] * len(mine)
    target = float(game.target_vp)
    near = max(mine[0], best[0]) / target
    return [a - b for a, b in zip(mine, best)] + [(mine[0] - best[0]) * near, mine[0] / target,
                                                  best[0] / target, 1.0]


@lru_cache(maxsize=1)
def coefficients() -> tuple[float, ...]:
    """The fitted coefficients, in INPUTS order, from evaluation.json."""
    data = json.loads(MODEL_FILE.read_text(encoding="utf-8"))
    if tuple(data["inputs"]) != INPUTS:
        raise ValueError(f"{MODEL_FILE.name} was fitted for other inputs; rerun benchmarks/fit_ecologies_eval.py")
    return tuple(float(c) for c in data["coefficients"])


def win_chance(game, state, seat: int) -> float:
    """The model's chance that `seat` wins from this state (1 or 0 once the game is over and decided)."""
    if state.is_over():
        winners = state.winners()
        return (1.0 / len(winners) if seat in winners else 0.0) if winners else 0.5
    z = sum(w * x for w, x in zip(coefficients(), inputs(game, state, seat)))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
