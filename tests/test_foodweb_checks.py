"""Each food-web check trips on a fixture deck built to break it, at the right card and field."""

from __future__ import annotations

from fractions import Fraction

import pytest

from cardtool.deck.loader import load
from cardtool.deck.model import Manifest
from cardtool.games.ecologies.model import EcologiesDeck, Organism
from cardtool.games.ecologies.webs import feedable, find_witness, metrics, trophic_levels
from tests.conftest import DATA

FIXTURES = DATA / "foodweb"

# case: (severity, code, card, text on the reported line)
CASES = {
    "one-sided-link": ("error", "one-sided-link", "trout", "mayfly"),
    "no-shared-biome": ("error", "no-shared-biome", "frog", "mayfly"),
    "producer-eats": ("error", "producer-eats", "algae", "eats:"),
    "role-without-food": ("error", "role-without-food", "kingfisher", "C4"),
    "unplayable": ("error", "unplayable", "leech", "roles:"),
    "unhealthy-biome": ("error", "unhealthy-biome", "riparian", "code: RIP"),
    "uneaten-producer": ("warning", "uneaten-producer", "cattail", "eaten_by:"),
    "single-card-role": ("warning", "single-card-role", "riparian", "code: RIP"),
    "trophic-level-mismatch": ("warning", "trophic-level-mismatch", "odd-bird", "roles:"),
    "vp-not-rising": ("warning", "vp-not-rising", "eagle", "vp:"),
}


def test_valid_fixture_is_clean():
    assert load(FIXTURES / "valid").report.issues == []


@pytest.mark.parametrize("case", sorted(CASES))
def test_check_trips_on_its_fixture(case):
    severity, code, card, text = CASES[case]
    report = load(FIXTURES / case).report
    found = [i for i in report.issues if i.code == code]
    assert found, report.format()
    issue = found[0]
    assert issue.severity.value == severity
    assert issue.card == card
    line = issue.location.file.read_text().splitlines()[issue.location.line - 1]
    assert text in line


def test_unhealthy_biome_says_which_role_is_missing():
    [issue] = [i for i in load(FIXTURES / "unhealthy-biome").report.errors]
    assert "no organism of this biome can act as SD" in issue.message


def test_witness_is_five_distinct_fed_cards():
    deck = load(FIXTURES / "valid").deck
    witness = find_witness(deck, "RIP")
    assert set(witness) == {"P", "C1", "C2", "C3", "SD"}
    assert len(set(witness.values())) == 5
    assert witness["P"] in deck.card(witness["C1"]).eats
    assert witness["C2"] in deck.card(witness["C3"]).eats


def test_sd_is_fed_by_any_other_organism():
    deck = load(FIXTURES / "valid").deck
    assert ("worm", "SD") in feedable(deck, "RIP")


def _organism(oid, roles, eats):
    return Organism(id=oid, kind="organism", name=oid, count=1, biomes=("RIP",), roles=tuple(roles),
                    vp=Fraction(1), eats=tuple(eats), eaten_by=())


def test_trophic_levels_match_a_hand_computed_web():
    # A producer; B eats A; C eats A and B; D eats B and C; S is an SD-only card that D also eats.
    # By hand (level = 1 + mean level of prey): A 1, B 2, C 1 + (1 + 2)/2 = 2.5,
    # D 1 + (2 + 2.5)/2 = 3.25 with S left out (an SD eats everything and has no level of its own).
    cards = (_organism("a", ["P"], []), _organism("b", ["C1"], ["a"]), _organism("c", ["C1", "C2"], ["a", "b"]),
             _organism("d", ["C2", "C3"], ["b", "c", "s"]), _organism("s", ["SD"], []))
    manifest = Manifest(id="t", name="t", version="1", game="ecologies", card_files=(), root=FIXTURES)
    deck = EcologiesDeck(manifest=manifest, cards=cards, biome_codes=("RIP",))
    levels = trophic_levels(deck)
    assert levels == pytest.approx({"a": 1.0, "b": 2.0, "c": 2.5, "d": 3.25})


def test_metrics_of_the_valid_fixture():
    m = metrics(load(FIXTURES / "valid").deck, "RIP")
    # 11 organisms; links: mayfly 1, caddis 2, trout 2, frog 1, kingfisher 2, heron 2, eagle 2 = 12
    assert (m.species, m.links) == (11, 12)
    assert m.connectance == pytest.approx(12 / 121)
    assert m.longest_chain == 4  # algae -> mayfly -> trout -> heron -> eagle
    assert m.top == pytest.approx(1 / 11)  # only the eagle has prey and no predator
