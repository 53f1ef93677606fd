"""`cardtool simulate`: outputs, configuration recorded, clean errors, atomic writing."""

from __future__ import annotations

import csv
import json

import pytest

from cardtool import __version__
from cardtool.deck.loader import load_deck
from cardtool.games import GAMES
from cardtool.games.plugin import RecordsGames
from cardtool.render.output import MANIFEST
from cardtool.sim import balance_report, outputs, play
from cardtool.sim.config import deck_hash
from tests.conftest import DECKS

OUTPUTS = {"games.jsonl", "summary.json", "cards.csv", "report.html", "report.pdf", MANIFEST}


@pytest.fixture(scope="module")
def simulated(tmp_path_factory):
    """One small run, shared by the tests that read its outputs."""
    from cardtool.cli import main

    out = tmp_path_factory.mktemp("sim")
    code = main(["simulate", str(DECKS / "symbiosis"), "--games", "60", "--players", "3", "--bots", "greedy,random",
                 "--seed", "4", "--jobs", "1", "--out", str(out)])
    return code, out


def test_simulate_writes_every_output(simulated, capsys):
    code, out = simulated
    assert code == 0
    assert {p.name for p in out.iterdir()} == OUTPUTS
    games = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert len(games) == 60 and [g["game"] for g in games] == list(range(60))
    first = games[0]
    assert set(first) >= {"seed", "bots", "scores", "winners", "turns", "outcome", "end_reason", "cards", "curve",
                          "extras"}
    assert first["outcome"] == "finished" and first["end_reason"] == "complete"
    assert all(1 <= w <= 3 for w in first["winners"])
    assert set(first["extras"]) == {"points_by_rule", "points_by_column"}
    rows = list(csv.DictReader((out / "cards.csv").open()))
    assert len(rows) == len(load_deck(DECKS / "symbiosis").cards) and {"kept_games", "win_rate_when_kept", "never_taken"} <= set(rows[0])
    assert (out / "report.pdf").read_bytes().startswith(b"%PDF")
    html = (out / "report.html").read_text()
    assert "Points by rule" in html and "Points by column" in html and html.count("<svg") >= 8


def test_summary_records_the_effective_configuration(simulated):
    _, out = simulated
    summary = json.loads((out / "summary.json").read_text())
    config = summary["config"]
    assert config["seed"] == 4 and config["games"] == 60 and config["players"] == 3 and config["mode"] == "standard"
    assert config["bots"] == ["greedy", "random", "greedy"] and config["seating"] == "rotate"
    assert config["cardtool"] == __version__ and config["max_turns"] == 1000
    assert config["deck_hash"] == deck_hash(DECKS / "symbiosis") and len(config["deck_hash"]) == 64
    assert summary["run"]["finished_games"] == 60 and summary["run"]["interrupted"] is False
    assert len(summary["seats"]) == 3 and summary["capped"]["wins"] == 0
    assert summary["end_reasons"]["complete"]["games"] == 60 and summary["end_reasons"]["turn-cap"]["games"] == 0


def test_the_same_seed_gives_the_same_games_on_every_number_of_jobs(simulated, run_cli, tmp_path):
    _, out = simulated
    code, _, _ = run_cli("simulate", DECKS / "symbiosis", "--games", "60", "--players", "3", "--bots",
                         "greedy,random", "--seed", "4", "--jobs", "2", "--out", tmp_path)
    assert code == 0
    assert (tmp_path / "games.jsonl").read_text() == (out / "games.jsonl").read_text()


def test_simulate_prints_where_the_report_is(run_cli, tmp_path, monkeypatch):
    monkeypatch.setattr(outputs, "render_pdf", lambda html: b"%PDF-stub")  # the PDF is tested above
    code, out, _ = run_cli("simulate", DECKS / "symbiosis", "--games", "8", "--mode", "duel", "--jobs", "1",
                           "--max-turns", "5", "--out", tmp_path)
    assert code == 0
    assert f"Report: {tmp_path / 'report.html'}" in out and "8 capped (won by nobody)" in out
    assert "End reasons: 8 turn-cap." in out
    assert "add --seed" in out  # no --seed: the drawn one is printed


