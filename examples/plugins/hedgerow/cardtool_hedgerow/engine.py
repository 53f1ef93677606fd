"""The Hedgerow turn engine: a Game of static facts, a small State, and what each seat may see.

Deal: `random.Random(seed)` shuffles the deck once; each seat gets a hand of HAND cards (secret), VERGE
cards are laid face up (the Verge) and the rest is the draw pile, face down. The deal is the only chance
event, so a game is its seed plus its actions.

A turn is two actions: a Take (the top of the draw pile, or a Verge card; the Verge slot is refilled
from the pile) then a Plant (a card of the hand goes face up into the seat's hedgerow). After TURNS
turns each, every hedgerow holds TURNS cards and the game is scored. A card taken from the Verge was
seen by everyone, so it is `known` in its taker's hand until planted.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from cardtool.engine.protocol import Seat
from cardtool.errors import UsageError
from cardtool_hedgerow import scoring
from cardtool_hedgerow.model import CardTable, HedgerowDeck
from cardtool.suggest import did_you_mean

HAND = 3  # cards in a hand between turns
VERGE = 3  # face-up cards to take from
TURNS = 6  # turns each: cards in a finished hedgerow
MIN_PLAYERS = 2
MODES = ("standard",)
#: Why a Hedgerow game ends: every hedgerow is complete (the rules' only ending), or a cap (TURN_CAP).
COMPLETE = "complete"


@dataclass(frozen=True, slots=True)
class Take:
    """Take a card: from Verge slot `verge`, or the top of the draw pile when `verge` is None."""

    verge: int | None = None


@dataclass(frozen=True, slots=True)
class Plant:
    """Plant the card numbered `card` from the hand into the hedgerow."""

    card: int


DRAW = Take(None)


def players_for(cards: int) -> range:
    """The player counts a deck of this many cards deals (every turn takes one card from the pile or Verge)."""
    return range(MIN_PLAYERS, max(MIN_PLAYERS, cards // (HAND + TURNS) + 1))


@dataclass(frozen=True)
class Observation:
    """What a seat may know: its hand, the cards others took from the Verge, every hedgerow, the Verge."""

    seat: int
    players: int
    turn: int  # turns completed
    current_player: int
    planting: bool  # the current player has taken and now plants
    hand: tuple[int, ...]  # the seat's own cards, sorted
    hand_sizes: tuple[int, ...]
    known: tuple[tuple[int, ...], ...]  # per seat: cards it took from the Verge and still holds, sorted
    hedgerows: tuple[tuple[int, ...], ...]
    verge: tuple[int, ...]
    pile: int  # cards left in the draw pile


class HedgerowGame:
    """Static facts of one game: the card table, the seats and the seed."""

    def __init__(self, deck: HedgerowDeck | CardTable, players: int, mode: str = "standard", seed: int = 0):
        self.table = deck if isinstance(deck, CardTable) else CardTable.of(deck)
        if mode not in MODES:
            hint = did_you_mean(mode, MODES)
            raise UsageError(f"unknown Hedgerow mode '{mode}'" + (f"; {hint}" if hint else "")
                             + f" (modes: {', '.join(MODES)})")
        size = sum(self.table.copies)
        allowed = players_for(size)
        if players not in allowed:
            raise UsageError(f"Hedgerow is for {allowed.start} to {allowed[-1]} players with this {size}-card deck, "
                             f"not {players}" if allowed else
                             f"this {size}-card deck is too small for Hedgerow (2 players need {2 * (HAND + TURNS)})")
        self.players, self.mode, self.seed = players, mode, seed
        self.end_turn = TURNS * players

    def new_initial_state(self) -> "HedgerowState":
        cards = self.table.physical()
        random.Random(self.seed).shuffle(cards)
        hands = [cards[seat * HAND:(seat + 1) * HAND] for seat in range(self.players)]
        dealt = self.players * HAND
        verge = cards[dealt:dealt + VERGE]
        pile = cards[dealt + VERGE:]  # the top of the pile is its last card
        return HedgerowState(self, hands, [[] for _ in hands], [[] for _ in hands], verge, pile, 0, False, [])

    def public(self, seat: int) -> Seat:
        """What a seat's bot may be built from: the card table, mode and seats; never the seed."""
        return Seat(self.table, self.mode, self.players, seat)


