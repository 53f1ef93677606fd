"""The Ecologies search's evaluation: the terms it reads of a position (position.py) and the fitted model
it feeds them to (evaluation.py, evaluation.json)."""

from __future__ import annotations

import importlib.util
import json
import random

import pytest

from cardtool.deck.loader import load_deck
from cardtool.games.ecologies import evaluation, position
from cardtool.games.ecologies.bots import GreedyBot
from cardtool.games.ecologies.engine import EcologiesGame
from cardtool.games.ecologies.scenario import position as scenario
from tests.conftest import DECKS, ROOT

CAVE = ["sulfur-oxidizing-bacteria", "cave-amphipod", "cave-isopod", "cave-cricket", "cave-spider"]


@pytest.fixture(scope="module")
def deck():
    return load_deck(DECKS / "ecologies-bizarre-biomes")


def terms(game, state, seat):
    return dict(zip(position.SEAT_TERMS, position.seat_terms(game, state, seat)))


def test_a_seats_terms_count_its_attacks_fitting_organisms_and_exposed_vp(deck):
    """Invasive Species is an attack held, Keystone Species is not; a cave organism in hand fits the cave
    web; the VP of the web's organisms acting C2 or above is what the destroy cards can reach."""
    game = EcologiesGame(deck, 2, "multi", 1)
    state = scenario(game, seat=0, phase="play",
                     hands={0: ["invasive-species", "keystone-species", "cave-salamander"], 1: ["toyon"]},
                     ecologies=[(0, "cave", CAVE), (1, "chaparral", [])])
    mine = terms(game, state, 0)
    assert mine["factors_held"] == 2 and mine["attacks_held"] == 1
    assert mine["fits"] == 1 and mine["fit_vp"] == float(game.table.vp[game.table.ids.index("cave-salamander")])
    eco = next(e for e in state.ecos.values() if e.owner == 0)
    high = [c for c, role in zip(eco.cards, eco.roles) if role in ("C2", "C3", "C4")]
    assert high and mine["exposed_vp"] == pytest.approx(sum(float(game.table.vp[c]) for c in high))
    assert mine["organisms"] == 5 and mine["ecologies"] == 1
    theirs = terms(game, state, 1)
    assert theirs["organisms"] == 0 and theirs["exposed_vp"] == 0 and theirs["attacks_held"] == 0


def test_replies_says_whether_the_other_seat_still_plays_this_round(deck):
    """Two seats: after seat 0's turn seat 1 still plays before the round ends; after seat 1's, nobody."""
    game = EcologiesGame(deck, 2, "multi", 3)
    state = game.new_initial_state()
    assert position.game_terms(game, state, 0)[3] == 1.0 and position.game_terms(game, state, 1)[3] == 0.0
    assert position.game_terms(game, state, 0)[0] == len(state.deck)


