"""Worlds a Symbiosis seat may imagine: every face-down card dealt from the cards it has not seen.

A pure function of the public Seat (card table, mode, seats) and an observation: it never looks at the
real game's seed or deal, so a search bot built from a Seat can sample worlds but cannot read a card.
"""

from __future__ import annotations

import random

from cardtool.engine.protocol import Seat
from cardtool.games.symbiosis.engine import Observation, SymbiosisGame, SymbiosisState, deal_world, unseen

__all__ = ["sample_state", "unseen", "world_game"]

#: World games by public facts: a search bot deals many worlds of one game.
_WORLDS: dict[tuple, SymbiosisGame] = {}


def world_game(public: Seat) -> SymbiosisGame:
    """A game with the same public facts, to hold sampled worlds; its seed (0) is not the real one."""
    key = (id(public.deck), public.mode, public.players)
    game = _WORLDS.get(key)
    if game is None or game.table is not public.deck:
        if len(_WORLDS) >= 64:
            _WORLDS.pop(next(iter(_WORLDS)))
        game = _WORLDS[key] = SymbiosisGame(public.deck, public.players, public.mode, 0)
    return game


def sample_state(public: Seat, observation: Observation, rng: random.Random) -> SymbiosisState:
    """A full state showing what the observation shows, every face-down card dealt at random."""
    return deal_world(world_game(public), observation, rng)
