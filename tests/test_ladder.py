"""`cardtool ladder`: pairs of bots, Bradley-Terry ratings on the Elo scale anchored on one bot, with
bootstrap intervals of each bot's gap to the anchor."""

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
    assert a - b == pytest.approx(200, abs=1) and a == pytest.approx(1500)  # the first bot is the anchor
    a, b = ladder.fit(["a", "b"], pairs, anchor=1)
    assert a - b == pytest.approx(200, abs=1) and b == pytest.approx(1500)


def test_three_bots_are_ranked_with_intervals_and_a_pair_never_won_stays_finite():
    pairs = [Pairing("weak", "mid", (0.0,) * 60 + (1.0,) * 20, 0), Pairing("weak", "strong", (0.0,) * 80, 0),
             Pairing("mid", "strong", (0.0,) * 50 + (0.5,) * 10 + (1.0,) * 20, 3)]
    result = ladder.ladder(["weak", "mid", "strong"], pairs, seed=1, anchor="mid")
    assert [r.bot for r in result.ratings] == ["strong", "mid", "weak"] and result.anchor == "mid"
    strong, mid, weak = result.ratings
    assert mid.low == mid.rating == mid.high == 1500  # the anchor's rating is fixed: its interval is a point
    for r in (strong, weak):
        assert r.low < r.rating < r.high and r.high - r.low < 400
    assert weak.high < 1500 < strong.low  # each interval is of the gap to the anchor
    assert strong.score.n == 160 and strong.score.k == 80 + 50 + 5  # ties half, rounded down
    assert ladder.ladder(["weak", "mid", "strong"], pairs, seed=1, anchor="mid") == result  # the bootstrap is seeded
    # another anchor moves every rating by the same amount, and the differences stay
    other = {r.bot: r.rating for r in ladder.ladder(["weak", "mid", "strong"], pairs, seed=1).ratings}
    assert other["weak"] == pytest.approx(1500)
    assert other["strong"] - other["mid"] == pytest.approx(strong.rating - mid.rating, abs=1e-3)


def test_anchoring_leaves_a_third_bots_uncertainty_out_of_a_gap():
    # random never wins, so its rating is known only to be far below; with the mean of all three held
    # fixed that uncertainty widened greedy's and search's intervals, anchored on greedy it does not
    pairs = [Pairing("random", "greedy", (0.0,) * 200, 0), Pairing("random", "search", (0.0,) * 200, 0),
             Pairing("greedy", "search", (0.0,) * 126 + (1.0,) * 74, 0)]
    result = {r.bot: r for r in ladder.ladder(["random", "greedy", "search"], pairs, seed=1).ratings}
    assert result["greedy"].rating == 1500 and result["search"].low > 1500 > result["random"].high
    gap = result["search"].rating - 1500
    assert 60 < gap < 120 and result["search"].high - result["search"].low < 130


def test_ladder_command_writes_ladder_json_and_a_chart(run_cli, tmp_path):
    code, out, err = run_cli("ladder", DECKS / "symbiosis", "--bots", "random,greedy", "--games", "12", "--seed",
                             "3", "--jobs", "1", "--out", tmp_path / "ladder")
    assert code == 0, err
    data = json.loads((tmp_path / "ladder" / "ladder.json").read_text())
    assert [r["bot"] for r in data["ratings"]] == ["greedy", "random"]
    assert data["config"]["mode"] == "duel" and data["config"]["games_per_pair"] == 12
    pair = data["pairs"][0]
    assert pair["bots"] == ["random", "greedy"] and pair["games"] == 12 and sum(pair["wins"]) + pair["capped"] == 12
    greedy, random_ = data["ratings"]
    assert data["anchor"] == {"bot": "greedy", "rating": 1500} and data["config"]["anchor"] == "greedy"
    assert greedy["rating"] == greedy["ci95"][0] == greedy["ci95"][1] == 1500
    assert random_["ci95"][0] <= random_["rating"] <= random_["ci95"][1] < 1500
    svg = (tmp_path / "ladder" / "ladder.svg").read_text()
    assert svg.startswith("<svg") and "greedy" in svg
    assert "   1  greedy" in out and "   2  random" in out and "greedy fixed at 1500" in out
    assert "greedy    1500 (anchor)" in out
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
    (["--bots", "random,greedy", "--anchor", "search"], "--anchor 'search' is not one of the bots rated"),
])
def test_ladder_misconfiguration_fails_before_any_game(args, message, run_cli, tmp_path, monkeypatch):
    monkeypatch.setattr(runner, "play_game", lambda *a: pytest.fail("a game was played"))
    code, out, err = run_cli("ladder", DECKS / "symbiosis", "--seed", "1", "--out", tmp_path / "out", *args)
    assert code == 2 and message in err and "Traceback" not in err
