"""Symbiosis bots decide from their observation only, and GreedyBot's arithmetic is the expectation."""

from __future__ import annotations

import random

import pytest

from cardtool.deck.loader import load_deck
from cardtool.engine.bots import RandomBot, make_bots
from cardtool.engine.playout import play
from cardtool.errors import UsageError
from cardtool.games.symbiosis import PLUGIN
from cardtool.games.symbiosis.bots import Expectation, GreedyBot, SearchBot, SwapValues
from cardtool.games.symbiosis.engine import SymbiosisGame
from cardtool.games.symbiosis.gains import SeatGains
from cardtool.games.symbiosis.layout import POND, RIVER
from tests.conftest import DATA

TABLES = [(2, "duel"), (3, "standard"), (4, "standard"), (4, "team")]


@pytest.fixture(scope="module")
def deck():
    return load_deck(DATA / "symbiosis" / "deck-0.1.0")  # the points as shipped at 0.1.0, which these tests name


def _midgame(deck, players, mode, seed):
    rng = random.Random(seed)
    game = SymbiosisGame(deck, players, mode, seed=seed)
    state = game.new_initial_state()
    for _ in range(rng.randrange(game.end_turn)):
        state.apply(rng.choice(state.legal_actions()))
    return game, state


def test_greedy_swap_values_equal_a_brute_force_expectation(deck):
    for seed in range(120):
        players, mode = TABLES[seed % 4]
        game, state = _midgame(deck, players, mode, seed)
        seat = state.current_player
        obs = state.observation(seat)
        values = SwapValues(game, obs)
        ex = values.ex
        team = next(t for t in game.teams if seat in t)
        before = sum(ex.pond_value(member) for member in team)
        for river_slot in range(len(obs.river)):
            for pond_slot in range(POND):
                ponds, river = list(obs.ponds), list(obs.river)
                i = seat * POND + pond_slot
                ponds[i], river[river_slot] = river[river_slot], ponds[i]
                expected = dict(ex.expected)
                expected[seat] = ex._expected(ponds[seat * POND:(seat + 1) * POND])
                expected[RIVER] = ex._expected(river)
                after = sum(ex.pond_value(m, ponds[m * POND:(m + 1) * POND], expected) for m in team)
                assert values.delta(river_slot, pond_slot) == pytest.approx(after - before, abs=1e-9)


def test_whole_number_gains_are_the_swap_values_times_n_squared(deck):
    """GreedyBot's fast arithmetic (gains.py) is the readable expectation (SwapValues) scaled exactly."""
    for seed in range(160):
        players, mode = TABLES[seed % 4]
        game, state = _midgame(deck, players, mode, seed)
        seat = state.current_player
        obs = state.observation(seat)
        unseen = sum(game.table.copies) - sum(card is not None for card in obs.ponds + obs.river) or 1
        gains = SeatGains(game, seat).gains(obs.ponds, obs.river)
        for values, whole in zip(SwapValues(game, obs).deltas(), gains):
            assert all(isinstance(gain, int) for gain in whole)
            assert [value * unseen * unseen for value in values] == pytest.approx(whole, abs=1e-6)


def test_margin_gains_count_what_a_swap_gives_the_other_seats(deck):
    """With rivals, a gain is the team's expected gain less every other seat's (brute force)."""
    for seed in range(60):
        players, mode = TABLES[seed % 4]
        game, state = _midgame(deck, players, mode, seed)
        seat = state.current_player
        obs = state.observation(seat)
        ex = SwapValues(game, obs).ex
        team = next(t for t in game.teams if seat in t)
        unseen = sum(game.table.copies) - sum(card is not None for card in obs.ponds + obs.river) or 1
        gains = SeatGains(game, seat, rivals=True).gains(obs.ponds, obs.river)
        for river_slot in range(len(obs.river)):
            for pond_slot in range(POND):
                ponds, river = list(obs.ponds), list(obs.river)
                i = seat * POND + pond_slot
                ponds[i], river[river_slot] = river[river_slot], ponds[i]
                expected = dict(ex.expected)
                expected[seat] = ex._expected(ponds[seat * POND:(seat + 1) * POND])
                expected[RIVER] = ex._expected(river)
                change = [ex.pond_value(m, ponds[m * POND:(m + 1) * POND], expected) - ex.pond_value(m)
                          for m in range(players)]
                margin = sum(change[m] for m in team) - sum(change[m] for m in range(players) if m not in team)
                assert gains[river_slot][pond_slot] / unseen ** 2 == pytest.approx(margin, abs=1e-9)


