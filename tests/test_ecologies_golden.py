"""Golden playthroughs: stored games whose every action is replayed through the rules and must tell the
same account and give the same VP. A rule change that alters any of them fails here; when the change is
intended, regenerate with `CARDTOOL_UPDATE_GOLDEN=1 pytest tests/test_ecologies_golden.py` and review the diff.

The bots only chose the stored actions once: replaying needs no bot, so bot changes never break these.
"""

from __future__ import annotations

import json
import os

import pytest

from cardtool.deck.loader import load_deck
from cardtool.engine.playout import action_json, play
from cardtool.engine.protocol import apply_checked
from cardtool.games.ecologies.actions import action_from_json
from cardtool.games.ecologies.bots import BOTS
from cardtool.games.ecologies.engine import EcologiesGame
from cardtool.games.ecologies.text import EcologiesText
from tests.conftest import DATA

#: The decks these games were recorded with: copies of the shipped 0.1.0 decks, so a new deck version
#: (a balance change) does not change them; the engine and the bots still must play them exactly.
DECKS = DATA / "ecologies" / "decks-0.1.0"

GOLDEN = DATA / "ecologies" / "golden"
GAMES = {
    "multi-4-mixed": ("ecologies-bizarre-biomes", "multi", 7, ("greedy", "greedy", "random", "greedy")),
    "multi-2-greedy": ("ecologies-bizarre-biomes", "multi", 21, ("greedy", "greedy")),
    "single-greedy": ("ecologies-bizarre-biomes", "single", 3, ("greedy",)),
    "simplified-3-expansion": ("frozen-and-deep", "simplified", 5, ("greedy", "random", "greedy")),
}


def _vp(scores) -> list[str]:
    return [str(s) for s in scores]


def _game(name: str) -> tuple[EcologiesGame, EcologiesText]:
    deck_name, mode, seed, bots = GAMES[name]
    game = EcologiesGame(load_deck(DECKS / deck_name), len(bots), mode, seed)
    return game, EcologiesText(game, [f"P{s + 1}" for s in range(len(bots))])


def _write(name: str) -> None:
    game, text = _game(name)
    deck_name, mode, seed, bots = GAMES[name]
    lines = [{"deck": deck_name, "mode": mode, "seed": seed, "bots": list(bots)}]

    def on_turn(before, action, after) -> None:
        lines.append({"seat": before.current_player + 1, "action": action_json(action),
                      "text": text.turn(before, action, after), "vp": _vp(after.scores())})

    state = play(game, [BOTS[b](game.public(seat)) for seat, b in enumerate(bots)], on_turn=on_turn)
    lines.append({"end": state.end_reason, "vp": _vp(state.scores()), "winners": [s + 1 for s in state.winners()]})
    GOLDEN.mkdir(parents=True, exist_ok=True)
    (GOLDEN / f"{name}.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_playthrough_replays_with_the_same_account_and_vp(name):
    if os.environ.get("CARDTOOL_UPDATE_GOLDEN"):
        _write(name)
    records = [json.loads(line) for line in (GOLDEN / f"{name}.jsonl").read_text().splitlines()]
    game, text = _game(name)
    assert records[0]["seed"] == game.seed
    state = game.new_initial_state()
    for number, record in enumerate(records[1:-1], 1):
        assert state.current_player + 1 == record["seat"], f"action {number}"
        before = state.clone()
        apply_checked(state, action_from_json(record["action"]))
        assert text.turn(before, state.history[-1], state) == record["text"], f"action {number}"
        assert _vp(state.scores()) == record["vp"], f"action {number}"
    end = records[-1]
    assert state.is_over() and state.end_reason == end["end"]
    assert _vp(state.scores()) == end["vp"] and [s + 1 for s in state.winners()] == end["winners"]
