"""Stored outcomes of many whole Ecologies games, played by the shipped bots from fixed seeds: the end
reason, every seat's VP, the turns, and digests of the action list and of the event record. Any change to
the engine or to GreedyBot's choices that alters even one action of one game fails here, which is what
lets the engine be made faster with confidence that it plays exactly the same games.

The fast test replays the first games of every table; the slow one all of them. When a rule change is
intended, regenerate and review: `.venv/bin/python -m tests.test_ecologies_engine_golden --write`.
"""

from __future__ import annotations

import hashlib
import json
import sys
from functools import lru_cache

import pytest

from cardtool.deck.loader import load_deck
from cardtool.engine.playout import play
from cardtool.games import GAMES
from cardtool.games.ecologies.engine import EcologiesGame
from tests.conftest import DATA

#: The decks these games were recorded with: copies of the shipped 0.1.0 decks, so a new deck version
#: (a balance change) does not change them; the engine and the bots still must play them exactly.
DECKS = DATA / "ecologies" / "decks-0.1.0"

GOLDEN = DATA / "ecologies" / "engine_games.jsonl"
#: The playout loop's cap as `cardtool simulate` uses it (random bots may otherwise buy for ever).
MAX_TURNS = 1000
#: name -> (deck, mode, bots, games): the tables stored, each from seeds 0, 1, 2, ...
TABLES = {
    "multi-4-greedy": ("ecologies-bizarre-biomes", "multi", ("greedy",) * 4, 1000),
    "multi-2-greedy": ("ecologies-bizarre-biomes", "multi", ("greedy",) * 2, 1000),
    "multi-4-random": ("ecologies-bizarre-biomes", "multi", ("random",) * 4, 300),
    "multi-2-random": ("ecologies-bizarre-biomes", "multi", ("random",) * 2, 300),
    "multi-3-mixed-expansion": ("frozen-and-deep", "multi", ("greedy", "random", "greedy"), 200),
    "simplified-4-greedy": ("ecologies-bizarre-biomes", "simplified", ("greedy",) * 4, 200),
    "single-greedy": ("ecologies-bizarre-biomes", "single", ("greedy",), 100),
}
FAST_GAMES = 12  # games per table in the fast test


def digest(values) -> str:
    return hashlib.blake2b(repr(values).encode(), digest_size=8).hexdigest()


@lru_cache(maxsize=None)
def _deck(name: str):
    return load_deck(DECKS / name)


def outcome(table: str, seed: int) -> dict:
    """One stored game: what the bots played from this seed, as comparable values."""
    deck, mode, bots, _ = TABLES[table]
    game = EcologiesGame(_deck(deck), len(bots), mode, seed)
    factories = GAMES["ecologies"].bots
    state = play(game, [factories[bot](game.public(seat)) for seat, bot in enumerate(bots)], max_turns=MAX_TURNS)
    return {"table": table, "seed": seed, "end": state.end_reason, "vp": [str(s) for s in state.scores()],
            "turns": state.turns_played, "actions": len(state.history), "history": digest(tuple(state.history)),
            "events": digest(tuple(state.events))}


@lru_cache(maxsize=1)
def stored() -> dict[tuple[str, int], dict]:
    records = (json.loads(line) for line in GOLDEN.read_text().splitlines())
    return {(record["table"], record["seed"]): record for record in records}


CHUNK = 100  # seeds a slow test replays, so `pytest -n` can spread the long tables over every core


def _check(table: str, seeds: range) -> None:
    records = stored()
    for seed in seeds:
        assert outcome(table, seed) == records[(table, seed)], f"{table} seed {seed}"


@pytest.mark.parametrize("table", sorted(TABLES))
def test_the_first_stored_games_of_every_table_play_exactly_as_stored(table):
    _check(table, range(FAST_GAMES))


@pytest.mark.slow
@pytest.mark.parametrize("table, start", [(table, start) for table in sorted(TABLES)
                                          for start in range(0, TABLES[table][3], CHUNK)])
def test_every_stored_game_plays_exactly_as_stored(table, start):
    _check(table, range(start, min(start + CHUNK, TABLES[table][3])))


def test_the_stored_file_holds_every_game_of_every_table():
    assert sorted(stored()) == sorted((table, seed) for table, (*_, games) in TABLES.items() for seed in range(games))


def write() -> None:
    with GOLDEN.open("w") as out:
        for table, (*_, games) in TABLES.items():
            for seed in range(games):
                out.write(json.dumps(outcome(table, seed)) + "\n")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m tests.test_ecologies_engine_golden --write")
    write()
