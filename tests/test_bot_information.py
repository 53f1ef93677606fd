"""Bots see public facts only: a conformance test over every bot of every registered game.

At sampled decision points of seeded games, the true state and a second world dealt from the deciding
seat's observation alone (`plugin.sample_state`, other rng) differ in their hidden cards but look the
same to that seat. Each bot, built from the seat's public `Seat` and given the same observation and
random numbers in each world, must make the same choice. A bot that reaches the hidden cards by any
route the check can see (here: walking up the call stack to the state it is deciding in, or an
observation that leaks them) is reported, and the tests below make sure it is.
"""

from __future__ import annotations

import dataclasses
import random
import sys
from collections.abc import Callable
from functools import cache

import pytest

from cardtool.deck.loader import load_deck
from cardtool.engine.bots import RandomBot
from cardtool.engine.protocol import Seat
from cardtool.games import GAMES
from cardtool.games.plugin import PlayableGame
from tests.conftest import DECKS

#: How to read the hidden part of a state, per game: what no single seat may see. A new game adds its
#: entry here (the registry test below fails until it does).
HIDDEN: dict[str, Callable] = {
    "ecologies": lambda state: (tuple(tuple(sorted(hand)) for hand in state.hands), tuple(state.deck)),
    "symbiosis": lambda state: (tuple(c for c, up in zip(state.ponds, state.up) if not up),
                                tuple(c for c, up in zip(state.river, state.river_up) if not up), state.box),
    # the example plugin (examples/plugins/hedgerow, installed by `make test`)
    "hedgerow": lambda state: (tuple(tuple(sorted(hand)) for hand in state.hands), tuple(state.pile)),
}
#: Decision points per game setup, and how many of them a (slow) search bot is asked about.
POINTS, SEARCH_POINTS = 8, 3
PLAYABLE = {name: plugin for name, plugin in GAMES.items() if isinstance(plugin, PlayableGame)}


@cache
def shipped_deck(game: str):
    """The first shipped deck of a game (its plugin's decks_dir, then decks/, in name order)."""
    own = getattr(GAMES[game], "decks_dir", None)
    for folder in (sorted(own.iterdir()) if own else []) + sorted(DECKS.iterdir()):
        if (folder / "deck.yaml").exists():
            deck = load_deck(folder)
            if deck.game == game:
                return deck
    pytest.skip(f"no shipped deck of {game}")


def setups(game: str):
    """(mode, players) for every mode, with the most seats the mode allows and the fewest."""
    plugin, deck = PLAYABLE[game], shipped_deck(game)
    found = []
    for mode in plugin.modes:
        allowed = plugin.players_for(deck, mode)
        for players in dict.fromkeys((allowed[-1], allowed.start)) if allowed else ():
            found.append((mode, players))
    return found