@pytest.mark.parametrize("args, message", [
    (["--bots", "gredy"], "unknown bot 'gredy'; did you mean 'greedy'?"),
    (["--players", "6"], "is played by 3 to 4 players"),
    (["--mode", "solo"], "unknown mode 'solo'"),
    (["--jobs", "0"], "--jobs must be at least 1"),
    (["--games", "-3"], "--games must be at least 1"),
    (["--jobs", "2", "--scheduler", "tcp://127.0.0.1:1"], "exclude each other"),
    (["--precision", "0"], "--precision is an interval half-width in percentage points, between 0 and 50"),
    (["--precision", "75"], "between 0 and 50, not 75"),
    (["--precision", "3", "--scheduler", "tcp://127.0.0.1:1"], "--precision cannot run on a Dask cluster yet"),
    (["--precision", "3", "--players", "4", "--games", "3"], "whole turns of the line-up (4 games"),
])
def test_misconfiguration_fails_before_any_game(args, message, run_cli, tmp_path, monkeypatch):
    monkeypatch.setattr(play, "play_game", lambda *a: pytest.fail("a game was played"))
    code, out, err = run_cli("simulate", DECKS / "symbiosis", "--seed", "1", "--out", tmp_path / "out", *args)
    assert code == 2 and message in err and "Traceback" not in err
    assert not (tmp_path / "out" / "games.jsonl").exists()


def test_a_failed_run_leaves_the_previous_outputs_whole(run_cli, tmp_path, monkeypatch):
    monkeypatch.setattr(outputs, "render_pdf", lambda html: b"%PDF-stub")
    args = ("simulate", DECKS / "symbiosis", "--games", "4", "--jobs", "1", "--seed", "1", "--out", tmp_path)
    assert run_cli(*args)[0] == 0
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}

    def broken(html):
        raise RuntimeError("the PDF renderer broke")

    monkeypatch.setattr(outputs, "render_pdf", broken)
    code, _, err = run_cli(*args[:7], "2", *args[8:])  # another seed: other games
    assert code == 70 and "the PDF renderer broke" in err  # a bug, reported as one
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
    assert not list(tmp_path.glob(".*.tmp"))


def test_an_interrupted_run_reports_the_finished_games(run_cli, tmp_path, monkeypatch):
    monkeypatch.setattr(outputs, "render_pdf", lambda html: b"%PDF-stub")
    real = play.play_game

    def play_until_ctrl_c(setup, index):
        if index == 30:
            raise KeyboardInterrupt
        return real(setup, index)

    monkeypatch.setattr(play, "play_game", play_until_ctrl_c)
    code, out, err = run_cli("simulate", DECKS / "symbiosis", "--games", "100", "--jobs", "1", "--seed", "2",
                             "--out", tmp_path)
    assert code == 130 and "interrupted" in err and "Traceback" not in err
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["run"]["interrupted"] is True and summary["games"] == 30
    assert len((tmp_path / "games.jsonl").read_text().splitlines()) == 30
    assert "This run was interrupted" in (tmp_path / "report.html").read_text()


class _PlaysButDoesNotRecord:
    """A game plugin that can be played but keeps no records, as a new game might at first."""

    _RECORDING = {"record", "score_name", "card_events", "impact_event", "choice_event"}

    def __init__(self, real):
        self._real = real

    def __getattr__(self, name):
        if name in self._RECORDING:
            raise AttributeError(name)
        return getattr(self._real, name)


def test_a_game_that_cannot_be_simulated_yet_fails_cleanly(run_cli, tmp_path, monkeypatch):
    monkeypatch.setitem(GAMES, "symbiosis", _PlaysButDoesNotRecord(GAMES["symbiosis"]))
    assert not isinstance(GAMES["symbiosis"], RecordsGames)
    code, out, err = run_cli("simulate", DECKS / "symbiosis", "--games", "10", "--out", tmp_path)
    assert code == 2 and "cannot be simulated yet" in err and "Traceback" not in err
    assert not list(tmp_path.iterdir())


def test_an_expansion_is_hashed_with_its_base(tmp_path):
    import shutil

    for name in ("ecologies-bizarre-biomes", "frozen-and-deep"):
        shutil.copytree(DECKS / name, tmp_path / name)
    before = deck_hash(tmp_path / "frozen-and-deep")
    assert before == deck_hash(DECKS / "frozen-and-deep")  # the hash does not depend on where decks are
    base_file = tmp_path / "ecologies-bizarre-biomes" / "factors.yaml"
    base_file.write_text(base_file.read_text() + "\n# a comment\n")
    assert deck_hash(tmp_path / "frozen-and-deep") != before


