"""The simulation runner: seeds per game, the same records whatever --jobs, caps, Ctrl-C, Dask."""

from __future__ import annotations

import random
import signal
from pathlib import Path

import pytest

from cardtool.deck.loader import load_deck
from cardtool.errors import UsageError
from cardtool.games.symbiosis import PLUGIN
from cardtool.games.symbiosis.bots import SwapValues
from cardtool.games.symbiosis.layout import POND
from cardtool.sim import runner
from cardtool.sim.analysis import Spec, analyse
from cardtool.sim.config import prepare
from cardtool.sim.records import CAPPED, SimRecord, from_jsonl, to_jsonl
from tests.conftest import DECKS


@pytest.fixture(scope="module")
def deck():
    return load_deck(DECKS / "symbiosis")


def test_the_same_records_whatever_the_number_of_jobs(deck):
    setup = prepare(deck, games=120, players=4, bots="greedy,random", seed=5)
    one = runner.run(setup, jobs=1)
    two = runner.run(setup, jobs=2)
    assert not one.interrupted and not two.interrupted
    assert one.records == two.records and len(one.records) == 120
    assert to_jsonl(one.records) == to_jsonl(two.records)
    assert [r.index for r in one.records] == list(range(120))


def test_game_i_has_its_own_seed_whatever_the_run_length(deck):
    short = runner.run(prepare(deck, games=5, players=3, seed=9), jobs=1).records
    longer = runner.run(prepare(deck, games=12, players=3, seed=9), jobs=1).records
    assert longer[:5] == short
    other = runner.run(prepare(deck, games=5, players=3, seed=10), jobs=1).records
    assert [r.seed for r in other] != [r.seed for r in short]


def test_bots_rotate_through_the_seats(deck):
    setup = prepare(deck, games=4, players=4, bots="greedy,random", seed=1)
    assert [setup.bots_for(i) for i in range(2)] == [("greedy", "random", "greedy", "random"),
                                                     ("random", "greedy", "random", "greedy")]
    fixed = prepare(deck, games=4, players=4, bots="greedy,random", seed=1, rotate=False)
    assert fixed.bots_for(1) == ("greedy", "random", "greedy", "random")


def test_a_game_stopped_at_the_turn_cap_is_counted_as_capped_and_won_by_nobody(deck):
    setup = prepare(deck, games=6, players=3, seed=2, max_turns=10)
    records = runner.run(setup, jobs=1).records
    assert len(records) == 6 and all(r.outcome == CAPPED and r.winners == () and r.turns == 10 for r in records)
    assert all(r.end_reason == "turn-cap" for r in records)
    analysis = analyse(records, Spec.of(PLUGIN, deck))
    assert analysis.capped.k == 6 and analysis.finished == 0 and all(seat.k == 0 for seat in analysis.seats)
    assert {e.reason.word: e.games.k for e in analysis.endings} == {"complete": 0, "turn-cap": 6}
    assert records[0].curve[-1] == records[0].scores  # the curve ends with the scores at the cap


@pytest.mark.parametrize("options, message", [
    ({"bots": "greedy,randon"}, "did you mean 'random'"),
    ({"players": 7}, "is played by 3 to 4 players"),
    ({"players": 2}, "use --mode duel"),
    ({"mode": "dule"}, "did you mean 'duel'"),
    ({"games": 0}, "--games must be at least 1"),
    ({"max_turns": 0}, "--max-turns must be at least 1"),
    ({"bots": "greedy,greedy,greedy,greedy,greedy", "players": 4}, "5 bots for 4 seats"),
])
def test_misconfiguration_fails_before_any_game(deck, options, message, monkeypatch):
    monkeypatch.setattr(runner, "play_game", lambda *a: pytest.fail("a game was played"))
    with pytest.raises(UsageError, match=message):
        prepare(deck, **{"games": 10, **options})


def test_bad_jobs_is_a_usage_error():
    with pytest.raises(UsageError, match="--jobs must be at least 1"):
        runner.check_jobs(0)
    assert runner.check_jobs(None) >= 1


@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_stops_and_keeps_the_finished_games(deck, jobs):
    setup = prepare(deck, games=400, players=4, seed=3)
    reference = runner.run(prepare(deck, games=40, players=4, seed=3), jobs=1).records
    seen = []

    def interrupt(n):
        seen.append(n)
        raise KeyboardInterrupt  # as Ctrl-C would, in the parent, after the first chunk

    result = runner.run(setup, jobs=jobs, progress=interrupt)
    assert result.interrupted
    assert 0 < len(result.records) < 400 and len(result.records) >= seen[0]
    kept = {r.index: r for r in result.records}
    assert all(kept[r.index] == r for r in reference if r.index in kept)  # finished games are whole and right


