"""One conformance suite over every registered game (built-in and installed through the `cardtool.games`
entry points), after OpenSpiel's: the protocol's attributes, determinism (same seed, same game),
observations that hide what a seat may not know, sampled worlds consistent with the observation, replay
from the seed and the action list, the record `cardtool simulate` keeps, and legal moves a pure query.

Each game is played with a deck it ships (its plugin's `decks_dir`, else the repository's decks/), by
seeded random choices, a few games per game so the suite stays fast.
"""

from __future__ import annotations

import dataclasses
import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
import yaml

from cardtool.deck.loader import load_deck
from cardtool.engine.protocol import TURN_CAP, Seat, replay
from cardtool.games import GAMES
from cardtool.games.plugin import GameRecord, PlayableGame, RecordsGames
from tests.conftest import DECKS

MAX_ACTIONS = 400  # a random game longer than this is halted (TURN_CAP): the checks hold either way
SAMPLE_EVERY = 5  # actions between two sampled worlds


def shipped_deck(name: str, plugin) -> Path:
    """A deck folder of the game: its plugin's own example decks first, then the repository's decks/."""
    folders = []
    decks_dir = getattr(plugin, "decks_dir", None)
    for root in ([Path(decks_dir)] if decks_dir else []) + [DECKS]:
        folders += sorted(p.parent for p in Path(root).glob("*/deck.yaml"))
    for folder in folders:
        manifest = yaml.safe_load((folder / "deck.yaml").read_text(encoding="utf-8"))
        if manifest.get("game") == name and not manifest.get("extends"):
            return folder
    pytest.fail(f"the game '{name}' ships no deck (decks_dir or decks/<deck>/deck.yaml with game: {name})")


GAME_NAMES = sorted(GAMES)


@pytest.fixture(scope="module")
def decks():
    cache = {}

    def deck_of(name):
        if name not in cache:
            cache[name] = load_deck(shipped_deck(name, GAMES[name]))
        return cache[name]

    return deck_of


def tables(plugin, deck) -> list[tuple[str, int]]:
    """(mode, players) to play: every mode, with its fewest and its most players."""
    result = []
    for mode in plugin.modes:
        allowed = plugin.players_for(deck, mode)
        result += [(mode, count) for count in dict.fromkeys((allowed[0], allowed[-1]))] if allowed else []
    return result


def fingerprint(state, players: int) -> tuple:
    """What the protocol lets anyone read of a state: every seat's observation, the scores, the history."""
    return (tuple(state.observation(seat) for seat in range(players)), state.current_player, state.is_over(),
            state.end_reason, state.turns_played, tuple(state.scores()), tuple(state.history))


def random_game(plugin, deck, mode, players, seed, on_step=None):
    """A game played by seeded random choices (halted after MAX_ACTIONS), calling on_step(state, step)."""
    game = plugin.new_game(deck, players, mode, seed)
    rng = random.Random(seed)
    state = game.new_initial_state()
    step = 0
    while not state.is_over():
        if step >= MAX_ACTIONS:
            state.halt(TURN_CAP)
            break
        if on_step is not None:
            on_step(game, state, step)
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        step += 1
    return game, state


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_plugin_has_every_attribute_the_protocol_names(name, decks):
    plugin = GAMES[name]
    assert plugin.name == name and plugin.title and plugin.default_kind
    assert isinstance(plugin, PlayableGame), f"{name} cannot be played (cardtool.games.plugin.PlayableGame)"
    assert isinstance(plugin, RecordsGames), f"{name} cannot be simulated (cardtool.games.plugin.RecordsGames)"
    assert plugin.modes and len(set(plugin.modes)) == len(plugin.modes)
    assert "random" in plugin.bots and all(callable(factory) for factory in plugin.bots.values())
    assert plugin.impact_event in plugin.card_events and plugin.choice_event in plugin.card_events
    words = [reason.word for reason in plugin.end_reasons]
    assert TURN_CAP in words and len(set(words)) == len(words)
    deck = decks(name)
    assert deck.game == name and tables(plugin, deck), f"the shipped {name} deck seats no game"


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_same_seed_deals_and_plays_the_same_game(name, decks):
    plugin, deck = GAMES[name], decks(name)
    for mode, players in tables(plugin, deck):
        first = random_game(plugin, deck, mode, players, seed=11)[1]
        again = random_game(plugin, deck, mode, players, seed=11)[1]
        assert fingerprint(again, players) == fingerprint(first, players)
    # The seed is the chance: some other seed deals another game.
    deals = {fingerprint(plugin.new_game(deck, players, mode, seed).new_initial_state(), players)
             for seed in range(4)}
    assert len(deals) > 1


