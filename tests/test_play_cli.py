"""`cardtool play`: every mode to the end, options checked before playing, people on stdin, JSONL logs."""

from __future__ import annotations

import io
import json
import random
import re

import pytest

from cardtool.deck.loader import load, load_deck
from cardtool.engine.protocol import State, replay
from cardtool.games import GAMES
from cardtool.games.plugin import PlayableGame
from cardtool.games.symbiosis import PLUGIN
from cardtool.games.symbiosis.engine import Swap
from tests.conftest import DECKS

DECK = DECKS / "symbiosis"


@pytest.mark.parametrize("args, players", [
    (["--players", "3", "--mode", "standard", "--bots", "greedy,random,search"], 3),
    (["--mode", "duel", "--bots", "search,greedy"], 2),
    (["--mode", "team", "--bots", "random,greedy,random,greedy"], 4),
    (["--players", "4", "--bots", "greedy"], 4),
])
def test_play_runs_each_mode_to_the_end_with_an_account_of_every_turn(run_cli, args, players):
    code, out, err = run_cli("play", DECK, *args, "--seed", "7")
    assert code == 0, err
    # a turn's sentence is folded to 80 columns, its continuation lines indented: unfold them
    flat = re.sub(r"\n  (?=\S)", " ", out)
    turns = re.findall(r"^Round (\d), P(\d): takes .* into \S+, replacing ", flat, re.M)
    assert len(turns) == 7 * players
    assert turns[0] == ("1", "1") and turns[-1] == ("7", str(players))
    assert out.count("  total: ") == players
    assert re.search(r"wins with \d+ points\.|Shared victory", out)


def test_team_play_prints_team_totals(run_cli):
    code, out, _ = run_cli("play", DECK, "--mode", "team", "--seed", "3", "--quiet")
    assert code == 0
    assert re.search(r"^Team P1 and P3: \d+ \+ \d+ = \d+ points$", out, re.M)
    assert "Round 1" not in out  # --quiet: only the final breakdown


def test_duel_play_flips_the_rivers_face_down_cards_at_the_end(run_cli):
    code, out, _ = run_cli("play", DECK, "--mode", "duel", "--seed", "4")
    assert "8 cards in the River (4 face down)" in out
    final = out.split("Final table", 1)[1]
    assert "(face down)" not in final and "counts the River's 8 cards" in final


def test_the_same_seed_plays_the_same_game(run_cli):
    first = run_cli("play", DECK, "--players", "3", "--bots", "greedy,random,search", "--seed", "11")[1]
    again = run_cli("play", DECK, "--players", "3", "--bots", "greedy,random,search", "--seed", "11")[1]
    assert first == again


def test_without_a_seed_the_seed_is_printed(run_cli):
    code, out, _ = run_cli("play", DECK, "--mode", "duel", "--bots", "random", "--quiet")
    assert code == 0 and re.search(r"add --seed \d+ to replay this game", out)


@pytest.mark.parametrize("args, message", [
    (["--bots", "greedy,serch,random,greedy"], "unknown bot 'serch'; did you mean 'search'?"),
    (["--mode", "dual"], "unknown mode 'dual' for Symbiosis; did you mean 'duel'?"),
    (["--mode", "duel", "--players", "3"], "the duel mode is played by 2 players"),
    (["--mode", "team", "--players", "3"], "the team mode is played by 4 players"),
    (["--players", "5"], "the standard mode is played by 3 to 4 players"),
    (["--players", "2"], "for two players use --mode duel"),
    (["--players", "3", "--bots", "greedy,random"], "--bots names 2 bots for 3 seat(s)"),
    (["--players", "3", "--human", "4"], "--human 4: seats are numbered 1 to 3"),
    (["--players", "3", "--human", "1", "--human", "1"], "same seat twice"),
    (["--bots", "human"], "use --human SEAT"),
])
def test_bad_options_are_usage_errors_before_any_turn(run_cli, args, message):
    code, out, err = run_cli("play", DECK, *args, "--seed", "1")
    assert code == 2
    assert message in err
    assert "Round" not in out and "Traceback" not in err


def test_a_game_without_play_support_is_a_clear_error(run_cli, monkeypatch):
    class DeckToolsOnly:  # a GamePlugin that is not a PlayableGame
        title = "Deck Tools Only"

    monkeypatch.setattr("cardtool.commands.play.GAMES", {"symbiosis": DeckToolsOnly()})
    code, _, err = run_cli("play", DECK, "--seed", "1")
    assert code == 2 and "cannot play Deck Tools Only decks yet" in err


def test_a_person_plays_with_numbered_choices_on_stdin(run_cli, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 300))
    code, out, err = run_cli("play", DECK, "--mode", "duel", "--human", "1", "--bots", "random", "--seed", "5")
    assert code == 0, err
    assert out.count("P1, your turn") == 7
    assert "1) River 1: " in out and "swap with top-left (face down)" in out
    assert "Seats in turn order: P1 (you), P2 random." in out


