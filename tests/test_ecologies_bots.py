"""Ecologies bots: every mode played to the end with every bot, decisions from observations only, trading
through offers and acceptances, and the greedy bot beating the random one."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cardtool.deck.loader import load_deck
from cardtool.engine.playout import play
from cardtool.games.ecologies.actions import Accept, Offer
from cardtool.games.ecologies.bots import BOTS, GreedyBot, SearchBot
from cardtool.games.ecologies.engine import EcologiesGame
from tests.conftest import DECKS

MIXES = {
    "multi": [("greedy", "random", "search"), ("greedy", "greedy", "greedy", "greedy"), ("random", "random")],
    "simplified": [("search", "greedy"), ("random", "greedy", "greedy", "random", "greedy")],
    "single": [("greedy",), ("random",), ("search",)],
}


@pytest.fixture(scope="module")
def deck():
    return load_deck(DECKS / "ecologies-bizarre-biomes")


@pytest.fixture(scope="module")
def expansion():
    return load_deck(DECKS / "frozen-and-deep")


def bots_for(game, names):
    return [BOTS[name](game.public(seat)) for seat, name in enumerate(names)]


@pytest.mark.parametrize("mode, names", [(mode, names) for mode, mixes in MIXES.items() for names in mixes])
def test_every_mode_is_played_to_the_end_by_every_bot(deck, expansion, mode, names):
    for seed, chosen in ((1, deck), (2, expansion)):
        game = EcologiesGame(chosen, len(names), mode, seed, max_rounds=40 if "search" in names else None)
        state = play(game, bots_for(game, names))
        assert state.is_over() and len(state.scores()) == len(names)
        assert bool(state.winners()) == (state.end_reason != "round-cap")  # a capped game has no winner


@pytest.mark.slow
@pytest.mark.parametrize("mode, players", [("multi", 2), ("multi", 4), ("multi", 6), ("simplified", 3), ("single", 1)])
def test_greedy_and_random_games_finish_over_many_seeds(deck, expansion, mode, players):
    reasons = Counter()
    for seed in range(40):
        names = [("greedy", "random")[(seed + s) % 2] for s in range(players)]
        game = EcologiesGame(expansion if seed % 2 else deck, players, mode, seed)
        state = play(game, bots_for(game, names))
        assert state.is_over() and bool(state.winners()) == (state.end_reason != "round-cap")
        reasons[state.end_reason] += 1
    assert reasons


def test_bots_decide_from_the_observation_alone(deck):
    """Two worlds that look the same to a seat (other hands and the deck dealt differently) get the same
    decision from the same random numbers."""
    game = EcologiesGame(deck, 3, "multi", 12)
    state = game.new_initial_state()
    rng = random.Random(3)
    for _ in range(60):
        state.apply(rng.choice(state.legal_actions()))
    seat = state.current_player
    seen = state.observation(seat)
    other = game.sample_state(seen, random.Random(99))
    assert other.hands != state.hands or other.deck != state.deck
    for bot in (GreedyBot(game.public(seat)), SearchBot(game.public(seat), iters=4),
                SearchBot(game.public(seat), iters=4, eval="standing")):
        first = bot.choose(seen, state.legal_actions(), random.Random(5))
        second = bot.choose(other.observation(seat), other.legal_actions(), random.Random(5))
        assert first == second


def test_bots_trade_through_offers_and_acceptances(deck):
    offers = accepted = 0
    for seed in range(6):
        game = EcologiesGame(deck, 4, "multi", seed)
        state = play(game, bots_for(game, ["greedy"] * 4))
        offers += sum(isinstance(a, Offer) for a in state.history)
        accepted += sum(isinstance(a, Accept) for a in state.history)
    assert offers and accepted


def test_the_greedy_bot_beats_the_random_bot(deck):
    wins = Counter()
    for seed in range(12):
        names = ["greedy", "random"] if seed % 2 else ["random", "greedy"]
        game = EcologiesGame(deck, 2, "multi", seed)
        state = play(game, bots_for(game, names))
        for seat in state.winners():
            wins[names[seat]] += 1
    assert wins["greedy"] >= 10


def test_the_search_bot_takes_the_move_that_wins_outright(deck):
    """At 11 VP with Keystone Species (+1 VP) in hand the game is won by playing it; Wildfire or El Niño
    Rains first would win a play later at best, so the search must not weigh them against the win (under
    the rulebook's ending, where 12 VP ends the game at once; the shipped deck ends the round first)."""
    from cardtool.games.ecologies.actions import Play
    from cardtool.games.ecologies.scenario import position

    game = EcologiesGame(deck, 2, "multi", 1, ending="immediate")  # the rulebook's: 12 VP wins at once
    cave = ["sulfur-oxidizing-bacteria", "iron-oxidizing-bacteria", "cave-amphipod", "cave-isopod", "cave-springtail",
            "cave-cricket", "cave-spider", "cave-centipede", "cave-salamander"]
    state = position(game, seat=0, phase="play",
                     hands={0: ["wildfire", "el-nino-rains", "keystone-species", "swamp", "nitrogen-fixing-bacteria"]},
                     ecologies=[(0, "cave", cave), (0, "chaparral", ["chamise"]), (1, "chaparral", ["toyon"])])
    assert state.vp(0) == 11
    legal = state.legal_actions()
    for seed in range(4):
        bot = SearchBot(game.public(0), iters=8)
        choice = bot.choose(state.observation(0), legal, random.Random(seed))
        assert isinstance(choice, Play) and game.table.ids[choice.card] == "keystone-species"
        after = state.clone()
        after.apply(choice)
        assert after.is_over() and after.winners() == [0]


def test_the_fitted_evaluation_favours_the_seat_ahead(deck):
    """A seat with a five-card cave web (and its VP) against a bare chaparral is the likelier winner,
    from either seat's side of the model."""
    from cardtool.games.ecologies.evaluation import win_chance
    from cardtool.games.ecologies.scenario import position

    game = EcologiesGame(deck, 2, "multi", 1, ending="immediate")  # the rulebook's: 12 VP wins at once
    cave = ["sulfur-oxidizing-bacteria", "cave-amphipod", "cave-isopod", "cave-cricket", "cave-spider"]
    state = position(game, seat=1, phase="draw", hands={0: ["swamp"], 1: ["toyon"]},
                     ecologies=[(0, "cave", cave), (1, "chaparral", [])])
    ahead, behind = win_chance(game, state, 0), win_chance(game, state, 1)
    assert 0.5 < ahead < 1.0 and 0.0 < behind < 0.5


def test_the_refit_recovers_a_known_logistic_model():
    """The refit script's Newton fit, on positions drawn from a known model, finds its coefficients."""
    import importlib.util

    import numpy as np

    from tests.conftest import ROOT

    spec = importlib.util.spec_from_file_location("fit_eval", ROOT / "benchmarks" / "fit_ecologies_eval.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    rng = np.random.default_rng(4)
    x = np.hstack([rng.normal(0, [1.0, 3.0], size=(20000, 2)), np.ones((20000, 1))])
    truth = np.array([0.8, -0.3, 0.2])
    y = (rng.random(20000) < 1 / (1 + np.exp(-x @ truth))).astype(float)
    assert np.allclose(module.fit(x, y), truth, atol=0.08)


def test_the_search_evaluation_is_chosen_in_its_name(deck):
    from cardtool.engine.bots import make_bots
    from cardtool.errors import UsageError

    game = EcologiesGame(deck, 2, "multi", 3)
    fitted, plain, played = make_bots(["search", "search:eval=standing", "search:eval=played"], BOTS,
                                      EcologiesGame(deck, 3, "multi", 3))
    assert fitted.fitted and not plain.fitted and fitted.prior < plain.prior  # fitted is the default
    from cardtool.games.ecologies.evaluation import MODEL_FILES
    assert fitted.model == MODEL_FILES["fitted"] and played.fitted and played.model == MODEL_FILES["played"]
    alone = make_bots(["search"], BOTS, EcologiesGame(deck, 1, "single", 3))[0]
    assert not alone.fitted  # the model is of races between seats: alone, the standing is weighed
    with pytest.raises(UsageError, match="eval=magic.*expected one of standing, fitted"):
        make_bots(["search:eval=magic", "greedy"], BOTS, game)


def test_the_fitted_evaluation_is_asked_from_the_seat_whose_turn_just_ended(deck):
    """The model was fitted for the seat that has just played: after the other seat's turn, a seat's
    chance is one less the other's; after its own, the model's answer for it."""
    from cardtool.games.ecologies.evaluation import win_chance
    from cardtool.games.ecologies.search import fitted_chance

    game = EcologiesGame(deck, 2, "multi", 5)
    state = game.new_initial_state()
    bots = bots_for(game, ("greedy", "greedy"))
    rng = random.Random(1)
    while state.turn < 3:
        seat = state.current_player
        state.apply(bots[seat].choose(state.observation(seat), state.legal_actions(), rng))
    assert not state.is_over() and (state.turn - 1) % 2 == 0  # seat 0 has just played
    assert fitted_chance(game, state, 0) == win_chance(game, state, 0)
    assert fitted_chance(game, state, 1) == pytest.approx(1.0 - win_chance(game, state, 0))
    assert fitted_chance(game, state, 1) != pytest.approx(win_chance(game, state, 1))


def test_the_search_ends_a_phase_only_when_greedy_would_with_end_greedy(deck):
    """`search:end=greedy` weighs only how to act while GreedyBot's first choice is to act: it never ends
    the play or purchase phase then, even with the smallest head start for greedy's choice."""
    from cardtool.engine.bots import make_bots
    from cardtool.errors import UsageError
    from cardtool.games.ecologies.actions import EndPhase

    game = EcologiesGame(deck, 2, "multi", 4)
    searcher = make_bots(["search:end=greedy:iters=4:prior=0.0001", "greedy"], BOTS, game)[0]
    assert searcher.end == "greedy" and make_bots(["search:end=weighed", "greedy"], BOTS, game)[0].end == "weighed"
    greedy = GreedyBot(game.public(0), policy=SearchBot.POLICY)  # the weights the search ranks by
    state, rng, checked = game.new_initial_state(), random.Random(2), 0
    while not state.is_over() and checked < 12:
        seat = state.current_player
        observation, legal = state.observation(seat), state.legal_actions()
        if (seat == 0 and state.phase in ("play", "purchase") and not state.stack and len(legal) > 1
                and type(greedy.ranked(observation, legal, random.Random(0))[0][1]) is not EndPhase):
            assert type(searcher.choose(observation, legal, random.Random(checked))) is not EndPhase
            checked += 1
        state.apply(greedy.choose(observation, legal, rng))
    assert checked >= 4
    with pytest.raises(UsageError, match="end=never.*expected one of weighed, greedy"):
        make_bots(["search:end=never", "greedy"], BOTS, game)


def test_a_large_progressive_bias_keeps_greedys_first_choice(deck):
    """`search:bias=B` charges a candidate B a world for every point GreedyBot rates it below its first
    choice: so large a bias leaves greedy's first choice every time; without it the search departs."""
    from cardtool.engine.bots import make_bots

    game = EcologiesGame(deck, 2, "multi", 6)
    biased, plain = make_bots(["search:bias=1000", "search"], BOTS, game)
    assert biased.bias == 1000 and plain.bias == 0
    greedy = GreedyBot(game.public(0), policy=SearchBot.POLICY)  # the weights the search ranks by
    state, rng, checked, departed = game.new_initial_state(), random.Random(3), 0, 0
    while not state.is_over() and checked < 40:
        seat = state.current_player
        observation, legal = state.observation(seat), state.legal_actions()
        if seat == 0 and state.phase in ("play", "purchase") and len(legal) > 2:
            values = {id(action): value for value, action in greedy.ranked(observation, legal, random.Random(0))}
            top = max(values.values())
            assert values[id(biased.choose(observation, legal, random.Random(checked)))] == pytest.approx(top)
            departed += values[id(plain.choose(observation, legal, random.Random(checked)))] < top - 1e-9
            checked += 1
        state.apply(greedy.choose(observation, legal, rng))
    assert checked >= 10 and departed >= 1


def test_the_search_weighs_what_to_offer_only_with_offers_search(deck):
    """`search:offers=greedy` leaves a trade's offers to GreedyBot; `offers=search` weighs greedy's
    choice against its other offers worth making and ending the trade, and sometimes departs from it."""
    from cardtool.engine.bots import make_bots
    from cardtool.errors import UsageError
    from cardtool.games.ecologies.actions import EndPhase

    game = EcologiesGame(deck, 2, "multi", 8)
    searched, left = make_bots(["search:offers=search:iters=8", "search:offers=greedy"], BOTS, game)
    greedy = GreedyBot(game.public(0), policy=SearchBot.POLICY)  # the weights the search ranks by
    state, rng, checked, departed = game.new_initial_state(), random.Random(5), 0, 0
    while not state.is_over() and checked < 30:
        seat = state.current_player
        observation, legal = state.observation(seat), state.legal_actions()
        if seat == 0 and state.phase == "trade" and not state.stack and any(type(a) is Offer for a in legal):
            mine = greedy.choose(observation, legal, random.Random(checked))
            assert left.choose(observation, legal, random.Random(checked)) is mine
            ranked = searched.offer_ranking(observation, legal, random.Random(checked))
            assert ranked[0][1] is mine and any(type(a) is EndPhase for _, a in ranked)
            choice = searched.choose(observation, legal, random.Random(checked))
            assert choice in legal and type(choice) in (Offer, EndPhase) or choice is mine
            departed += choice is not mine
            checked += 1
        state.apply(greedy.choose(observation, legal, rng))
    assert checked >= 5 and departed >= 1
    with pytest.raises(UsageError, match="offers=never.*expected one of greedy, search"):
        make_bots(["search:offers=never", "greedy"], BOTS, game)


def test_the_search_follows_greedy_on_whether_to_act_with_end_follow(deck):
    """`search:end=follow` ends the play or purchase phase exactly where GreedyBot's own choice ends it
    (an action GreedyBot rates below THRESHOLD included), and acts wherever GreedyBot acts."""
    from cardtool.engine.bots import make_bots
    from cardtool.games.ecologies.actions import EndPhase

    game = EcologiesGame(deck, 2, "multi", 4)
    follower = make_bots(["search:end=follow:iters=4:prior=0.0001", "greedy"], BOTS, game)[0]
    greedy = GreedyBot(game.public(0), policy=SearchBot.POLICY)  # the weights the search ranks by
    state, rng, ended, acted = game.new_initial_state(), random.Random(2), 0, 0
    while not state.is_over() and ended + acted < 30:
        seat = state.current_player
        observation, legal = state.observation(seat), state.legal_actions()
        if seat == 0 and state.phase in ("play", "purchase") and not state.stack and len(legal) > 1:
            stops = type(greedy.choose(observation, legal, random.Random(0))) is EndPhase
            chosen = follower.choose(observation, legal, random.Random(ended + acted))
            assert (type(chosen) is EndPhase) == stops
            ended, acted = ended + stops, acted + (not stops)
        state.apply(greedy.choose(observation, legal, rng))
    assert ended >= 3 and acted >= 3


def test_a_planning_rollout_keeps_the_best_of_greedys_next_plays(deck):
    """`search:plan=K`: after a candidate, where the seat plays again in the same play phase, the rollout
    is worth the best of GreedyBot's K best next plays played out, so never less than the one GreedyBot
    ranks first."""
    from cardtool.engine.bots import make_bots
    from cardtool.games.ecologies.observation import sample_state

    game = EcologiesGame(deck, 2, "multi", 9)
    planner, plain = make_bots(["search:plan=3", "search"], BOTS, game)
    assert (planner.plan, plain.plan) == (3, 1)
    greedy = GreedyBot(game.public(0))
    state, rng, checked = game.new_initial_state(), random.Random(4), 0
    while not state.is_over() and checked < 8:
        seat = state.current_player
        observation, legal = state.observation(seat), state.legal_actions()
        if seat == 0 and state.phase == "play" and not state.stack and len(legal) > 2:
            world = sample_state(game.public(0), observation, random.Random(checked))
            world.apply(greedy.ranked(observation, legal, random.Random(0))[0][1])
            again = world.phase == "play" and world.current_player == 0 and not world.stack
            if again and len(world.legal_actions()) > 1:
                first = world.clone()
                first.apply(greedy.ranked(first.observation(0), first.legal_actions(), random.Random(checked))[0][1])
                alone = plain._end_value(first, 0, observation.turn + 1, checked)
                planned = planner._rollout(world.clone(), 0, observation.turn + 1, checked)
                assert planned >= alone - 1e-12
                checked += 1
        state.apply(greedy.choose(observation, legal, rng))
    assert checked >= 3


def test_the_search_leaves_the_purchase_phase_to_greedy_with_buy_greedy(deck):
    """`search:buy=greedy` makes every decision of the purchase phase GreedyBot's (the same move from the
    same random numbers); the default weighs them."""
    from cardtool.engine.bots import make_bots

    game = EcologiesGame(deck, 2, "multi", 6)
    leaving, plain = make_bots(["search:buy=greedy", "search"], BOTS, game)
    assert (leaving.buy, plain.buy) == ("greedy", "search")
    greedy = GreedyBot(game.public(0), policy=SearchBot.POLICY)  # the weights the search ranks by
    state, rng, checked = game.new_initial_state(), random.Random(3), 0
    while not state.is_over() and checked < 20:
        seat = state.current_player
        observation, legal = state.observation(seat), state.legal_actions()
        if seat == 0 and state.phase == "purchase" and len(legal) > 1:
            mine = greedy.choose(observation, legal, random.Random(checked))
            assert leaving.choose(observation, legal, random.Random(checked)) == mine
            checked += 1
        state.apply(greedy.choose(observation, legal, rng))
    assert checked >= 5


def _main_phase_decisions(game):
    """Seat 0's decisions of the play and purchase phases (nothing on the stack, more than one legal action)
    in a game GreedyBot plays for both seats, as (state, observation, legal actions) before each is
    played; the caller stops when it has seen enough."""
    greedy = GreedyBot(game.public(0))
    state, rng = game.new_initial_state(), random.Random(3)
    while not state.is_over():
        seat = state.current_player
        observation, legal = state.observation(seat), state.legal_actions()
        if seat == 0 and state.phase in ("play", "purchase") and not state.stack and len(legal) > 1:
            yield state, observation, legal
        state.apply(greedy.choose(observation, legal, rng))


def test_play_phase_rollouts_play_playdepth_turns(deck):
    """`search:playdepth=D`: a rollout from a decision of the play phase plays to the start of turn
    `turn + D`; other decisions' rollouts keep `depth` (1: to the end of the turn)."""
    from cardtool.engine.bots import make_bots

    game = EcologiesGame(deck, 2, "multi", 6)
    deep = make_bots(["search:playdepth=3:iters=4", "greedy"], BOTS, game)[0]
    assert (deep.play_depth, deep.depth) == (3, 1)
    seen: list = []
    weigh = deep._rollout
    deep._rollout = lambda state, seat, stop_turn, seed: seen.append(stop_turn) or weigh(state, seat, stop_turn, seed)
    checked = {"play": 0, "purchase": 0}
    for state, observation, legal in _main_phase_decisions(game):
        seen.clear()
        deep.choose(observation, legal, random.Random(0))
        if seen:
            assert set(seen) == {observation.turn + (3 if state.phase == "play" else 1)}
            checked[state.phase] += 1
        if min(checked.values()) >= 3:
            break
    assert min(checked.values()) >= 3


def test_answers_to_an_offer_have_their_own_head_start_and_budget(deck):
    """`search:aprior=P:aiters=N`: an answer to an offer is weighed on N rollouts (at least two worlds a
    candidate) with head start P for GreedyBot's choice (so a head start no rollout can beat leaves the
    answer GreedyBot's); other decisions keep `iters` and `prior`."""
    from cardtool.engine.bots import make_bots
    from cardtool.games.ecologies.actions import Decline

    game = EcologiesGame(deck, 2, "multi", 6)
    answering = make_bots(["search:aprior=5:aiters=12", "greedy"], BOTS, game)[0]
    assert (answering.answer_prior, answering.answer_iters, answering.prior, answering.iters) == (5.0, 12, 0.02, 14)
    calls: list = []  # per decision: the candidates weighed, then every rollout's value
    rollout, weigh = answering._rollout, answering._weigh
    answering._rollout = lambda *args: calls.append(rollout(*args)) or calls[-1]
    answering._weigh = lambda observation, shortlist, *rest: calls.append(len(shortlist)) or weigh(
        observation, shortlist, *rest)
    greedy = GreedyBot(game.public(0), policy=SearchBot.POLICY)  # the weights the search ranks by
    state, rng, answers, others = game.new_initial_state(), random.Random(3), 0, 0
    while not state.is_over() and min(answers, others) < 3:
        seat = state.current_player
        observation, legal = state.observation(seat), state.legal_actions()
        if seat == 0 and len(legal) > 1 and (state.stack or state.phase == "play"):
            calls.clear()
            choice = answering.choose(observation, legal, random.Random(0))
            if calls and calls[0] > 1:
                width, rollouts = calls[0], len(calls) - 1
                if state.stack and any(type(a) is Decline for a in legal):
                    assert choice == greedy.ranked(observation, legal, random.Random(0))[0][1]
                    assert rollouts <= max(2, 12 // width) * width  # fewer: a candidate won outright
                    answers += rollouts == max(2, 12 // width) * width
                else:
                    assert rollouts <= max(2, 14 // width) * width
                    others += rollouts == max(2, 14 // width) * width
        state.apply(greedy.choose(observation, legal, rng))
    assert min(answers, others) >= 3


def test_play_phase_rollout_ends_are_weighed_by_the_playeval_model(deck):
    """`search:playeval=NAME`: the play phase's rollout ends are weighed by that fitted model, the other
    decisions' by the search's own (`eval=`)."""
    from cardtool.engine.bots import make_bots
    from cardtool.games.ecologies.evaluation import MODEL_FILE, MODEL_FILES

    game = EcologiesGame(deck, 2, "multi", 6)
    bot = make_bots(["search:playeval=played:iters=4", "greedy"], BOTS, game)[0]
    used: list = []
    end_value = bot._end_value
    bot._end_value = lambda *args: used.append(bot._weighing) or end_value(*args)
    checked = {"play": 0, "purchase": 0}
    for state, observation, legal in _main_phase_decisions(game):
        used.clear()
        bot.choose(observation, legal, random.Random(0))
        if used:
            assert set(used) == {MODEL_FILES["played"] if state.phase == "play" else MODEL_FILE}
            checked[state.phase] += 1
        if min(checked.values()) >= 2:
            break
    assert min(checked.values()) >= 2
