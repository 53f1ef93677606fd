"""Each biome bonus and each factor card, every other turn, and targeting, as the engine plays them from
the deck's effect data (docs/effects.md); the expansion's cards play without code of their own."""

from __future__ import annotations

import pytest

from cardtool.deck.loader import load_deck
from cardtool.games.ecologies import effects
from cardtool.games.ecologies.actions import (
    END_PHASE, ChooseCard, ChoosePlayer, Draw, Play, UseBonus)
from cardtool.games.ecologies.engine import EcologiesGame
from cardtool.games.ecologies.scenario import position
from tests.conftest import DECKS
from tests.test_ecologies_rules import HEALTHY, do, eco, healthy, num, plays_of


@pytest.fixture(scope="module")
def deck():
    return load_deck(DECKS / "ecologies-bizarre-biomes")


@pytest.fixture(scope="module")
def expansion():
    return load_deck(DECKS / "frozen-and-deep")


def bonuses(state) -> list[UseBonus]:
    return [a for a in state.legal_actions() if isinstance(a, UseBonus)]


def end_turns(state, count: int) -> None:
    """End `count` whole turns from the current phase (trade, play or purchase)."""
    for _ in range(count):
        while True:
            phase = state.phase
            do(state, END_PHASE)
            if phase == "purchase":
                break


# -- biome bonuses


def test_vernal_pool_bonus_makes_a_chosen_opponent_discard_a_random_card(deck):
    state = position(EcologiesGame(deck, 3), ecologies=[healthy(0, "VER")],
                     hands={1: ["toyon", "chamise"], 2: ["mule-deer"]})
    [use] = bonuses(state)
    do(state, use)
    assert set(state.legal_actions()) == {ChoosePlayer(1), ChoosePlayer(2)}  # the player targets
    do(state, ChoosePlayer(1))
    assert len(state.hands[1]) == 1 and state.discard[-1] in (num(state, "toyon"), num(state, "chamise"))


def test_mangrove_bonus_gives_a_vp_per_c4_in_any_biome_and_its_owner_arranges_for_c4s(deck):
    state = position(EcologiesGame(deck, 2), ecologies=[
        (0, "mangrove", ["black-mangrove", "mangrove-tree-crab", "fiddler-crab", "gray-snapper", "common-snook", "osprey"]),
        (0, "riparian", ["green-algae", "caddisfly-larva", "pacific-tree-frog", "rainbow-trout", "great-blue-heron"])])
    assert eco(state, 0, "MAN").role_of(num(state, "osprey")) == "C4"
    assert eco(state, 0, "RIP").role_of(num(state, "great-blue-heron")) == "C4"
    organisms = 9 + 9  # the Rainbow Trout is 3 VP from 0.5.0
    assert state.vp(0) == organisms + 2


def test_riparian_bonus_plays_producers_without_using_a_play_in_any_phase(deck):
    state = position(EcologiesGame(deck, 2), phase="trade", ecologies=[healthy(0, "RIP"), (0, "chaparral", [])],
                     hands={0: ["arroyo-willow", "toyon", "mule-deer"]})
    assert plays_of(state) == {Play(num(state, "arroyo-willow"), eco(state, 0, "RIP").biome),
                               Play(num(state, "toyon"), eco(state, 0, "CHA").biome)}
    do(state, Play(num(state, "toyon"), eco(state, 0, "CHA").biome))
    assert state.plays_used == 0


def test_riparian_bonus_lets_its_owner_replant_out_of_turn_when_a_producer_is_destroyed(deck):
    state = position(EcologiesGame(deck, 2), ecologies=[healthy(1, "RIP")], hands={0: ["wildfire"], 1: ["arroyo-willow"]})
    do(state, Play(num(state, "wildfire")), ChooseCard(num(state, "green-algae")))
    rip = eco(state, 1, "RIP")
    assert state.current_player == 1 and not rip.healthy  # the web is bare; its owner may answer at once
    do(state, Play(num(state, "arroyo-willow"), rip.biome))
    rip = eco(state, 1, "RIP")
    assert len(rip.cards) == 5 and rip.healthy and state.current_player == 0 and not state.limbo
    assert not any(e[1] == "discard" and e[4] == "starved" for e in state.events)


def test_cave_bonus_takes_a_card_of_choice_from_the_discard_pile(deck):
    state = position(EcologiesGame(deck, 2), ecologies=[healthy(0, "CAV")], discard=["toyon", "osprey", "chamise"])
    do(state, bonuses(state)[0])
    assert {a.card for a in state.legal_actions()} == {num(state, c) for c in ("toyon", "osprey", "chamise")}
    do(state, ChooseCard(num(state, "osprey")))
    assert state.hands[0] == [num(state, "osprey")] and num(state, "osprey") not in state.discard


