"""The report's layout processes started warm before the games (cardtool/sim/report_warm.py): the same PDF
byte for byte, nothing left running after the block (normal end, an error, Ctrl-C, the parent killed),
none started on one worker, and `simulate --scheduler` still writes its report."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardtool.errors import RenderError
from cardtool.render.fetcher import deck_fetcher
from cardtool.sim.report_pdf import MARKER, report_pdf
from cardtool.sim.report_warm import active, warm_layout
from tests.conftest import DECKS

ROOT = Path(__file__).resolve().parent.parent
HEAD = ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Warm report</title><style>\n'
        '@page { size: A6; margin: 10mm; @bottom-right { content: counter(page) " / " counter(pages); } }\n'
        'body { font-family: "DejaVu Sans", sans-serif; font-size: 9pt; }\n</style></head><body>')
ROWS = "<table>" + "".join(f"<tr><td>row {i}</td><td>{i * 3}</td></tr>" for i in range(40)) + "</table>"
PAGE = HEAD + MARKER.join(["<h1>Report</h1><h2>First</h2>" + ROWS, "<h2>Cards</h2>" + ROWS]) + "</body></html>"


def _fetcher():
    return deck_fetcher(what="the test report")


def _gone(pids: list[int], within: float = 10.0) -> bool:
    """Whether every process of pids has ended (and is no zombie) within the time given."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not any(_running(pid) for pid in pids):
            return True
        time.sleep(0.05)
    return False


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_the_warm_processes_make_the_same_pdf_as_this_process_on_one_core_or_two(monkeypatch):
    monkeypatch.setenv("CARDTOOL_WORKERS", "1")
    one = report_pdf(PAGE, _fetcher)
    monkeypatch.setenv("CARDTOOL_WORKERS", "2")
    with warm_layout(_fetcher):
        warm = active()
        pids = [process.pid for process in warm.processes]
        assert len(pids) == 2 and all(_running(pid) for pid in pids)
        assert warm.report_pdf(PAGE) == one
        assert warm.report_pdf(PAGE) == one  # they keep serving after a report
        assert warm.report_pdf(HEAD + "<p>one part</p></body></html>") is None  # laid out here instead
    assert active() is None and _gone(pids)
    assert report_pdf(PAGE, _fetcher) == one


def test_one_worker_starts_no_process(monkeypatch):
    monkeypatch.setenv("CARDTOOL_WORKERS", "1")
    with warm_layout(_fetcher):
        assert active() is None


def test_a_refused_load_in_a_warm_process_is_raised_here_and_the_processes_are_stopped(monkeypatch):
    monkeypatch.setenv("CARDTOOL_WORKERS", "2")
    page = HEAD + MARKER.join(["<h1>Report</h1>" + ROWS, '<img src="https://example.org/x.png">' + ROWS]) + "</body></html>"
    with pytest.raises(RenderError, match="refused to load https://example.org/x.png"):
        with warm_layout(_fetcher):
            pids = [process.pid for process in active().processes]
            active().report_pdf(page)
    assert _gone(pids)


def test_an_error_in_the_block_kills_the_processes_at_once(monkeypatch):
    monkeypatch.setenv("CARDTOOL_WORKERS", "2")
    with pytest.raises(KeyboardInterrupt):
        with warm_layout(_fetcher):
            pids = [process.pid for process in active().processes]
            raise KeyboardInterrupt
    assert _gone(pids, within=10.0)  # killed, not left to finish their warm-up


