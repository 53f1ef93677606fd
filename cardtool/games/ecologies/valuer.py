"""Ecologies' one-ply heuristic: Valuer, what a seat's cards and actions are worth to it, from one
observation. GreedyBot (greedy.py) takes the action it rates best; SearchBot (search.py) ranks with it
and weighs positions with it. Imports nothing of the bots.
"""

from __future__ import annotations

from collections import Counter

from cardtool.games.ecologies.actions import (Accept, Arrange, BuyWith, ChooseCard, ChoosePlayer, DestroyEcology,
                                              Discard, Draw, EndPhase, Move, Offer, Play, UseBonus)
from cardtool.games.ecologies.arrange import arrange, fits_with, is_healthy
from cardtool.games.ecologies.effects import single_excluded
from cardtool.games.ecologies.exposure import Exposure
from cardtool.games.ecologies.model import Effect
from cardtool.games.ecologies.view import Observation
from cardtool.games.ecologies.table import matches
from cardtool.games.ecologies.weights import DEAD, DEFAULT_WEIGHTS, HEALTHY, ROLE_FILLED, SECOND_PRODUCER, Weights

__all__ = ["DEAD", "HEALTHY", "ROLE_FILLED", "SECOND_PRODUCER", "OBSERVING_WORDS", "Valuer", "steady", "web_shape"]



#: Effect words whose worth (Valuer.effect_value) reads the observation: the hand, the discard pile, the webs.
OBSERVING_WORDS = frozenset(("discard_matching", "take_from_discard", "vp_per"))


def steady(effects) -> bool:
    """Whether these effects are worth the same whatever a seat sees (in one game: its mode is fixed)."""
    return not any(e.action in OBSERVING_WORDS for e in effects)


def web_shape(table, code: str, cards: tuple[int, ...]) -> tuple[int, bool, bool]:
    """What the best arrangement of these cards fills: how many of the healthy roles, whether all of them,
    whether two producers or more (pure, so kept per card table)."""
    shapes = table.web_shapes
    shape = shapes.get((code, cards))
    if shape is None:
        roles = [r for r in arrange(table, code, cards).roles if r is not None]
        if len(shapes) >= 100_000:
            shapes.clear()
        shape = shapes[(code, cards)] = (len({"P", "C1", "C2", "C3", "SD"} & set(roles)), is_healthy(roles),
                                         roles.count("P") >= 2)
    return shape


