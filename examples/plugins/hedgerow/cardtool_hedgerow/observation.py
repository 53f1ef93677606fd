"""Worlds a Hedgerow seat may imagine: the other hands and the draw pile dealt from the cards it has not seen.

A pure function of the public Seat (card table, seats) and an observation: it never looks at the real
game's seed or deal, so a bot built from a Seat can sample worlds but cannot read a card.
"""

from __future__ import annotations

import random
from collections import Counter

from cardtool.engine.protocol import Seat
from cardtool_hedgerow.engine import HedgerowGame, HedgerowState, Observation

#: World games by public facts: a search bot deals many worlds of one game.
_WORLDS: dict[tuple, HedgerowGame] = {}


def world_game(public: Seat) -> HedgerowGame:
    """A game with the same public facts, to hold sampled worlds; its seed (0) is not the real one."""
    key = (id(public.deck), public.mode, public.players)
    game = _WORLDS.get(key)
    if game is None or game.table is not public.deck:
        if len(_WORLDS) >= 64:
            _WORLDS.pop(next(iter(_WORLDS)))
        game = _WORLDS[key] = HedgerowGame(public.deck, public.players, public.mode, 0)
    return game


def unseen(table, observation: Observation) -> list[int]:
    """Card numbers, one per copy, of every card the seat cannot see: others' secret cards and the pile."""
    seen = Counter(observation.hand)
    for seat, known in enumerate(observation.known):
        if seat != observation.seat:
            seen.update(known)
    for hedgerow in observation.hedgerows:
        seen.update(hedgerow)
    seen.update(observation.verge)
    return [number for number, copies in enumerate(table.copies) for _ in range(copies - seen[number])]


def sample_state(public: Seat, observation: Observation, rng: random.Random) -> HedgerowState:
    """A full state showing what the observation shows, every unseen card dealt at random."""
    game = world_game(public)
    cards = unseen(game.table, observation)
    rng.shuffle(cards)
    hands, known = [], []
    for seat, size in enumerate(observation.hand_sizes):
        if seat == observation.seat:
            hand = list(observation.hand)
        else:
            hand = list(observation.known[seat])
            while len(hand) < size:
                hand.append(cards.pop())
        hands.append(hand)
        known.append(list(observation.known[seat]))
    return HedgerowState(game, hands, known, [list(h) for h in observation.hedgerows], list(observation.verge),
                         cards, observation.turn, observation.planting, [])
