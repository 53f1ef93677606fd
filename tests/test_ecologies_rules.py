"""Ecologies rules, one test per rule as docs/rules/ecologies.md states it: turns, trading, playing,
moving, destroying and rearranging, purchases, the deck, the end, and the single-player and simplified games."""

from __future__ import annotations

from fractions import Fraction

import pytest

from cardtool.deck.loader import load_deck
from cardtool.engine.playout import play
from cardtool.engine.protocol import apply_checked
from cardtool.errors import IllegalActionError
from cardtool.games import GAMES
from cardtool.games.ecologies import effects
from cardtool.games.ecologies.actions import (
    END_PHASE, Accept, BuyWith, Decline, DestroyEcology, Discard, Move, Offer, Play)
from cardtool.games.ecologies.engine import EcologiesGame
from cardtool.games.ecologies.scenario import position
from tests.conftest import DECKS

#: A healthy five-card web of each base biome: (biome card id, organisms).
HEALTHY = {
    "CAV": ("cave", ["sulfur-oxidizing-bacteria", "cave-amphipod", "cave-springtail", "cave-spider", "cave-centipede"]),
    "RIP": ("riparian", ["green-algae", "caddisfly-larva", "mayfly-nymph", "rainbow-trout", "river-otter"]),
    "CHA": ("chaparral", ["toyon", "dusky-footed-woodrat", "stink-beetle", "gopher-snake", "red-tailed-hawk"]),
    "URB": ("urban", ["dandelion", "eastern-fox-squirrel", "brown-garden-snail", "norway-rat", "barn-owl"]),
    "SWA": ("swamp", ["duckweed", "apple-snail", "oyster-mushroom", "american-bullfrog", "cottonmouth"]),
    "VER": ("vernal-pool", ["fremonts-goldfields", "mining-bee", "midge-larva", "western-spadefoot",
                            "california-tiger-salamander"]),
    "MAN": ("mangrove", ["benthic-diatoms", "pink-shrimp", "fiddler-crab", "roseate-spoonbill",
                         "american-crocodile"]),
}


@pytest.fixture(scope="module")
def deck():
    return load_deck(DECKS / "ecologies-bizarre-biomes")


def healthy(owner: int, code: str, *extra: str) -> tuple:
    biome, organisms = HEALTHY[code]
    return (owner, biome, organisms + list(extra))


def num(state, card_id: str) -> int:
    """The card number of a card id (the first copy: the one `position` places first)."""
    return state.game.table.find(card_id)[0]


def eco(state, owner: int, code: str):
    return next(e for e in state.ecos.values() if e.owner == owner and e.code == code)


def do(state, *actions) -> None:
    for action in actions:
        apply_checked(state, action)


def plays_of(state) -> set:
    return {a for a in state.legal_actions() if isinstance(a, Play)}


# -- setup and turns


def test_deal_gives_each_seat_seven_cards_and_the_first_player_draws_two(deck):
    state = EcologiesGame(deck, 4, "multi", 3, opening="equal").new_initial_state()  # the rulebook's draw
    assert [len(h) for h in state.hands] == [9, 7, 7, 7]
    assert len(state.deck) == 108 - 30 and state.current_player == 0 and state.phase == "trade"
    state = EcologiesGame(deck, 4, "multi", 3).new_initial_state()  # the shipped deck's: P1 draws 3 first
    assert [len(h) for h in state.hands] == [10, 7, 7, 7]


def test_a_turn_is_trade_then_play_then_purchase_then_the_next_seat_draws_two(deck):
    state = EcologiesGame(deck, 3, "multi", 3).new_initial_state()
    do(state, END_PHASE)
    assert state.phase == "play"
    do(state, END_PHASE)
    assert state.phase == "purchase"
    do(state, END_PHASE)
    assert state.seat == 1 and state.phase == "trade" and len(state.hands[1]) == 9


def test_a_round_is_one_turn_of_every_seat(deck):
    state = EcologiesGame(deck, 3, "multi", 3).new_initial_state()
    for _ in range(3 * 3):
        do(state, END_PHASE)
    assert state.round == 2 and state.seat == 0


