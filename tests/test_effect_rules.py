"""Effects must be sentences the vocabulary can mean; each refusal is located at the effect."""

from __future__ import annotations

import pytest

from cardtool.deck.loader import load
from tests.conftest import DATA, DECKS

CASES = {
    # case: (card, the value the location points at)
    "web-trigger-on-table-card": ("mulch", "web_gains_card"),
    "every-on-ongoing": ("sun", "2, action: gain_vp"),
    "one-off-ongoing": ("rain", "discard,"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_effect_mismatch_is_located(case):
    card, text = CASES[case]
    [issue] = load(DATA / "effects" / case).report.errors
    assert (issue.code, issue.card) == ("effect-mismatch", card)
    line = issue.location.file.read_text().splitlines()[issue.location.line - 1]
    assert line[issue.location.column - 1:].startswith(text)


def test_base_deck_effects_are_all_meaningful():
    deck = load(DECKS / "ecologies-bizarre-biomes").deck
    triggers = {e.trigger for f in deck.factors for e in f.effects} | {e.trigger for b in deck.biomes for e in b.bonus}
    assert {"play", "ongoing", "activated", "web_gains_card"} <= triggers


def test_base_deck_has_the_rulebook_factor_cards():
    deck = load(DECKS / "ecologies-bizarre-biomes").deck
    by_id = {f.id: f for f in deck.factors}
    nitrogen = by_id["nitrogen-fixing-bacteria"]
    assert nitrogen.placement == "web" and nitrogen.effects[0].trigger == "web_gains_card"
    assert nitrogen.effects[0].target == "placer"
    invasive = by_id["invasive-species"]
    assert invasive.effects[0].action == "destroy" and set(invasive.effects[0].filter.acting) == {"C2", "C3", "C4"}
    assert any(e.action == "discard_matching" and e.target == "each_player" for f in deck.factors for e in f.effects)
    assert any(e.action in ("gain_vp", "vp_per") for f in deck.factors for e in f.effects)
    assert {"table", "discard", "web"} == {f.placement for f in deck.factors}


def test_base_deck_counts_match_the_rulebook():
    deck = load(DECKS / "ecologies-bizarre-biomes").deck
    assert deck.size == 108
    assert sum(c.count for c in deck.organisms) == 77 and len(deck.organisms) == 77
    assert sum(c.count for c in deck.biomes) == 21 and all(b.count == 3 for b in deck.biomes)
    assert sum(c.count for c in deck.factors) == 10
    assert {b.code for b in deck.biomes} == {"VER", "MAN", "RIP", "CAV", "URB", "CHA", "SWA"}
