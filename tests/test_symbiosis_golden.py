"""Stored playthroughs: seeded Symbiosis games replay exactly as they did before the engine was made faster.

tests/data/symbiosis/golden-games.json holds, per table (mode, seats, bots), every game's final scores and a
digest of its swaps, played with the deck as shipped at 0.1.0 (a copy in tests/data/symbiosis/deck-0.1.0, so
rebalancing the shipped deck does not move these games), recorded from the engine and bots as they were before they were optimised. A change
that makes the engine or GreedyBot faster must leave every one of these games identical; a change that
means to change how the bots play records the file again, on purpose:

    .venv/bin/python -m tests.test_symbiosis_golden --write
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

from cardtool.deck.loader import load_deck
from cardtool.engine.playout import play
from cardtool.engine.seeds import derive_seed
from cardtool.games.symbiosis import PLUGIN
from tests.conftest import DATA

GOLDEN = DATA / "symbiosis" / "golden-games.json"
DECK = DATA / "symbiosis" / "deck-0.1.0"  # the cards the recording was made with
#: (mode, seats, bot of every seat, games): four-player GreedyBot is the engine benchmark's table.
TABLES = [("standard", 4, "greedy", 1000), ("duel", 2, "greedy", 400), ("team", 4, "greedy", 200),
          ("standard", 3, "greedy", 200), ("standard", 4, "random", 200)]


def key(mode: str, players: int, bot: str) -> str:
    return f"{mode}:{players}:{bot}"


def game_line(deck, mode: str, players: int, bot: str, index: int) -> str:
    """One game as 'scores:digest of its swaps'."""
    game = PLUGIN.new_game(deck, players, mode, derive_seed(2026, index, mode, bot))
    state = play(game, [PLUGIN.bots[bot](game.public(seat)) for seat in range(players)])
    swaps = ";".join(f"{a.river},{a.pond},{'' if a.flip is None else a.flip}" for a in state.history)
    digest = hashlib.blake2b(swaps.encode(), digest_size=8).hexdigest()
    return ",".join(map(str, state.scores())) + ":" + digest


def record(deck) -> dict[str, list[str]]:
    return {key(mode, players, bot): [game_line(deck, mode, players, bot, i) for i in range(games)]
            for mode, players, bot, games in TABLES}


@pytest.fixture(scope="module")
def deck():
    return load_deck(DECK)


@pytest.fixture(scope="module")
def golden():
    return json.loads(GOLDEN.read_text(encoding="utf-8"))


@pytest.mark.parametrize(("mode", "players", "bot", "games"), TABLES, ids=[key(*t[:3]) for t in TABLES])
def test_seeded_games_replay_exactly_as_recorded(deck, golden, mode, players, bot, games):
    stored = golden[key(mode, players, bot)]
    assert len(stored) == games
    differ = [i for i in range(games) if game_line(deck, mode, players, bot, i) != stored[i]]
    assert not differ, f"{len(differ)} of {games} games differ from the recording, first game {differ[0]}"


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        raise SystemExit("usage: python -m tests.test_symbiosis_golden --write")
    GOLDEN.write_text(json.dumps(record(load_deck(DECK)), indent=0) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN.relative_to(Path.cwd()) if GOLDEN.is_relative_to(Path.cwd()) else GOLDEN.name}")
