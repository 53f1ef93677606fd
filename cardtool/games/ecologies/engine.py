"""The Ecologies game: static facts (deck, seats, mode, seed), the deal, and worlds dealt from what a
seat may know (`sample_state`, for search bots).

Modes: `multi` (the rulebook's game, 2-6 players), `single` (the single-player game) and `simplified`
(every organism 1 VP, first to 12; the game ends when the deck runs out).

The top of the engine: it binds the rules (rules.py, turns.py, view.py, text.py) for the states of its
games, so that state.py imports none of them. Bots import its sampling through observation.py.
"""

from __future__ import annotations

import random

from cardtool.engine.protocol import Seat
from cardtool.errors import UsageError
from cardtool.games.ecologies import steps, text, turns
from cardtool.games.ecologies.model import EcologiesDeck
from cardtool.games.ecologies.rules import DRAWS, ENDINGS, HAND_SIZE, MAX_ROUNDS, OPENINGS, TARGET_VP
from cardtool.games.ecologies.state import EcologiesState
from cardtool.games.ecologies.table import CardTable, seat_table
from cardtool.games.ecologies.view import Observation
from cardtool.suggest import did_you_mean

MODES = ("multi", "single", "simplified")
__all__ = ["MAX_ROUNDS", "MODES", "EcologiesGame", "players_for", "sample_state", "world_game"]
#: World games by public facts: a search bot deals thousands of worlds of one game.
_WORLDS: dict[tuple, "EcologiesGame"] = {}


def players_for(deck: EcologiesDeck, mode: str) -> range:
    """Seats a mode allows with this deck: 1 alone; 2 to 6 when each can be dealt 7 and draw a turn."""
    size = deck.size
    if mode == "single":
        return range(1, 2) if size >= HAND_SIZE + DRAWS["single"] else range(0)
    most = min(6, (size - DRAWS[mode]) // HAND_SIZE)
    return range(2, most + 1) if most >= 2 else range(0)


class EcologiesGame:
    """Static facts of one game; `new_initial_state()` shuffles with the seed and deals 7 to each seat."""

    #: The rules its states follow (EcologiesState.legal_actions, apply, observation, describe).
    #: (steps.py: by the compiled kernel where it serves, else rules.legal_actions and view.observe)
    legal_actions = staticmethod(steps.legal_actions)
    apply = staticmethod(turns.apply)
    observe = staticmethod(steps.observe)
    describe = staticmethod(text.describe)

    def __init__(self, deck: EcologiesDeck | CardTable, players: int, mode: str = "multi", seed: int = 0, *,
                 max_rounds: int | None = None, opening: str | None = None, ending: str | None = None):
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
        #: rules.ENDINGS: as given, else as deck.yaml's `rules:` says, else the rulebook's
        self.ending = ending or self.table.deck.manifest.rule("ending") or ENDINGS[0]
        if self.ending not in ENDINGS:
            raise UsageError(f"unknown Ecologies ending '{self.ending}' (endings: {', '.join(ENDINGS)})")
        self.opening = opening or self.table.deck.manifest.rule("opening") or OPENINGS[0]  # rules.OPENINGS
        if self.opening not in OPENINGS:
            raise UsageError(f"unknown Ecologies opening '{self.opening}' (openings: {', '.join(OPENINGS)})")

    def new_initial_state(self) -> EcologiesState:
        rng = random.Random(self.seed)
        deck = list(range(self.table.size))
        rng.shuffle(deck)
        state = EcologiesState(self, rng, deck, [[] for _ in range(self.players)])
        for _ in range(HAND_SIZE):
            for seat in range(self.players):
                state.draw_one(seat, "deck", "deal")
        turns.start_turn(state)
        return state

    def public(self, seat: int) -> Seat:
        """What a seat's bot may be built from: the card table, mode, seats, caps; never the seed. The
        table is the seat's own copy (seat_table): the engine's memoises arrangements of the cards it
        tried, those in hidden hands included, so sharing it would leak them."""
        return Seat(seat_table(self.table, seat), self.mode, self.players, seat,
                    (("max_rounds", self.max_rounds), ("opening", self.opening), ("ending", self.ending)))

    def sample_state(self, observation: Observation, rng: random.Random) -> EcologiesState:
        """A world consistent with the observation (see sample_state): for tests."""
        return sample_state(self.public(observation.seat), observation, rng)


def world_game(public: Seat) -> EcologiesGame:
    """A game with the same public facts as the one being played, to hold sampled worlds. Its seed is 0,
    not the real game's (which a Seat does not carry): what it would deal has nothing to do with the
    real deal, and a sampled world draws from its own generator anyway."""
    key = (id(public.deck), public.mode, public.players, public.rules)
    game = _WORLDS.get(key)
    if game is None or game.table is not public.deck:
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