@pytest.mark.parametrize("name", GAME_NAMES)
def test_sampled_worlds_show_exactly_what_the_seat_sees_and_play_on(name, decks):
    """A sampled world is a state that differs from the real one only in what the seat cannot see: its
    observation for that seat must be equal (the observation reveals nothing of the rest), and it must be
    a full state that plays on by the rules."""
    plugin, deck = GAMES[name], decks(name)

    def check(game, state, step):
        if step % SAMPLE_EVERY:
            return
        for seat in range(game.players):
            seen = state.observation(seat)
            hash(seen)  # immutable, so a bot cannot change what the engine keeps
            public = game.public(seat)
            assert isinstance(public, Seat) and public.seat == seat and not hasattr(public, "seed")
            world = plugin.sample_state(public, seen, random.Random(step * 31 + seat))
            assert world.observation(seat) == seen
            assert world.current_player == state.current_player and world.is_over() == state.is_over()
            if seat == state.current_player:
                assert world.legal_actions() == state.legal_actions()
            rng = random.Random(step)
            for _ in range(6):  # the world plays on by the rules
                if world.is_over():
                    break
                legal = world.legal_actions()
                world.apply(legal[rng.randrange(len(legal))])

    for mode, players in tables(plugin, deck)[:2]:
        random_game(plugin, deck, mode, players, seed=5, on_step=check)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_state_differing_only_in_hidden_cards_gives_the_seat_the_same_observation(name, decks):
    """Two deals from different seeds, with the seat's own view made equal by sampling: the rest of the
    table differs, the seat's observation does not. A bot that tried to read the hidden cards through
    its observation would see the same thing in both."""
    plugin, deck = GAMES[name], decks(name)
    mode, players = tables(plugin, deck)[0]
    game = plugin.new_game(deck, players, mode, 3)
    state = game.new_initial_state()
    for seat in range(players):
        seen = state.observation(seat)
        worlds = [plugin.sample_state(game.public(seat), seen, random.Random(n)) for n in range(4)]
        assert all(world.observation(seat) == seen for world in worlds)
        # The worlds hold different hidden cards: played on alike, some observation tells them apart.
        assert any(_tell_apart(worlds[0], other, players) for other in worlds[1:]), (
            f"{name}: four sampled worlds for seat {seat} hid the very same cards")


def _tell_apart(one, other, players: int, actions: int = 40) -> bool:
    """Whether playing the same choices (by index) in two states ever shows a seat a difference."""
    one, other = one.clone(), other.clone()
    rng = random.Random(0)
    for _ in range(actions):
        if fingerprint(one, players)[:2] != fingerprint(other, players)[:2]:
            return True
        if one.is_over() or other.is_over():
            return False
        pick = rng.random()
        for state in (one, other):
            legal = state.legal_actions()
            state.apply(legal[int(pick * len(legal))])
    return False


def _routes_to_hidden(value, path: str = "observation", depth: int = 0, seen=None) -> list[str]:
    """Paths inside an observation to a state, a game or a random generator (from which a bot could read
    or re-deal the hidden cards): what it holds, walked through dataclass fields and containers."""
    seen = set() if seen is None else seen
    if depth > 6 or id(value) in seen or isinstance(value, (str, bytes, int, float, Fraction, type(None))):
        return []
    seen.add(id(value))
    if isinstance(value, random.Random) or hasattr(value, "new_initial_state") or hasattr(value, "legal_actions"):
        return [f"{path} is a {type(value).__name__}"]
    if dataclasses.is_dataclass(value):
        children = [(f"{path}.{f.name}", getattr(value, f.name)) for f in dataclasses.fields(value)]
    elif isinstance(value, dict):
        children = [(f"{path}[{key!r}]", item) for key, item in value.items()]
    elif isinstance(value, (tuple, list, frozenset, set)):
        children = [(f"{path}[{index}]", item) for index, item in enumerate(value)]
    else:
        children = [(f"{path}.{key}", item) for key, item in vars(value).items()] if hasattr(value, "__dict__") else []
    return [route for child_path, child in children for route in _routes_to_hidden(child, child_path, depth + 1, seen)]


