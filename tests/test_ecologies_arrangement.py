"""Arrangement is the owner's choice (rulebook: organisms "can switch roles within a biome ... during a
player's turn"; a disturbed web's owner "may attempt to reorder the remaining cards"): the engine offers
every arrangement as good as the solver's, bots choose by their exposure, a person by a menu."""

from __future__ import annotations

import io
import itertools
import random

import pytest

from cardtool.deck.loader import load_deck
from cardtool.engine.human import HumanPlayer
from cardtool.engine.protocol import apply_checked
from cardtool.games.ecologies.actions import END_PHASE, Arrange, ChooseCard, Play
from cardtool.games.ecologies.arrange import ROLE_NAMES, alternatives, arrange, is_healthy, valid
from cardtool.games.ecologies.bots import BOTS, GreedyBot
from cardtool.games.ecologies.engine import EcologiesGame
from cardtool.games.ecologies.scenario import position
from cardtool.games.ecologies.text import EcologiesText
from tests.conftest import DECKS

CAVE = ["iron-oxidizing-bacteria", "cave-amphipod"]  # the crayfish then eats the amphipod (C2) or not


@pytest.fixture(scope="module")
def deck():
    return load_deck(DECKS / "ecologies-bizarre-biomes")


def num(state, card_id: str) -> int:
    return state.game.table.find(card_id)[0]


def do(state, *actions) -> None:
    for action in actions:
        apply_checked(state, action)


def cave_of(state, owner: int):
    return next(e for e in state.ecos.values() if e.owner == owner and e.code == "CAV")


def brute_force(table, code, cards, weights):
    """Every role assignment of the cards, all fed, as good as the solver's: the rules read directly."""
    best = arrange(table, code, cards, weights)
    found = set()
    for roles in itertools.product(*(table.roles[c] for c in best.cards)):
        value = sum(weights[ROLE_NAMES.index(r)] for r in roles)
        if not valid(table, code, best.cards, roles) and is_healthy(roles) == best.healthy and value == best.value:
            found.add(roles)
    return best, found


def test_alternatives_are_exactly_the_equally_good_arrangements_with_the_solvers_first(deck):
    game = EcologiesGame(deck, 2)
    table = game.table
    rng = random.Random(4)
    for code in ("CAV", "RIP", "CHA", "SWA"):
        living = [c for c in range(table.size) if table.kind[c] == "organism" and code in table.biomes[c]]
        for _ in range(25):
            cards = rng.sample(living, rng.randint(2, 6))
            best, expected = brute_force(table, code, cards, (0,) * 6)
            offered = alternatives(table, code, cards)
            if None in best.roles:
                assert offered == ()
                continue
            assert offered[0] == best.roles or sorted(offered[0]) == sorted(best.roles)
            # copies of one card taking each other's roles count once: compare up to that
            canonical = {tuple(sorted(zip((table.def_of[c] for c in best.cards), roles))) for roles in expected}
            assert {tuple(sorted(zip((table.def_of[c] for c in best.cards), r))) for r in offered} == canonical


def test_playing_into_a_web_with_several_arrangements_lets_its_owner_choose(deck):
    state = position(EcologiesGame(deck, 2), hands={0: ["cave-crayfish"]}, ecologies=[(0, "cave", CAVE)])
    cave = cave_of(state, 0)
    do(state, Play(num(state, "cave-crayfish"), cave.biome))
    choices = state.legal_actions()
    assert state.current_player == 0 and all(isinstance(a, Arrange) for a in choices) and len(choices) == 6
    crayfish = num(state, "cave-crayfish")
    safe = next(a for a in choices if dict(zip(cave_of(state, 0).cards, a.roles))[crayfish] == "SD")
    do(state, safe)
    assert cave_of(state, 0).role_of(crayfish) == "SD" and not state.stack
    assert not valid(state.game.table, "CAV", cave_of(state, 0).cards, cave_of(state, 0).roles)


def test_the_chosen_roles_decide_what_a_targeted_card_can_hit_and_are_not_changed_to_dodge(deck):
    state = position(EcologiesGame(deck, 2), hands={0: ["cave-crayfish"], 1: ["invasive-species"]},
                     ecologies=[(0, "cave", CAVE)])
    crayfish = num(state, "cave-crayfish")
    do(state, Play(crayfish, cave_of(state, 0).biome))
    as_c2 = next(a for a in state.legal_actions() if dict(zip(cave_of(state, 0).cards, a.roles))[crayfish] == "C2")
    do(state, as_c2, END_PHASE, END_PHASE)
    while state.current_player == 0:
        do(state, END_PHASE)
    do(state, END_PHASE, Play(num(state, "invasive-species")))  # seat 1: trade over, then play
    assert {a.card for a in state.legal_actions()} == {crayfish}  # no rearranging in answer to being targeted
    do(state, ChooseCard(crayfish))
    assert crayfish in state.discard


