"""Parts of a task run side by side in forked processes (render/parallel.py) hand one another values."""

from __future__ import annotations

import os

import pytest

from cardtool.render.parallel import Exchange, each_apart, join, run_sliced

pytestmark = pytest.mark.skipif("fork" not in __import__("multiprocessing").get_all_start_methods(),
                                reason="no fork on this platform")


@pytest.mark.parametrize("wanted, count, apart", [("1", 2, False), ("2", 2, True), ("2", 3, False), ("3", 3, True),
                                                  ("2", 1, False)])
def test_each_part_is_apart_only_when_every_one_has_a_process(monkeypatch, wanted, count, apart):
    monkeypatch.setenv("CARDTOOL_WORKERS", wanted)
    assert each_apart(count) is apart


def test_parts_in_their_own_processes_take_what_the_others_gave(monkeypatch):
    monkeypatch.setenv("CARDTOOL_WORKERS", "2")
    exchange = Exchange(2)

    def part(first, last):
        exchange.give(first, (first, os.getpid(), "x" * 200_000))  # more than a pipe holds: giving must not wait
        return [(os.getpid(), exchange.take(first))]

    try:
        (mine, got_0), (theirs, got_1) = join(run_sliced(part, 2))
    finally:
        exchange.close()
    assert mine == os.getpid() != theirs
    assert list(got_0) == [1] and got_0[1][:2] == (1, theirs)
    assert list(got_1) == [0] and got_1[0][:2] == (0, mine)


def test_a_part_that_fails_before_giving_gives_none_and_its_error_comes_back(monkeypatch):
    monkeypatch.setenv("CARDTOOL_WORKERS", "2")
    exchange = Exchange(2)
    taken = {}

    def part(first, last):
        value = None
        try:
            if first == 1:
                raise ValueError("the worker's part failed")
            value = "pieces"
        finally:
            exchange.give(first, value)
        taken.update(exchange.take(first))  # the first part's own process: it does not wait forever
        return [value]

    try:
        with pytest.raises(ValueError, match="the worker's part failed"):
            run_sliced(part, 2)
    finally:
        exchange.close()
    assert taken == {1: None}