def test_the_shipped_model_is_the_refit_scripts_and_reads_known_inputs(deck):
    """evaluation.json names the inputs the refit script fits by default, every one of them known to the
    evaluation, and predicts better than the VP difference alone; its chance is a probability."""
    spec = importlib.util.spec_from_file_location("fit_eval", ROOT / "benchmarks" / "fit_ecologies_eval.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    data = json.loads(evaluation.MODEL_FILE.read_text(encoding="utf-8"))
    assert data["inputs"] == module.INPUT_SETS["earlier"]
    assert all(set(inputs) <= set(evaluation.INPUT_NAMES) for inputs in module.INPUT_SETS.values())
    assert data["held_out_log_loss"] < data["vp_only_log_loss"]
    game = EcologiesGame(deck, 2, "multi", 5)
    state, bots, rng = game.new_initial_state(), [GreedyBot(game.public(s)) for s in range(2)], random.Random(2)
    while state.turn < 8:
        seat = state.current_player
        state.apply(bots[seat].choose(state.observation(seat), state.legal_actions(), rng))
    mover = (state.turn - 1) % 2
    chance = evaluation.win_chance(game, state, mover)
    assert 0.0 < chance < 1.0
    assert len(evaluation.named_inputs(game, state, mover)) == len(evaluation.INPUT_NAMES)


def test_a_model_of_unknown_inputs_is_refused(tmp_path):
    stale = tmp_path / "evaluation.json"
    stale.write_text(json.dumps({"inputs": ["d_vp", "d_magic"], "coefficients": [0.1, 0.2]}), encoding="utf-8")
    with pytest.raises(ValueError, match="other inputs.*d_magic.*fit_ecologies_eval"):
        evaluation.model_in(stale)


def test_a_linear_model_is_its_weighted_sum_and_an_unknown_link_refused(deck, tmp_path):
    """A model file's `link`: `linear` makes the chance the weighted sum itself (the within-decision fit
    of benchmarks/fit_ecologies_decisions.py); a link the evaluation does not know is refused."""
    linear = tmp_path / "linear.json"
    linear.write_text(json.dumps({"inputs": ["d_vp", "intercept"], "coefficients": [0.25, 0.5], "link": "linear"}))
    game = EcologiesGame(deck, 2, "multi", 5)
    state = game.new_initial_state()
    d_vp = evaluation.named_inputs(game, state, 0)[evaluation.INPUT_NAMES.index("d_vp")]
    assert evaluation.win_chance(game, state, 0, linear) == pytest.approx(0.25 * d_vp + 0.5)
    odd = tmp_path / "odd.json"
    odd.write_text(json.dumps({"inputs": ["d_vp"], "coefficients": [0.1], "link": "probit"}))
    with pytest.raises(ValueError, match="unknown link"):
        evaluation.model_in(odd)


def test_the_within_decision_fit_sees_only_what_differs_between_candidates():
    """fit_ecologies_decisions' within-decision least squares recovers a known slope of the win share
    on d_vp, however much each decision's level (and an input the same for all its candidates) varies."""
    import numpy as np

    spec = importlib.util.spec_from_file_location("fit_dec", ROOT / "benchmarks" / "fit_ecologies_decisions.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    rng = np.random.default_rng(3)
    names = module.INPUT_SETS["earlier"]
    decisions, worlds, candidates = 400, 2, 4
    n = decisions * worlds * candidates
    decision = np.repeat(np.arange(decisions), worlds * candidates)
    x = rng.normal(size=(n, len(names)))
    x[:, -1] = 1.0
    level = rng.normal(0, 0.3, decisions)[decision]
    x[:, names.index("my_vp")] = level  # the same for a decision's candidates: no slope can be seen
    y = 0.5 + level + 0.04 * x[:, 0] + rng.normal(0, 0.02, n)
    data = {"names": np.array(names), "x": x, "y": y, "decision": decision, "terminal": np.zeros(n),
            "world": np.tile(np.repeat(np.arange(worlds), candidates), decisions)}
    _, coefficients, link = module.fit_models(data, np.ones(n, dtype=bool), ["earlier"], 1e-6)["within earlier"]
    assert link == "linear" and coefficients[0] == pytest.approx(0.04, abs=0.003)
    assert np.abs(coefficients[1:-1]).max() < 0.003


def test_the_decision_recorder_records_only_the_kinds_asked_for():
    """fit_ecologies_decisions' `play --kinds play` records the play phase's weighed decisions only, each
    candidate of a world once, labelled by a play-out's result."""
    spec = importlib.util.spec_from_file_location("fit_dec", ROOT / "benchmarks" / "fit_ecologies_decisions.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    rows = module.play_block(range(1), 5, 1.0, 1, (module.KINDS["play"],))
    assert rows and {row[3] for row in rows} == {module.KINDS["play"]}
    assert len({(row[0], row[2]) for row in rows}) == len(rows) and {row[6] for row in rows} <= {0.0, 0.5, 1.0}


def test_a_pick_scored_as_the_search_chooses_uses_its_worlds_a_candidate():
    """fit_ecologies_decisions' choice_score with `keep`: two candidates get seven worlds of the search's
    14 rollouts, here all but the `keep` worlds kept to score the pick (four of six); without it, two."""
    import numpy as np

    spec = importlib.util.spec_from_file_location("fit_dec", ROOT / "benchmarks" / "fit_ecologies_decisions.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    world, candidate = np.repeat(np.arange(6), 2), np.tile(np.arange(2), 6)
    value = np.where(candidate == 1, np.where(world < 2, 0.6, 0.0), 0.5)  # candidate 1: ahead in the first two
    y = np.where(candidate == 1, 1.0, 0.0)  # and it wins the play-outs that score the pick
    data = {"decision": np.zeros(12, dtype=int), "world": world, "candidate": candidate, "y": y}
    every = np.ones(12, dtype=bool)
    gains, departs = module.choice_score(data, every, value, 0.0, 2)
    assert departs == 1.0 and gains[0] == 1.0
    gains, departs = module.choice_score(data, every, value, 0.0, 2, keep=2)
    assert departs == 0.0 and gains[0] == 0.0