# -- trading


def test_an_offer_goes_to_the_table_and_the_first_seat_to_accept_trades(deck):
    state = position(EcologiesGame(deck, 3, seed=1), phase="trade",
                     hands={0: ["toyon"], 1: ["cave-spider"], 2: ["cave-amphipod"]})
    toyon, spider, amphipod = num(state, "toyon"), num(state, "cave-spider"), num(state, "cave-amphipod")
    do(state, Offer(toyon))
    assert state.current_player == 1 and set(state.legal_actions()) == {Accept(spider), Decline()}
    do(state, Decline())
    assert state.current_player == 2
    do(state, Accept(amphipod))
    assert state.hands[0] == [amphipod] and state.hands[2] == [toyon] and state.hands[1] == [spider]
    assert state.current_player == 0 and state.phase == "trade"


def test_an_offer_is_put_to_every_opponent_and_one_without_a_card_of_the_biome_can_only_decline(deck):
    state = position(EcologiesGame(deck, 3, seed=1), phase="trade", ecologies=[(0, "cave", [])],
                     hands={0: ["toyon"], 1: ["chamise"], 2: ["cave-spider", "mule-deer"]})
    do(state, Offer(num(state, "toyon"), "CAV"))
    assert state.current_player == 1 and state.legal_actions() == [Decline()]
    do(state, Decline())
    assert state.current_player == 2
    assert set(state.legal_actions()) == {Accept(num(state, "cave-spider")), Decline()}


def test_who_is_asked_an_offer_says_nothing_about_the_hands(deck):
    """The offer frame (in every observation) and the log are the same whoever holds the wanted biome."""
    def after_offer(hands):
        state = position(EcologiesGame(deck, 4, seed=1), phase="trade", ecologies=[(0, "cave", [])], hands=hands)
        do(state, Offer(num(state, "toyon"), "CAV"))
        return state

    holders = after_offer({0: ["toyon"], 1: ["chamise"], 2: ["cave-spider"], 3: ["mule-deer"]})
    nobody = after_offer({0: ["toyon"], 1: ["chamise"], 2: ["coyote"], 3: ["mule-deer"]})
    assert holders.stack[-1] == nobody.stack[-1]
    assert holders.stack[-1][1] == 1 and holders.stack[-1][5] == (2, 3)  # every opponent, from the left
    assert holders.events[-1] == nobody.events[-1]
    assert holders.observation(3).stack == nobody.observation(3).stack


def test_an_offer_is_answered_in_public_declines_included(deck):
    state = position(EcologiesGame(deck, 3, seed=1), phase="trade", ecologies=[(0, "cave", [])],
                     hands={0: ["toyon"], 1: ["chamise"], 2: ["coyote"]})
    do(state, Offer(num(state, "toyon"), "CAV"), Decline(), Decline())
    kinds = [(kind, seat) for _, kind, seat, _, _ in state.events[-4:]]
    assert kinds == [("offer", 0), ("decline", 1), ("decline", 2), ("no_taker", 0)]


def test_an_offer_nobody_takes_lapses(deck):
    state = position(EcologiesGame(deck, 2, seed=1), phase="trade", hands={0: ["toyon"], 1: ["chamise"]})
    do(state, Offer(num(state, "toyon")), Decline())
    assert state.hands[0] == [num(state, "toyon")] and state.current_player == 0
    assert state.events[-1][1] == "no_taker"


def test_an_offer_may_want_any_card_or_a_card_of_any_biome_of_the_deck(deck):
    """What a player asks for is table talk: the choice of wants does not depend on the hand."""
    state = position(EcologiesGame(deck, 2, seed=1), phase="trade", ecologies=[(0, "cave", [])],
                     hands={0: ["toyon", "urban"], 1: ["chamise"]})
    wants = {a.want for a in state.legal_actions() if isinstance(a, Offer)}
    assert wants == {"", "CAV", "URB", "VER", "MAN", "RIP", "CHA", "SWA"}


