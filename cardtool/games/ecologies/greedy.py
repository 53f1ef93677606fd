"""Ecologies' one-ply bot: GreedyBot takes the action Valuer (valuer.py) rates best. SearchBot (search.py)
ranks its candidates with GreedyBot and plays its rollouts with it.

GreedyBot is built from a public `Seat` only (the card table, mode, seats and caps; no seed): the game it
reasons with is `observation.world_game(seat)`, a game of the same rules that never saw the real deal.
Imported by bots.py (the roster) and search.py; imports nothing of theirs. Valuer and its weights are
re-exported here, where search.py and evaluation.py import them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardtool.engine.bots import one_of
from cardtool.engine.protocol import Seat
from cardtool.games.ecologies import greedy_kernel
from cardtool.games.ecologies.actions import EndPhase, Offer
from cardtool.games.ecologies.observation import Observation, world_game
from cardtool.games.ecologies.valuer import DEAD, HEALTHY, ROLE_FILLED, SECOND_PRODUCER, Valuer
from cardtool.games.ecologies.weights import DEFAULT_WEIGHTS, POLICIES, Weights, policy_weights

__all__ = ["DEAD", "HEALTHY", "ROLE_FILLED", "SECOND_PRODUCER", "THRESHOLD", "GreedyBot", "Valuer", "Weights"]

THRESHOLD = 0.05  # an action must gain more than this to beat ending the phase


class GreedyBot:
    """Takes the action with the best one-ply value (ties drawn at random); ends a phase otherwise.
    `policy` names the weights it values by (valuer.POLICIES: `default`, the hand-set ones, which the
    compiled kernel also holds, or `tuned`); `weights` gives them outright (the tuning script's way)."""

    name = "greedy"
    OPTIONS = {"policy": one_of(*POLICIES)}
    #: With one legal action, choose returns it without looking or drawing: the playout may skip asking.
    takes_forced_moves = True

    def __init__(self, public: Seat, policy: str = "default", weights: Weights | None = None):
        self.public = public
        self.game = world_game(public)
        self.weights = policy_weights(policy) if weights is None else weights
        self.dead, self.threshold = self.weights.dead, self.weights.threshold
        self._kernel = self.weights == DEFAULT_WEIGHTS  # the kernel knows the hand-set weights only
        self._held_for: tuple | None = None
        self._held_values: dict[int, float] = {}
        self._organisms_for: tuple | None = None
        self._organism_values: dict[int, float] = {}
        self._steady_values: dict = {}
        self._hand_biomes: frozenset[str] = frozenset()
        self._hand_living = None  # Valuer.hand_living of this hand, once a decision worked it out
        self._scored_table: tuple | None = None
        self._scores: list[float] | None = None
        self._mine: tuple = ()  # the seat's webs of the last decision, and their biome codes
        self._my_codes: set[str] = set()
        self._decider: greedy_kernel.Decider | None = None  # the compiled decision, once it serves
        self._fallback_for: tuple = (None, None)  # (observation, its Valuer) for the kernel's questions

    def valuer(self, observation: Observation) -> Valuer:
        """A Valuer for this observation, sharing card values with the last one while what they read stays
        the same (a turn's trading asks the same seats again and again): biome cards' while the seat's
        hand and webs do, organisms' while its webs and the biome cards in its hand do; and the VP
        estimates while the table does."""
        seat = observation.seat
        hand = observation.hand
        webs = tuple([eco for eco in observation.ecologies if eco.owner == seat])  # the same objects: quick to compare
        if webs != self._mine:
            self._mine, self._my_codes = webs, {eco.code for eco in webs}
        held_for = (seat, hand, webs)
        if held_for != self._held_for:
            self._held_for, self._held_values = held_for, {}
            table = self.game.table
            kind, code = table.kind, table.code
            self._hand_biomes = frozenset([code[c] for c in hand if kind[c] == "biome"])  # Valuer.hand_biomes
            self._hand_living = None
            organisms_for = (seat, webs, self._hand_biomes)
            if organisms_for != self._organisms_for:
                self._organisms_for, self._organism_values = organisms_for, {}
        valuer = Valuer(self.game, observation, self._held_values, self._organism_values, self._steady_values,
                        mine=self._mine, my_codes=self._my_codes, weights=self.weights)
        valuer._hand_biomes = self._hand_biomes  # the same hand: the same biome cards in it
        valuer._hand_living = self._hand_living  # and the same organisms
        table = (observation.ecologies, observation.table_factors)  # all vp_estimates reads
        if table == self._scored_table:
            valuer._scores = self._scores
        else:
            self._scored_table, self._scores = table, None
        return valuer

    def _keep_scores(self, valuer: Valuer) -> None:
        """Remember the VP estimates a decision worked out, for the next one on the same table (and what
        lives in the hand, for the next one with the same hand)."""
        if self._scores is None:
            self._scores = valuer._scores
        if self._hand_living is None:
            self._hand_living = valuer._hand_living

    def _value(self, observation: Observation, action) -> float:
        """Valuer.value, for the actions the kernel leaves to Python (one Valuer per observation)."""
        seen, valuer = self._fallback_for
        if seen is not observation:
            valuer = self.valuer(observation)
            self._fallback_for = (observation, valuer)
        value = valuer.value(action)
        self._keep_scores(valuer)
        return value

    def ranked(self, observation: Observation, legal: Sequence, rng: random.Random) -> list[tuple[float, object]]:
        """The legal actions as (value, action), best first (ties in a random order). Ending the phase is
        valued at `threshold`, as choose values it."""
        valuer = self.valuer(observation)
        threshold = self.threshold
        scored = [(round(threshold if type(a) is EndPhase else valuer.value(a), 9), rng.random(), a) for a in legal]
        self._keep_scores(valuer)
        scored.sort(key=lambda item: (-item[0], item[1]))
        return [(value, action) for value, _, action in scored]

    def choose(self, observation: Observation, legal: Sequence, rng: random.Random):
        if len(legal) == 1:
            return legal[0]
        if self._kernel and greedy_kernel.serving() and isinstance(rng, random.Random):  # the same choice in C (greedy_kernel.py)
            decider = self._decider
            if decider is None:
                decider = self._decider = greedy_kernel.Decider(self.game, self._value)
            choice = decider.choose(observation, legal, rng)
            if choice is not None:
                return choice
        valuer = self.valuer(observation)
        best, choice, ties = None, None, 0
        below = getattr(rng, "_randbelow", None) or rng.randrange  # what randrange(n) draws for n > 0
        # An offer is made only for a want worth asking for (Valuer.wants) and of a card worth less than
        # DEAD (else it is worth -1, below ending the phase): most of a trade's offers are not, and are
        # passed over in one test each.
        wanted = cheap = ()
        offer_values: dict[int, float] = {}  # per card: what offering it is worth, whatever the want
        if Offer in map(type, legal):
            wanted = frozenset(valuer.my_codes | valuer.hand_biomes) - {""}
            if wanted:
                cheap = frozenset([c for c in observation.hand if valuer.card_value(c) < self.dead])
        for action in legal:
            kind = type(action)
            if kind is Offer:
                card = action.card
                if card not in cheap or action.want not in wanted:
                    continue
                value = offer_values.get(card)
                if value is None:
                    value = offer_values[card] = valuer.offer_value(action)
            elif kind is EndPhase:
                value = self.threshold
            else:
                value = valuer.value(action)
            if best is None or value > best + 1e-9:
                best, choice, ties = value, action, 1
            elif abs(value - best) <= 1e-9:
                ties += 1
                if below(ties) == 0:  # reservoir sampling: a uniform choice among the ties
                    choice = action
        self._keep_scores(valuer)
        return choice
