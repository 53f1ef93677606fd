"""`cardtool ladder`: pairs of bots, Bradley-Terry ratings on the Elo scale with bootstrap intervals."""

from __future__ import annotations

import json

import pytest

from cardtool.deck.loader import load_deck
from cardtool.sim import ladder, runner
from cardtool.sim.ladder import Pairing
from tests.conftest import DECKS


def test_the_fit_recovers_the_elo_gap_of_known_win_rates():
    # a bot winning 76% against another is 200 Elo points above it: 1 / (1 + 10^(-200/400)) = 0.7597
    pairs = [Pairing("a", "b", (1.0,) * 7597 + (0.0,) * 2403, 0)]
    a, b = ladder.fit(["a", "b"], pairs)
    assert a - b == pytest.approx(200, abs=1) and (a + b) / 2 == pytest.approx(1500)


def test_three_bots_are_ranked_with_intervals_and_a_pair_never_won_stays_finite():
    pairs = [Pairing("weak", "mid", (0.0,) * 60 + (1.0,) * 20, 0), Pairing("weak", "strong", (0.0,) * 80, 0),
             Pairing("mid", "strong", (0.0,) * 50 + (0.5,) * 10 + (1.0,) * 20, 3)]
    result = ladder.ladder(["weak", "mid", "strong"], pairs, seed=1)
    assert [r.bot for r in result.ratings] == ["strong", "mid", "weak"]
    for r in result.ratings:
        assert r.low < r.rating < r.high and r.high - r.low < 400
    strong, mid, weak = result.ratings
    assert weak.high < mid.low and mid.high < strong.high
    assert strong.score.n == 160 and strong.score.k == 80 + 50 + 5  # ties half, rounded down
    assert ladder.ladder(["weak", "mid", "strong"], pairs, seed=1) == result  # the bootstrap is seeded


def test_ladder_command_writes_ladder_json_and_a_chart(run_cli, tmp_path):
    code, out, err = run_cli("ladder", DECKS / "symbiosis", "--bots", "random,greedy", "--games", "12", "--seed",
                             "3", "--jobs", "1", "--out", tmp_path / "ladder")
    assert code == 0, err
    data = json.loads((tmp_path / "ladder" / "ladder.json").read_text())
    assert [r["bot"] for r in data["ratings"]] == ["greedy", "random"]
    assert data["config"]["mode"] == "duel" and data["config"]["games_per_pair"] == 12
    pair = data["pairs"][0]
    assert pair["bots"] == ["random", "greedy"] and pair["games"] == 12 and sum(pair["wins"]) + pair["capped"] == 12
    greedy = data["ratings"][0]
    assert greedy["ci95"][0] <= greedy["rating"] <= greedy["ci95"][1] and greedy["rating"] > 1500
    svg = (tmp_path / "ladder" / "ladder.svg").read_text()
    assert svg.startswith("<svg") and "greedy" in svg
    assert "   1  greedy" in out and "   2  random" in out and "Elo scale, mean 1500" in out
    (setup,) = ladder.setups(load_deck(DECKS / "symbiosis"), ["random", "greedy"], games=12, mode="duel", seed=3,
                             max_turns=1000)
    again = ladder.pairing(setup, runner.run(setup, jobs=1).records)
    assert [again.wins, len(again.outcomes) - again.wins] == pair["wins"]  # the same games, whoever plays them


@pytest.mark.parametrize("args, message", [
    (["--bots", "greedy"], "a ladder needs at least two bots"),
    (["--bots", "greedy,greedy"], "names a bot twice"),
    (["--bots", "greedy,gredy"], "unknown bot 'gredy'"),
    (["--games", "1"], "--games must be at least 2"),
    (["--mode", "standard"], "is played by 3 to 4 players"),
    (["--jobs", "0"], "--jobs must be at least 1"),
])
def test_ladder_misconfiguration_fails_before_any_game(args, message, run_cli, tmp_path, monkeypatch):
    monkeypatch.setattr(runner, "play_game", lambda *a: pytest.fail("a game was played"))
    code, out, err = run_cli("ladder", DECKS / "symbiosis", "--seed", "1", "--out", tmp_path / "out", *args)
    assert code == 2 and message in err and "Traceback" not in err