def test_at_most_three_offers_a_turn_and_never_the_same_offer_twice(deck):
    state = position(EcologiesGame(deck, 2, seed=1), phase="trade",
                     hands={0: ["toyon", "chamise", "mule-deer", "coyote"], 1: ["cave-spider"]})
    first = Offer(num(state, "toyon"))
    do(state, first, Decline())
    assert first not in state.legal_actions()
    do(state, Offer(num(state, "chamise")), Decline(), Offer(num(state, "mule-deer")), Decline())
    assert not any(isinstance(a, Offer) for a in state.legal_actions())


def test_trades_are_open_so_the_cards_traded_are_known_to_every_seat(deck):
    state = position(EcologiesGame(deck, 3, seed=1), phase="trade",
                     hands={0: ["toyon"], 1: ["cave-spider"], 2: ["chamise"]})
    do(state, Offer(num(state, "toyon")), Accept(num(state, "cave-spider")))
    seen_by_2 = state.observation(2)
    assert seen_by_2.known[1] == (num(state, "toyon"),) and seen_by_2.known[0] == (num(state, "cave-spider"),)
    assert num(state, "toyon") not in seen_by_2.unseen(state.game.table.size)


# -- playing cards


def test_a_biome_card_starts_an_ecology(deck):
    state = position(EcologiesGame(deck, 2), hands={0: ["cave"]})
    do(state, Play(num(state, "cave")))
    assert eco(state, 0, "CAV").cards == () and state.plays_used == 1


def test_two_cards_may_be_played_a_turn(deck):
    state = position(EcologiesGame(deck, 2), hands={0: ["cave", "urban", "swamp"]})
    do(state, Play(num(state, "cave")), Play(num(state, "urban")))
    assert not plays_of(state)


def test_an_organism_goes_only_into_its_owners_ecology_of_its_biome_where_it_can_be_fed(deck):
    state = position(EcologiesGame(deck, 2), ecologies=[(0, "cave", ["sulfur-oxidizing-bacteria"]),
                                                        (1, "chaparral", ["chamise"])],
                     hands={0: ["cave-spider", "cave-amphipod", "toyon"]})
    cave = eco(state, 0, "CAV").biome
    assert plays_of(state) == {Play(num(state, "cave-amphipod"), cave)}


def test_roles_are_rearranged_for_the_owner_to_make_the_web_healthy(deck):
    state = position(EcologiesGame(deck, 2), ecologies=[
        (0, "cave", ["sulfur-oxidizing-bacteria", "cave-amphipod", "cave-springtail", "cave-centipede"])],
        hands={0: ["cave-spider"]})
    cave = eco(state, 0, "CAV")
    assert cave.role_of(num(state, "cave-centipede")) == "C2" and not cave.healthy
    do(state, Play(num(state, "cave-spider"), cave.biome))
    cave = eco(state, 0, "CAV")
    assert cave.role_of(num(state, "cave-centipede")) == "C3" and cave.healthy


def test_an_organism_moves_once_a_turn_to_another_own_ecology_but_producers_never_move(deck):
    state = position(EcologiesGame(deck, 2), ecologies=[
        (0, "chaparral", ["toyon", "california-scrub-jay"]), (0, "urban", ["dandelion", "brown-garden-snail"])])
    jay, urban = num(state, "california-scrub-jay"), eco(state, 0, "URB").biome
    moves = {a for a in state.legal_actions() if isinstance(a, Move)}
    assert Move(jay, urban) in moves and not any(m.card == num(state, "toyon") for m in moves)
    do(state, Move(jay, urban))
    assert eco(state, 0, "URB").role_of(jay) == "C2" and state.plays_used == 0
    assert not any(isinstance(a, Move) and a.card == jay for a in state.legal_actions())


