"""Why a game ends: a closed set of end reasons per game, the rulebook's exhaustion ending reached in
play, caps that nobody wins, --max-turns counting turns, and Team mode counted per team."""

from __future__ import annotations

import pytest

from cardtool.deck.loader import load_deck
from cardtool.engine.bots import make_bots
from cardtool.engine.playout import play
from cardtool.engine.protocol import TURN_CAP, apply_checked
from cardtool.games import GAMES
from cardtool.games.ecologies.actions import END_PHASE, BuyWith, Decline, EndPhase, Play
from cardtool.games.ecologies.engine import MAX_ROUNDS, EcologiesGame
from cardtool.games.ecologies.scenario import position
from cardtool.games.ecologies.state import CAPS, END_REASONS
from cardtool.sim import runner
from cardtool.sim.analysis import Spec, analyse
from cardtool.sim.config import prepare
from cardtool.sim.records import CAPPED, FINISHED, SimRecord
from cardtool.sim.balance_report import simulation_context, summary_json
from tests.conftest import DECKS

ECOLOGIES = GAMES["ecologies"]
SYMBIOSIS = GAMES["symbiosis"]


@pytest.fixture(scope="module")
def deck():
    return load_deck(DECKS / "ecologies-bizarre-biomes")


@pytest.fixture(scope="module")
def symbiosis():
    return load_deck(DECKS / "symbiosis")


class Planter:
    """Plays every biome and organism it can, never a factor card, never trades, never buys: a table
    that stops recycling the discard pile, so the deck and the discard pile run out."""

    name = "planter"

    def __init__(self, table):
        self.table = table

    def choose(self, observation, legal, rng):
        plays = [a for a in legal if type(a) is Play and self.table.kind[a.card] != "factor"]
        if plays:
            return plays[0]
        for kind in (Decline, EndPhase):
            for action in legal:
                if type(action) is kind:
                    return action
        return legal[0]


# -- every game names its end reasons

@pytest.mark.parametrize("plugin", [ECOLOGIES, SYMBIOSIS], ids=lambda p: p.name)
def test_every_game_declares_a_small_closed_set_of_end_reasons(plugin):
    words = [reason.word for reason in plugin.end_reasons]
    assert len(words) == len(set(words)) and TURN_CAP in words and len(words) <= 6
    assert all(reason.text for reason in plugin.end_reasons)
    assert [r.word for r in plugin.end_reasons if r.cap][-1] == TURN_CAP


def test_ecologies_end_reasons_match_the_engine():
    assert [r.word for r in ECOLOGIES.end_reasons] == list(END_REASONS)
    assert {r.word for r in ECOLOGIES.end_reasons if r.cap} == CAPS == {"round-cap", "turn-cap"}
    assert [r.word for r in SYMBIOSIS.end_reasons] == ["complete", "turn-cap"]


# -- the rulebook's exhaustion ending

@pytest.mark.parametrize("players, seed", [(5, 0), (5, 1), (6, 2)])
def test_a_table_that_stops_recycling_reaches_the_rulebooks_exhaustion_ending(deck, players, seed):
    """'The winner is ... the person with the most points after all cards have been drawn and players
    have completed a round without anyone playing a card.'"""
    game = EcologiesGame(deck, players, "multi", seed)
    state = play(game, [Planter(game.table) for _ in range(players)])
    assert state.end_reason == "exhausted" and state.is_over()
    assert not state.deck and not state.discard  # every card drawn, none discarded since
    last_turns = range(state.turn - players + 1, state.turn + 1)
    assert not [e for e in state.events if e[0] in last_turns and e[1] == "play"]  # a round without a play
    scores = state.scores()
    assert max(scores) < 12  # nobody reached the target
    assert state.winners() == [seat for seat, vp in enumerate(scores) if vp == max(scores)]
    record = ECOLOGIES.record(game, state)
    assert record.end_reason == "exhausted" and not record.capped and record.winners == tuple(state.winners())
    assert record.turns == state.turn + 1 == state.turns_played


def test_the_exhaustion_ending_with_a_tie_is_a_shared_victory(deck):
    state = position(EcologiesGame(deck, 2), phase="trade", rest=1)  # nothing on the table: 0 VP each
    for _ in range(6):
        apply_checked(state, END_PHASE)
    assert state.end_reason == "exhausted" and state.winners() == [0, 1]


