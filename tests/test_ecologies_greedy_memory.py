"""GreedyBot remembers what it worked out between decisions (card values, VP estimates, a trade's offer
values while it sees the same table): a bot with that memory must choose exactly what a bot deciding
afresh chooses, drawing the same numbers from its generator, at every decision of whole games.
"""

from __future__ import annotations

import random

from cardtool.deck.loader import load_deck
from cardtool.engine.playout import bot_rng
from cardtool.games.ecologies.engine import EcologiesGame
from cardtool.games.ecologies.greedy import GreedyBot
from tests.conftest import DECKS


def test_a_greedy_bot_with_memory_chooses_what_a_fresh_one_chooses():
    deck = load_deck(DECKS / "ecologies-bizarre-biomes")
    decisions = trades = 0
    for seed in range(6):
        game = EcologiesGame(deck, 4, "multi", seed)
        bots = [GreedyBot(game.public(seat)) for seat in range(4)]
        rngs = [bot_rng(game, seat, bot) for seat, bot in enumerate(bots)]
        state = game.new_initial_state()
        while not state.is_over() and state.turns_played < 300:
            seat = state.current_player
            legal = state.legal_actions()
            observation = state.observation(seat)
            fresh_rng = random.Random()
            fresh_rng.setstate(rngs[seat].getstate())
            fresh = GreedyBot(game.public(seat)).choose(observation, legal, fresh_rng)
            action = bots[seat].choose(observation, legal, rngs[seat])
            assert action == fresh, (seed, state.turn, state.phase)
            assert rngs[seat].getstate() == fresh_rng.getstate()
            decisions += 1
            trades += state.phase == "trade" and not state.stack
            state.apply(action)
    assert decisions > 1000 and trades > 300  # the games reached trades again and again
