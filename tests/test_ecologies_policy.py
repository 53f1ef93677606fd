"""Ecologies' GreedyBot weights (valuer.Weights): named policies in a bot's name, what a weight changes,
policy files checked, and the tuning script that writes one."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace

import pytest

from cardtool.deck.loader import load_deck
from cardtool.engine.bots import make_bots
from cardtool.errors import UsageError
from cardtool.games.ecologies import weights as valuer_module
from cardtool.games.ecologies.actions import Play
from cardtool.games.ecologies.bots import BOTS
from cardtool.games.ecologies.engine import EcologiesGame
from cardtool.games.ecologies.valuer import Valuer
from cardtool.games.ecologies.weights import DEFAULT_WEIGHTS, Weights, policy_weights
from tests.conftest import DECKS, ROOT


@pytest.fixture(scope="module")
def deck():
    return load_deck(DECKS / "ecologies-bizarre-biomes")


def test_a_policy_is_named_in_the_bots_name(deck):
    game = EcologiesGame(deck, 2, "multi", 3)
    plain, tuned = make_bots(["greedy", "greedy:policy=tuned"], BOTS, game)
    assert plain.weights is DEFAULT_WEIGHTS and plain._kernel  # the hand-set weights, which the kernel holds
    assert tuned.weights == policy_weights("tuned") != DEFAULT_WEIGHTS and not tuned._kernel
    search = make_bots(["search:policy=tuned", "greedy"], BOTS, game)[0]
    assert search.greedy.weights == tuned.weights  # its ranking and its rollouts
    with pytest.raises(UsageError, match="policy=magic.*expected one of default, tuned"):
        make_bots(["greedy:policy=magic", "greedy"], BOTS, game)


def test_a_weight_changes_what_greedy_values(deck):
    game = EcologiesGame(deck, 2, "multi", 3)
    state = game.new_initial_state()
    while not any(type(a) is Play and game.table.kind[a.card] == "biome" for a in state.legal_actions()):
        seat = state.current_player
        state.apply(BOTS["greedy"](game.public(seat)).choose(state.observation(seat), state.legal_actions(),
                                                             __import__("random").Random(1)))
    seat = state.current_player
    observation = state.observation(seat)
    play = next(a for a in state.legal_actions() if type(a) is Play and game.table.kind[a.card] == "biome")
    first = not [eco for eco in observation.ecologies if eco.owner == seat]
    plain = Valuer(game, observation).value(play)
    keen = Valuer(game, observation, weights=replace(DEFAULT_WEIGHTS, first_web=5.0, play_biome_base=1.3,
                                                     play_empty_biome=1.1, play_built_biome=-0.7)).value(play)
    assert keen == pytest.approx(plain + 1.0 + (4.0 if first else 0.0))


def test_a_policy_file_naming_an_unknown_weight_is_refused(tmp_path, monkeypatch):
    bad = tmp_path / "greedy_tuned.json"
    bad.write_text(json.dumps({"weights": {"healthy": 2.0, "charm": 1.0}}), encoding="utf-8")
    monkeypatch.setitem(valuer_module.POLICY_FILES, "tuned", bad)
    policy_weights.cache_clear()
    try:
        with pytest.raises(ValueError, match="unknown weights charm"):
            policy_weights("tuned")
    finally:
        policy_weights.cache_clear()


def test_the_shipped_tuned_policy_names_known_weights_only():
    data = json.loads(valuer_module.POLICY_FILES["tuned"].read_text(encoding="utf-8"))
    assert set(data["weights"]) == set(Weights.names())
    assert data["tuned_on"]["deck"] == "decks/ecologies-bizarre-biomes"


def test_the_tuning_script_finds_and_checks_weights():
    done = subprocess.run([sys.executable, "benchmarks/tune_ecologies_greedy.py", "--trials", "3", "--games", "8",
                           "--check", "8", "--best", "2", "--jobs", "1", "--dry-run"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("trial ") >= 3 and "check trial" in done.stdout and "best: trial" in done.stdout