def test_cards_discarded_during_the_quiet_round_keep_the_game_going(deck):
    """'... players keep playing until more cards are discarded or a round ... without anyone playing'."""
    state = position(EcologiesGame(deck, 2), phase="purchase", seat=1, rest=0)
    apply_checked(state, END_PHASE)  # seat 1 ends a quiet turn
    assert state.quiet == 1
    apply_checked(state, END_PHASE)  # seat 0 trades nothing
    apply_checked(state, END_PHASE)  # and plays nothing
    for card in sorted(state.hands[0])[:4]:  # but buys: four cards go to the discard pile
        apply_checked(state, BuyWith(card))
    apply_checked(state, END_PHASE)
    assert state.quiet == 0 and not state.is_over()


# -- caps: outside the rules, won by nobody

def test_the_round_cap_is_recorded_as_a_cap_without_a_winner(deck):
    game = EcologiesGame(deck, 2, "multi", 3, max_rounds=2)
    state = play(game, make_bots(["random", "random"], ECOLOGIES.bots, game))
    assert state.end_reason == "round-cap" and state.winners() == [] and state.turns_played == 4
    record = ECOLOGIES.record(game, state)
    assert record.capped and record.winners == () and record.end_reason == "round-cap"
    sim = SimRecord.of(0, 3, ("random", "random"), state.is_over(), record)
    assert sim.outcome == CAPPED and sim.winners == () and sim.to_json()["end_reason"] == "round-cap"


def test_the_engine_caps_are_the_documented_constants():
    assert MAX_ROUNDS == {"multi": 60, "simplified": 60, "single": 200}
    assert "60 rounds, 200 alone" in next(r.text for r in ECOLOGIES.end_reasons if r.word == "round-cap")


def test_max_turns_counts_turns_not_actions(deck):
    """An Ecologies turn takes several actions (ending each phase at least): the cap counts turns."""
    game = EcologiesGame(deck, 3, "multi", 4)
    state = play(game, make_bots(["greedy"] * 3, ECOLOGIES.bots, game), max_turns=5)
    assert state.end_reason == TURN_CAP and state.is_over() and state.winners() == []
    assert state.turns_played == 5 and state.turn == 5  # turns 1 to 5 done; the 6th had only begun
    assert len(state.history) >= 3 * 5  # every turn ended its three phases, at least
    assert state.current_player == -1 and state.legal_actions() == []


def test_max_turns_halts_symbiosis_without_a_winner(symbiosis):
    game = SYMBIOSIS.new_game(symbiosis, 3, "standard", 1)
    state = play(game, make_bots(["greedy"] * 3, SYMBIOSIS.bots, game), max_turns=4)
    assert state.end_reason == TURN_CAP and state.is_over() and state.winners() == []
    assert state.turns_played == 4 == len(state.history) and state.current_player == -1
    assert state.clone().end_reason == TURN_CAP
    full = play(game, make_bots(["greedy"] * 3, SYMBIOSIS.bots, game))
    assert full.end_reason == "complete" and full.winners() and full.turns_played == 21


def test_a_simulation_of_random_players_reports_its_round_capped_games(deck):
    setup = prepare(deck, games=4, players=2, bots="random", seed=3)
    records = runner.run(setup, jobs=1).records
    analysis = analyse(records, Spec.of(ECOLOGIES, deck))
    endings = {e.reason.word: e.games.k for e in analysis.endings}
    assert sum(endings.values()) == 4 and endings["round-cap"] == analysis.capped.k
    assert analysis.capped.k == sum(r.capped for r in records)
    assert all(r.winners == () for r in records if r.capped)
    assert sum(seat.k for seat in analysis.seats) + analysis.capped.k >= 4  # every game: a winner, or capped
    summary = summary_json(analysis, {"max_turns": 1000}, {})
    assert summary["capped"]["wins"] == analysis.capped.k
    assert summary["end_reasons"]["round-cap"]["cap"] is True
    assert summary["end_reasons"]["round-cap"]["games"] == endings["round-cap"]


