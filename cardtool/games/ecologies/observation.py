"""What one seat may know (never another hand's hidden cards or the deck order), and worlds sampled from it.

Trades are made openly (docs/rules/ecologies.md), so a card that changes hands by a trade, a forced
trade or from the discard pile is known to be in its new hand until it leaves; the discard pile is face
up. Everything else in the other hands and the deck is hidden, and a search bot deals it at random with
`sample_state(seat, observation, rng)`: a pure function of the public Seat and the observation, so a
world it deals never depends on the real game's seed or deck order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from cardtool.engine.protocol import Seat
from cardtool.games.ecologies.state import Eco, EcologiesState
from cardtool.games.ecologies.table import CardTable

#: World games by public facts: a search bot deals thousands of worlds of one game.
_WORLDS: dict[tuple, object] = {}


@dataclass(frozen=True, slots=True)
class Observation:
    """One seat's view of the game, hashable and comparable."""

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


def observe(state: EcologiesState, seat: int) -> Observation:
    return Observation(
        seat=seat, mode=state.game.mode, players=state.game.players, turn=state.turn,
        current_player=state.current_player, phase=state.phase, plays_used=state.plays_used, offers=state.offers,
        hand=tuple(sorted(state.hands[seat])), hand_sizes=tuple(len(h) for h in state.hands),
        known=tuple(state.known), deck_size=len(state.deck), discard=tuple(state.discard),
        ecologies=tuple(state.ecos.values()), table_factors=state.table_factors, limbo=tuple(state.limbo),
        counters=tuple(sorted(state.counters.items())), own_turns=tuple(state.own_turns), moved=state.moved,
        played=state.played, quiet=state.quiet, stack=tuple(state.stack), over=state.over)


#: Each seat's own card table, by (deck, seat): the same definitions as the engine's, its own memos.
_SEAT_TABLES: dict[tuple[int, int], CardTable] = {}


def seat_table(table: CardTable, seat: int) -> CardTable:
    """A card table for one seat's bot, never the engine's: a table memoises every arrangement asked of
    it, and the engine asks about cards in hidden hands (which plays are legal), so a bot reading a
    shared table's memo would learn them. Kept across games, so a bot's memo stays warm."""
    key = (id(table.deck), seat)
    found = _SEAT_TABLES.get(key)
    if found is None or found.deck is not table.deck:
        if len(_SEAT_TABLES) >= 64:
            _SEAT_TABLES.pop(next(iter(_SEAT_TABLES)))
        found = _SEAT_TABLES[key] = CardTable(table.deck)
    return found


def world_game(public: Seat):
    """A game with the same public facts as the one being played, to hold sampled worlds. Its seed is 0,
    not the real game's (which a Seat does not carry): what it would deal has nothing to do with the
    real deal, and a sampled world draws from its own generator anyway."""
    key = (id(public.deck), public.mode, public.players, public.rules)
    game = _WORLDS.get(key)
    if game is None or game.table is not public.deck:
        from cardtool.games.ecologies.engine import EcologiesGame  # the engine imports this module

        if len(_WORLDS) >= 64:
            _WORLDS.pop(next(iter(_WORLDS)))
        game = _WORLDS[key] = EcologiesGame(public.deck, public.players, public.mode, 0, **dict(public.rules))
    return game


def sample_state(public: Seat, observation: Observation, rng: random.Random) -> EcologiesState:
    """A full state showing exactly what the observation shows, the hidden cards dealt at random.

    Only the observation and `rng` decide it: the unseen cards (deck and other hands' unknown cards) are
    listed by card number and shuffled with `rng`, then dealt to the hands and the deck.
    """
    game = world_game(public)
    hidden = observation.unseen(game.table.size)
    rng.shuffle(hidden)
    hands = []
    for seat in range(observation.players):
        if seat == observation.seat:
            hands.append(list(observation.hand))
            continue
        known = list(observation.known[seat])
        missing = observation.hand_sizes[seat] - len(known)
        hands.append(known + [hidden.pop() for _ in range(missing)])
    state = EcologiesState(game, random.Random(rng.getrandbits(64)), hidden, hands)
    state.discard = list(observation.discard)
    state.known = list(observation.known)
    state.ecos = {eco.biome: eco for eco in observation.ecologies}
    state.table_factors = observation.table_factors
    state.limbo = list(observation.limbo)
    state.counters = dict(observation.counters)
    state.own_turns = list(observation.own_turns)
    state.turn, state.phase = observation.turn, observation.phase
    state.plays_used, state.offers = observation.plays_used, observation.offers
    state.moved, state.played, state.quiet = observation.moved, observation.played, observation.quiet
    state.stack = list(observation.stack)
    state.over = observation.over
    return state