def test_urban_bonus_draws_from_the_discard_pile_on_its_owners_turn(deck):
    state = position(EcologiesGame(deck, 2), seat=1, phase="purchase", ecologies=[healthy(0, "URB")],
                     discard=["osprey"])
    do(state, END_PHASE)
    assert state.current_player == 0 and set(state.legal_actions()) == {Draw(False), Draw(True)}
    do(state, Draw(True))
    assert num(state, "osprey") in state.hands[0] and not state.discard
    assert len(state.hands[0]) == 2 and state.phase == "trade"  # the discard pile is empty: from the deck


def test_chaparral_bonus_forces_a_trade_giving_a_chosen_card_for_a_random_one(deck):
    state = position(EcologiesGame(deck, 2), ecologies=[healthy(0, "CHA")],
                     hands={0: ["osprey", "mule-deer"], 1: ["chamise"]})
    do(state, bonuses(state)[0], ChoosePlayer(1), ChooseCard(num(state, "osprey")))
    assert sorted(state.hands[0]) == sorted([num(state, "mule-deer"), num(state, "chamise")])
    assert state.hands[1] == [num(state, "osprey")]


def test_swamp_bonus_gives_an_extra_play(deck):
    state = position(EcologiesGame(deck, 2), ecologies=[healthy(0, "SWA")], hands={0: ["cave", "urban", "mangrove"]})
    do(state, Play(num(state, "cave")), Play(num(state, "urban")))
    assert plays_of(state) == {Play(num(state, "mangrove"))}


# -- every other turn


def test_every_other_turn_is_usable_the_first_turn_then_after_two_of_its_owners_turns(deck):
    state = position(EcologiesGame(deck, 2), phase="trade", ecologies=[healthy(0, "VER")],
                     hands={1: ["toyon", "chamise"]})
    do(state, bonuses(state)[0], ChoosePlayer(1))
    assert not bonuses(state)
    end_turns(state, 2)
    assert state.seat == 0 and not bonuses(state)
    end_turns(state, 2)
    assert state.seat == 0 and bonuses(state)


def test_every_other_turn_is_not_reset_by_breaking_and_restoring_health(deck):
    state = position(EcologiesGame(deck, 2), ecologies=[healthy(0, "VER")], hands={1: ["toyon", "chamise"]})
    do(state, bonuses(state)[0], ChoosePlayer(1))
    ver = eco(state, 0, "VER")
    top = num(state, "california-tiger-salamander")
    state.arrange_eco(ver.biome, tuple(c for c in ver.cards if c != top))
    assert not eco(state, 0, "VER").healthy
    state.arrange_eco(ver.biome, eco(state, 0, "VER").cards + (top,))
    assert eco(state, 0, "VER").healthy and not bonuses(state)


def test_bonuses_stack_each_healthy_ecology_with_its_own_count(deck):
    second = ["green-algae", "vernal-pool-fairy-shrimp", "vernal-pool-tadpole-shrimp", "backswimmer",
              "predaceous-diving-beetle"]
    game = EcologiesGame(deck, 2)
    game.target_vp = 99  # two healthy webs are worth 12 1/2 VP: keep playing
    state = position(game, ecologies=[healthy(0, "VER"), (0, "vernal-pool", second)],
                     hands={1: ["toyon", "chamise", "mule-deer"]})
    first, other = bonuses(state)
    do(state, first, ChoosePlayer(1))
    assert bonuses(state) == [other]
    do(state, other, ChoosePlayer(1))
    assert len(state.hands[1]) == 1


# -- factor cards


def test_nitrogen_fixing_bacteria_draws_for_its_placer_when_the_web_gains_a_card_even_an_opponents(deck):
    state = position(EcologiesGame(deck, 2), ecologies=[(1, "cave", ["sulfur-oxidizing-bacteria"])],
                     hands={0: ["nitrogen-fixing-bacteria"], 1: ["cave-amphipod"]})
    cave = eco(state, 1, "CAV").biome
    do(state, Play(num(state, "nitrogen-fixing-bacteria"), cave), END_PHASE, END_PHASE)
    end_turns(state, 0)
    do(state, END_PHASE, Play(num(state, "cave-amphipod"), cave))
    assert len(state.hands[0]) == 1 and state.events[-1][1:3] == ("draw", 0)


def test_invasive_species_destroys_an_opponents_organism_by_the_role_it_acts_in_now(deck):
    state = position(EcologiesGame(deck, 2), hands={0: ["invasive-species"]}, ecologies=[
        (1, "cave", ["sulfur-oxidizing-bacteria", "iron-oxidizing-bacteria", "cave-crayfish", "cave-spider",
                     "cave-cricket"])])
    cave = eco(state, 1, "CAV")
    assert cave.role_of(num(state, "cave-crayfish")) in ("C1", "SD")  # it could be a C2, but is not now
    do(state, Play(num(state, "invasive-species")))
    assert {a.card for a in state.legal_actions()} == {num(state, "cave-spider")}
    do(state, ChooseCard(num(state, "cave-spider")))
    assert state.current_player == 1 and state.stack[-1][0] == "arrange"  # its owner reorders what is left
    do(state, state.legal_actions()[0])
    assert num(state, "cave-spider") in state.discard and num(state, "invasive-species") == state.discard[-1]


