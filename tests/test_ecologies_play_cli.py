"""`cardtool play` with Ecologies: an account of every turn in each mode, a person at the terminal, logs."""

from __future__ import annotations

import io
import json
import re

import pytest

from cardtool.deck.loader import load_deck
from cardtool.engine.protocol import replay
from cardtool.games.ecologies import PLUGIN
from cardtool.games.ecologies.actions import action_from_json
from tests.conftest import DECKS

BASE = DECKS / "ecologies-bizarre-biomes"


@pytest.mark.parametrize("deck, args", [
    (BASE, ["--players", "4", "--bots", "greedy,greedy,random,search", "--seed", "7"]),
    (BASE, ["--mode", "single", "--bots", "greedy", "--seed", "3"]),
    (DECKS / "frozen-and-deep", ["--mode", "simplified", "--players", "3", "--bots", "greedy,random,greedy",
                                 "--seed", "5"]),
])
def test_play_tells_every_turn_and_ends_with_the_table_and_the_winner(run_cli, deck, args):
    code, out, err = run_cli("play", deck, *args)
    assert code == 0, err
    assert re.search(r"^Round 1, P1: ", out, re.M) and "  VP: P1 " in out
    assert re.search(r"^Round \d+, P\d's turn\.$", out, re.M) or "--mode" in args
    assert re.search(r"acts as (P|C1|C2|C3|C4|SD)\.", out)
    assert re.search(r"^(P\d wins with [\d /]+ VP\.|Shared victory for .* VP\.)$", out, re.M)
    assert "Final table after" in out and "The game ends: " in out


def test_play_defaults_to_the_multiplayer_mode(run_cli):
    code, out, _ = run_cli("play", BASE, "--players", "2", "--seed", "2", "--quiet")
    assert code == 0 and "Round 1" not in out and "Final table" in out


@pytest.mark.parametrize("args, message", [
    (["--mode", "singel"], "unknown mode 'singel' for Ecologies: Bizarre Biomes; did you mean 'single'?"),
    (["--mode", "single", "--players", "2"], "the single mode is played by 1 players"),
    (["--players", "7"], "the multi mode is played by 2 to 6 players"),
    (["--players", "3", "--bots", "greedy,serch,random"], "unknown bot 'serch'; did you mean 'search'?"),
])
def test_bad_play_options_are_usage_errors(run_cli, args, message):
    code, out, err = run_cli("play", BASE, *args, "--seed", "1")
    assert code == 2 and message in err and "Round" not in out


def test_a_person_plays_with_numbered_choices(run_cli, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 5000))
    code, out, err = run_cli("play", BASE, "--players", "2", "--human", "1", "--bots", "greedy", "--seed", "5")
    assert code == 0, err
    assert "Seats in turn order: P1 (you), P2 greedy." in out
    assert "Your hand (9):" in out and "P1, your turn: offer trades, or end trading." in out
    assert re.search(r"^\s+1\) offer a trade to the table$", out, re.M)
    assert "P1 wins" in out or "P2 wins" in out or "Shared victory" in out


def test_the_log_replays_the_game(run_cli, tmp_path):
    log = tmp_path / "game.jsonl"
    code, out, _ = run_cli("play", BASE, "--players", "3", "--bots", "greedy,random,greedy", "--seed", "11",
                           "--log", log)
    assert code == 0
    records = [json.loads(line) for line in log.read_text().splitlines()]
    turns, end = records[1:-1], records[-1]
    assert records[0]["game"] == "ecologies" and records[0]["mode"] == "multi"
    game = PLUGIN.new_game(load_deck(BASE), 3, "multi", 11)
    state = replay(game, [action_from_json(t["action"]) for t in turns])
    assert [str(s) for s in state.scores()] == end["scores"] and [s + 1 for s in state.winners()] == end["winners"]


class Person:
    """Stdin for `cardtool play --human 1`, reading each menu as printed: plays cards when it can, ends
    other phases, and at an arrangement menu picks the first arrangement that changes a role."""

    def __init__(self, capsys):
        self.capsys, self.transcript, self.picked = capsys, [], []

    def readline(self) -> str:
        printed = self.capsys.readouterr().out
        self.transcript.append(printed)
        menu = re.findall(r"^\s+(\d+)\) (.*)$", printed.split("choose 1-")[-2] if "choose 1-" in printed else "",
                          re.M)
        options = [text for _, text in menu]
        for wanted in ("(now ", "play a card", "decline", "end trading", "end playing", "end the turn"):
            for number, text in enumerate(options, 1):
                if wanted in text:
                    if wanted == "(now ":
                        self.picked.append(text)
                    return f"{number}\n"
        return "1\n"


def test_a_person_at_the_terminal_chooses_the_arrangement_of_their_web(run_cli, monkeypatch, capsys):
    for seed in range(1, 12):
        person = Person(capsys)
        monkeypatch.setattr("sys.stdin", person)
        code, out, err = run_cli("play", BASE, "--players", "2", "--human", "1", "--bots", "greedy",
                                 "--seed", seed)
        assert code == 0, err
        transcript = "".join(person.transcript) + out
        if person.picked:
            break
    assert person.picked, "no seed gave the person an arrangement to choose"
    assert "P1, choose the roles in P1's" in transcript and "keep it as it is" in transcript
    change = person.picked[0]  # e.g. "Cave Crayfish SD (now C2)": the account says it was done
    assert re.search(rf"Round \d+, P1: arranges P1's [^:]+: {re.escape(change)}\.$", transcript, re.M)


def test_a_person_at_the_terminal_reads_lines_that_fit_80_columns(run_cli, monkeypatch, capsys):
    person = Person(capsys)
    monkeypatch.setattr("sys.stdin", person)
    code, out, err = run_cli("play", BASE, "--players", "2", "--human", "1", "--bots", "greedy", "--seed", "3")
    assert code == 0, err
    shown = "".join(person.transcript) + out
    too_long = [line for line in shown.splitlines() if len(line) > 80 and "(q to quit): " not in line]
    assert not too_long, too_long[:5]