def test_a_move_may_not_leave_the_old_web_without_food(deck):
    state = position(EcologiesGame(deck, 2), ecologies=[
        (0, "chaparral", ["toyon", "california-scrub-jay", "western-fence-lizard", "stink-beetle"]),
        (0, "urban", ["dandelion", "brown-garden-snail"])])
    # the fence lizard eats only stink beetles: the jay can go, and so can anything not feeding another
    assert Move(num(state, "stink-beetle"), eco(state, 0, "URB").biome) not in state.legal_actions()


def test_a_one_off_factor_card_needs_something_to_do(deck):
    state = position(EcologiesGame(deck, 2), hands={0: ["invasive-species"]},
                     ecologies=[(1, "cave", ["sulfur-oxidizing-bacteria", "cave-amphipod"])])
    assert not plays_of(state)
    state = position(EcologiesGame(deck, 2), hands={0: ["invasive-species"]},
                     ecologies=[(1, "cave", ["sulfur-oxidizing-bacteria", "cave-amphipod", "cave-salamander"])])
    assert plays_of(state) == {Play(num(state, "invasive-species"))}


def test_factor_cards_may_be_played_before_any_biome(deck):
    state = position(EcologiesGame(deck, 2), hands={0: ["el-nino-rains", "keystone-species"]})
    assert len(plays_of(state)) == 2


# -- destroyed cards and disturbed webs


def test_a_destroyed_card_goes_to_the_discard_pile_and_its_owner_keeps_the_most_cards(deck):
    state = position(EcologiesGame(deck, 2), ecologies=[healthy(1, "RIP", "arroyo-willow")])
    effects.destroy_card(state, num(state, "green-algae"), 0)
    rip = eco(state, 1, "RIP")
    assert num(state, "green-algae") in state.discard and len(rip.cards) == 5 and rip.healthy
    assert rip.role_of(num(state, "mayfly-nymph")) == "SD"  # no algae to eat: it turns scavenger


def test_cards_left_without_food_are_discarded(deck):
    state = position(EcologiesGame(deck, 2), ecologies=[healthy(1, "CAV")])
    effects.destroy_card(state, num(state, "sulfur-oxidizing-bacteria"), 0)
    assert eco(state, 1, "CAV").cards == ()
    starved = [e[3] for e in state.events if e[1] == "discard" and e[4] == "starved"]
    assert len(starved) == 4 and set(starved) <= set(state.discard)


def test_a_card_left_without_food_moves_to_another_ecology_of_its_owner_where_it_can_be_fed(deck):
    state = position(EcologiesGame(deck, 2), ecologies=[
        (1, "riparian", ["green-algae", "raccoon"]), (1, "urban", ["dandelion"])])
    raccoon = num(state, "raccoon")
    effects.destroy_card(state, num(state, "green-algae"), 0)
    assert raccoon in eco(state, 1, "URB").cards and raccoon not in state.discard


# -- purchases


def test_four_cards_from_hand_buy_one_new_card(deck):
    state = position(EcologiesGame(deck, 2), phase="purchase",
                     hands={0: ["toyon", "chamise", "mule-deer", "coyote", "cave"]}, deck_top=["osprey"])
    spend = [num(state, c) for c in ("toyon", "chamise", "mule-deer", "coyote")]
    do(state, BuyWith(spend[0]))
    assert set(state.legal_actions()) == {BuyWith(c) for c in state.hands[0]}  # once started, four
    do(state, *(BuyWith(c) for c in spend[1:]))
    assert sorted(state.hands[0]) == sorted([num(state, "cave"), num(state, "osprey")])
    assert state.discard[-4:] == spend and state.phase == "purchase" and not state.stack


def test_a_purchase_needs_four_cards_in_hand(deck):
    state = position(EcologiesGame(deck, 2), phase="purchase", hands={0: ["toyon", "chamise", "mule-deer"]})
    assert not any(isinstance(a, BuyWith) for a in state.legal_actions())