def test_keystone_species_gives_one_vp_while_on_the_table(deck):
    # 0.4.0: +1 VP (0.1.0 to 0.3.0: +2)
    state = position(EcologiesGame(deck, 2), hands={0: ["keystone-species"]})
    do(state, Play(num(state, "keystone-species")))
    assert state.vp(0) == 1 and state.vp(1) == 0


def test_pollinators_gives_a_vp_per_own_producer_of_a_flowering_biome(deck):
    # 0.2.0: only the producers of CHA, URB, VER and RIP count, not the Cave's bacteria
    state = position(EcologiesGame(deck, 2), hands={0: ["pollinators"]},
                     ecologies=[(0, "chaparral", ["chamise", "toyon", "dusky-footed-woodrat"]),
                                (0, "cave", ["sulfur-oxidizing-bacteria", "iron-oxidizing-bacteria", "cave-amphipod"]),
                                (1, "chaparral", ["coast-live-oak"])])
    before = state.vp(0)
    do(state, Play(num(state, "pollinators")))
    assert state.vp(0) == before + 2 and state.vp(1) == 0.5


@pytest.mark.parametrize("owner", [0, 1])
def test_mycorrhizal_network_shields_every_players_producers_from_being_targeted(deck, owner):
    # 0.4.0: whoever keeps it, no player's producers can be targeted (0.1.0 to 0.3.0: its owner's only),
    # so Wildfire has nothing to aim at, even for the card's own owner
    state = position(EcologiesGame(deck, 2), hands={0: ["wildfire"]}, table_factors=[("mycorrhizal-network", owner)],
                     ecologies=[(1, "chaparral", ["toyon", "dusky-footed-woodrat"])])
    assert not plays_of(state)


def test_mycorrhizal_network_leaves_organisms_above_the_producers_open_to_attack(deck):
    state = position(EcologiesGame(deck, 3), hands={0: ["invasive-species"]}, table_factors=[("mycorrhizal-network", 1)],
                     ecologies=[(1, "chaparral", ["toyon", "dusky-footed-woodrat", "gopher-snake"])])
    assert eco(state, 1, "CHA").role_of(num(state, "gopher-snake")) in ("C2", "C3")
    assert plays_of(state) == {Play(num(state, "invasive-species"))}


def test_drought_makes_every_player_discard_vernal_pool_riparian_and_swamp_organisms(deck):
    state = position(EcologiesGame(deck, 2), hands={0: ["drought", "green-algae", "toyon"],
                                                    1: ["duckweed", "midge-larva", "osprey", "chamise", "swamp"]})
    do(state, Play(num(state, "drought")))
    assert state.hands[0] == [num(state, "toyon")]
    assert sorted(state.hands[1]) == sorted([num(state, "chamise"), num(state, "swamp")])


def test_wildfire_spares_the_producers_of_a_cave_and_a_mangrove(deck):
    # 0.4.0: no fire reaches a cave, nor a tidal mangrove forest; the chaparral burns
    state = position(EcologiesGame(deck, 2), hands={0: ["wildfire"]},
                     ecologies=[(1, "cave", ["sulfur-oxidizing-bacteria"]), (1, "mangrove", ["red-mangrove"])])
    assert not plays_of(state)
    state = position(EcologiesGame(deck, 2), hands={0: ["wildfire"]},
                     ecologies=[(1, "cave", ["sulfur-oxidizing-bacteria"]), (1, "chaparral", ["chamise"])])
    do(state, Play(num(state, "wildfire")))
    assert {a.card for a in state.legal_actions()} == {num(state, "chamise")}


def test_wildfire_destroys_an_opponents_producer_and_what_starves_is_discarded(deck):
    state = position(EcologiesGame(deck, 2), hands={0: ["wildfire"]}, ecologies=[healthy(1, "CHA")])
    do(state, Play(num(state, "wildfire")))
    assert {a.card for a in state.legal_actions()} == {num(state, "toyon")}
    do(state, ChooseCard(num(state, "toyon")))
    assert eco(state, 1, "CHA").cards == () and len(state.discard) == 6


def test_el_nino_rains_draws_two_cards(deck):
    # 0.5.0: 2 (0.1.0 to 0.4.0: 3)
    state = position(EcologiesGame(deck, 2), hands={0: ["el-nino-rains"]})
    do(state, Play(num(state, "el-nino-rains")))
    assert len(state.hands[0]) == 2 and state.discard == [num(state, "el-nino-rains")]