def test_after_a_disturbance_the_owner_chooses_how_what_is_left_is_arranged(deck):
    state = position(EcologiesGame(deck, 2), hands={0: ["invasive-species"]}, ecologies=[
        (1, "cave", ["sulfur-oxidizing-bacteria", "iron-oxidizing-bacteria", "cave-crayfish", "cave-spider",
                     "cave-cricket"])])
    do(state, Play(num(state, "invasive-species")))
    do(state, ChooseCard(num(state, "cave-spider")))
    assert state.current_player == 1 and state.stack[-1][0] == "arrange"
    assert all(isinstance(a, Arrange) for a in state.legal_actions())


def test_the_single_player_game_never_asks(deck):
    state = position(EcologiesGame(deck, 1, "single"), hands={0: ["cave-crayfish"]}, ecologies=[(0, "cave", CAVE)])
    do(state, Play(num(state, "cave-crayfish"), cave_of(state, 0).biome))
    assert not any(isinstance(a, Arrange) for a in state.legal_actions())


def test_greedy_arranges_away_from_the_invasive_species_it_has_not_seen(deck):
    state = position(EcologiesGame(deck, 2), hands={0: ["cave-crayfish"]}, ecologies=[(0, "cave", CAVE)])
    crayfish = num(state, "cave-crayfish")
    do(state, Play(crayfish, cave_of(state, 0).biome))
    assert state.ecos[cave_of(state, 0).biome].role_of(crayfish) == "C2"  # the solver's fixed preference
    bot = GreedyBot(state.game.public(0))
    choice = bot.choose(state.observation(0), state.legal_actions(), random.Random(1))
    roles = dict(zip(cave_of(state, 0).cards, choice.roles))
    assert roles[crayfish] != "C2"  # out of the Invasive Species' reach (C2, C3, C4)
    assert roles[num(state, "cave-amphipod")] != "P"


def test_greedy_keeps_the_crayfish_exposed_when_no_destroy_card_is_left_to_come(deck):
    state = position(EcologiesGame(deck, 2), hands={0: ["cave-crayfish"]}, ecologies=[(0, "cave", CAVE)],
                     discard=["invasive-species", "wildfire"])
    do(state, Play(num(state, "cave-crayfish"), cave_of(state, 0).biome))
    valuer = GreedyBot(state.game.public(0)).valuer(state.observation(0))
    assert {valuer.value(a) for a in state.legal_actions()} == {0.0}  # nothing threatens any arrangement


def test_a_person_chooses_the_arrangement_from_a_menu(deck):
    state = position(EcologiesGame(deck, 2), hands={0: ["cave-crayfish"]}, ecologies=[(0, "cave", CAVE)])
    crayfish = num(state, "cave-crayfish")
    do(state, Play(crayfish, cave_of(state, 0).biome))
    text = EcologiesText(state.game, ["P1", "P2"])
    out = io.StringIO()
    legal = state.legal_actions()
    options = list(dict.fromkeys(text.action_parts(state.observation(0), a)[0] for a in legal))
    pick = next(i for i, o in enumerate(options) if "Cave Crayfish SD" in o and "Cave Amphipod" not in o)
    person = HumanPlayer(text.observation, text.action_parts, stdin=io.StringIO(f"{pick + 1}\n"), stdout=out)
    choice = person.choose(state.observation(0), legal, random.Random(0))
    do(state, choice)
    shown = out.getvalue()
    assert "choose the roles in P1's Cave" in shown and "keep it as it is" in shown
    assert "Cave Crayfish SD (now C2)" in shown
    assert cave_of(state, 0).role_of(crayfish) == "SD"


def test_every_bot_answers_arrangement_choices_in_whole_games(deck):
    for seed in range(3):
        game = EcologiesGame(deck, 4, "multi", seed)
        state = game.new_initial_state()
        bots = [BOTS[("greedy", "random")[s % 2]](game.public(s)) for s in range(4)]
        rng, asked = random.Random(seed), 0
        while not state.is_over():
            seat = state.current_player
            legal = state.legal_actions()
            asked += isinstance(legal[0], Arrange)
            state.apply(bots[seat].choose(state.observation(seat), legal, rng))
            for eco in state.ecos.values():
                assert not valid(game.table, eco.code, eco.cards, eco.roles)
        assert asked


def test_cardtool_arrange_lists_the_owners_other_choices(run_cli):
    code, out, _ = run_cli("arrange", DECKS / "ecologies-bizarre-biomes", "--biome", "CAV", *CAVE, "cave-crayfish")
    assert code == 0
    assert "5 other arrangements as good, the owner's choice:" in out
    assert "  Southern Cave Crayfish SD (now C2)" in out
