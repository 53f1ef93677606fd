"""Findings robust to skill (simulate --lineups): line-up words, the robust/fragile verdicts on
constructed records, and a run over two line-ups of a shipped deck."""

from __future__ import annotations

import json
import random

import pytest

from cardtool.errors import UsageError
from cardtool.sim import outputs
from cardtool.sim.analysis import Spec, analyse
from cardtool.sim.lineups import parse
from cardtool.sim.records import FINISHED, SimRecord
from cardtool.sim.robustness import FRAGILE, NOT_FOUND, ROBUST, Evidence, classify, findings
from tests.conftest import DECKS

CARDS = (("wolf", "Grey Wolf"), ("oak", "Oak"), ("moss", "Moss"))
SPEC = Spec(score_name="VP", card_events=("played",), impact_event="played", choice_event="played", cards=CARDS)


def records(seed: int, wolf_wins: bool, games: int = 400) -> list[SimRecord]:
    """Two seats; seat 1 wins 70% of games; the Grey Wolf goes to the winner (wolf_wins) or to a seat at
    random; the Oak and the Moss to a seat at random; biome CAV healthy in 20% of games, SWA in 80%."""
    rng = random.Random(seed)
    result = []
    for index in range(games):
        winner = 0 if rng.random() < 0.7 else 1
        played: list[list[str]] = [[], []]
        played[winner if wolf_wins else rng.randrange(2)].append("wolf")
        played[rng.randrange(2)].append("oak")
        played[rng.randrange(2)].append("moss")
        biomes = {"CAV": 5 if rng.random() < 0.2 else None, "SWA": 4 if rng.random() < 0.8 else None}
        result.append(SimRecord(index, index, ("greedy", "greedy"), FINISHED, (12, 8) if winner == 0 else (8, 12),
                                (winner,), 20 + rng.randrange(5), (), {"played": tuple(map(tuple, played))},
                                {"biomes": biomes}, "target"))
    return result


@pytest.fixture(scope="module")
def found():
    strong, weak = analyse(records(1, wolf_wins=True), SPEC), analyse(records(2, wolf_wins=False), SPEC)
    return {(f.kind, f.subject): f for f in findings(["strong*2", "weak*2"], [strong, weak])}


def test_a_seat_advantage_under_every_line_up_is_robust(found):
    seat = found[("seat", "seat 1")]
    assert seat.verdict == ROBUST and seat.claim == "seat 1 wins more than a fair seat"
    assert all(e.significant and e.sign == 1 for e in seat.evidence)
    assert [e.lineup for e in seat.evidence] == ["strong*2", "weak*2"]
    assert "from fair (50.0%)" in seat.evidence[0].text  # the evidence: rate, interval, deviation
    assert found[("seat", "seat 2")].verdict == ROBUST and found[("seat", "seat 2")].claim.endswith("less than a fair seat")


def test_a_card_that_wins_under_one_line_up_only_is_fragile(found):
    wolf = found[("card", "Grey Wolf")]
    assert wolf.verdict == FRAGILE
    assert [e.significant for e in wolf.evidence] == [True, False]
    assert wolf.evidence[0].difference.estimate > 0.3 and "when played" in wolf.evidence[0].text
    assert ("card", "Oak") not in found  # significant under no line-up: not a finding at all


def test_a_rarely_healthy_biome_under_every_line_up_is_robust(found):
    cav = found[("biome", "biome CAV")]
    assert cav.verdict == ROBUST and "less often than the average biome" in cav.claim


def test_the_same_game_length_under_every_line_up_is_robust(found):
    assert found[("length", "game length")].verdict == ROBUST


def test_opposite_signs_or_none_significant_are_not_robust():
    plus, minus = Evidence("a", 1, True, ""), Evidence("b", -1, True, "")
    assert classify([plus, minus]) == FRAGILE
    assert classify([plus, Evidence("b", 1, True, "")]) == ROBUST
    assert classify([Evidence("a", 1, False, ""), Evidence("b", 1, False, "")]) == NOT_FOUND


