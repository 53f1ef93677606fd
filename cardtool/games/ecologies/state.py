"""The Ecologies game state: card numbers in zones, the ecologies on the table, the turn and its choices.

Zones: the deck (top card last), the discard pile (top card last, face up), each seat's hand, the
ecologies (each named by its biome card, holding organisms with their current roles and the factor cards
placed on it), the factor cards kept in front of players, and `limbo` (a one-off factor card while its
effects resolve). Every physical card is in exactly one zone.

Choices that interrupt a phase (an offer to answer, an opponent to target, a card to destroy...) are
frames on `stack`; the seat of the top choice frame is the current player. One `random.Random` seeded
from the game's seed decides every chance event, so a game is its seed plus its actions.

`events` is the game's record for people and statistics: tuples (turn, kind, seat, card, detail), e.g.
(12, "play", 2, 57, 31) for seat 2 playing card 57 into the ecology of biome card 31. Kinds: turn, draw,
reshuffle, play, give, take, discard, destroy, move, healthy, unhealthy, bonus, buy, end.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import NamedTuple

from cardtool.engine.protocol import TURN_CAP
from cardtool.games.ecologies.arrange import NO_WEIGHTS, arrange
from cardtool.games.ecologies.forces import Active, InForce

__all__ = ["CAPS", "END_REASONS", "Active", "Eco", "EcologiesState"]

#: Why a game ends (`state.end_reason`), a closed set. By the rulebook: a player reached 12 VP
#: (multiplayer and simplified); deck and discard pile exhausted, then a round without a card played
#: (multiplayer); the deck ran out (simplified; alone, the hand then played out). Outside the rules:
#: the engine's round cap (engine.MAX_ROUNDS) and the playout's turn cap (--max-turns), won by nobody.
TARGET, EXHAUSTED, DECK_OUT, ROUND_CAP = "target", "exhausted", "deck-out", "round-cap"
END_REASONS = (TARGET, EXHAUSTED, DECK_OUT, ROUND_CAP, TURN_CAP)
CAPS = frozenset((ROUND_CAP, TURN_CAP))


class Eco(NamedTuple):
    """One ecology on the table, replaced (never changed) when it changes."""

    biome: int  # the biome card, which names the ecology
    owner: int
    code: str
    cards: tuple[int, ...]  # organisms, in the solver's canonical order
    roles: tuple[str, ...]  # the role each acts in
    factors: tuple[tuple[int, int], ...] = ()  # (factor card, the seat that placed it)
    healthy: bool = False
    weights: tuple[int, ...] = NO_WEIGHTS  # the role bonuses its arrangement was chosen for

    def role_of(self, card: int) -> str:
        return self.roles[self.cards.index(card)]


class EcologiesState(InForce):
    """A game in progress (cardtool.engine.protocol.State). Rules live in rules.py, turns.py and effects.py;
    what is in force on the table and what it scores in forces.py."""

    __slots__ = ("game", "rng", "deck", "discard", "hands", "known", "ecos", "table_factors", "limbo", "counters",
                 "own_turns", "turn", "phase", "plays_used", "offers", "moved", "played", "quiet", "stack", "over",
                 "end_reason", "_history", "events", "_active", "_forces", "_derived")

    def __init__(self, game, rng: random.Random, deck: list[int], hands: list[list[int]]):
        self.game = game
        self.rng = rng
        self.deck = deck
        self.discard: list[int] = []
        self.hands = hands
        self.known: list[tuple[int, ...]] = [() for _ in hands]  # cards publicly known in each hand
        self.ecos: dict[int, Eco] = {}
        self.table_factors: tuple[tuple[int, int], ...] = ()  # (card, owner), kept in front of a player
        self.limbo: list[int] = []
        self.counters: dict[tuple[int, int], int] = {}  # (source, effect) -> own turn it was last used
        self.own_turns = [0] * len(hands)
        self.turn = 0
        self.phase = "draw"
        self.plays_used = 0
        self.offers: tuple = ()  # the offers made this turn
        self.moved: tuple[int, ...] = ()
        self.played = False
        self.quiet = 0
        self.stack: list[tuple] = []
        self.over = False
        self.end_reason = ""
        self._history: list = []
        self.events: list[tuple] = []
        self._active: list[Active] | None = None
        self._forces: dict = {}  # ongoing effects and role weights, until what is in force changes
        self._derived: dict = {}  # VP and what reads roles, until the table changes

    # -- the protocol

    @property
    def seat(self) -> int:
        """The seat whose turn it is."""
        return self.turn % self.game.players

    @property
    def current_player(self) -> int:
        if self.over:
            return -1
        return self.stack[-1][1] if self.stack else self.seat

    @property
    def history(self) -> Sequence:
        return tuple(self._history)

    @property
    def round(self) -> int:
        """1 for the first round of turns (every seat once, from the first player)."""
        return self.turn // self.game.players + 1

    # The rules live above this module (rules.py, turns.py, view.py, text.py) and are reached through the
    # game, which binds them (engine.EcologiesGame): the state imports none of them, so no import circle.

    def legal_actions(self) -> list:
        return self.game.legal_actions(self)

    def apply(self, action) -> None:
        self.game.apply(self, action)

    def is_over(self) -> bool:
        return self.over

    def scores(self) -> list[Fraction]:
        return [self.vp(seat) for seat in range(self.game.players)]

    def winners(self) -> list[int]:
        """The seats with the most VP once the game is over (several on a tie: a shared victory);
        nobody when a cap stopped it."""
        if not self.over or self.end_reason in CAPS:
            return []
        scores = self.scores()
        best = max(scores)
        return [seat for seat, score in enumerate(scores) if score == best]

    @property
    def turns_played(self) -> int:
        """Turns completed: the turn in progress counts once the game ended in it by the rules."""
        return self.turn + (1 if self.over and self.end_reason != TURN_CAP else 0)

    def halt(self, reason: str) -> None:
        """Stop the game outside the rules (a cap such as TURN_CAP): over, and nobody wins."""
        self.finish(reason)

    def finish(self, reason: str) -> None:
        """End the game for one of END_REASONS."""
        self.over = True
        self.end_reason = reason
        self.stack.clear()
        self.log("end", -1, -1, reason)

    def observation(self, player: int):
        return self.game.observe(self, player)

    def clone(self) -> "EcologiesState":
        other = EcologiesState.__new__(EcologiesState)
        other.game = self.game
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.deck = self.deck[:]
        other.discard = self.discard[:]
        other.hands = [hand[:] for hand in self.hands]
        other.known = self.known[:]
        other.ecos = self.ecos.copy()
        other.table_factors = self.table_factors
        other.limbo = self.limbo[:]
        other.counters = self.counters.copy()
        other.own_turns = self.own_turns[:]
        other.turn, other.phase, other.plays_used = self.turn, self.phase, self.plays_used
        other.offers, other.moved, other.played, other.quiet = self.offers, self.moved, self.played, self.quiet
        other.stack = self.stack[:]
        other.over, other.end_reason = self.over, self.end_reason
        other._history = self._history[:]
        other.events = self.events[:]
        other._active = self._active
        other._forces = self._forces.copy()
        other._derived = self._derived.copy()
        return other

    def describe(self, action) -> str:
        return self.game.describe(self, action)

    # -- zones

    def log(self, kind: str, seat: int, card: int = -1, detail=None) -> None:
        self.events.append((self.turn, kind, seat, card, detail))

    def from_hand(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        if card in self.known[seat]:
            self.known[seat] = tuple(c for c in self.known[seat] if c != card)

    def to_hand(self, seat: int, card: int, public: bool) -> None:
        self.hands[seat].append(card)
        if public:
            self.known[seat] = tuple(sorted(self.known[seat] + (card,)))

    def to_discard(self, card: int, seat: int, reason: str) -> None:
        self.discard.append(card)
        self.log("discard", seat, card, reason)

    def can_reshuffle(self) -> bool:
        """Only the multiplayer game turns the discard pile over into a new deck."""
        return self.game.mode == "multi"

    def draw_one(self, seat: int, source: str = "deck", why: str = "draw") -> int | None:
        """Draw the top card of the deck (turning the discard pile over first when the deck is empty and
        the mode allows) or of the discard pile; None when there is nothing to draw."""
        if source == "discard":
            if not self.discard:
                return None
            card = self.discard.pop()
            self.to_hand(seat, card, public=True)
            self.log("take", seat, card, "discard")
            return card
        if not self.deck:
            if not self.discard or not self.can_reshuffle():
                return None
            self.deck = self.discard
            self.discard = []
            self.rng.shuffle(self.deck)
            self.log("reshuffle", -1, -1, len(self.deck))
        card = self.deck.pop()
        self.to_hand(seat, card, public=False)
        self.log("draw", seat, card, why)
        return card

    def cards_on_table(self) -> Iterator[int]:
        for eco in self.ecos.values():
            yield eco.biome
            yield from eco.cards
            for card, _ in eco.factors:
                yield card
        for card, _ in self.table_factors:
            yield card

    def eco_of(self, card: int) -> Eco | None:
        """The ecology an organism is in (None when it is not on the table)."""
        for eco in self.ecos.values():
            if card in eco.cards:
                return eco
        return None

    def ecologies_of(self, seat: int) -> list[Eco]:
        return [eco for eco in self.ecos.values() if eco.owner == seat]

    # -- ecologies

    def arrange_eco(self, biome: int, cards: Sequence[int], factors=None, weights=None) -> tuple[int, ...]:
        """Set an ecology's organisms, arranged at best for its owner; returns the cards left unfed."""
        eco = self.ecos[biome]
        if weights is None:
            weights = self.role_weights(eco.owner, eco.code)
        result = arrange(self.game.table, eco.code, cards, weights)
        kept = tuple(c for c, r in zip(result.cards, result.roles) if r is not None)
        roles = tuple(r for r in result.roles if r is not None)
        healthy = result.healthy
        factors = eco.factors if factors is None else factors
        self.ecos[biome] = eco._replace(cards=kept, roles=roles, healthy=healthy, weights=weights, factors=factors)
        if healthy != eco.healthy:
            self.log("healthy" if healthy else "unhealthy", eco.owner, biome, eco.code)
            self.changed()
        elif factors != eco.factors:
            self.changed()
        else:
            self.rescored()  # the same bonuses and cards in force: only scores and roles moved
        return result.dropped