def test_simulate_reports_capped_ecologies_games_as_capped(run_cli, tmp_path, monkeypatch):
    monkeypatch.setattr(outputs, "render_pdf", lambda html: b"%PDF-stub")
    code, out, _ = run_cli("simulate", DECKS / "ecologies-bizarre-biomes", "--bots", "random", "--players", "2",
                           "--games", "3", "--seed", "3", "--jobs", "1", "--out", tmp_path)
    assert code == 0
    games = [json.loads(line) for line in (tmp_path / "games.jsonl").read_text().splitlines()]
    capped = [g for g in games if g["end_reason"] == "round-cap"]
    assert capped and all(g["outcome"] == "capped" and g["winners"] == [] and g["turns"] == 120 for g in capped)
    assert f"{len(capped)} capped (won by nobody)" in out and f"{len(capped)} round-cap" in out
    assert "engine's safeguard after 60 rounds" in out
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["capped"]["wins"] == len(capped) == summary["end_reasons"]["round-cap"]["games"]
    html = (tmp_path / "report.html").read_text()
    assert "How games ended" in html and "No winner (capped)" in html


def test_team_mode_reports_win_rates_per_team(run_cli, tmp_path, monkeypatch):
    monkeypatch.setattr(outputs, "render_pdf", lambda html: b"%PDF-stub")
    code, out, _ = run_cli("simulate", DECKS / "symbiosis", "--mode", "team", "--games", "30", "--seed", "5",
                           "--jobs", "1", "--out", tmp_path)
    assert code == 0 and "Win rate per team (95% interval):\n  team of seats 1 and 3  " in out
    html = (tmp_path / "report.html").read_text()
    assert "Win rate per team" in html and "Team of seats 2 and 4" in html
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert sum(team["win"]["wins"] for team in summary["teams"]) == 30 + summary["shared_wins"]
    assert summary["shared_wins"] < 30  # a partnership's win is not a shared victory


def test_simulate_prints_win_rates_per_seat_and_per_bot_with_intervals(run_cli, tmp_path, monkeypatch):
    """Counted again from games.jsonl: a bot wins a game when a seat it played is among the winners
    (a tie counts for each winner), a capped game for nobody; the interval is Wilson's."""
    from cardtool.sim.stats import wilson

    monkeypatch.setattr(outputs, "render_pdf", lambda html: b"%PDF-stub")
    code, out, _ = run_cli("simulate", DECKS / "symbiosis", "--games", "40", "--players", "3", "--bots",
                           "greedy,random", "--seed", "9", "--jobs", "1", "--out", tmp_path)
    assert code == 0
    games = [json.loads(line) for line in (tmp_path / "games.jsonl").read_text().splitlines()]
    summary = json.loads((tmp_path / "summary.json").read_text())
    for bot in ("greedy", "random"):
        seats = [(g, seat) for g in games for seat, name in enumerate(g["bots"], 1) if name == bot]
        won = sum(seat in g["winners"] for g, seat in seats)
        low, high = wilson(won, len(seats))
        line = f"  {bot:<6}  {won:>6}/{len(seats):<6}  {100 * won / len(seats):.1f}% ({100 * low:.1f}%–{100 * high:.1f}%)"
        assert line in out.splitlines()
        assert summary["bots"][bot]["win"]["wins"] == won and summary["bots"][bot]["seats_played"] == len(seats)
    assert len([g for g in games if len(g["winners"]) > 1]) == summary["shared_wins"]
    for seat in (1, 2, 3):
        won = sum(seat in g["winners"] for g in games)
        low, high = wilson(won, 40)
        assert f"  seat {seat}  {won:>6}/40      {100 * won / 40:.1f}% ({100 * low:.1f}%–{100 * high:.1f}%)" in out
    assert "Win rate per bot (95% interval):" in out and "a tie) counts as a win for each" in out
    assert all(len(line) <= 80 for line in out.splitlines() if line.startswith(("  ", "Win rate")))
    html = (tmp_path / "report.html").read_text()
    assert "counts as a win for each seat sharing it" in html and summary["bot_win_rule"] == balance_report.BOT_RATE_RULE