@pytest.mark.parametrize("organisms, bought", [(9, 3), (4, 1), (2, 1)])
def test_destroying_an_own_ecology_buys_one_card_per_three_of_its_cards_rounding_down(deck, organisms, bought):
    cave = ["sulfur-oxidizing-bacteria", "iron-oxidizing-bacteria", "cave-amphipod", "cave-isopod", "cave-springtail",
            "cave-cricket", "cave-spider", "cave-centipede", "cave-salamander"][:organisms]
    state = position(EcologiesGame(deck, 2), phase="purchase", ecologies=[(0, "cave", cave)])
    do(state, DestroyEcology(eco(state, 0, "CAV").biome))
    assert len(state.hands[0]) == bought and not state.ecos and len(state.discard) == organisms + 1


def test_an_ecology_of_fewer_than_three_cards_cannot_be_destroyed_to_buy(deck):
    state = position(EcologiesGame(deck, 2), phase="purchase", ecologies=[(0, "cave", ["sulfur-oxidizing-bacteria"])])
    assert not any(isinstance(a, DestroyEcology) for a in state.legal_actions())


# -- the deck


def test_the_discard_pile_is_shuffled_into_a_new_deck_when_the_deck_runs_out(deck):
    state = position(EcologiesGame(deck, 2), phase="purchase", seat=1, rest="discard")
    before = len(state.discard)
    do(state, END_PHASE)
    assert len(state.hands[0]) == 2 and len(state.deck) == before - 2 and not state.discard
    assert any(e[1] == "reshuffle" for e in state.events)


@pytest.mark.parametrize("mode, players", [("simplified", 2), ("single", 1)])
def test_the_simplified_and_single_player_games_never_reshuffle(deck, mode, players):
    state = position(EcologiesGame(deck, players, mode), phase="purchase", seat=players - 1, rest="discard")
    do(state, END_PHASE)
    assert not any(e[1] == "reshuffle" for e in state.events) and not state.deck


# -- the end


def test_twelve_vp_ends_the_game_at_once(deck):
    # the rulebook's ending; the shipped deck plays the round out (tests/test_ecologies_ending.py)
    state = position(EcologiesGame(deck, 2, ending="immediate"), hands={0: ["gopher-snake"]},
                     ecologies=[healthy(0, "RIP"), (0, "chaparral", ["toyon", "dusky-footed-woodrat", "stink-beetle"])])
    assert state.vp(0) == 10
    do(state, Play(num(state, "gopher-snake"), eco(state, 0, "CHA").biome))
    assert state.is_over() and state.vp(0) == 12 and state.winners() == [0]
    assert state.current_player == -1 and state.legal_actions() == []


def test_the_game_ends_after_a_round_without_a_card_played_once_deck_and_discard_are_empty(deck):
    state = position(EcologiesGame(deck, 2), phase="trade", rest=1, ecologies=[healthy(0, "CAV")])
    do(state, END_PHASE, END_PHASE, END_PHASE)
    assert not state.is_over() and state.quiet == 1
    do(state, END_PHASE, END_PHASE, END_PHASE)
    assert state.is_over() and state.end_reason == "exhausted"
    assert state.winners() == [0]


def test_a_card_played_restarts_the_round_without_plays(deck):
    state = position(EcologiesGame(deck, 2), phase="trade", hands={0: ["cave"]}, rest=1)
    do(state, END_PHASE, END_PHASE, END_PHASE)
    do(state, END_PHASE, Play(num(state, "urban")), END_PHASE, END_PHASE)
    assert state.quiet == 0 and not state.is_over()


def test_the_round_cap_ends_a_long_game_won_by_nobody(deck):
    state = EcologiesGame(deck, 2, seed=5, max_rounds=1).new_initial_state()
    for _ in range(6):
        do(state, END_PHASE)
    assert state.is_over() and state.end_reason == "round-cap" and state.winners() == []
    assert state.turns_played == 2 and state.current_player == -1


# -- the single-player game


def test_single_player_draws_four_then_discards_three(deck):
    state = EcologiesGame(deck, 1, "single", 2).new_initial_state()
    assert len(state.hands[0]) == 11 and state.current_player == 0
    assert all(isinstance(a, Discard) for a in state.legal_actions())
    do(state, *(Discard(c) for c in sorted(state.hands[0])[:3]))
    assert len(state.hands[0]) == 8 and state.phase == "play" and len(state.discard) == 3


