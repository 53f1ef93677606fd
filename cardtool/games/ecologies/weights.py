"""The numbers Ecologies' Valuer (valuer.py) weighs cards and actions by, and the named policies that
hold other numbers for them (`greedy:policy=NAME`, `search:policy=NAME`). Imports nothing of the game.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields, replace
from functools import lru_cache
from pathlib import Path

HEALTHY = 3.0  # a healthy ecology, besides its bonus
ROLE_FILLED = 0.35  # each healthy role (P, C1, C2, C3, SD) an ecology fills
SECOND_PRODUCER = 0.4
DEAD = 0.3  # a card in hand worth less than this is traded away or spent buying


@dataclass(frozen=True)
class Weights:
    """The numbers Valuer weighs cards and actions by. The defaults are the hand-set ones (the compiled
    kernel, accel/cardtool_accel/_ecogreedy.c, holds the same and serves only them); a policy file
    (POLICY_FILES, `greedy:policy=NAME`) holds others, found by benchmarks/tune_ecologies_greedy.py."""

    healthy: float = HEALTHY
    role_filled: float = ROLE_FILLED
    second_producer: float = SECOND_PRODUCER
    dead: float = DEAD
    threshold: float = 0.05  # GreedyBot: an action must gain more than this to beat ending the phase
    # an organism in hand: one that fits a web now, lives in a biome of one, in a biome card held, elsewhere
    fits_base: float = 0.3
    fits_vp: float = 0.9
    web_biome_base: float = 0.15
    web_biome_vp: float = 0.5
    held_biome_base: float = 0.1
    held_biome_vp: float = 0.4
    elsewhere_vp: float = 0.1
    # a biome card in hand: of a biome built already; else a base and a share per organism held for it
    built_biome: float = 0.1
    biome_base: float = 0.4
    biome_per_organism: float = 0.3
    # a factor card in hand: a base and a share of what its effects are worth
    factor_base: float = 0.25
    factor_share: float = 0.6
    # playing: an organism's bonus on its VP; a biome (a second of one built, a first, a first web)
    play_organism: float = 0.2
    play_built_biome: float = 0.3
    play_empty_biome: float = 0.1
    play_biome_base: float = 0.3
    play_biome_per_organism: float = 0.35
    first_web: float = 1.0
    play_factor: float = 0.2  # what playing a factor card costs besides its effects
    # effects
    draw: float = 0.5
    destroy: float = 1.5
    extra_play: float = 1.5
    protect: float = 0.6
    # trading and buying
    take_discard: float = 0.6  # what drawing the discard pile's top costs against its worth
    offer_base: float = 0.6
    offer_helps: float = 0.4
    accept_leader: float = 0.15
    buy_base: float = 0.5

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))


DEFAULT_WEIGHTS = Weights()
#: The policies (`greedy:policy=NAME`, `search:policy=NAME`) by name: `default` the hand-set weights,
#: others read from their file beside this module.
POLICY_FILES = {"tuned": Path(__file__).with_name("greedy_tuned.json")}
POLICIES = ("default", *POLICY_FILES)


@lru_cache(maxsize=8)
def policy_weights(name: str) -> Weights:
    """The weights of a named policy (POLICIES)."""
    if name == "default":
        return DEFAULT_WEIGHTS
    data = json.loads(POLICY_FILES[name].read_text(encoding="utf-8"))
    unknown = sorted(set(data["weights"]) - set(Weights.names()))
    if unknown:
        raise ValueError(f"{POLICY_FILES[name].name}: unknown weights {', '.join(unknown)}")
    return replace(DEFAULT_WEIGHTS, **{k: float(v) for k, v in data["weights"].items()})
