"""The Ecologies ending option (deck.yaml `rules: {ending: ...}`): the rulebook's 12 VP ends the game at
once; the project's `round` ending plays the round out, so every seat has had as many turns. A deck
that names no ending (the 0.1.0 copies the engine golden games replay) plays the rulebook's."""

from __future__ import annotations

import shutil

import pytest

from cardtool.deck.loader import load, load_deck
from cardtool.engine.bots import make_bots
from cardtool.engine.protocol import apply_checked
from cardtool.engine.playout import play
from cardtool.games import GAMES
from cardtool.games.ecologies.actions import EndPhase, Play
from cardtool.games.ecologies.engine import EcologiesGame
from cardtool.games.ecologies.scenario import position
from cardtool.games.ecologies.state import TARGET
from tests.conftest import DATA, DECKS

OLD = DATA / "ecologies" / "decks-0.1.0" / "ecologies-bizarre-biomes"


def _games(deck, seeds, players=4, **rules):
    plugin = GAMES["ecologies"]
    for seed in seeds:
        game = EcologiesGame(deck, players, "multi", seed, **rules)
        state = play(game, make_bots(("greedy",) * players, plugin.bots, game), max_turns=1000)
        yield game, state


def test_a_deck_without_an_ending_plays_the_rulebooks_and_the_round_ending_plays_the_round_out():
    deck = load_deck(OLD)
    assert deck.manifest.rule("ending") is None
    ended_mid_round = 0
    for game, state in _games(deck, range(6)):
        assert game.ending == "immediate"
        if state.end_reason == TARGET:
            ended_mid_round += state.turns_played % game.players != 0
    assert ended_mid_round  # at once: most games end before the last seat's turn
    for game, state in _games(deck, range(6), ending="round"):
        assert state.end_reason == TARGET
        assert state.turns_played % game.players == 0  # every seat had as many turns
        scores = state.scores()
        assert max(scores) >= 12 and state.winners() == [s for s, v in enumerate(scores) if v == max(scores)]


def test_the_shipped_deck_names_its_ending_and_its_expansion_plays_by_it():
    base = load_deck(DECKS / "ecologies-bizarre-biomes")
    expansion = load_deck(DECKS / "frozen-and-deep")
    assert base.manifest.rule("ending") == "round" == expansion.manifest.rule("ending")
    assert base.manifest.rules["ending"]["source"] == "design"  # the project's rule, not the rulebook's
    assert EcologiesGame(expansion, 4).ending == "round"
    assert EcologiesGame(base, 4, ending="immediate").ending == "immediate"  # the rulebook's, on request
    assert EcologiesGame(base, 4).public(0).rules[-1] == ("ending", "round")  # search bots' worlds too
    assert base.manifest.rule("opening") == "first-player-draws-3" == expansion.manifest.rule("opening")
    assert base.manifest.rules["opening"]["source"] == "design"


@pytest.mark.parametrize("rules, code", [
    ("rules:\n  ending: {choice: soon, source: design}\n", "unknown-rule"),
    ("rules:\n  finish: {choice: round, source: design}\n", "unknown-rule"),
    ("rules:\n  ending: {choice: round}\n", "missing-field"),
])
def test_a_bad_rule_option_is_a_located_error(tmp_path, rules, code):
    folder = tmp_path / "deck"
    shutil.copytree(OLD, folder)
    manifest = folder / "deck.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + rules, encoding="utf-8")
    report = load(folder).report
    assert not report.ok
    issues = report.errors
    assert any(code in issue.code for issue in issues), [str(i) for i in issues]
    assert all(issue.location and issue.location.file.name == "deck.yaml" for issue in issues)


def test_with_the_round_ending_12_vp_waits_for_the_last_seat_and_the_most_vp_wins():
    state = position(EcologiesGame(load_deck(DECKS / "ecologies-bizarre-biomes"), 2), hands={0: ["gopher-snake"]},
                     ecologies=[(0, "riparian", ["green-algae", "caddisfly-larva", "mayfly-nymph", "rainbow-trout",
                                                 "river-otter"]),
                                (0, "chaparral", ["toyon", "dusky-footed-woodrat", "stink-beetle"])])
    snake = state.game.table.find("gopher-snake")[0]
    chaparral = next(e.biome for e in state.ecos.values() if e.owner == 0 and e.code == "CHA")
    apply_checked(state, Play(snake, chaparral))
    assert state.vp(0) == 12 and not state.is_over()  # the second seat still has its turn in this round
    while not state.is_over():
        legal = state.legal_actions()
        apply_checked(state, EndPhase() if EndPhase() in legal else legal[0])
    assert state.end_reason == TARGET and state.turns_played == 2 and state.winners() == [0]


def _turn_draws(state) -> dict[int, list[int]]:
    """Cards each seat drew at the start of its turns, turn by turn."""
    draws: dict[int, dict[int, int]] = {}
    for turn, kind, seat, _, detail in state.events:
        if kind == "draw" and detail == "turn":
            draws.setdefault(seat, {}).setdefault(turn, 0)
            draws[seat][turn] += 1
    return {seat: [by_turn[t] for t in sorted(by_turn)] for seat, by_turn in draws.items()}


def test_with_the_first_player_opening_only_the_first_player_draws_3_and_only_on_their_first_turn():
    deck = load_deck(OLD)
    for players in (6, 4, 2):
        ((game, state),) = _games(deck, [3], players=players, opening="first-player-draws-3", ending="round")
        draws = _turn_draws(state)
        assert [draws[seat][0] for seat in range(players)] == [3] + [2] * (players - 1)
        assert all(n == 2 for seat in range(players) for n in draws[seat][1:])  # only the first turn
    ((game, state),) = _games(deck, [3], players=6)
    assert game.opening == "equal" and {draws[0] for draws in _turn_draws(state).values()} == {2}  # the rulebook's
    assert game.public(0).rules[1] == ("opening", "equal")  # search bots' worlds draw as the game does