def test_the_processes_stop_by_themselves_when_their_parent_is_killed(tmp_path):
    script = ("import os, signal, sys, time\n"
              "from cardtool.render.fetcher import deck_fetcher\n"
              "from cardtool.sim.report_warm import active, warm_layout\n"
              "with warm_layout(deck_fetcher):\n"
              "    print(' '.join(str(p.pid) for p in active().processes), flush=True)\n"
              "    os.kill(os.getpid(), signal.SIGKILL)\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "CARDTOOL_WORKERS": "2"})
    assert done.returncode == -signal.SIGKILL
    pids = [int(pid) for pid in done.stdout.split()]
    assert len(pids) == 2 and _gone(pids, within=30.0)


def _session_processes(session: int) -> list[int]:
    """Every live process of a session (its leader's pid)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[3]) == session and fields[0] != "Z":
                found.append(int(entry.name))
    return found


def _children(pid: int) -> list[int]:
    return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()] if _running(pid) else []


def _records(out: Path) -> int:
    return sum(path.read_bytes().count(b"\n") for path in out.glob("*/games.jsonl"))


#: More games than two workers play in minutes: Ctrl-C must find the games still running however slowly this
#: test's own polling is scheduled (with 20,000, a run on a busy CI machine once finished first, exit 0).
GAMES_TO_INTERRUPT = "1000000"


@pytest.mark.slow
def test_ctrl_c_during_the_games_writes_the_report_and_leaves_no_process(tmp_path):
    """Ctrl-C reaches every process of the terminal's group: the games stop, the finished ones are
    reported (the warm processes ignored it and lay the report out), then nothing of the run is left."""
    out = tmp_path / "sim"
    command = [sys.executable, "-m", "cardtool", "simulate", str(DECKS / "symbiosis"), "--games", GAMES_TO_INTERRUPT,
               "--seed", "3", "--jobs", "2", "--out", str(out)]
    run = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           start_new_session=True, env={**os.environ, "CARDTOOL_WORKERS": "2"},
                           preexec_fn=_as_a_terminal_starts_it)
    try:
        _interrupt_after_the_first_batch(run, out)
    finally:
        if run.poll() is None:  # a run that did not stop must not play on through the rest of the suite
            os.killpg(run.pid, signal.SIGKILL)
            run.communicate()


def _as_a_terminal_starts_it() -> None:
    """A shell's foreground job starts with Ctrl-C at its default; a suite started in the background (`&`)
    would pass on SIGINT ignored, and Python keeps a signal ignored that it was started with."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _interrupt_after_the_first_batch(run: subprocess.Popen, out: Path) -> None:
    deadline = time.monotonic() + 60
    while len(_children(run.pid)) < 4 and time.monotonic() < deadline:  # two layout processes, two game workers
        time.sleep(0.1)
    assert len(_children(run.pid)) >= 4, _children(run.pid)
    while _records(out) < 1 and time.monotonic() < deadline:
        time.sleep(0.005)  # until the first batch has finished (the games stream to the staged games.jsonl)
    time.sleep(0.15)  # then Ctrl-C comes while the first progress tick imports what the report needs (numpy,
    # scipy.special): it must wait for them, or numpy is left half imported and the report fails on it
    os.killpg(run.pid, signal.SIGINT)
    _, err = run.communicate(timeout=120)
    assert run.returncode == 130, err
    assert f"finished games of {GAMES_TO_INTERRUPT} are reported" in err and "Traceback" not in err
    assert (out / "report.pdf").read_bytes().startswith(b"%PDF")
    assert _gone(_session_processes(run.pid), within=15.0), _session_processes(run.pid)


@pytest.mark.slow
def test_simulate_on_a_dask_cluster_writes_its_report_with_the_warm_processes(tmp_path):
    distributed = pytest.importorskip("distributed")
    out = tmp_path / "sim"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as cluster:
        done = subprocess.run([sys.executable, "-m", "cardtool", "simulate", str(DECKS / "symbiosis"), "--games",
                               "60", "--seed", "5", "--scheduler", cluster.scheduler_address, "--out", str(out)],
                              cwd=ROOT, capture_output=True, text=True, timeout=300,
                              env={**os.environ, "CARDTOOL_WORKERS": "2"})
    assert done.returncode == 0, done.stderr
    assert (out / "report.pdf").read_bytes().startswith(b"%PDF") and "60 games" in done.stdout


def test_the_report_libraries_are_imported_once_at_the_first_progress_tick(monkeypatch):
    from cardtool.commands import simulate

    loads, ticks = [], []
    monkeypatch.setattr(simulate, "preload_report", lambda: loads.append(len(ticks)))
    advance = simulate.preloading(ticks.append)
    for n in (5, 3, 2):
        advance(n)
    assert ticks == [5, 3, 2] and loads == [1]  # after the first tick is shown, and only then