def test_capped_games_count_as_not_won_for_every_bot(run_cli, tmp_path, monkeypatch):
    monkeypatch.setattr(outputs, "render_pdf", lambda html: b"%PDF-stub")
    code, out, _ = run_cli("simulate", DECKS / "ecologies-bizarre-biomes", "--bots", "random,greedy", "--players", "2",
                           "--games", "4", "--seed", "3", "--jobs", "1", "--out", tmp_path)
    assert code == 0
    games = [json.loads(line) for line in (tmp_path / "games.jsonl").read_text().splitlines()]
    summary = json.loads((tmp_path / "summary.json").read_text())
    decided = sum(len(g["winners"]) for g in games if g["outcome"] == "finished")
    assert sum(b["win"]["wins"] for b in summary["bots"].values()) == decided
    assert sum(b["seats_played"] for b in summary["bots"].values()) == 8


def _sequence_of(blocks):
    from cardtool.sim.stats import ConfidenceSequence

    sequence = ConfidenceSequence()
    sequence.update(blocks)
    return sequence.interval()


def test_precision_stops_once_every_seat_is_known_closely_enough(run_cli, tmp_path, monkeypatch):
    """--precision 4 in Duel: it stops on its own, well before --games, at a whole number of rotations,
    with every seat's interval at most 4 pp either side; the intervals are the confidence sequence of
    the games it kept (recomputed here from games.jsonl), and they say so."""
    monkeypatch.setattr(outputs, "render_pdf", lambda html: b"%PDF-stub")
    code, out, _ = run_cli("simulate", DECKS / "symbiosis", "--mode", "duel", "--bots", "greedy,random",
                           "--precision", "4", "--games", "6000", "--seed", "2", "--jobs", "1", "--out", tmp_path)
    assert code == 0
    summary = json.loads((tmp_path / "summary.json").read_text())
    sequential = summary["run"]["sequential"]
    games = [json.loads(line) for line in (tmp_path / "games.jsonl").read_text().splitlines()]
    n = len(games)
    assert n == summary["games"] == sequential["games"] < 6000 and n % 2 == 0
    assert [g["game"] for g in games] == list(range(n))
    assert sequential["stopped"] == "every seat's interval is at most 4 pp either side"
    assert f"Stopped after {n} games ({sequential['looks']} looks): every seat's interval is at most 4 pp" in out
    assert "Win rate per seat (95% confidence sequence):" in out
    for seat in (1, 2):
        win = summary["seats"][seat - 1]["win"]
        assert (win["ci95"][1] - win["ci95"][0]) / 2 <= 0.04
        blocks = [sum(seat in g["winners"] for g in games[i:i + 2]) / 2 for i in range(0, n, 2)]
        assert win["ci95"] == [round(x, 6) for x in _sequence_of(blocks)]
    html = (tmp_path / "report.html").read_text()
    assert "stopped when its answer was known" in html and "95% confidence sequences" in html


def test_precision_out_of_reach_plays_the_most_games_allowed(run_cli, tmp_path, monkeypatch):
    monkeypatch.setattr(outputs, "render_pdf", lambda html: b"%PDF-stub")
    code, out, _ = run_cli("simulate", DECKS / "symbiosis", "--players", "3", "--precision", "1", "--games", "31",
                           "--seed", "2", "--jobs", "1", "--out", tmp_path)
    assert code == 0
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["games"] == 30  # whole rotations of three seats only
    assert summary["run"]["sequential"]["stopped"].startswith("played the most games allowed (--games 31)")
    assert "Stopped after 30 games" in out and "Playing up to 31 standard games" in out
    assert all(s["win"]["ci95"][1] - s["win"]["ci95"][0] > 0.02 for s in summary["seats"])


def test_ctrl_c_during_a_run_with_precision_keeps_its_whole_rotations(run_cli, tmp_path, monkeypatch):
    monkeypatch.setattr(outputs, "render_pdf", lambda html: b"%PDF-stub")
    real = play.play_game

    def play_until_ctrl_c(setup, index):
        if index == 31:
            raise KeyboardInterrupt
        return real(setup, index)

    monkeypatch.setattr(play, "play_game", play_until_ctrl_c)
    code, out, err = run_cli("simulate", DECKS / "symbiosis", "--players", "3", "--precision", "2", "--jobs", "1",
                             "--seed", "2", "--out", tmp_path)
    assert code == 130 and "interrupted" in err and "Traceback" not in err
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["games"] == summary["run"]["sequential"]["games"] == 30  # games 0-30 played, 10 rotations kept
    assert summary["run"]["sequential"]["stopped"] == "interrupted (Ctrl-C) before the precision was reached"
    assert "Stopped after 30 games" in out
