"""Streaming games.jsonl: written in game order as games finish, identical to the in-memory run, read back lazily."""

from __future__ import annotations

import json
import types

import pytest

from cardtool.deck.loader import load_deck
from cardtool.sim import runner
from cardtool.sim.config import prepare
from cardtool.sim.ordering import Collector
from cardtool.sim.play import Batch, play_batch
from cardtool.sim.records import to_jsonl
from cardtool.sim.stream import GamesFile, concatenate, read_records
from tests.conftest import DECKS


@pytest.fixture(scope="module")
def deck():
    return load_deck(DECKS / "symbiosis")


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_streamed_run_writes_the_same_games_jsonl_as_the_run_in_memory(deck, tmp_path, jobs):
    setup = prepare(deck, games=48, players=4, bots="greedy,random", seed=5)
    in_memory = runner.run(setup, jobs=1)
    with GamesFile(tmp_path / "games.jsonl") as sink:
        streamed = runner.run(setup, jobs=jobs, sink=sink, batch=7)
    assert streamed.records == [] and streamed.games == 48 == sink.games
    assert (tmp_path / "games.jsonl").read_text(encoding="utf-8") == to_jsonl(in_memory.records)
    assert list(read_records(tmp_path / "games.jsonl")) == in_memory.records


def test_batches_finishing_out_of_order_are_written_in_game_order(deck, tmp_path):
    setup = prepare(deck, games=6, players=3, seed=2)
    batches = [play_batch(setup, 0, start, start + 2, False, True) for start in (0, 2, 4)]
    with GamesFile(tmp_path / "games.jsonl") as sink:
        collector = Collector(1, [sink], None)
        collector.add(batches[2])
        collector.add(batches[1])
        assert sink.games == 0  # game 0 is not in yet: nothing can be written
        collector.add(batches[0])
        assert sink.games == 6
    assert [r.index for r in read_records(tmp_path / "games.jsonl")] == list(range(6))


def test_a_stop_rule_over_a_stream_keeps_exactly_the_games_it_saw(deck, tmp_path):
    setup = prepare(deck, games=400, players=2, mode="duel", bots="greedy,random", seed=4)
    won = [0]

    def stop(new_games):
        won[0] += sum(r.won(0) for r in new_games[0])
        return won[0] >= 25

    reference = runner.run(setup, jobs=1, stop=lambda g, w=[0]: (w.__setitem__(0, w[0] + sum(r.won(0) for r in g[0]))
                                                                or w[0] >= 25), look_every=10)
    with GamesFile(tmp_path / "games.jsonl") as sink:
        streamed = runner.run(setup, jobs=2, stop=stop, look_every=10, sink=sink)
    assert streamed.stopped and streamed.games == len(reference.records) < 400
    assert list(read_records(tmp_path / "games.jsonl")) == reference.records


def test_ctrl_c_keeps_the_finished_games_in_the_stream(deck, tmp_path):
    setup = prepare(deck, games=200, players=4, seed=3)

    def interrupt(n):
        raise KeyboardInterrupt

    with GamesFile(tmp_path / "games.jsonl") as sink:
        result = runner.run(setup, jobs=2, progress=interrupt, sink=sink, batch=5)
    written = list(read_records(tmp_path / "games.jsonl"))
    assert result.interrupted and 0 < result.games == len(written) < 200
    indexes = [r.index for r in written]
    assert indexes == sorted(indexes)  # in game order, with a gap where a batch was still running
    assert all(r == runner.play_game(setup, r.index) for r in written[:5])


def test_a_lineup_label_starts_every_line_and_files_join_in_order(deck, tmp_path):
    setups = [prepare(deck, games=4, players=2, mode="duel", bots=bots, seed=1) for bots in ("greedy", "random")]
    parts = [tmp_path / "a.part", tmp_path / "b.part"]
    with GamesFile(parts[0], lineup="greedy*2") as a, GamesFile(parts[1], lineup="random*2") as b:
        runner.run_together(tuple(setups), jobs=2, sinks=(a, b))
    concatenate(parts, tmp_path / "games.jsonl")
    lines = [json.loads(line) for line in (tmp_path / "games.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [(line["lineup"], line["game"]) for line in lines] == [("greedy*2", i) for i in range(4)] + \
        [("random*2", i) for i in range(4)]
    assert list(lines[0])[0] == "lineup" and not any(part.exists() for part in parts)
    assert [r.bots for r in read_records(tmp_path / "games.jsonl")][4] == ("random", "random")


def test_read_records_is_lazy(tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_text('{"game":0,"seed":1,"bots":["a"],"outcome":"finished","scores":[1],"winners":[1],"turns":3}\n'
                    "not json\n", encoding="utf-8")
    records = read_records(path)
    assert isinstance(records, types.GeneratorType)
    assert next(records).index == 0  # the bad second line is not read until asked for
    with pytest.raises(json.JSONDecodeError):
        next(records)


def test_a_batch_says_how_many_games_it_holds():
    assert Batch(0, 10, 15, None, "").games == 5
