"""Invariants over many seeded random Ecologies games, checked after every action: every card in exactly
one place, every ecology validly fed, any legal action applies without raising, legal actions a pure
query, and (seed, actions) replaying the state exactly. Observations never show hidden cards."""

from __future__ import annotations

import random

import pytest

from cardtool.deck.loader import load_deck
from cardtool.engine.protocol import replay
from cardtool.games.ecologies.arrange import is_healthy, valid
from cardtool.games.ecologies.engine import EcologiesGame
from cardtool.games.ecologies.state import CAPS, END_REASONS
from tests.conftest import DATA, DECKS

TABLES = [("multi", 2), ("multi", 4), ("multi", 6), ("single", 1), ("simplified", 3)]


@pytest.fixture(scope="module")
def decks():
    return {name: load_deck(DECKS / name) for name in ("ecologies-bizarre-biomes", "frozen-and-deep")}


def fingerprint(state) -> tuple:
    """Everything a state holds, as comparable values."""
    return (tuple(state.deck), tuple(state.discard), tuple(map(tuple, state.hands)), tuple(state.known),
            tuple(state.ecos.items()), state.table_factors, tuple(state.limbo), tuple(sorted(state.counters.items())),
            tuple(state.own_turns), state.turn, state.phase, state.plays_used, state.offers, state.moved,
            state.played, state.quiet, tuple(state.stack), state.over, tuple(state.events), tuple(state.scores()))


def check_invariants(state) -> None:
    table = state.game.table
    places = (list(state.deck) + list(state.discard) + list(state.limbo) + [c for h in state.hands for c in h]
              + list(state.cards_on_table()))
    assert sorted(places) == list(range(table.size)), "every card of the deck is in exactly one place"
    for eco in state.ecos.values():
        assert table.kind[eco.biome] == "biome" and eco.code == table.code[eco.biome]
        assert not valid(table, eco.code, eco.cards, eco.roles), "every ecology is validly fed"
        assert eco.healthy == is_healthy(eco.roles)
    for seat, known in enumerate(state.known):
        assert set(known) <= set(state.hands[seat])
    if state.is_over():
        assert state.current_player == -1 and state.legal_actions() == []
        assert state.end_reason in END_REASONS and bool(state.winners()) == (state.end_reason not in CAPS)
    else:
        assert 0 <= state.current_player < state.game.players and state.legal_actions()


def play_checked(game, seed: int, try_all_every: int = 7):
    rng = random.Random(seed)
    state = game.new_initial_state()
    step = 0
    while not state.is_over():
        legal = state.legal_actions()
        assert state.legal_actions() == legal  # a pure query
        if step % try_all_every == 0:
            for action in legal:  # any legal action applies without raising
                other = state.clone()
                other.apply(action)
                check_invariants(other)
        before = fingerprint(state)
        clone = state.clone()
        state.apply(rng.choice(legal))
        assert fingerprint(clone) == before  # the clone did not move with the state
        check_invariants(state)
        step += 1
    return state


@pytest.mark.parametrize("mode, players", TABLES)
@pytest.mark.parametrize("name", ["ecologies-bizarre-biomes", "frozen-and-deep"])
def test_random_games_keep_every_invariant_and_replay_exactly(decks, name, mode, players):
    for seed in range(2):
        game = EcologiesGame(decks[name], players, mode, seed, max_rounds=15)
        state = play_checked(game, seed)
        again = replay(EcologiesGame(decks[name], players, mode, seed, max_rounds=15), state.history)
        assert fingerprint(again) == fingerprint(state)


@pytest.mark.slow
@pytest.mark.parametrize("mode, players", TABLES)
def test_many_random_games_keep_every_invariant(decks, mode, players):
    for seed in range(100, 112):
        name = "frozen-and-deep" if seed % 2 else "ecologies-bizarre-biomes"
        play_checked(EcologiesGame(decks[name], players, mode, seed), seed, try_all_every=25)


def test_observations_hide_other_hands_and_the_deck_order(decks):
    game = EcologiesGame(decks["ecologies-bizarre-biomes"], 3, "multi", 4)
    state = game.new_initial_state()
    seen = state.observation(1)
    assert seen.hand == tuple(sorted(state.hands[1])) and seen.deck_size == len(state.deck)
    assert not set(state.hands[0]) & set(seen.hand) and seen.known == ((), (), ())
    text = repr(seen)
    assert "deck=" not in text and str(sorted(state.hands[0])) not in text
    unseen = set(seen.unseen(game.table.size))
    assert set(state.hands[0]) <= unseen and set(state.deck) <= unseen and not set(state.hands[1]) & unseen


def test_an_observation_made_by_the_fast_path_is_the_dataclass_made_the_plain_way(decks):
    import dataclasses

    from cardtool.games.ecologies.view import Observation

    game = EcologiesGame(decks["ecologies-bizarre-biomes"], 4, "multi", 5)
    state = game.new_initial_state()
    rng = random.Random(5)
    for _ in range(60):
        seen = state.observation(state.current_player)
        assert set(vars(seen)) == {f.name for f in dataclasses.fields(Observation)}
        plain = Observation(**vars(seen))
        assert plain == seen and hash(plain) == hash(seen) and repr(plain) == repr(seen)
        with pytest.raises(dataclasses.FrozenInstanceError):
            seen.turn = 99
        state.apply(rng.choice(state.legal_actions()))


def test_sampled_worlds_show_what_the_observation_shows_and_play_on(decks):
    game = EcologiesGame(decks["frozen-and-deep"], 4, "multi", 9)
    rng = random.Random(9)
    state = game.new_initial_state()
    for _ in range(400):
        if state.is_over():
            break
        seat = state.current_player
        seen = state.observation(seat)
        hash(seen)
        world = game.sample_state(seen, rng)
        assert world.observation(seat) == seen
        assert world.legal_actions() == state.legal_actions()
        check_invariants(world)
        state.apply(rng.choice(state.legal_actions()))


def test_a_designers_small_deck_with_copies_plays_by_every_rule(tmp_path):
    """A deck nobody wrote code for: the food-web fixture with three copies of every card."""
    import shutil

    import yaml

    deck_dir = tmp_path / "copies"
    shutil.copytree(DATA / "foodweb" / "valid", deck_dir)
    cards = yaml.safe_load((deck_dir / "cards.yaml").read_text())
    for card in cards["cards"]:
        card["count"] = 3
    (deck_dir / "cards.yaml").write_text(yaml.safe_dump(cards))
    deck = load_deck(deck_dir)
    assert deck.size == 36
    for mode, players in (("multi", 2), ("multi", 4), ("single", 1), ("simplified", 3)):
        for seed in range(3):
            state = play_checked(EcologiesGame(deck, players, mode, seed, max_rounds=20), seed)
            assert state.is_over() and state.end_reason in END_REASONS