def test_the_report_says_how_many_games_were_capped_and_why():
    spec = Spec(score_name="VP", end_reasons=ECOLOGIES.end_reasons)
    records = [SimRecord(i, i, ("random", "random"), CAPPED if i % 4 else FINISHED, (1, 2), () if i % 4 else (1,),
                         120, end_reason="round-cap" if i % 4 else "target") for i in range(20)]
    analysis = analyse(records, spec)
    assert analysis.capped.k == 15 and analysis.finished == 5 and analysis.seats[1].k == 5
    context = simulation_context(analysis, _config(), _run())
    assert context["findings"][0].startswith("20 games: 5 ended by the rules, 15 stopped by a cap")
    assert "15 round-cap, stopped by the engine's safeguard" in context["findings"][0]
    rows = {row["reason"]: row for row in context["endings"]}
    assert rows["round-cap"]["games"] == 15 and rows["round-cap"]["cap"] and rows["target"]["games"] == 5


# -- Team mode: a partnership's win is one win of the team

def test_team_mode_counts_a_partnership_win_once(symbiosis):
    setup = prepare(symbiosis, games=40, mode="team", bots="greedy,random", seed=2)
    records = runner.run(setup, jobs=1).records
    assert all(r.teams == ((0, 2), (1, 3)) for r in records)
    analysis = analyse(records, Spec.of(SYMBIOSIS, symbiosis))
    assert analysis.teams and [side.seats for side in analysis.sides] == [(0, 2), (1, 3)]
    ties = sum(1 for r in records if len(r.winners) == 4)
    assert analysis.shared == ties < 40  # not "every game won by more than one seat"
    assert sum(side.win.k for side in analysis.sides) == 40 + ties
    assert analysis.average_seat == pytest.approx((40 + ties) / 80)
    context = simulation_context(analysis, _config(players=4, mode="team"), _run())
    assert [row["name"] for row in context["seats"]] == ["Team of seats 1 and 3", "Team of seats 2 and 4"]
    summary = summary_json(analysis, _config(players=4, mode="team"), _run())
    assert [team["seats"] for team in summary["teams"]] == [[1, 3], [2, 4]]
    assert summary["shared_wins"] == ties


def test_team_records_round_trip_through_games_jsonl(symbiosis):
    from cardtool.sim.records import from_jsonl, to_jsonl

    setup = prepare(symbiosis, games=3, mode="team", seed=1)
    records = runner.run(setup, jobs=1).records
    assert from_jsonl(to_jsonl(records)) == records
    assert '"teams":[[1,3],[2,4]]' in to_jsonl(records)


def test_old_games_jsonl_with_stalled_games_still_reads():
    old = SimRecord.from_json({"game": 0, "seed": 1, "bots": ["a", "b"], "outcome": "stalled", "scores": [1, 2],
                               "winners": [], "turns": 9})
    assert old.capped and old.end_reason == ""
    assert [e.games.k for e in analyse([old], Spec()).endings if e.reason.word == TURN_CAP] == [1]


def _config(players: int = 2, mode: str = "multi") -> dict:
    return {"deck": "d", "deck_name": "D", "deck_version": "1", "game": "g", "game_title": "G", "standalone": False,
            "bases": [], "mode": mode, "players": players, "bots": ["random"], "seating": "rotate", "seed": 1,
            "games": 20, "max_turns": 1000, "cardtool": "0", "deck_path": "d", "deck_hash": "0" * 64,
            "command": "cardtool simulate"}


def _run() -> dict:
    return {"finished_games": 20, "interrupted": False, "seconds": 1.0, "games_per_second": 20.0, "where": "here"}


def test_play_prints_the_end_reason(run_cli):
    code, out, _ = run_cli("play", DECKS / "ecologies-bizarre-biomes", "--players", "2", "--bots", "greedy",
                           "--seed", "2", "--quiet")
    assert code == 0
    last = [line for line in out.splitlines() if line.startswith("Game over after ")]
    assert len(last) == 1 and ": target (a player reached 12 VP)." in last[0]


def test_play_says_nobody_wins_a_capped_game(run_cli):
    code, out, _ = run_cli("play", DECKS / "ecologies-bizarre-biomes", "--players", "2", "--bots", "random",
                           "--seed", "3", "--quiet")
    assert code == 0
    assert "No winner: the game was stopped by a cap (round-cap)" in out
    assert "Game over after 120 turns: round-cap" in out and "nobody wins" in out

