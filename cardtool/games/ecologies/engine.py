"""The Ecologies game: static facts (deck, seats, mode, seed) and the deal.

Modes: `multi` (the rulebook's game, 2-6 players), `single` (the single-player game) and `simplified`
(every organism 1 VP, first to 12; the game ends when the deck runs out).
"""

from __future__ import annotations

import random

from cardtool.engine.protocol import Seat
from cardtool.errors import UsageError
from cardtool.games.ecologies.actions import Offer
from cardtool.games.ecologies.model import EcologiesDeck
from cardtool.games.ecologies.observation import Observation, sample_state, seat_table
from cardtool.games.ecologies.rules import DRAWS, HAND_SIZE, TARGET_VP
from cardtool.games.ecologies.turns import start_turn
from cardtool.games.ecologies.state import EcologiesState
from cardtool.games.ecologies.table import CardTable
from cardtool.suggest import did_you_mean

MODES = ("multi", "single", "simplified")
#: A playtest safeguard, not a rulebook rule: a game still going after this many rounds ends, and the
#: most VP wins (bots that keep buying recycle the deck, and could otherwise play on for ever). Games
#: of bots that try to win end long before (4 greedy players: 9 rounds on average, rarely over 20); a
#: single player plays the deck out, which takes longer.
MAX_ROUNDS = {"multi": 60, "simplified": 60, "single": 200}


def players_for(deck: EcologiesDeck, mode: str) -> range:
    """Seats a mode allows with this deck: 1 alone; 2 to 6 when each can be dealt 7 and draw a turn."""
    size = deck.size
    if mode == "single":
        return range(1, 2) if size >= HAND_SIZE + DRAWS["single"] else range(0)
    most = min(6, (size - DRAWS[mode]) // HAND_SIZE)
    return range(2, most + 1) if most >= 2 else range(0)


class EcologiesGame:
    """Static facts of one game; `new_initial_state()` shuffles with the seed and deals 7 to each seat."""

    def __init__(self, deck: EcologiesDeck | CardTable, players: int, mode: str = "multi", seed: int = 0, *,
                 max_rounds: int | None = None):
        self.table = deck if isinstance(deck, CardTable) else CardTable.of(deck)
        if mode not in MODES:
            hint = did_you_mean(mode, MODES)
            raise UsageError(f"unknown Ecologies mode '{mode}'" + (f"; {hint}" if hint else "")
                             + f" (modes: {', '.join(MODES)})")
        allowed = players_for(self.table.deck, mode)
        if players not in allowed:
            counts = (f"{allowed.start} to {allowed[-1]}" if len(allowed) > 1 else str(allowed.start)) if allowed \
                else "no number of"
            raise UsageError(f"the {mode} mode is for {counts} players with this {self.table.size}-card deck, "
                             f"not {players}")
        self.players, self.mode, self.seed = players, mode, seed
        self.max_rounds = max_rounds or MAX_ROUNDS[mode]
        self.target_vp = TARGET_VP
        self._offers: dict[tuple[int, str], Offer] = {}
        self._hand_offers: dict[tuple[tuple[int, ...], tuple[str, ...]], tuple[Offer, ...]] = {}

    def offer(self, card: int, want: str) -> Offer:
        """The Offer action for a card and a want, made once and shared (legal_actions makes many)."""
        action = self._offers.get((card, want))
        if action is None:
            action = self._offers[(card, want)] = Offer(card, want)
        return action

    def offers_of(self, cards: tuple[int, ...], wants: tuple[str, ...]) -> tuple[Offer, ...]:
        """The Offer actions of these cards, card by card, for each of these wants, made once and shared."""
        found = self._hand_offers.get((cards, wants))
        if found is None:
            found = self._hand_offers[(cards, wants)] = tuple(
                self.offer(card, want) for card in cards for want in wants)
        return found

    def new_initial_state(self) -> EcologiesState:
        rng = random.Random(self.seed)
        deck = list(range(self.table.size))
        rng.shuffle(deck)
        state = EcologiesState(self, rng, deck, [[] for _ in range(self.players)])
        for _ in range(HAND_SIZE):
            for seat in range(self.players):
                state.draw_one(seat, "deck", "deal")
        start_turn(state)
        return state

    def public(self, seat: int) -> Seat:
        """What a seat's bot may be built from: the card table, mode, seats, caps; never the seed. The
        table is the seat's own copy (seat_table): the engine's memoises arrangements of the cards it
        tried, those in hidden hands included, so sharing it would leak them."""
        return Seat(seat_table(self.table, seat), self.mode, self.players, seat,
                    (("max_rounds", self.max_rounds),))

    def sample_state(self, observation: Observation, rng: random.Random) -> EcologiesState:
        """A world consistent with the observation (see observation.sample_state): for tests."""
        return sample_state(self.public(observation.seat), observation, rng)