def test_runs_on_a_dask_cluster_with_the_same_results(deck):
    distributed = pytest.importorskip("distributed")
    setup = prepare(deck, games=60, players=4, bots="greedy,random", seed=4)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        on_cluster = runner.run(setup, scheduler=cluster.scheduler_address)
    assert not on_cluster.interrupted and on_cluster.where.startswith("inproc://")
    assert on_cluster.records == runner.run(setup, jobs=1).records


def test_an_unreachable_scheduler_is_a_usage_error(deck, monkeypatch):
    pytest.importorskip("distributed")
    from cardtool.sim import cluster

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", "0.5s")
    setup = prepare(deck, games=2, players=3, seed=1)
    with pytest.raises(UsageError, match="cannot reach the Dask scheduler"):
        runner.run(setup, scheduler="tcp://127.0.0.1:9")


def test_symbiosis_record_agrees_with_the_game(deck):
    from cardtool.engine.playout import play

    for seed, (players, mode) in enumerate([(2, "duel"), (3, "standard"), (4, "team")]):
        game = PLUGIN.new_game(deck, players, mode, seed)
        state = play(game, [PLUGIN.bots["greedy"](game.public(seat)) for seat in range(players)])
        record = PLUGIN.record(game, state)
        assert record.scores == tuple(state.scores()) and record.winners == tuple(state.winners())
        assert record.turns == 7 * players and len(record.curve) == 7 and record.curve[-1] == record.scores
        assert set(record.cards) == set(PLUGIN.card_events)
        assert all(len(ids) == POND for ids in record.cards["kept"]) and all(len(t) == 7 for t in record.cards["taken"])
        by_rule = record.extras["points_by_rule"]
        assert [sum(p.values()) for p in by_rule] == state.pond_scores()
        assert [sum(p.values()) for p in record.extras["points_by_column"]] == state.pond_scores()
        sim = SimRecord.of(0, seed, ("greedy",) * players, True, record)
        assert from_jsonl(to_jsonl([sim])) == [sim]


def test_greedy_deltas_all_at_once_equal_one_at_a_time(deck):
    for seed in range(30):
        players, mode = [(2, "duel"), (3, "standard"), (4, "standard"), (4, "team")][seed % 4]
        game = PLUGIN.new_game(deck, players, mode, seed)
        state = game.new_initial_state()
        rng = random.Random(seed)
        for _ in range(rng.randrange(game.end_turn)):
            state.apply(rng.choice(state.legal_actions()))
        values = SwapValues(game, state.observation(state.current_player))
        table = values.deltas()
        assert table == [[values.delta(r, p) for p in range(POND)] for r in range(len(table))]


def test_several_bots_named_without_players_seat_one_each(deck):
    assert prepare(deck, games=1, bots="greedy,random,greedy").players == 3
    assert prepare(deck, games=1, bots="random").players == 4  # one name fills the most seats the mode allows
    assert prepare(deck, games=1, bots="greedy,random", players=4).lineup == ("greedy", "random", "greedy", "random")


def _stop_after_wins(wins: int, seen: list[int]):
    """A stop rule that ends the run once seat 1 has won `wins` games, checking it sees every game once, in order."""
    won = [0]

    def stop(new_games):
        (records,) = new_games
        assert [r.index for r in records] == list(range(sum(seen[-1:]), sum(seen[-1:]) + len(records)))
        seen.append(sum(seen[-1:]) + len(records))
        won[0] += sum(r.won(0) for r in records)
        return won[0] >= wins

    return stop


def test_a_stop_rule_ends_the_run_at_the_same_game_on_any_number_of_jobs(deck):
    """The rule is shown every 10 games, in order, and the run keeps exactly the games it was shown."""
    setup = prepare(deck, games=400, players=2, mode="duel", bots="greedy,random", seed=4)
    looks_one, looks_two = [], []
    one = runner.run(setup, jobs=1, stop=_stop_after_wins(25, looks_one), look_every=10)
    two = runner.run(setup, jobs=2, stop=_stop_after_wins(25, looks_two), look_every=10)
    assert one.stopped and two.stopped and not one.interrupted
    assert one.records == two.records and len(one.records) < 400 and len(one.records) % 10 == 0
    assert looks_one == looks_two == list(range(10, len(one.records) + 1, 10))
    assert sum(r.won(0) for r in one.records) >= 25 > sum(r.won(0) for r in one.records[:-10])


