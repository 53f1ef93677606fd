"""The compiled kernel (accel/, cardtool_accel._symbiosis) plays exactly the games the pure-Python engine plays.

gains.SeatGains.python_gains is the readable reference; the kernel must give the same whole numbers for
every observation, and GreedyBot with it the same games (every swap and every score) for every seed.
`make venv` installs the kernel, so these tests fail rather than skip when it is missing.
"""

from __future__ import annotations

import dataclasses
import os
import random
import subprocess
import sys
from types import SimpleNamespace

import pytest

from cardtool.deck.loader import load_deck
from cardtool.engine.playout import play
from cardtool.engine.seeds import derive_seed
from cardtool.games.symbiosis import PLUGIN, accel
from cardtool.games.symbiosis.bots import GreedyBot, SearchBot
from cardtool.games.symbiosis.engine import SymbiosisGame
from cardtool.games.symbiosis.gains import SeatGains
from cardtool.games.symbiosis.table import FIXED, CardTable
from tests.conftest import DECKS

TABLES = [("standard", 4), ("duel", 2), ("team", 4), ("standard", 3)]


@pytest.fixture
def pure():
    """accel.set_pure, restored after the test."""
    previous = accel.set_pure(False)
    yield accel.set_pure
    accel.set_pure(previous)


@pytest.fixture(scope="module")
def table():
    return CardTable.of(load_deck(DECKS / "symbiosis"))


def test_the_kernel_is_installed():
    assert accel.installed(), "the compiled kernel is missing: `make venv` (or pip install ./accel) installs it"


def _observations(table, mode, players, games, seed):
    """Observations of every turn of random games: every shape of pond, River and unseen cards."""
    rng = random.Random(seed)
    for index in range(games):
        game = SymbiosisGame(table, players, mode, seed=seed * 1000 + index)
        state = game.new_initial_state()
        while not state.is_over():
            yield game, state.observation(state.current_player)
            state.apply(rng.choice(state.legal_actions()))


def _random_table(table, rng):
    """The shipped cards with random scoring: points up to the schema's 1,000, any feature counted."""
    counted = tuple(FIXED if rng.random() < 0.3 else rng.randrange(table.features) for _ in table.cards)
    points = tuple(rng.choice((0, 1, 7, 1000, rng.randrange(1001))) for _ in table.cards)
    copies = tuple(rng.choice((1, 1, 2, 3)) for _ in table.cards)
    return dataclasses.replace(table, counted=counted, points=points, copies=copies)


@pytest.mark.parametrize("rivals", [False, True], ids=["greedy", "margin"])
@pytest.mark.parametrize(("mode", "players"), TABLES, ids=[f"{m}-{p}" for m, p in TABLES])
def test_kernel_gains_are_the_python_gains(table, mode, players, rivals):
    for game, obs in _observations(table, mode, players, 40, players):
        fast = SeatGains(game, obs.seat, rivals, accelerated=True)
        assert fast.kernel is not None
        pure = SeatGains(game, obs.seat, rivals, accelerated=False)
        assert fast.gains(obs.ponds, obs.river) == pure.python_gains(obs.ponds, obs.river)
        assert fast.best(obs.ponds, obs.river) == pure.best(obs.ponds, obs.river)


@pytest.mark.parametrize(("mode", "players"), TABLES, ids=[f"{m}-{p}" for m, p in TABLES])
def test_kernel_choice_is_greedybot_s_with_the_same_random_draws(table, mode, players):
    for index, (game, obs) in enumerate(_observations(table, mode, players, 40, players + 10)):
        bot = GreedyBot(game.public(obs.seat))
        fast, pure = random.Random(index), random.Random(index)
        chosen = bot.best_swap(obs.seat, obs.ponds, obs.river, fast, SeatGains(bot.game, obs.seat, accelerated=True))
        assert chosen is bot.best_swap(obs.seat, obs.ponds, obs.river, pure,
                                       SeatGains(bot.game, obs.seat, accelerated=False))
        assert fast.random() == pure.random()  # as many numbers drawn


def test_kernel_gains_match_on_decks_scoring_up_to_a_thousand_points(table):
    """Big points and extra copies: figures far beyond the shipped deck's, still exact."""
    rng = random.Random(15)
    for round_ in range(12):
        other = _random_table(table, rng)
        mode, players = TABLES[round_ % len(TABLES)]
        for game, obs in _observations(other, mode, players, 6, round_):
            fast = SeatGains(game, obs.seat, accelerated=True)
            pure = SeatGains(game, obs.seat, accelerated=False)
            assert fast.kernel is not None
            assert fast.gains(obs.ponds, obs.river) == pure.python_gains(obs.ponds, obs.river)


