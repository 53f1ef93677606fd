"""The arrangement solver: feeding rules (SD, C2 eating an SD, health), optimality against brute force, and
the reasons it gives for cards that cannot be fed."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtool.deck.loader import load_deck
from cardtool.games.ecologies.arrange import (
    NO_WEIGHTS, ROLE_NAMES, arrange, fits, is_healthy, valid, why_unfed)
from cardtool.games.ecologies.table import CardTable
from tests.conftest import DATA, DECKS


@pytest.fixture(scope="module")
def table():
    return CardTable.of(load_deck(DECKS / "ecologies-bizarre-biomes"))


@pytest.fixture(scope="module")
def small():
    return CardTable.of(load_deck(DATA / "foodweb" / "valid"))


def cards(table: CardTable, *ids: str) -> list[int]:
    return [table.find(i)[0] for i in ids]


def roles(table: CardTable, code: str, *ids: str) -> dict[str, str | None]:
    result = arrange(table, code, cards(table, *ids))
    return {table.ids[c]: r for c, r in zip(result.cards, result.roles)}


def test_an_sd_is_fed_by_any_producer_in_its_web(table):
    assert roles(table, "CAV", "cave-cricket", "iron-oxidizing-bacteria")["cave-cricket"] == "SD"
    assert roles(table, "CAV", "cave-cricket")["cave-cricket"] is None


def test_two_sds_alone_do_not_feed_each_other(small):
    assert set(roles(small, "RIP", "crayfish", "worm").values()) == {None}


def test_a_card_eating_an_sd_acts_as_c2(table):
    assert roles(table, "CAV", "sulfur-oxidizing-bacteria", "cave-cricket", "cave-spider") == {
        "sulfur-oxidizing-bacteria": "P", "cave-cricket": "SD", "cave-spider": "C2"}


def test_each_role_eats_a_card_acting_one_row_below(small):
    assert roles(small, "RIP", "algae", "mayfly", "trout", "kingfisher", "eagle") == {
        "algae": "P", "mayfly": "C1", "trout": "C2", "kingfisher": "C3", "eagle": "C4"}
    assert roles(small, "RIP", "algae", "trout")["trout"] is None  # nothing acts as C1 for it


def test_a_healthy_web_needs_five_different_cards(small):
    core = ["algae", "mayfly", "crayfish", "trout", "kingfisher"]
    assert arrange(small, "RIP", cards(small, *core)).healthy
    for four in itertools.combinations(core, 4):
        assert not arrange(small, "RIP", cards(small, *four)).healthy
    assert not is_healthy(["P", "C1", "C2", "C3"]) and is_healthy(["P", "C1", "SD", "C2", "C3", "C4"])


def test_an_organism_outside_its_biomes_is_never_fed(table):
    assert roles(table, "RIP", "green-algae", "cave-spider")["cave-spider"] is None


def test_the_solver_keeps_the_most_cards_before_health(table):
    web = ["midge-larva", "american-beaver", "bald-cypress", "oyster-mushroom", "red-swamp-crayfish",
           "american-bullfrog"]
    assert arrange(table, "SWA", cards(table, *web)).healthy
    # the spoonbill eats only the crayfish here, which must then act as C1 or SD, not as the web's C2/C3
    result = arrange(table, "SWA", cards(table, *web, "roseate-spoonbill"))
    assert None not in result.roles and not result.healthy


def test_role_weights_prefer_the_roles_that_score(table):
    web = cards(table, "black-mangrove", "mangrove-tree-crab", "fiddler-crab", "gray-snapper", "common-snook", "osprey")
    plain = arrange(table, "MAN", web)
    weighted = arrange(table, "MAN", web, (0, 0, 0, 0, 0, 1))
    assert weighted.role_of(cards(table, "osprey")[0]) == "C4" and weighted.value == 1
    assert plain.healthy and weighted.healthy


def test_arrangements_are_memoised_per_deck(table):
    web = cards(table, "dandelion", "brown-garden-snail")
    first = arrange(table, "URB", web)
    assert ("URB", tuple(table.def_of[c] for c in first.cards), NO_WEIGHTS) in table.arrangements
    assert arrange(table, "URB", list(reversed(web))) == first


def test_why_a_card_cannot_be_fed_names_its_prey_and_their_roles(table):
    web = cards(table, "cave-spider", "cave-centipede", "cave-springtail")
    result = arrange(table, "CAV", web)
    spider = cards(table, "cave-spider")[0]
    assert why_unfed(table, "CAV", result, spider) == (
        "as C2 it needs prey acting as C1 or SD, and its prey here are cave-springtail (not fed)")
    heron = cards(table, "great-blue-heron")[0]
    assert why_unfed(table, "CAV", result, heron) == "it does not live in CAV (it lives in RIP, VER)"


def _brute_force(table: CardTable, code: str, web: list[int], weights) -> tuple:
    best = None
    for combo in itertools.product(*[list(table.roles[c]) + [None] for c in web]):
        kept = [(c, r) for c, r in zip(web, combo) if r]
        if valid(table, code, [c for c, _ in kept], [r for _, r in kept]):
            continue
        key = (len(kept), is_healthy(combo), sum(weights[ROLE_NAMES.index(r)] for _, r in kept))
        best = key if best is None or key > best else best
    return best


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_the_solver_is_optimal_against_brute_force(table, data):
    code = data.draw(st.sampled_from(table.codes))
    living = [c for c in table.organism_cards if code in table.biomes[c]]
    web = data.draw(st.lists(st.sampled_from(living), min_size=1, max_size=7, unique=True))
    weights = data.draw(st.sampled_from([NO_WEIGHTS, (0, 0, 0, 0, 0, 1), (1, 0, 0, 0, 0, 0)]))
    result = arrange(table, code, web, weights)
    kept = [(c, r) for c, r in zip(result.cards, result.roles) if r]
    assert not valid(table, code, [c for c, _ in kept], [r for _, r in kept])
    assert (len(kept), result.healthy, result.value) == _brute_force(table, code, web, weights)
    assert fits(table, code, web) == (len(kept) == len(web))
