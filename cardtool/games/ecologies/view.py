"""What one seat may know (never another hand's hidden cards or the deck order): the Observation, and
`observe`, which shows a state to a seat.

Trades are made openly (docs/rules/ecologies.md), so a card that changes hands by a trade, a forced
trade or from the discard pile is known to be in its new hand until it leaves; the discard pile is face
up. Everything else in the other hands and the deck is hidden (worlds consistent with an observation are
dealt by engine.sample_state). Bots import these names from observation.py; this module sits below the
engine, which binds `observe` as the states' `observation(seat)`, and imports only state.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardtool.games.ecologies.state import Eco, EcologiesState


@dataclass(frozen=True)
class Observation:
    """One seat's view of the game, hashable and comparable. Made by `observe` (a fast path; a frozen
    dataclass's own __init__ costs more than the rest of a decision of a greedy bot)."""

    seat: int
    mode: str
    players: int
    turn: int
    current_player: int
    phase: str
    plays_used: int
    offers: tuple  # the offers made this turn
    hand: tuple[int, ...]  # this seat's hand, sorted
    hand_sizes: tuple[int, ...]
    known: tuple[tuple[int, ...], ...]  # per seat, the cards the whole table knows are in that hand
    deck_size: int
    discard: tuple[int, ...]  # bottom first, top last
    ecologies: tuple[Eco, ...]  # in the order they were started
    table_factors: tuple[tuple[int, int], ...]
    limbo: tuple[int, ...]
    counters: tuple[tuple[tuple[int, int], int], ...]
    own_turns: tuple[int, ...]
    moved: tuple[int, ...]
    played: bool
    quiet: int
    stack: tuple[tuple, ...]
    over: bool

    def ecology(self, biome: int) -> Eco:
        for eco in self.ecologies:
            if eco.biome == biome:
                return eco
        raise KeyError(biome)

    def unseen(self, size: int) -> list[int]:
        """Card numbers this seat cannot see: the deck and the unknown cards of other hands."""
        seen = set(self.hand) | set(self.discard) | set(self.limbo)
        for eco in self.ecologies:
            seen.add(eco.biome)
            seen.update(eco.cards)
            seen.update(card for card, _ in eco.factors)
        seen.update(card for card, _ in self.table_factors)
        for seat, cards in enumerate(self.known):
            if seat != self.seat:
                seen.update(cards)
        return [card for card in range(size) if card not in seen]


_new = object.__new__
_set_attribute = object.__setattr__


def observe(state: EcologiesState, seat: int) -> Observation:
    """What a seat may know of a state, as an Observation."""
    game = state.game
    counters = state.counters
    over = state.over
    stack = state.stack
    seen = _new(Observation)
    # Every field of the dataclass, set at once: the instance stays frozen (its __setattr__ refuses).
    _set_attribute(seen, "__dict__", {
        "seat": seat, "mode": game.mode, "players": game.players, "turn": state.turn,
        "current_player": -1 if over else stack[-1][1] if stack else state.turn % game.players,
        "phase": state.phase, "plays_used": state.plays_used, "offers": state.offers,
        "hand": tuple(sorted(state.hands[seat])), "hand_sizes": tuple(map(len, state.hands)),
        "known": tuple(state.known), "deck_size": len(state.deck), "discard": tuple(state.discard),
        "ecologies": tuple(state.ecos.values()), "table_factors": state.table_factors, "limbo": tuple(state.limbo),
        "counters": tuple(sorted(counters.items())) if counters else (), "own_turns": tuple(state.own_turns),
        "moved": state.moved, "played": state.played, "quiet": state.quiet, "stack": tuple(stack), "over": over})
    return seen