def test_expectation_of_a_known_pond_is_its_score(deck):
    for seed in range(20):
        players, mode = TABLES[seed % 4]
        game = SymbiosisGame(deck, players, mode, seed=seed)
        state = game.new_initial_state()
        rng = random.Random(seed)
        while not state.is_over():
            state.apply(rng.choice(state.legal_actions()))
        ex = Expectation(game, state.observation(0))
        assert [round(ex.pond_value(s), 9) for s in range(players)] == state.pond_scores()


@pytest.mark.parametrize("bot", ["greedy", "search"])
def test_bots_decide_from_the_observation_only(deck, bot):
    """Dealing the face-down cards differently never changes a bot's choice."""
    for seed in range(12 if bot == "greedy" else 3):
        players, mode = TABLES[seed % 4]
        game, state = _midgame(deck, players, mode, seed)
        seat = state.current_player
        choices = set()
        for deal in range(3):
            world = game.sample_state(state.observation(seat), random.Random(deal))
            player = PLUGIN.bots[bot](game.public(seat))
            choices.add(player.choose(world.observation(seat), world.legal_actions(), random.Random(7)))
        assert len(choices) == 1


def test_greedy_takes_a_card_it_can_see_is_better(deck):
    game = SymbiosisGame(deck, 3, "standard", seed=3)
    state = game.new_initial_state()
    table = game.table
    state.river[0] = table.number("winter-frog-8")  # in plain sight, worth more than any face-down card
    choice = GreedyBot(game.public(0)).choose(state.observation(0), state.legal_actions(), random.Random(1))
    assert choice.river == 0


def test_greedy_beats_random(deck):
    wins = 0
    for seed in range(40):
        game = SymbiosisGame(deck, 2, "duel", seed=seed)
        state = play(game, [GreedyBot(game.public(0)), RandomBot()] if seed % 2 == 0 else [RandomBot(), GreedyBot(game.public(1))])
        wins += (seed % 2) in state.winners()
    assert wins >= 34


def test_search_bot_is_reproducible(deck):
    game, state = _midgame(deck, 2, "duel", 5)
    obs, legal = state.observation(state.current_player), state.legal_actions()
    bot = SearchBot(game.public(state.current_player), iters=16)
    assert bot.choose(obs, legal, random.Random(3)) == bot.choose(obs, legal, random.Random(3))


def test_search_weighs_greedys_choice_and_plays_a_legal_swap(deck):
    for seed in range(6):
        players, mode = TABLES[seed % 4]
        game, state = _midgame(deck, players, mode, seed)
        seat = state.current_player
        obs, legal = state.observation(seat), state.legal_actions()
        bot = SearchBot(game.public(seat), iters=12)
        greedy = GreedyBot(game.public(seat)).choose(obs, legal, random.Random(seed))
        candidates = bot.candidates(obs, legal, random.Random(seed))
        assert len(candidates) == SearchBot.WIDTH and len(set(candidates)) == len(candidates)
        assert (greedy.river, greedy.pond) in {(c.river, c.pond) for c in candidates}
        assert all(c in legal for c in candidates)
        assert bot.choose(obs, legal, random.Random(seed)) in legal
        assert SearchBot(game.public(seat), ms=5).choose(obs, legal, random.Random(seed)) in legal


def test_unknown_bot_name_is_a_usage_error_with_a_suggestion(deck):
    game = SymbiosisGame(deck, 2, "duel")
    with pytest.raises(UsageError, match="did you mean 'greedy'"):
        make_bots(["greedy", "gredy"], PLUGIN.bots, game)
    assert [b.name for b in make_bots(["random", "search"], PLUGIN.bots, game)] == ["random", "search"]