def _games(deck, mode, players, seeds):
    """Every game's swaps and scores, as GreedyBot plays it from each seed."""
    games = []
    for index in seeds:
        game = PLUGIN.new_game(deck, players, mode, derive_seed(15, index, mode))
        state = play(game, [PLUGIN.bots["greedy"](game.public(seat)) for seat in range(players)])
        games.append(([(a.river, a.pond, a.flip) for a in state.history], state.scores()))
    return games


@pytest.mark.slow
def test_thousands_of_seeded_games_are_identical_with_and_without_the_kernel(pure):
    deck = load_deck(DECKS / "symbiosis")
    counts = {("standard", 4): 1500, ("duel", 2): 300, ("team", 4): 300, ("standard", 3): 300}
    for (mode, players), games in counts.items():
        pure(False)
        fast = _games(deck, mode, players, range(games))
        pure(True)
        slow = _games(deck, mode, players, range(games))
        differ = [i for i in range(games) if fast[i] != slow[i]]
        assert not differ, f"{mode} {players}p: {len(differ)} of {games} games differ, first seed index {differ[0]}"


def test_search_bot_plays_the_same_games_with_and_without_the_kernel(pure):
    """SearchBot's candidates (the gains rows), sampled worlds (the shuffle) and rollouts (the choice)."""
    deck = load_deck(DECKS / "symbiosis")
    for mode, players in (("duel", 2), ("standard", 3)):
        played = []
        for setting in (False, True):
            pure(setting)
            games = []
            for index in range(4):
                game = PLUGIN.new_game(deck, players, mode, derive_seed(15, index, "search"))
                bots = [SearchBot(game.public(seat), iters=8) for seat in range(players)]
                state = play(game, bots)
                games.append(([(a.river, a.pond, a.flip) for a in state.history], state.scores()))
            played.append(games)
        assert played[0] == played[1]


def test_kernel_shuffle_is_random_shuffle(pure):
    for seed in range(300):
        cards = list(range(seed % 70))
        fast, pure = random.Random(seed), random.Random(seed)
        shuffled = cards[:]
        accel.shuffle(shuffled, fast)
        cards_pure = cards[:]
        pure.shuffle(cards_pure)
        assert shuffled == cards_pure and fast.random() == pure.random()


def test_set_pure_turns_the_kernel_off(table, pure):
    game = SymbiosisGame(table, 4, "standard", seed=1)
    pure(True)
    assert not accel.wanted() and SeatGains(game, 0).kernel is None
    pure(False)
    assert accel.wanted() and SeatGains(game, 0).kernel is not None


@pytest.mark.parametrize(("value", "kernel"), [("1", False), ("yes", False), ("0", True), ("", True)])
def test_cardtool_pure_in_the_environment_turns_the_kernel_off_from_the_start(value, kernel):
    code = "from cardtool.games.symbiosis import accel; print(accel.wanted())"
    env = {**os.environ, accel.PURE_ENV: value}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.strip() == str(kernel)


def test_decks_whose_figures_could_pass_64_bits_stay_on_the_python_path():
    assert accel.fits(SimpleNamespace(copies=(3,) * 40, points=(1000,) * 40), 6, 4)
    assert not accel.fits(SimpleNamespace(copies=(1,) * 40, points=(10 ** 12,) * 40), 4, 4)


def test_the_kernel_rejects_zones_that_do_not_fit_the_game(table):
    game = SymbiosisGame(table, 4, "standard", seed=1)
    kernel = SeatGains(game, 0, accelerated=True).kernel
    river = (0, 1, 2, 3)
    with pytest.raises(ValueError):
        kernel.gains((None,) * 31, river)  # one pond slot short
    with pytest.raises(ValueError):
        kernel.gains((None,) * 31 + (len(table.cards),), river)  # no such card
    with pytest.raises(TypeError):
        kernel.best((None,) * 31 + ("fish",), river)
    with pytest.raises(TypeError):
        kernel.choose((None,) * 32, river, random.Random(1), ())  # not the game's table of swaps
    assert kernel.choose((0,) * 32, river, random.Random(1), game.swaps) is None  # no face-down card