def test_flood_pulse_takes_one_card_of_choice_from_the_discard_pile(deck):
    # 0.5.0: 1 (0.1.0 to 0.4.0: 2)
    state = position(EcologiesGame(deck, 2), hands={0: ["flood-pulse"]}, discard=["toyon", "osprey", "chamise"])
    do(state, Play(num(state, "flood-pulse")), ChooseCard(num(state, "osprey")))
    assert state.hands[0] == [num(state, "osprey")]
    assert state.discard == [num(state, "toyon"), num(state, "chamise"), num(state, "flood-pulse")]  # not itself


def test_coastal_fog_draws_an_extra_card_at_the_start_of_every_other_own_turn(deck):
    # 0.5.0: every other turn (`every: 2` on a turn_start effect); 0.1.0 to 0.4.0 drew on every turn
    state = position(EcologiesGame(deck, 2), seat=1, phase="purchase", table_factors=[("coastal-fog", 0)])
    sizes = []
    for _ in range(3):
        do(state, END_PHASE)  # seat 0's turn starts: the fog (when ready), then the draw of 2
        sizes.append(len(state.hands[0]))
        while not (state.current_player == 1 and state.phase == "purchase"):
            do(state, END_PHASE)  # seat 0 plays nothing and buys nothing; seat 1 likewise
    assert sizes == [3, 5, 8]


# -- targeting


def test_targeting_an_opponent_is_choosing_them_and_protection_forbids_it(expansion):
    tundra = ["tussock-cottongrass", "brown-lemming", "arctic-mosquito", "lapland-longspur", "arctic-fox"]
    state = position(EcologiesGame(expansion, 3), hands={0: ["invasive-species", "nitrogen-fixing-bacteria"]},
                     ecologies=[(1, "tundra", tundra), (2, "cave", HEALTHY["CAV"][1])])
    do(state, Play(num(state, "invasive-species")))
    candidates = {a.card for a in state.legal_actions()}
    assert candidates == {num(state, "cave-spider"), num(state, "cave-centipede")}  # not the tundra's
    do(state, ChooseCard(num(state, "cave-spider")))
    if state.stack and state.stack[-1][0] == "arrange":  # seat 2 reorders its disturbed web
        do(state, state.legal_actions()[0])
    webs = {a.ecology for a in plays_of(state)}
    assert webs == {eco(state, 2, "CAV").biome}  # placing a card on a web targets its owner


def test_effects_on_each_player_do_not_target_and_reach_protected_players(expansion):
    tundra = ["tussock-cottongrass", "brown-lemming", "arctic-mosquito", "lapland-longspur", "arctic-fox"]
    state = position(EcologiesGame(expansion, 2), hands={0: ["drought"], 1: ["green-algae"]},
                     ecologies=[(1, "tundra", tundra)])
    do(state, Play(num(state, "drought")))
    assert state.hands[1] == []


# -- an expansion's cards, from data alone


def test_hydrothermal_vent_bonus_draws_an_extra_card_at_turn_start(expansion):
    vent = ["vent-symbiotic-bacteria", "giant-tube-worm", "vent-amphipods", "vent-fireworm", "pink-vent-fish"]
    state = position(EcologiesGame(expansion, 2), seat=1, phase="purchase", ecologies=[(0, "hydrothermal-vent", vent)])
    assert eco(state, 0, "VNT").healthy
    do(state, END_PHASE)
    assert len(state.hands[0]) == 3


def test_the_expansion_wildfire_spares_the_vent_by_the_biome_its_card_sits_in(expansion):
    vent = ["vent-symbiotic-bacteria", "giant-tube-worm"]
    state = position(EcologiesGame(expansion, 2), hands={0: ["wildfire"]},
                     ecologies=[(1, "hydrothermal-vent", vent), (1, "cave", ["sulfur-oxidizing-bacteria"]),
                                (1, "chaparral", ["chamise"])])
    do(state, Play(num(state, "wildfire")))
    # the Cave is spared as in the base game (0.4.0); the chaparral burns
    assert {a.card for a in state.legal_actions()} == {num(state, "chamise")}


def test_permafrost_thaw_takes_only_organisms_from_the_discard_pile(expansion):
    state = position(EcologiesGame(expansion, 2), hands={0: ["permafrost-thaw"]}, discard=["toyon", "cave", "drought"])
    do(state, Play(num(state, "permafrost-thaw")))
    assert {a.card for a in state.legal_actions()} == {num(state, "toyon")}


def test_effect_words_are_implemented_once_for_every_word_of_the_vocabulary():
    import json

    from cardtool.resources import schemas_dir

    schema = json.loads((schemas_dir() / "ecologies" / "cards.schema.json").read_text())
    words = set(schema["$defs"]["effect"]["properties"]["action"]["enum"])
    assert words == set(effects.WORDS)