@pytest.mark.parametrize("name", GAME_NAMES)
def test_an_observation_holds_no_route_to_the_state_the_game_or_the_seed(name, decks):
    """A bot given an observation cannot walk from it to the real state or re-deal the cards."""
    plugin, deck = GAMES[name], decks(name)
    for mode, players in tables(plugin, deck):
        found = []
        random_game(plugin, deck, mode, players, seed=4,
                    on_step=lambda game, state, step: found.extend(
                        _routes_to_hidden(state.observation(state.current_player)) if step % 7 == 0 else ()))
        assert found == []


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_game_replays_exactly_from_its_seed_and_actions(name, decks):
    plugin, deck = GAMES[name], decks(name)
    for mode, players in tables(plugin, deck):
        game, state = random_game(plugin, deck, mode, players, seed=21)
        again = replay(plugin.new_game(deck, players, mode, 21), state.history)
        if state.end_reason == TURN_CAP:
            again.halt(TURN_CAP)
        assert fingerprint(again, players) == fingerprint(state, players)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_legal_actions_is_a_pure_query_and_clones_are_independent(name, decks):
    plugin, deck = GAMES[name], decks(name)
    mode, players = tables(plugin, deck)[-1]

    def check(game, state, step):
        before = fingerprint(state, players)
        legal = state.legal_actions()
        assert legal and state.legal_actions() == legal and fingerprint(state, players) == before
        assert len(set(legal)) == len(legal), "every legal action is a distinct, hashable value"
        if step % SAMPLE_EVERY == 0:
            for action in legal[:8]:  # any legal action applies to a clone, leaving the state as it was
                clone = state.clone()
                clone.apply(action)
                assert fingerprint(state, players) == before
                state.describe(action)

    game, state = random_game(plugin, deck, mode, players, seed=8, on_step=check)
    assert state.is_over() and (state.legal_actions() == [] or state.end_reason == TURN_CAP)
    assert state.current_player == -1


def _json_ready(value):
    return float(value) if isinstance(value, Fraction) else value


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_record_of_a_game_says_what_happened(name, decks):
    plugin, deck = GAMES[name], decks(name)
    words = {reason.word: reason for reason in plugin.end_reasons}
    ids = {card.id for card in deck.cards}
    mode, players = tables(plugin, deck)[0]
    for seed in (1, 2):
        game, state = random_game(plugin, deck, mode, players, seed)
        record = plugin.record(game, state)
        assert isinstance(record, GameRecord)
        assert record.scores == tuple(state.scores()) and len(record.scores) == players
        assert record.winners == tuple(state.winners()) and set(record.winners) <= set(range(players))
        assert record.turns == state.turns_played and record.end_reason == state.end_reason
        assert record.end_reason in words and record.capped == words[record.end_reason].cap
        assert bool(record.winners) == (not record.capped)
        assert set(record.cards) <= set(plugin.card_events)
        for event, per_seat in record.cards.items():
            assert len(per_seat) == players and all(set(cards) <= ids for cards in per_seat), event
        assert all(len(scores) == players for scores in record.curve)
        if record.curve:
            assert record.curve[-1] == record.scores
        json.dumps({"scores": [_json_ready(s) for s in record.scores], "extras": record.extras,
                    "cards": record.cards}, default=_json_ready)
    # A game stopped by a cap is recorded as capped, with nobody winning.
    game = plugin.new_game(deck, players, mode, 3)
    state = game.new_initial_state()
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    state.halt(TURN_CAP)
    capped = plugin.record(game, state)
    assert capped.capped and capped.winners == () and capped.end_reason == TURN_CAP
