"""`cardtool compare`: common random numbers, and which differences are significant."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from cardtool.sim import outputs
from tests.conftest import DATA, DECKS


@pytest.fixture
def stronger_deck(tmp_path):
    """The Symbiosis deck with one card (Old Carp, a fixed card worth 8 at most) worth 30 points."""
    return _strong_carp(DECKS / "symbiosis", tmp_path)


def _strong_carp(base, tmp_path):
    deck = tmp_path / "symbiosis-strong-carp"
    shutil.copytree(base, deck)
    cards = deck / "cards.yaml"
    carp = r"(  - id: winter-fish-7\n    name: Old Carp\n    animal: fish\n    season: winter\n    scoring: \{rule: fixed, points: )\d+\}"
    text, found = re.subn(carp, r"\g<1>30}", cards.read_text())
    assert found == 1
    cards.write_text(text)
    return deck


def _compare(run_cli, a, b, out):
    return run_cli("compare", a, b, "--games", "300", "--players", "4", "--seed", "1", "--jobs", "1", "--out", out)


def test_compare_flags_a_much_stronger_card_as_significant(run_cli, stronger_deck, tmp_path):
    code, out, err = _compare(run_cli, DECKS / "symbiosis", stronger_deck, tmp_path / "out")
    assert code == 0, err
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    metrics = {m["metric"]: m for m in summary["metrics"]}
    winning = metrics["Winning points"]["difference_b_minus_a"]
    assert winning["significant"] and winning["estimate"] > 5
    carp = next(c for c in summary["cards"] if c["metric"] == "Old Carp")
    assert carp["difference_b_minus_a"]["significant"] and carp["difference_b_minus_a"]["estimate"] > 0
    assert summary["a"]["config"]["seed"] == summary["b"]["config"]["seed"] == 1
    assert summary["a"]["config"]["deck_hash"] != summary["b"]["config"]["deck_hash"]
    names = {p.name for p in (tmp_path / "out").iterdir()}
    assert names == {"games-a.jsonl", "games-b.jsonl", "summary.json", "comparison.csv", "report.html", "report.pdf",
                     ".cardtool-manifest.json"}  # the list of what cardtool wrote there
    html = (tmp_path / "out" / "report.html").read_text()
    assert "common random numbers" in html and "✱" in html and html.count("<svg") >= 4
    assert "Report: " in out


def test_identical_decks_show_no_significant_difference(run_cli, tmp_path, monkeypatch):
    monkeypatch.setattr(outputs, "render_pdf", lambda html: b"%PDF-stub")
    code, out, _ = _compare(run_cli, DECKS / "symbiosis", DECKS / "symbiosis", tmp_path)
    assert code == 0 and "0 significant difference(s)" in out
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert not any(m["difference_b_minus_a"]["significant"] for m in summary["metrics"] + summary["cards"])
    # common random numbers: the same seeds give the very same games
    assert (tmp_path / "games-a.jsonl").read_text() == (tmp_path / "games-b.jsonl").read_text()


def test_decks_of_different_games_cannot_be_compared(run_cli, tmp_path):
    code, _, err = run_cli("compare", DECKS / "symbiosis", DECKS / "ecologies-bizarre-biomes", "--out", tmp_path)
    assert code == 2 and "cannot compare" in err and "Traceback" not in err


def test_compare_with_precision_stops_once_the_headline_difference_is_decided(run_cli, tmp_path, monkeypatch):
    """The 30-point carp helps the first seat in Duel: the run stops on its own, long before --games, and
    the headline row carries the confidence sequence it stopped on (recomputed here from the games). On
    the cards as shipped at 0.1.0 (tests/data/symbiosis/deck-0.1.0), whose carp effect these seeds
    decide: balancing the shipped deck moves how much one card helps seat 1."""
    from cardtool.sim.stats import ConfidenceSequence

    monkeypatch.setattr(outputs, "render_pdf", lambda html: b"%PDF-stub")
    base = DATA / "symbiosis" / "deck-0.1.0"
    code, out, err = run_cli("compare", base, _strong_carp(base, tmp_path), "--mode", "duel", "--precision", "5",
                             "--games", "4000", "--seed", "1", "--jobs", "1", "--out", tmp_path / "out")
    assert code == 0, err
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    sequential = summary["a"]["run"]["sequential"]
    n = summary["paired_games"]
    assert n == sequential["games"] < 4000 and n % 2 == 0
    assert sequential["stopped"].startswith("seat 1's win rate B - A is decided")
    assert f"Stopped after {n} pairs of games ({sequential['looks']} looks): seat 1's win rate B - A is decided" in out
    games = [[json.loads(line) for line in (tmp_path / "out" / f"games-{x}.jsonl").read_text().splitlines()]
             for x in "ab"]
    assert len(games[0]) == len(games[1]) == n
    sequence = ConfidenceSequence()
    sequence.update([((1 in b["winners"]) - (1 in a["winners"]) + (1 in y["winners"]) - (1 in x["winners"])) / 4 + 0.5
                     for a, b, x, y in zip(games[0][::2], games[1][::2], games[0][1::2], games[1][1::2])])
    low, high = sequence.interval()
    headline = summary["metrics"][0]
    assert headline["metric"] == "Seat 1 win rate (plays first) (confidence sequence)"
    difference = headline["difference_b_minus_a"]
    assert difference["significant"] and difference["ci95"] == [round(2 * low - 1, 6), round(2 * high - 1, 6)]
    assert difference["ci95"][0] > 0 or difference["ci95"][1] < 0
    assert "stopped when its headline difference was known" in (tmp_path / "out" / "report.html").read_text()


def test_compare_with_precision_of_two_identical_decks_finds_no_difference(run_cli, tmp_path, monkeypatch):
    monkeypatch.setattr(outputs, "render_pdf", lambda html: b"%PDF-stub")
    code, out, err = run_cli("compare", DECKS / "symbiosis", DECKS / "symbiosis", "--mode", "duel", "--precision",
                             "5", "--games", "4000", "--seed", "1", "--jobs", "1", "--out", tmp_path / "out")
    assert code == 0, err
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["a"]["run"]["sequential"]["stopped"].startswith(
        "seat 1's win rate B - A is known to within 5 pp either side, +0.0 pp")
    difference = summary["metrics"][0]["difference_b_minus_a"]
    assert not difference["significant"] and difference["ci95"][0] <= 0 <= difference["ci95"][1]
    assert summary["paired_games"] < 4000