def test_single_player_plays_out_the_hand_after_the_deck_then_the_game_ends(deck):
    state = position(EcologiesGame(deck, 1, "single"), phase="purchase", rest="discard", hands={0: ["cave", "urban"]})
    state.played = True  # this turn played a card: the game goes on
    do(state, END_PHASE)
    assert state.phase == "play" and len(state.hands[0]) == 2  # no draw, no discard
    do(state, Play(num(state, "cave")), END_PHASE, END_PHASE)
    assert not state.is_over()
    do(state, END_PHASE, END_PHASE)
    assert state.is_over() and state.winners() == [0]


def test_single_player_game_has_no_twelve_vp_end(deck):
    state = position(EcologiesGame(deck, 1, "single"), hands={0: ["gopher-snake"]},
                     ecologies=[healthy(0, "RIP"), (0, "chaparral", ["toyon", "dusky-footed-woodrat", "stink-beetle"])])
    do(state, Play(num(state, "gopher-snake"), eco(state, 0, "CHA").biome))
    assert state.vp(0) == 12 and not state.is_over()


def test_single_player_cannot_use_multiplayer_only_effects(deck):
    state = position(EcologiesGame(deck, 1, "single"), ecologies=[healthy(0, "VER"), healthy(0, "CHA"),
                                                                   healthy(0, "URB"), healthy(0, "CAV")],
                     hands={0: ["invasive-species", "wildfire", "keystone-species"]}, discard=["chamise"])
    usable = {a.source for a in state.legal_actions() if type(a).__name__ == "UseBonus"}
    assert usable == set()  # the Cave would recycle the discard pile: not alone either
    assert plays_of(state) == {Play(num(state, "keystone-species"))}
    assert not state.ongoing(0, "draw_from_discard")


# -- the simplified game


def test_simplified_game_counts_every_organism_as_one_vp(deck):
    state = position(EcologiesGame(deck, 2, "simplified"), ecologies=[healthy(0, "RIP")],
                     table_factors=[("keystone-species", 0)])
    assert state.vp(0) == 5 + 1  # five organisms at 1 VP each, Keystone Species +1


def test_simplified_game_ends_when_the_deck_runs_out(deck):
    state = position(EcologiesGame(deck, 2, "simplified"), phase="purchase", deck_top=["toyon"], rest=1)
    do(state, END_PHASE)
    assert not state.is_over() and not state.deck
    do(state, END_PHASE, END_PHASE, END_PHASE)
    assert state.is_over() and state.end_reason == "deck-out"


# -- the protocol's checked entry point


def test_an_illegal_action_is_a_named_error(deck):
    state = EcologiesGame(deck, 2, seed=1).new_initial_state()
    with pytest.raises(IllegalActionError, match="not legal"):
        apply_checked(state, Play(10_000))
    assert isinstance(state.vp(0), Fraction)


def test_a_seat_marked_settled_has_every_ecology_arranged_for_the_role_bonuses_in_force(deck):
    """turns.settle's mark lasts until what is in force changes: meanwhile every web of that seat must still
    be arranged for the role weights in force (Mangrove's C4 bonus among them), whatever else was played."""
    bonused = 0

    def check(before, action, after):
        nonlocal bonused
        for seat in range(after.game.players):
            if ("settled", seat) in after._forces and not after.over:
                for eco in after.ecologies_of(seat):
                    assert eco.weights == after.role_weights(seat, eco.code), (after.turn, action, eco)
                    bonused += any(eco.weights)

    bots = GAMES["ecologies"].bots
    for seed in range(12):
        game = EcologiesGame(deck, 4, "multi", seed)
        play(game, [bots["greedy"](game.public(s)) for s in range(4)], on_turn=check, max_turns=1000)
    assert bonused  # some settled web held a role bonus, so the check compared more than zeros
