"""`simulate --scheduler` on a real Dask cluster of several worker processes: the same games as a local run."""

from __future__ import annotations

import pytest

from cardtool.deck.loader import load_deck
from cardtool.sim import runner
from cardtool.sim.config import prepare
from cardtool.sim.stream import GamesFile, read_records
from tests.conftest import DECKS

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def deck():
    return load_deck(DECKS / "symbiosis")


@pytest.fixture(scope="module")
def cluster():
    """Two worker processes of one thread each, as `dask worker` would start on two machines."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as local:
        yield local.scheduler_address


@pytest.mark.slow
def test_a_cluster_of_worker_processes_plays_the_same_games_as_one_process(deck, cluster, tmp_path):
    setup = prepare(deck, games=60, players=4, bots="greedy,random", seed=4)
    local = runner.run(setup, jobs=1).records
    on_cluster = runner.run(setup, scheduler=cluster, batch=7)
    assert not on_cluster.interrupted and on_cluster.where == cluster and on_cluster.where.startswith("tcp://")
    assert on_cluster.records == local
    with GamesFile(tmp_path / "games.jsonl") as sink:
        streamed = runner.run(setup, scheduler=cluster, sink=sink, batch=5)
    assert streamed.games == 60 and list(read_records(tmp_path / "games.jsonl")) == local


@pytest.mark.slow
def test_a_stop_rule_ends_a_cluster_run_at_the_same_game_as_a_local_run(deck, cluster):
    setup = prepare(deck, games=300, players=2, mode="duel", bots="greedy,random", seed=8)

    def rule():
        won = [0]

        def stop(new_games):
            won[0] += sum(r.won(0) for r in new_games[0])
            return won[0] >= 15

        return stop

    local = runner.run(setup, jobs=1, stop=rule(), look_every=6)
    on_cluster = runner.run(setup, scheduler=cluster, stop=rule(), look_every=6, batch=4)
    assert local.stopped and on_cluster.stopped
    assert on_cluster.records == local.records and len(local.records) < 300


def test_dask_loads_only_when_a_run_names_a_scheduler():
    import subprocess
    import sys

    code = ("import sys, cardtool.sim.runner, cardtool.sim.cluster, cardtool.sim.stream; "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'dask', 'distributed', 'rich'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_cluster_batch_keeps_the_scheduler_below_its_limit_and_every_thread_busy():
    from cardtool.sim.cluster import cluster_batch

    assert cluster_batch(100_000, 2) == 250  # as on one machine: 16 tasks a thread, at most 250 games
    assert cluster_batch(100_000, 100) == 200  # at least 2 games a thread: the scheduler's cost per task
    assert cluster_batch(10_000, 100) == 100  # but every thread gets a task
    assert cluster_batch(60, 2) == 4 and cluster_batch(50, 100) == 1