def decision_points(game: str, mode: str, players: int, seed: int, count: int):
    """States of a seeded game at `count` spread-out decisions (cloned), with its Game. Greedy bots (where
    the game has them) play every other seat, random ones the rest, so webs and ponds get built."""
    plugin = PLAYABLE[game]
    table_game = plugin.new_game(shipped_deck(game), players, mode, seed)
    state = table_game.new_initial_state()
    rng = random.Random(seed)
    name = "greedy" if "greedy" in plugin.bots else "random"
    bots = [plugin.bots[name if seat % 2 == 0 else "random"](table_game.public(seat)) for seat in range(players)]
    states = []
    while not state.is_over() and len(states) < 600:
        legal = state.legal_actions()
        if len(legal) > 1:
            states.append(state.clone())
        seat = state.current_player
        state.apply(bots[seat].choose(state.observation(seat), legal, rng))
    if not states:
        return table_game, []
    step = max(1, len(states) // count)
    return table_game, states[step // 2::step][:count]


def decide(state, bot, seat: int, rng_seed: int, observe=None):
    """The bot's choice in `state`, asked exactly as the playout loop asks it (the state is a local
    here, as it is in cardtool.engine.playout.play)."""
    observation = state.observation(seat) if observe is None else observe(state, seat)
    return bot.choose(observation, state.legal_actions(), random.Random(rng_seed))


def problems(game: str, table_game, state, factory, *, deal_seed: int, rng_seed: int, observe=None) -> list[str]:
    """What is wrong at one decision point: the second world is not a different deal that looks the
    same, or the bot chooses differently in the two worlds. Empty when all is well."""
    plugin, hidden = PLAYABLE[game], HIDDEN[game]
    seat = state.current_player
    public = table_game.public(seat)
    seen = state.observation(seat)
    world = None
    for attempt in range(8):  # a deal that differs (with few hidden cards, a sample may repeat the truth)
        world = plugin.sample_state(public, seen, random.Random(deal_seed + 1000 * attempt))
        if hidden(world) != hidden(state):
            break
    else:
        return []  # nothing is hidden here: nothing to leak
    found = []
    if world.observation(seat) != seen:
        found.append("the sampled world does not look the same to the seat")
    if world.legal_actions() != state.legal_actions():
        found.append("the legal actions differ between worlds that look the same")
    if observe is not None and observe(world, seat) != observe(state, seat):
        found.append("the observation differs between worlds that differ only in hidden cards")
    choices = [decide(w, factory(public), seat, rng_seed, observe) for w in (state, world)]
    if choices[0] != choices[1]:
        found.append(f"chose {choices[0]!r} in the true state but {choices[1]!r} in another deal")
    return found


def check_bot(game: str, factory, *, search: bool, observe=None) -> list[str]:
    """Every problem of a bot over the sampled decision points of every setup of a game."""
    found = []
    for index, (mode, players) in enumerate(setups(game)):
        table_game, states = decision_points(game, mode, players, 11 + index, SEARCH_POINTS if search else POINTS)
        for point, state in enumerate(states):
            for problem in problems(game, table_game, state, factory, deal_seed=point + 1, rng_seed=point + 7,
                                    observe=observe):
                found.append(f"{mode}, {players} players, turn {getattr(state, 'turn', '?')}: {problem}")
    return found


BOT_CASES = [(game, name) for game, plugin in sorted(PLAYABLE.items()) for name in plugin.bots]


def test_every_playable_game_says_how_to_read_its_hidden_cards():
    assert set(PLAYABLE) <= set(HIDDEN), "add the game to HIDDEN so its bots are checked"


@pytest.mark.parametrize("game, name", BOT_CASES)
def test_every_bot_decides_from_its_seat_and_observation_alone(game, name):
    factory = PLAYABLE[game].bots[name]
    assert check_bot(game, factory, search=name == "search") == []


@pytest.mark.parametrize("game, name", BOT_CASES)
def test_bots_are_built_from_a_seat_that_holds_no_seed_game_or_state(game, name):
    plugin = PLAYABLE[game]
    mode, players = setups(game)[0]
    table_game = plugin.new_game(shipped_deck(game), players, mode, 987654321)
    public = table_game.public(0)
    fields = {f.name for f in dataclasses.fields(Seat)}
    assert fields == {"deck", "mode", "players", "seat", "rules"}
    assert isinstance(public, Seat)
    values = [public.mode, public.players, public.seat, *(v for _, v in public.rules)]
    assert 987654321 not in values
    assert not any(hasattr(public.deck, word) for word in ("seed", "new_initial_state", "hands", "ponds"))
    # A card table that memoises what the engine asked of it would leak the hidden hands it tried:
    # a seat's table is its own, unless it is immutable.
    frozen = dataclasses.is_dataclass(public.deck) and public.deck.__dataclass_params__.frozen
    assert frozen or public.deck is not getattr(table_game, "table", None)
    assert frozen or players == 1 or public.deck is not table_game.public(1).deck
    bot = plugin.bots[name](public)
    assert not any(v is table_game for v in vars(bot).values()) if hasattr(bot, "__dict__") else True


@pytest.mark.parametrize("game", sorted(PLAYABLE))
def test_observations_are_immutable_and_the_same_whatever_the_hidden_cards(game):
    plugin, hidden = PLAYABLE[game], HIDDEN[game]
    for mode, players in setups(game):
        table_game, states = decision_points(game, mode, players, 5, 4)
        for state in states:
            for seat in range(players):
                seen = state.observation(seat)
                hash(seen)  # every field immutable all the way down
                with pytest.raises(dataclasses.FrozenInstanceError):
                    seen.seat = seat + 1
                world = plugin.sample_state(table_game.public(seat), seen, random.Random(seat + 3))
                assert world.observation(seat) == seen
                if game == "ecologies":  # the cards the seat cannot see are exactly the deck and the unknown
                    unknown = set(state.deck)
                    for other, hand in enumerate(state.hands):
                        if other != seat:
                            unknown |= set(hand) - set(state.known[other])
                    assert set(seen.unseen(table_game.table.size)) == unknown
                    assert seen.deck_size == len(state.deck)
                    assert not any(isinstance(v, list) for v in vars_of(seen))
                hidden(world)  # the sampled world is a full state


def vars_of(value):
    return [getattr(value, f.name) for f in dataclasses.fields(value)]


# -- bots that cheat, and the check that catches them


class FramePeeker:
    """Reads the state it is deciding in by walking up the call stack (as a bot inside playout.play
    could), and lets the hidden cards pick its move."""

    name = "peeker"

    def __init__(self, game: str):
        self.hidden = HIDDEN[game]

    def choose(self, observation, legal, rng):
        frame = sys._getframe(1)
        while frame is not None:
            state = frame.f_locals.get("state")
            if state is not None and hasattr(state, "legal_actions"):
                return legal[hash(self.hidden(state)) % len(legal)]
            frame = frame.f_back
        return legal[0]


class Oracle:
    """Handed the true state through a leaky observation (observation, hidden cards): plays by them."""

    name = "oracle"

    def choose(self, observation, legal, rng):
        _, secret = observation
        return legal[hash(secret) % len(legal)]


@pytest.mark.parametrize("game", sorted(PLAYABLE))
def test_the_check_reports_a_bot_that_reads_the_state_through_the_call_stack(game):
    found = check_bot(game, lambda public: FramePeeker(game), search=False)
    assert any("chose" in problem for problem in found)


@pytest.mark.parametrize("game", sorted(PLAYABLE))
def test_the_check_reports_an_oracle_and_the_observation_that_leaked_to_it(game):
    hidden = HIDDEN[game]

    def leaky(state, seat):
        return (state.observation(seat), hidden(state))

    found = check_bot(game, lambda public: Oracle(), search=False, observe=leaky)
    assert any("observation differs" in problem for problem in found)
    assert any("chose" in problem for problem in found)


def test_the_check_passes_the_random_bot_that_needs_nothing():
    assert check_bot("symbiosis", RandomBot, search=False) == []