def test_a_person_is_asked_again_after_a_bad_answer(run_cli, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("x\n99\n2\n" + "1\n" * 300))
    code, out, _ = run_cli("play", DECK, "--mode", "duel", "--human", "2", "--seed", "5")
    assert code == 0
    assert "'x' is not one of the choices" in out and "'99' is not one of the choices" in out


def test_the_input_ending_early_is_a_clear_error(run_cli, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n"))
    code, _, err = run_cli("play", DECK, "--mode", "duel", "--human", "1", "--seed", "5")
    assert code == 2 and "the input ended before the game did" in err


def test_log_writes_the_game_as_json_lines_that_replay(run_cli, tmp_path):
    log = tmp_path / "game.jsonl"
    code, out, _ = run_cli("play", DECK, "--players", "3", "--bots", "greedy", "--seed", "21", "--log", log)
    assert code == 0
    records = [json.loads(line) for line in log.read_text().splitlines()]
    start, turns, end = records[0], records[1:-1], records[-1]
    assert start["event"] == "start" and start["seed"] == 21 and start["mode"] == "standard"
    assert start["deck"] == "symbiosis" and [s["player"] for s in start["seats"]] == ["greedy"] * 3
    assert len(turns) == 21 and turns[0]["action"]["type"] == "Swap" and turns[0]["text"] in out
    assert end["event"] == "end" and end["winners"]
    game = PLUGIN.new_game(load_deck(DECK), 3, "standard", 21)
    actions = [Swap(t["action"]["river"], t["action"]["pond"], t["action"]["flip"]) for t in turns]
    assert replay(game, actions).scores() == end["scores"]


def test_log_to_an_unwritable_place_is_a_usage_error(run_cli, tmp_path):
    code, _, err = run_cli("play", DECK, "--seed", "1", "--log", tmp_path / "no" / "such" / "dir.jsonl")
    assert code == 2 and "cannot write the log" in err


def _playable_decks():
    for manifest in sorted(DECKS.glob("*/deck.yaml")):
        deck = load(manifest.parent).deck  # a deck with errors is test_cli's business, not this test's
        if deck is None:
            continue
        plugin = GAMES[deck.game]
        if isinstance(plugin, PlayableGame):
            for mode in plugin.modes:
                for players in plugin.players_for(deck, mode):
                    yield pytest.param(plugin, deck, mode, players, id=f"{manifest.parent.name}-{mode}-{players}")


@pytest.mark.parametrize("plugin, deck, mode, players", list(_playable_decks()))
def test_every_playable_game_follows_the_protocol(plugin, deck, mode, players):
    """The conformance test every playable game passes: seeded random playouts checking the protocol."""
    for seed in range(5):
        game = plugin.new_game(deck, players, mode, seed)
        rng = random.Random(seed)
        state = game.new_initial_state()
        assert isinstance(state, State)
        while not state.is_over():
            legal = state.legal_actions()
            assert legal and state.legal_actions() == legal and 0 <= state.current_player < players
            observation = state.observation(state.current_player)
            hash(observation)
            assert game.sample_state(observation, rng).observation(state.current_player) == observation
            before = state.clone()
            state.apply(rng.choice(legal))
            assert before.legal_actions() == legal  # the clone did not move with the state
        assert state.current_player == -1 and len(state.scores()) == players
        reasons = {reason.word: reason for reason in plugin.end_reasons}  # a closed set per game
        assert state.end_reason in reasons and bool(state.winners()) == (not reasons[state.end_reason].cap)
        assert replay(plugin.new_game(deck, players, mode, seed), state.history).scores() == state.scores()


@pytest.mark.parametrize("mode", ["standard", "duel", "team"])
def test_a_person_plays_symbiosis_in_an_80_column_terminal_and_sees_the_opening_table_once(run_cli, monkeypatch,
                                                                                           mode):
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 300))
    code, out, err = run_cli("play", DECK, "--mode", mode, "--human", "1", "--seed", "3")
    assert code == 0, err
    # At a terminal the answer typed after "choose 1-N (q to quit): " ends that line; here it is not echoed.
    lines = re.sub(r"choose 1-\d+ \(q to quit\): ", "\n", out).splitlines()
    too_wide = [line for line in lines if len(line) > 80]
    assert not too_wide, too_wide[:3]
    before_first_turn = out.split("Round 1, P1: takes", 1)[0]
    assert before_first_turn.count("P1's pond") == 1  # the opening table, not again before the first choice
    assert "your turn (7 of your cards face down)" in before_first_turn
    assert out.count("\nRiver:") >= 7  # the table is shown again once it has changed