@pytest.mark.parametrize("how", ["stop rule", "ctrl-c"])
def test_a_run_that_ends_early_lets_its_workers_stop_and_never_kills_one(deck, monkeypatch, how):
    """A worker killed while it sends a batch leaves the results queue's lock taken, and the pool's
    threads then wait on it for ever (seen once in the suite): ending early asks the workers to stop
    at their next game instead, so a batch in flight comes back short, not after all its games."""
    import multiprocessing.pool

    def no_kill(pool):
        raise AssertionError("Pool.terminate called")

    monkeypatch.setattr(multiprocessing.pool.Pool, "terminate", no_kill)
    setup = prepare(deck, games=3000, players=4, seed=3)  # three batches: the third starts as one ends
    arrived = []

    def progress(n):
        arrived.append(n)
        if how == "ctrl-c":
            raise KeyboardInterrupt

    stop = None if how == "ctrl-c" else (lambda games: True)
    result = runner.run(setup, jobs=2, progress=progress, stop=stop, batch=1000)
    assert result.interrupted == (how == "ctrl-c") and result.stopped == (how == "stop rule")
    assert 0 < result.games <= 3000


def test_a_stop_rule_that_never_answers_sees_every_game_and_the_run_keeps_whole_blocks(deck):
    """At the end of a run the rule did not stop, it is shown the games after its last look; a rule of
    blocks of 3 games keeps only whole blocks (21 of 22), streamed or not."""
    seen = []

    def never(new_games):
        seen.extend(r.index for r in new_games[0])
        return False

    never.block = 3
    setup = prepare(deck, games=22, players=2, mode="duel", seed=6)
    result = runner.run(setup, jobs=2, stop=never, look_every=5, batch=4)  # looks every 6 games (whole blocks)
    assert not result.stopped and result.games == 21
    assert seen == list(range(22)) and [r.index for r in result.records] == list(range(21))


def test_two_setups_run_together_in_step(deck):
    a = prepare(deck, games=30, players=2, mode="duel", seed=4)
    b = prepare(deck, games=30, players=2, mode="duel", bots="random", seed=4)
    ra, rb = runner.run_together((a, b), jobs=2)
    assert ra.records == runner.run(a, jobs=1).records and rb.records == runner.run(b, jobs=1).records


def test_the_pools_results_pipe_holds_a_whole_batch():
    import multiprocessing

    fcntl = pytest.importorskip("fcntl")
    if not hasattr(fcntl, "F_GETPIPE_SZ"):
        pytest.skip("pipe sizes are Linux's")

    from cardtool.sim.runner import RESULTS_PIPE_BYTES, _widen_results_pipe

    pool = multiprocessing.get_context("fork").Pool(1)
    try:
        _widen_results_pipe(pool)
        assert fcntl.fcntl(pool._outqueue._reader.fileno(), fcntl.F_GETPIPE_SZ) == RESULTS_PIPE_BYTES
    finally:
        pool.terminate()
        pool.join()


def _threads_not_blocking_ctrl_c() -> list[str]:
    """The names of this process's threads, the main thread aside, whose signal mask lets SIGINT in
    (from /proc: SigBlk is a hexadecimal mask, bit signum - 1)."""
    import os
    import signal
    from pathlib import Path

    open_to = []
    for task in Path("/proc/self/task").iterdir():
        if int(task.name) == os.getpid():
            continue
        fields = dict(line.split(":\t", 1) for line in (task / "status").read_text().splitlines() if ":\t" in line)
        if not int(fields["SigBlk"], 16) & (1 << (signal.SIGINT - 1)):
            open_to.append(fields["Name"].strip())
    return open_to


def test_ctrl_c_reaches_the_main_thread_while_a_pool_plays(deck):
    """The pool's threads block SIGINT, so the kernel gives a Ctrl-C to the main thread: Python 3.11
    handles a signal another thread received only when the main thread next looks, and a run waiting
    on the pool's results then played on for seconds (sometimes to the end) after Ctrl-C."""
    if not Path("/proc/self/task").is_dir():
        pytest.skip("thread signal masks are read from Linux's /proc")
    before = set(_threads_not_blocking_ctrl_c())
    during = []
    runner.run(prepare(deck, games=40, players=4, seed=3), jobs=2, progress=lambda n: during.append(
        [name for name in _threads_not_blocking_ctrl_c() if name not in before]))
    assert during and all(not names for names in during), during


def test_threads_started_while_the_report_preloads_block_ctrl_c():
    import threading

    from cardtool.sim.outputs import _ctrl_c_after

    masks = []
    with _ctrl_c_after():  # as numpy's import starts its BLAS threads within the preload
        thread = threading.Thread(target=lambda: masks.append(signal.pthread_sigmask(signal.SIG_BLOCK, ())))
        thread.start()
        thread.join()
    assert signal.SIGINT in masks[0]
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, ())  # the main thread's is as before