class HedgerowState:
    """A game in progress: card numbers in hands, hedgerows, the Verge and the draw pile."""

    __slots__ = ("game", "hands", "known", "hedgerows", "verge", "pile", "turn", "planting", "_history", "_halted")

    def __init__(self, game: HedgerowGame, hands: list[list[int]], known: list[list[int]],
                 hedgerows: list[list[int]], verge: list[int], pile: list[int], turn: int, planting: bool,
                 history: list):
        self.game = game
        self.hands, self.known, self.hedgerows = hands, known, hedgerows
        self.verge, self.pile = verge, pile
        self.turn, self.planting = turn, planting
        self._history = history
        self._halted = ""

    @property
    def current_player(self) -> int:
        return -1 if self.is_over() else self.turn % self.game.players

    @property
    def history(self) -> Sequence:
        return tuple(self._history)

    def is_over(self) -> bool:
        return self.turn >= self.game.end_turn or bool(self._halted)

    @property
    def end_reason(self) -> str:
        return self._halted or (COMPLETE if self.turn >= self.game.end_turn else "")

    @property
    def turns_played(self) -> int:
        return self.turn

    def halt(self, reason: str) -> None:
        """Stop the game before the hedgerows are complete (a cap): nobody wins."""
        self._halted = reason

    def legal_actions(self) -> list:
        seat = self.current_player
        if seat < 0:
            return []
        if self.planting:
            return [Plant(card) for card in sorted(set(self.hands[seat]))]
        takes = [DRAW] if self.pile else []
        first = {}
        for slot, card in enumerate(self.verge):
            first.setdefault(card, slot)  # two copies of a card in the Verge are one choice
        return takes + [Take(slot) for slot in sorted(first.values())]

    def apply(self, action) -> None:
        """Take or plant as the action says, trusting it is legal (cardtool.engine.protocol.apply_checked)."""
        seat = self.current_player
        if isinstance(action, Take):
            if action.verge is None:
                self.hands[seat].append(self.pile.pop())
            else:
                card = self.verge[action.verge]
                self.hands[seat].append(card)
                self.known[seat].append(card)
                if self.pile:
                    self.verge[action.verge] = self.pile.pop()
                else:
                    del self.verge[action.verge]
            self.planting = True
        else:
            self.hands[seat].remove(action.card)
            if action.card in self.known[seat]:
                self.known[seat].remove(action.card)
            self.hedgerows[seat].append(action.card)
            self.planting = False
            self.turn += 1
        self._history.append(action)

    def scores(self) -> list[int]:
        return scoring.totals(self.game.table, self.hedgerows)

    def winners(self) -> list[int]:
        return scoring.winners(self.scores()) if self.end_reason == COMPLETE else []

    def breakdown(self) -> tuple[scoring.HedgerowScore, ...]:
        return scoring.score_table(self.game.table, self.hedgerows)

    def observation(self, player: int) -> Observation:
        return Observation(
            seat=player, players=self.game.players, turn=self.turn, current_player=self.current_player,
            planting=self.planting, hand=tuple(sorted(self.hands[player])),
            hand_sizes=tuple(len(hand) for hand in self.hands),
            known=tuple(tuple(sorted(known)) for known in self.known),
            hedgerows=tuple(map(tuple, self.hedgerows)), verge=tuple(self.verge), pile=len(self.pile))

    def clone(self) -> "HedgerowState":
        other = HedgerowState(self.game, [h[:] for h in self.hands], [k[:] for k in self.known],
                              [h[:] for h in self.hedgerows], self.verge[:], self.pile[:], self.turn,
                              self.planting, self._history[:])
        other._halted = self._halted
        return other

    def describe(self, action) -> str:
        """The action as the table sees it (a card drawn from the pile stays unnamed)."""
        table = self.game.table
        if isinstance(action, Take):
            if action.verge is None:
                return "draw the top card of the pile"
            return f"take {table.cards[self.verge[action.verge]].name} from the Verge"
        return f"plant {table.cards[action.card].name}"
