"""Design inventions are marked in the data (`source: rulebook | design`), shown by info, the rulebook
and docs/rules, and filled honestly for the shipped decks (checked against the rulebook's text)."""

from __future__ import annotations

import json
import re

import jsonschema
import pytest

from cardtool.deck.loader import load_deck
from cardtool.games.ecologies import designed, rule_sources
from cardtool.games.ecologies.render.rulebook import EcologiesRulebook
from tests.conftest import DECKS, ROOT

RULEBOOK = (ROOT.parent / "shared" / "seeds" / "ecologies-bizarre-biomes-rulebook.txt")
DESIGNED_BASE = {"Cave (bonus)", "Swamp (bonus)", "Keystone Species", "Pollinators", "Mycorrhizal Network",
                 "Wildfire", "El Niño Rains", "Flood Pulse", "Coastal Fog"}


@pytest.fixture(scope="module")
def base():
    return load_deck(DECKS / "ecologies-bizarre-biomes")


def test_the_base_deck_marks_seven_factor_cards_and_the_cave_and_swamp_bonuses_as_design(base):
    assert set(designed(base)) == DESIGNED_BASE
    assert all(source in ("rulebook", "design") for _, source, _ in rule_sources(base))  # every rule marked
    factors = [(name, source) for name, source, _ in rule_sources(base) if "(bonus)" not in name]
    assert sum(source == "design" for _, source in factors) == 7 and len(factors) == 10


@pytest.mark.skipif(not RULEBOOK.exists(), reason="the rulebook's text is not on this machine")
def test_what_is_marked_rulebook_is_named_or_described_in_the_rulebook(base):
    text = RULEBOOK.read_text(encoding="utf-8").lower()
    described = {"Drought": "forces everyone to discard certain cards"}
    for name, source, _ in rule_sources(base):
        card = name.removesuffix(" (bonus)").lower()
        if source == "rulebook":
            assert card in text or described.get(name, "\0") in text, name
        elif "(bonus)" in name:
            assert not re.search(rf"healthy {card} ecology", text), name  # the rulebook states no such bonus


def test_every_rule_of_the_expansion_is_design():
    deck = load_deck(DECKS / "frozen-and-deep", standalone=True)
    assert {source for _, source, _ in rule_sources(deck)} == {"design"}


def test_info_lists_the_designed_cards_and_bonuses(run_cli):
    code, out, _ = run_cli("info", DECKS / "ecologies-bizarre-biomes")
    assert code == 0
    section = out[out.index("the project's own design"):]
    for name in DESIGNED_BASE:
        assert name in section
    assert "Invasive Species" not in section


def test_the_generated_rulebook_marks_exactly_the_designed_cards_and_bonuses(base):
    parts = {title: str(html) for title, html in EcologiesRulebook(base).reference()}
    marked = set(re.findall(r"<b>([^<]+)</b> <span class=\"design\"", parts["Factor cards"]))
    assert marked == {n for n in DESIGNED_BASE if "(bonus)" not in n}
    rows = re.findall(r"<td>([^<]+)</td><td>[^<]*<span class=\"design\"", parts["Biomes"])
    assert set(rows) == {"Cave", "Swamp"} and "not in the printed rulebook" in parts["Factor cards"]


def test_the_rules_page_lists_every_designed_rule(base):
    text = (ROOT / "docs" / "rules" / "ecologies.md").read_text(encoding="utf-8")
    section = text[text.index("## Rules of our own design"):text.index("## The rules engine")]
    for name in DESIGNED_BASE:
        assert name.removesuffix(" (bonus)") in section


@pytest.mark.parametrize("schema", ["ecologies/cards.schema.json", "symbiosis/cards.schema.json"])
def test_the_schemas_accept_only_rulebook_or_design(schema):
    definition = json.loads((ROOT / "schemas" / schema).read_text(encoding="utf-8"))
    text = json.dumps(definition)
    assert '"enum": ["rulebook", "design"]' in text
    source = definition["$defs"]["source"] if "source" in definition["$defs"] else \
        definition["$defs"]["card"]["properties"]["source"]
    jsonschema.validate("design", source)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate("invented", source)


def test_symbiosis_marks_as_rulebook_only_the_worked_example_cards_that_keep_their_printed_values():
    # The rulebook names six cards of its worked example; a deck value tuned away from the printed one is
    # the project's, so such a card is marked design (the example keeps the printed value itself).
    from cardtool.games.symbiosis.position import load_position
    from cardtool.games.symbiosis.table import CardTable

    deck = load_deck(DECKS / "symbiosis")
    table = CardTable.of(deck)
    printed = {table.cards[n].id: rule for n, rule in
               load_position(DECKS / "symbiosis" / "examples" / "worked-example.yaml", table).printed}
    named = {"spring-frog-per-pink", "autumn-snail-3", "summer-fish-per-fish", "winter-dragonfly-4",
             "spring-fish-5", "summer-dragonfly-2"}
    for card in deck.cards:
        as_printed = card.id in named and card.scoring == printed[card.id]
        assert card.source == ("rulebook" if as_printed else "design"), card.id
