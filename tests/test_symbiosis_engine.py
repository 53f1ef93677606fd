"""The Symbiosis turn engine, one test per rule: the deal, a turn, the end, modes, and the protocol."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from cardtool.deck.loader import load_deck
from cardtool.engine.protocol import State, apply_checked, replay
from cardtool.errors import IllegalActionError, UsageError
from cardtool.games.symbiosis.engine import SymbiosisGame, Swap
from cardtool.games.symbiosis.layout import POND, START_FACE_UP, TURNS
from tests.conftest import DECKS


@pytest.fixture(scope="module")
def deck():
    return load_deck(DECKS / "symbiosis")


def test_deal_leaves_one_pond_card_face_up_the_top_middle_left(deck):
    state = SymbiosisGame(deck, 4, "standard", seed=1).new_initial_state()
    for seat in range(4):
        assert [slot for slot in range(POND) if state.up[seat * POND + slot]] == [START_FACE_UP] == [1]


def test_four_players_use_the_whole_deck_with_a_river_of_four(deck):
    state = SymbiosisGame(deck, 4, "standard", seed=2).new_initial_state()
    assert len(state.river) == 4 and all(state.river_up) and state.box == ()
    assert Counter(state.ponds + state.river) == Counter(SymbiosisGame(deck, 4).table.physical())


def test_three_players_leave_eight_cards_in_the_box(deck):
    state = SymbiosisGame(deck, 3, "standard", seed=2).new_initial_state()
    assert len(state.ponds) == 24 and len(state.river) == 4 and len(state.box) == 8


def test_duel_river_has_eight_cards_four_face_down(deck):
    state = SymbiosisGame(deck, 2, "duel", seed=3).new_initial_state()
    assert len(state.river) == 8 and state.river_up == (True,) * 4 + (False,) * 4


def test_duel_any_river_card_may_be_taken_even_face_down(deck):
    state = SymbiosisGame(deck, 2, "duel", seed=3).new_initial_state()
    assert {a.river for a in state.legal_actions()} == set(range(8))


def test_a_swap_puts_the_river_card_face_up_in_the_pond_and_the_pond_card_face_up_in_the_river(deck):
    game = SymbiosisGame(deck, 2, "duel", seed=4)
    state = game.new_initial_state()
    taken, replaced = state.river[6], state.ponds[0]  # a face-down River card into a face-down slot
    state.apply(game.swap(6, 0))
    assert state.ponds[0] == taken and state.up[0]
    assert state.river[6] == replaced and state.river_up[6]


def test_replacing_a_face_down_card_flips_nothing_else(deck):
    state = SymbiosisGame(deck, 3, "standard", seed=5).new_initial_state()
    for action in state.legal_actions():
        assert (action.flip is None) == (not state.up[action.pond])


def test_replacing_a_face_up_card_also_flips_another_hidden_card(deck):
    game = SymbiosisGame(deck, 3, "standard", seed=5)
    state = game.new_initial_state()
    flips = {a.flip for a in state.legal_actions() if a.pond == START_FACE_UP}
    assert flips == set(range(POND)) - {START_FACE_UP}
    state.apply(game.swap(0, START_FACE_UP, 7))
    assert state.up[START_FACE_UP] and state.up[7] and sum(state.up[:POND]) == 2


def test_each_turn_reveals_exactly_one_pond_card(deck):
    rng = random.Random(6)
    state = SymbiosisGame(deck, 4, "team", seed=6).new_initial_state()
    while not state.is_over():
        before = sum(state.up)
        state.apply(rng.choice(state.legal_actions()))
        assert sum(state.up) == before + 1


def test_the_game_ends_after_seven_turns_each_with_every_card_face_up(deck):
    rng = random.Random(7)
    for players, mode in ((2, "duel"), (3, "standard"), (4, "standard"), (4, "team")):
        state = SymbiosisGame(deck, players, mode, seed=7).new_initial_state()
        turns = Counter()
        while not state.is_over():
            turns[state.current_player] += 1
            state.apply(rng.choice(state.legal_actions()))
        assert turns == {seat: TURNS for seat in range(players)} and TURNS == 7
        assert all(state.up) and all(state.river_up)
        assert state.current_player == -1 and state.legal_actions() == []


def test_turns_go_round_the_table_from_the_first_seat(deck):
    game = SymbiosisGame(deck, 3, "standard", seed=8)
    state = game.new_initial_state()
    seen = []
    for _ in range(6):
        seen.append(state.current_player)
        state.apply(state.legal_actions()[0])
    assert seen == [0, 1, 2, 0, 1, 2]


@pytest.mark.parametrize("mode, allowed", [("standard", [3, 4]), ("duel", [2]), ("team", [4])])
def test_player_counts_per_mode(deck, mode, allowed):
    for players in range(1, 7):
        if players in allowed:
            SymbiosisGame(deck, players, mode)
        else:
            with pytest.raises(UsageError, match=f"the {mode} mode"):
                SymbiosisGame(deck, players, mode)


def test_an_unknown_mode_is_a_usage_error_with_a_suggestion(deck):
    with pytest.raises(UsageError, match="did you mean 'duel'"):
        SymbiosisGame(deck, 2, "dual")


def test_an_illegal_action_raises_a_named_error(deck):
    game = SymbiosisGame(deck, 3, "standard", seed=9)
    state = game.new_initial_state()
    with pytest.raises(IllegalActionError):
        apply_checked(state, Swap(0, START_FACE_UP, None))  # face-up card replaced without a flip
    with pytest.raises(IllegalActionError):
        apply_checked(state, Swap(5, 0, None))  # no River slot 5 outside Duel
    with pytest.raises(IllegalActionError):
        apply_checked(state, Swap(0, START_FACE_UP, START_FACE_UP))
    assert state.turn == 0


def test_legal_actions_is_a_pure_query(deck):
    state = SymbiosisGame(deck, 4, "standard", seed=10).new_initial_state()
    snapshot = (list(state.ponds), state.up, list(state.river), state.river_up, state.turn)
    first = state.legal_actions()
    assert state.legal_actions() == first and len(first) == 4 * (7 + 7)
    assert (list(state.ponds), state.up, list(state.river), state.river_up, state.turn) == snapshot


def test_clone_is_independent(deck):
    state = SymbiosisGame(deck, 2, "duel", seed=11).new_initial_state()
    copy = state.clone()
    copy.apply(copy.legal_actions()[0])
    assert state.turn == 0 and state.history == () and copy.turn == 1
    assert state.ponds != copy.ponds or state.river != copy.river


def test_a_game_is_its_seed_plus_its_actions(deck):
    game = SymbiosisGame(deck, 4, "team", seed=12)
    rng = random.Random(12)
    state = game.new_initial_state()
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    again = replay(SymbiosisGame(deck, 4, "team", seed=12), state.history)
    assert (again.ponds, again.river, again.scores()) == (state.ponds, state.river, state.scores())


def test_observations_never_show_a_face_down_card(deck):
    game = SymbiosisGame(deck, 2, "duel", seed=13)
    state = game.new_initial_state()
    state.apply(state.legal_actions()[0])
    for seat in range(2):
        obs = state.observation(seat)
        assert [c is None for c in obs.ponds] == [not up for up in state.up]
        assert [c is None for c in obs.river] == [not up for up in state.river_up]
    # Dealing the face-down cards differently changes nothing a seat sees.
    other = game.sample_state(state.observation(0), random.Random(1))
    assert other.observation(0) == state.observation(0) and other.observation(1) == state.observation(1)


def test_sample_state_accounts_for_every_card(deck):
    game = SymbiosisGame(deck, 3, "standard", seed=14)
    state = game.new_initial_state()
    sample = game.sample_state(state.observation(1), random.Random(2))
    assert Counter(sample.ponds + sample.river + list(sample.box)) == Counter(game.table.physical())


def test_state_follows_the_shared_protocol(deck):
    state = SymbiosisGame(deck, 3, "standard", seed=15).new_initial_state()
    assert isinstance(state, State)
    hash(state.legal_actions()[0])
    assert "River slot 1" in state.describe(state.legal_actions()[0])


def test_team_scores_are_the_team_totals(deck):
    rng = random.Random(16)
    state = SymbiosisGame(deck, 4, "team", seed=16).new_initial_state()
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    ponds, scores = state.pond_scores(), state.scores()
    assert scores[0] == scores[2] == ponds[0] + ponds[2] and scores[1] == scores[3] == ponds[1] + ponds[3]


def _small_deck(tmp_path, size: int):
    """A copy of the shipped deck cut down to `size` physical cards."""
    import shutil

    import yaml

    folder = tmp_path / f"small-{size}"
    folder.mkdir()
    for name in ("deck.yaml", "pond-life.yaml"):
        shutil.copy(DECKS / "symbiosis" / name, folder / name)
    cards, total = [], 0
    for card in yaml.safe_load((DECKS / "symbiosis" / "cards.yaml").read_text())["cards"]:
        if total < size:
            card["count"] = min(card.get("count", 1), size - total)
            total += card["count"]
            cards.append(card)
    (folder / "cards.yaml").write_text(yaml.safe_dump({"cards": cards}))
    return folder


def test_a_deck_too_small_for_a_mode_is_refused(tmp_path):
    small = load_deck(_small_deck(tmp_path, 28))
    assert small.size == 28
    SymbiosisGame(small, 3, "standard")
    with pytest.raises(UsageError, match="cannot be played with this 28-card deck .it needs at least 36 cards"):
        SymbiosisGame(small, 4, "team")


def test_a_deck_too_small_for_any_game_is_a_warning(run_cli, tmp_path):
    folder = _small_deck(tmp_path, 20)
    code, out, _ = run_cli("validate", folder)
    assert code == 0 and "warning[table-size]" in out and "a Duel needs 24 cards" in out
    assert run_cli("validate", "--strict", folder)[0] == 1


def test_a_card_counting_an_animal_no_card_shows_is_a_warning(run_cli, tmp_path):
    folder = _small_deck(tmp_path, 36)
    life = folder / "pond-life.yaml"
    life.write_text(life.read_text().replace("animals:\n", "animals:\n  - {id: newt, name: Newt}\n"))
    cards = folder / "cards.yaml"
    cards.write_text(re.sub(r"animal: snail\n    points: (\d+)\n    rule: per_animal",  # whatever its points
                            r"animal: newt\n    points: \1\n    rule: per_animal", cards.read_text(), count=1))
    code, out, _ = run_cli("validate", folder)
    assert code == 0 and "warning[never-scores]" in out and "the animal 'newt'" in out, out