class Valuer(Exposure):
    """What a seat's cards and actions are worth to it, from one observation (what an arrangement exposes
    to destroy cards: Exposure, exposure.py)."""

    def __init__(self, game, observation: Observation, held_values: dict[int, float] | None = None,
                 organism_values: dict[int, float] | None = None, steady_values: dict | None = None, *,
                 mine: tuple | None = None, my_codes: set[str] | None = None, weights: Weights = DEFAULT_WEIGHTS):
        """Values known already, filled in as computed: `held_values` of organism and biome cards for this
        hand and these webs; `organism_values` (if given) of organisms for these webs and the biome cards
        in hand; `steady_values` of factor cards and bonuses reading nothing seen (no OBSERVING_WORDS).
        `mine` and `my_codes`, if given, are the seat's ecologies in this observation and their codes;
        `weights` what it weighs by (Weights)."""
        self.game, self.obs, self.table, self.w = game, observation, game.table, weights
        self.seat = observation.seat
        if mine is None:
            mine = [eco for eco in observation.ecologies if eco.owner == self.seat]
            my_codes = {eco.code for eco in mine}
        self.mine, self.my_codes = mine, my_codes
        self.hand = observation.hand
        self.simplified = observation.mode == "simplified"
        self._cards: dict[int, float] = {}  # factor cards
        self._held = {} if held_values is None else held_values
        self._organisms = self._held if organism_values is None else organism_values
        self._steady = {} if steady_values is None else steady_values
        self._scores: list[float] | None = None
        self._leaders: list[float] | None = None
        self._hand_values: list[float] | None = None
        self._hand_biomes: frozenset[str] | None = None
        self._hand_living: Counter[str] | None = None
        self._threats: list[Effect] | None = None

    @property
    def scores(self) -> list[float]:
        if self._scores is None:
            self._scores = self.vp_estimates()
        return self._scores

    @property
    def hand_biomes(self) -> frozenset[str]:
        """The codes of the biome cards in hand."""
        if self._hand_biomes is None:
            table = self.table
            self._hand_biomes = frozenset(table.code[c] for c in self.hand if table.kind[c] == "biome")
        return self._hand_biomes

    @property
    def hand_living(self) -> Counter[str]:
        """Per biome code, how many organisms in hand live there."""
        if self._hand_living is None:
            table = self.table
            kind, biomes = table.kind, table.biomes
            self._hand_living = Counter([code for c in self.hand if kind[c] == "organism" for code in biomes[c]])
        return self._hand_living

    # -- positions

    def vp_estimates(self) -> list[float]:
        """Every seat's VP, estimated in one pass over the table."""
        table = self.table
        unit = table.vp_units.__getitem__
        denominator = table.vp_denominator
        totals = [0.0] * self.obs.players
        for eco in self.obs.ecologies:
            totals[eco.owner] += (len(eco.cards) if self.simplified
                                  else sum(map(unit, eco.cards)) / denominator)
        for card, owner in self.obs.table_factors:
            totals[owner] += sum(e.amount for e in table.effects[card] if e.action == "gain_vp")
        return totals

    def organism_vp(self, card: int) -> float:
        return 1.0 if self.simplified else self.table.vp_float[card]

    def eco_value(self, code: str, biome: int, cards: tuple[int, ...]) -> float:
        """Health and food security of an ecology holding these cards (VP counted apart)."""
        filled, healthy, producers = web_shape(self.table, code, cards)
        w = self.w
        value = w.role_filled * filled
        if healthy:
            value += w.healthy + self.bonus_value(biome)
        if producers:
            value += w.second_producer
        return value

    def bonus_value(self, biome: int) -> float:
        key = ("bonus", biome)
        value = self._steady.get(key)
        if value is None:
            value = sum(self.effect_value(e, ongoing=True) for e in self.table.effects[biome])
            if steady(self.table.effects[biome]):
                self._steady[key] = value
        return value

    # -- cards

    def card_value(self, card: int) -> float:
        """How useful a card in (or coming into) this seat's hand is."""
        kind = self.table.kind[card]
        if kind == "organism":
            cache = self._organisms
        elif kind == "biome":
            cache = self._held
        else:
            value = self._steady.get(card)
            if value is not None:
                return value
            cache = self._cards
        value = cache.get(card)
        if value is None:
            value = cache[card] = self._card_value(card)
            if kind == "factor" and steady(self.table.effects[card]):
                self._steady[card] = value
        return value

    def _card_value(self, card: int) -> float:
        table, w = self.table, self.w
        kind = table.kind[card]
        if kind == "organism":
            vp = self.organism_vp(card)
            living = table.biomes[card]
            for eco in self.mine:
                if eco.code in living and fits_with(table, eco.code, eco.cards, eco.roles, card):
                    return w.fits_base + w.fits_vp * vp
            if living & self.my_codes:
                return w.web_biome_base + w.web_biome_vp * vp
            if living & self.hand_biomes:
                return w.held_biome_base + w.held_biome_vp * vp
            return w.elsewhere_vp * vp
        if kind == "biome":
            if table.code[card] in self.my_codes:
                return w.built_biome
            living = self.hand_living[table.code[card]]
            return w.biome_base + w.biome_per_organism * min(living, 4)
        return w.factor_base + w.factor_share * max(0.0, sum(self.effect_value(e, ongoing=e.trigger != "play")
                                         for e in table.effects[card]))

    def effect_value(self, effect: Effect, *, ongoing: bool) -> float:
        """A rough worth of one effect word for this seat (recurring effects count a few uses)."""
        if self.obs.mode == "single" and single_excluded(effect):
            return 0.0
        action, amount = effect.action, effect.amount
        repeats = 2.0 / effect.every if effect.trigger in ("activated", "turn_start") else 1.0
        hurts_others = effect.target in ("opponent", "random_opponent", "each_opponent")
        if action == "draw":
            value = self.w.draw * amount * (1.5 if effect.trigger == "web_gains_card" else 1.0)
            value = -0.3 * value if hurts_others else value
        elif action in ("discard_random", "force_trade"):
            value = 0.4 * amount if hurts_others else -0.4 * amount
        elif action == "discard_matching":
            mine = sum(self.card_value(c) for c in self.hand
                       if matches(self.table, effect.filter, c, owner_relation="you", acting=None, code=None))
            others = 0.15 * sum(n for s, n in enumerate(self.obs.hand_sizes) if s != self.seat)
            value = (others if effect.target != "you" else 0.0) - mine
        elif action == "destroy":
            value = self.w.destroy
        elif action == "gain_vp":
            value = float(amount)
        elif action == "vp_per":
            value = amount * (1.0 + 0.5 * self._matching_now(effect))
        elif action == "extra_play":
            value = self.w.extra_play * amount
        elif action == "free_play":
            value = 0.8
        elif action == "draw_from_discard":
            value = 0.4
        elif action == "take_from_discard":
            value = amount * max([self.card_value(c) if self.table.kind[c] != "factor" else 0.8
                                  for c in self.obs.discard[-8:]] or [0.0])
        elif action == "protect":
            value = self.w.protect
        else:
            value = 0.0
        return value * repeats if ongoing else value

    def _matching_now(self, effect: Effect) -> int:
        flt = effect.filter
        count = 0
        for eco in self.mine:
            for card, role in zip(eco.cards, eco.roles):
                if matches(self.table, flt, card, owner_relation="you", acting=role, code=eco.code):
                    count += 1
        return count

    def leader_weight(self, seat: int) -> float:
        """How much hurting a seat is worth: more the closer it is to winning (every seat's at once)."""
        if self._leaders is None:
            self._leaders = [0.5 + score / max(1.0, float(self.game.target_vp)) for score in self.scores]
        return self._leaders[seat]

    # -- actions

    def value(self, action) -> float:
        kind = type(action)
        if kind is EndPhase:
            return 0.0
        if kind is Play:
            return self.play_value(action)
        if kind is Move:
            return self.move_value(action)
        if kind is UseBonus:
            effect = self.table.effects[action.source][action.effect]
            return self.effect_value(effect, ongoing=False) + 0.2
        if kind is Offer:
            return self.offer_value(action)
        if kind is Accept:
            return self.accept_value(action)
        if kind is Draw:
            top = self.obs.discard[-1] if self.obs.discard else None
            return (self.card_value(top) - self.w.take_discard) if action.from_discard and top is not None else 0.0
        if kind is ChoosePlayer:
            return self.leader_weight(action.seat) + 0.05 * self.obs.hand_sizes[action.seat]
        if kind is ChooseCard:
            return self.choose_card_value(action)
        if kind is Discard:
            return -self.card_value(action.card)
        if kind is BuyWith:
            return self.buy_value(action)
        if kind is DestroyEcology:
            return -10.0
        if kind is Arrange:
            return -self.exposure(self.obs.ecology(action.ecology), action.roles)
        return 0.0

    def play_value(self, action: Play) -> float:
        table, card = self.table, action.card
        kind = table.kind[card]
        if kind == "organism":
            eco = self.obs.ecology(action.ecology)
            before = self.eco_value(eco.code, eco.biome, eco.cards)
            after = self.eco_value(eco.code, eco.biome, eco.cards + (card,))
            saved = 0.0
            frame = self.obs.stack[-1] if self.obs.stack else None
            if frame is not None and frame[0] == "rescue" and frame[2] == eco.biome:
                fed = arrange(table, eco.code, eco.cards + (card,) + frame[3]).kept
                saved = sum(self.organism_vp(c) for c in frame[3] if c in fed)
            return self.organism_vp(card) + saved + after - before + self.w.play_organism
        w = self.w
        if kind == "biome":
            code = table.code[card]
            living = self.hand_living[code]
            if code in self.my_codes:
                return 0.1 * living - w.play_built_biome
            first = w.first_web if not self.mine else 0.0
            if not living:
                return w.play_empty_biome + first
            return w.play_biome_base + w.play_biome_per_organism * min(living, 5) + first
        value = sum(self.effect_value(e, ongoing=e.trigger != "play") for e in table.effects[card])
        if table.placement[card] == "web" and action.ecology >= 0:
            eco = self.obs.ecology(action.ecology)
            if eco.owner != self.seat:
                value -= 1.0  # helps nobody but would cost an opponent's web nothing either
        return value - w.play_factor

    def move_value(self, action: Move) -> float:
        source = next(eco for eco in self.mine if action.card in eco.cards)
        target = self.obs.ecology(action.ecology)
        before = self.eco_value(source.code, source.biome, source.cards) + self.eco_value(
            target.code, target.biome, target.cards)
        after = self.eco_value(source.code, source.biome, tuple(c for c in source.cards if c != action.card)) + \
            self.eco_value(target.code, target.biome, target.cards + (action.card,))
        return after - before - 0.1

    def offer_value(self, action: Offer) -> float:
        if not self.wants(action.want):
            return -1.0
        given = self.card_value(action.card)
        w = self.w
        if given >= w.dead:
            return -1.0
        biomes = self.table.biomes[action.card]
        helped = [eco.owner for eco in self.obs.ecologies if eco.owner != self.seat and eco.code in biomes]
        helps = w.offer_helps * max((self.leader_weight(s) for s in helped), default=0.0)
        return w.offer_base - given - helps

    def wants(self, code: str) -> bool:
        """Whether a card of this biome is worth asking for: one it builds or holds a biome card of."""
        return bool(code) and (code in self.my_codes or code in self.hand_biomes)

    def accept_value(self, action: Accept) -> float:
        frame = self.obs.stack[-1]
        offerer, offered = frame[2], frame[3]
        return self.card_value(offered) - self.card_value(action.card) - self.w.accept_leader * self.leader_weight(offerer)

    def choose_card_value(self, action: ChooseCard) -> float:
        frame = self.obs.stack[-1]
        kind, card = frame[0], action.card
        if kind == "give":
            return -self.card_value(card)
        if kind == "take":
            return self.card_value(card)
        return self.destroy_value(card)

    def destroy_value(self, card: int) -> float:
        """What destroying a card on the table is worth: its owner's loss (cards starved included),
        weighted by how close the owner is to winning; negative for one's own cards."""
        eco = next(e for e in self.obs.ecologies if card in e.cards)
        rest = tuple(c for c in eco.cards if c != card)
        after = arrange(self.table, eco.code, rest)
        lost = [card] + list(after.dropped)
        loss = sum(self.organism_vp(c) for c in lost)
        loss += self.eco_value(eco.code, eco.biome, eco.cards) - self.eco_value(eco.code, eco.biome, after.kept)
        if eco.owner == self.seat:
            return -loss
        return loss * self.leader_weight(eco.owner)

    def buy_value(self, action: BuyWith) -> float:
        value = self.card_value(action.card)
        if self.obs.stack:  # already buying: spend the least useful card
            return 1.0 - value
        if self._hand_values is None:
            self._hand_values = sorted(self.card_value(c) for c in self.hand)
        dead = self._hand_values
        if len(dead) < 4 or dead[3] >= self.w.dead:
            return -1.0
        return self.w.buy_base - value
