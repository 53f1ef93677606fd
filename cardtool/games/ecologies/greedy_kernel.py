"""GreedyBot's decision in the compiled kernel (`cardtool_accel._ecogreedy`, accel.py loads it): the card
table flattened for it, and `choose`, which asks it when it serves.

greedy.py (GreedyBot.choose) and valuer.py (Valuer) are the readable reference: the kernel takes the same
action, valuing each legal action with the same arithmetic in the same order and drawing ties from the
bot's generator exactly where GreedyBot draws them. What reads arrangements it asks back of Python
(arrange.fits, valuer.web_shape, `kept_dropped`, and Valuer.value for a Move and a rescue play).
A card table using a word, trigger, target or kind this module does not know, or more biome codes than
the kernel holds, is never flattened, and an observation beyond the kernel's sizes is refused before any
draw: GreedyBot then decides in Python (as on Python 3.12 and later: accel.GREEDY_SUMS_MATCH).
tests/test_ecologies_accel_greedy.py compares both decision by decision and over thousands of seeded games.
"""

from __future__ import annotations

from functools import partial

from cardtool.games.ecologies import accel
from cardtool.games.ecologies.actions import (
    Accept, Arrange, BuyWith, ChooseCard, ChoosePlayer, Decline, DestroyEcology, Discard, Draw, EndPhase, Move, Offer,
    Play, UseBonus)
from cardtool.games.ecologies.arrange import ROLE_NAMES, ROLE_NUMBER, arrange, fits
from cardtool.games.ecologies.table import CardTable
from cardtool.games.ecologies.valuer import web_shape

#: The kernel's numbers for the words of the vocabulary (accel/cardtool_accel/_ecogreedy.c's enums).
KINDS = ("organism", "biome", "factor")
TRIGGERS = ("play", "ongoing", "activated", "turn_start", "web_gains_card")
WORDS = ("draw", "discard_random", "discard_matching", "force_trade", "destroy", "take_from_discard", "gain_vp",
         "vp_per", "extra_play", "free_play", "draw_from_discard", "protect")
TARGETS = ("you", "placer", "opponent", "random_opponent", "each_opponent", "each_player")
OWNERS = ("any", "you", "opponent")
PLACEMENTS = ("", "web", "table", "discard")
ACTIONS = (Draw, Offer, Accept, Decline, Play, Move, UseBonus, ChoosePlayer, ChooseCard, Arrange, Discard, BuyWith,
           DestroyEcology, EndPhase)
MAX_CODES = 64

#: Flattened tables by id(card table): (the table, its target VP, the kernel's table or None).
_FLAT: dict[int, tuple] = {}


def _mask(names, numbers) -> int:
    return sum(1 << numbers[name] for name in set(names))


def flatten(table: CardTable, target_vp: int):
    """The kernel's copy of a card table, or None when the table holds what the kernel does not know."""
    codes = list(table.codes)
    for card in range(table.size):  # every code a card or a filter names, the deck's biomes first
        named = set(table.biomes[card])
        for effect in table.effects[card]:
            if effect.filter is not None:
                named.update(effect.filter.biomes)
        codes += sorted(named - set(codes))
    if len(codes) > MAX_CODES:
        return None
    code_number = {code: i for i, code in enumerate(codes)}
    effects = []
    try:
        for card in range(table.size):
            flat = []
            for e in table.effects[card]:
                flt = e.filter
                flat.append((TRIGGERS.index(e.trigger), WORDS.index(e.action), TARGETS.index(e.target), e.amount,
                             e.every, int(e.multiplayer_only), int(flt is not None),
                             _mask(flt.kind, {k: i for i, k in enumerate(KINDS)}) if flt else 0,
                             _mask(flt.roles, ROLE_NUMBER) if flt else 0, _mask(flt.acting, ROLE_NUMBER) if flt else 0,
                             _mask(flt.biomes, code_number) if flt else 0, OWNERS.index(flt.owner) if flt else 0,
                             int(bool(flt.biomes)) if flt else 0))
            effects.append(tuple(flat))
        kinds = tuple(KINDS.index(k) for k in table.kind)
        placements = tuple(PLACEMENTS.index(p) for p in table.placement)
        printed = tuple(tuple(ROLE_NUMBER[r] for r in roles) for roles in table.roles)
    except (ValueError, KeyError):  # a word, kind or role the kernel does not know: Python decides
        return None
    return accel.GREEDY.table(
        tuple(codes), kinds, tuple(_mask(b, code_number) for b in table.biomes), printed, table.vp_float,
        table.vp_units, table.vp_denominator, table.def_of, tuple(tuple(sorted(e)) for e in table.eats_def),
        placements, tuple(effects), float(target_vp), ACTIONS, ROLE_NAMES)


def kernel_table(game):
    """The flattened table of a GreedyBot's game when the kernel serves it, else None."""
    if not accel.greedy_serving():
        return None
    table = game.table
    found = _FLAT.get(id(table))
    if found is None or found[0] is not table or found[1] != game.target_vp:
        if len(_FLAT) >= 64:
            _FLAT.pop(next(iter(_FLAT)))
        found = _FLAT[id(table)] = (table, game.target_vp, flatten(table, game.target_vp))
    return found[2]


def kept_dropped(table: CardTable, code: str, cards: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The cards the best arrangement feeds and those it leaves unfed (arrange.arrange)."""
    found = arrange(table, code, cards)
    return found.kept, found.dropped


serving = accel.greedy_serving


class Decider:
    """One GreedyBot's way into the kernel for its game: the table it reads (None: the kernel does not hold
    this table) and the questions it asks back."""

    __slots__ = ("flat", "fits", "shape", "shapes", "arrange", "fallback")

    def __init__(self, game, value):
        table = game.table
        self.flat = kernel_table(game)
        self.fits = partial(fits, table)
        self.shape = partial(web_shape, table)
        self.shapes = table.web_shapes  # its memo, which the kernel reads before it asks `shape`
        self.arrange = partial(kept_dropped, table)
        self.fallback = value  # value(observation, action): Valuer.value for what the kernel leaves to Python

    def choose(self, observation, legal, rng):
        """The kernel's choice, or None when it refuses this table or observation (before drawing anything)."""
        if self.flat is None:
            return None
        try:
            return accel.GREEDY.choose(self.flat, observation, legal, rng._randbelow, self.fits, self.shape,
                                       self.shapes, self.arrange, self.fallback)
        except accel.GREEDY.Refused:
            return None
