"""`cardtool compare`: common random numbers, and which differences are significant."""

from __future__ import annotations

import json
import shutil

import pytest

from cardtool.sim import report
from tests.conftest import DECKS


@pytest.fixture
def stronger_deck(tmp_path):
    """The Symbiosis deck with one card (Old Carp, 7 fixed points) worth 30 points."""
    deck = tmp_path / "symbiosis-strong-carp"
    shutil.copytree(DECKS / "symbiosis", deck)
    cards = deck / "cards.yaml"
    text = cards.read_text()
    old = "  - id: winter-fish-7\n    name: Old Carp\n    animal: fish\n    season: winter\n    scoring: {rule: fixed, points: 7}"
    assert old in text
    cards.write_text(text.replace(old, old.replace("points: 7}", "points: 30}")))
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
    monkeypatch.setattr(report, "render_pdf", lambda html: b"%PDF-stub")
    code, out, _ = _compare(run_cli, DECKS / "symbiosis", DECKS / "symbiosis", tmp_path)
    assert code == 0 and "0 significant difference(s)" in out
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert not any(m["difference_b_minus_a"]["significant"] for m in summary["metrics"] + summary["cards"])
    # common random numbers: the same seeds give the very same games
    assert (tmp_path / "games-a.jsonl").read_text() == (tmp_path / "games-b.jsonl").read_text()


def test_decks_of_different_games_cannot_be_compared(run_cli, tmp_path):
    code, _, err = run_cli("compare", DECKS / "symbiosis", DECKS / "ecologies-bizarre-biomes", "--out", tmp_path)
    assert code == 2 and "cannot compare" in err and "Traceback" not in err