@pytest.mark.parametrize("word, bots, counted", [
    ("greedy*4", ("greedy",) * 4, True),
    ("search*2,greedy*2", ("search", "search", "greedy", "greedy"), True),
    ("search:iters=8*2", ("search:iters=8", "search:iters=8"), True),
    ("greedy", ("greedy",), False),
    ("mixed", ("search", "greedy", "random"), False),
])
def test_line_up_words(word, bots, counted):
    lineup = parse(word, ["random", "greedy", "search"])
    assert (lineup.label, lineup.bots, lineup.counted) == (word, bots, counted)


@pytest.mark.parametrize("word, message", [("greedy*x", "is not a number of seats"), ("*2", "names no bot"),
                                           ("greedy*0", "is not a number of seats")])
def test_a_malformed_line_up_is_a_usage_error(word, message):
    with pytest.raises(UsageError, match=message):
        parse(word, ["greedy"])


@pytest.mark.parametrize("args, message", [
    (("--lineups", "greedy*2", "greedy*3"), "seat different numbers of players"),
    (("--lineups", "greedy*2", "gredy*2"), "unknown bot 'gredy'"),
    (("--lineups", "greedy*2", "random*2", "--bots", "greedy"), "--lineups and --bots exclude each other"),
    (("--lineups", "greedy*2", "greedy*2"), "names greedy\\*2 more than once"),
    (("--lineups", "greedy*2"), "give two or more"),
])
def test_misconfigured_line_ups_fail_before_any_game(args, message, run_cli, tmp_path):
    code, _, err = run_cli("simulate", DECKS / "symbiosis", "--mode", "duel", "--games", "4", *args,
                           "--out", tmp_path / "out")
    assert code == 2 and __import__("re").search(message, err), err
    assert not (tmp_path / "out" / "report.html").exists()


def test_a_run_over_two_line_ups_reports_each_and_their_robustness(run_cli, tmp_path, monkeypatch):
    monkeypatch.setattr(outputs, "render_pdf", lambda html: b"%PDF-stub")
    code, out, err = run_cli("simulate", DECKS / "symbiosis", "--mode", "duel", "--lineups", "greedy*2",
                             "greedy,random", "--games", "24", "--seed", "3", "--jobs", "1", "--out", tmp_path)
    assert code == 0, err
    lines = [json.loads(line) for line in (tmp_path / "games.jsonl").read_text().splitlines()]
    assert [line["lineup"] for line in lines] == ["greedy*2"] * 24 + ["greedy,random"] * 24
    assert lines[0]["bots"] == ["greedy", "greedy"] and lines[24]["seed"] == lines[0]["seed"]  # same seeds
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert [block["lineup"] for block in summary["lineups"]] == ["greedy*2", "greedy,random"]
    assert summary["lineups"][1]["config"]["bots"] == ["greedy", "random"]
    verdicts = {f["subject"]: f for f in summary["robustness"]["findings"]}
    assert verdicts["seat 1"]["verdict"] in (ROBUST, FRAGILE, NOT_FOUND)
    assert [e["lineup"] for e in verdicts["seat 1"]["evidence"]] == ["greedy*2", "greedy,random"]
    html = (tmp_path / "report.html").read_text()
    assert ">Robustness to the bots<" in html and "Line-up greedy*2" in html and "Line-up greedy,random" in html
    assert html.count(">How games ended<") == 2
    assert "Robustness over 2 line-ups" in out and "Line-up greedy,random (greedy, random): 24 games" in out
    rows = (tmp_path / "cards.csv").read_text().splitlines()
    assert rows[0].startswith("lineup,card,name") and rows[1].startswith("greedy*2,") and rows[-1].startswith('"greedy,random",')


def test_ecologies_line_ups_carry_biome_findings(run_cli, tmp_path, monkeypatch):
    monkeypatch.setattr(outputs, "render_pdf", lambda html: b"%PDF-stub")
    code, _, err = run_cli("simulate", DECKS / "ecologies-bizarre-biomes", "--lineups", "greedy*2", "greedy,random",
                           "--games", "4", "--seed", "1", "--jobs", "1", "--out", tmp_path)
    assert code == 0, err
    summary = json.loads((tmp_path / "summary.json").read_text())
    kinds = {f["kind"] for f in summary["robustness"]["findings"]}
    assert {"seat", "biome", "length"} <= kinds
    assert summary["lineups"][0]["biomes"]
