"""The statistics functions against known values."""

from __future__ import annotations

import math

import pytest

from cardtool.sim import stats
from cardtool.sim.stats import Difference


def test_wilson_interval_of_50_in_100():
    low, high = stats.wilson(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)


def test_wilson_interval_at_the_edges_stays_inside_0_and_1():
    assert stats.wilson(0, 10) == (0.0, pytest.approx(0.2775, abs=1e-4))
    assert stats.wilson(10, 10) == (pytest.approx(0.7225, abs=1e-4), 1.0)
    assert stats.wilson(0, 0) == (0.0, 1.0)


def test_newcombe_difference_matches_the_published_example():
    # Newcombe (1998), Statistics in Medicine 17:873, example (a): 56/70 against 48/80 -> 0.0524 to 0.3339
    low, high = stats.newcombe(56, 70, 48, 80)
    assert (round(low, 4), round(high, 4)) == (0.0524, 0.3339)


def test_rate_difference_uses_fishers_exact_test():
    diff = stats.rate_difference(56, 70, 48, 80)
    assert diff.estimate == pytest.approx(0.2) and diff.p == pytest.approx(0.0125, abs=1e-3)


def test_paired_rates_identical_are_not_different():
    outcomes = [True, False, True, True, False] * 20
    diff = stats.paired_rate_difference(outcomes, outcomes)
    assert diff.estimate == 0 and diff.p == 1.0 and diff.low <= 0 <= diff.high


def test_paired_rates_mcnemar_counts_only_disagreements():
    first = [True] * 30 + [False] * 70
    second = [False] * 30 + [False] * 70
    diff = stats.paired_rate_difference(first, second)
    assert diff.estimate == pytest.approx(0.3)
    assert diff.p == pytest.approx(2 * 0.5 ** 30)  # exact binomial: all 30 disagreements one way
    assert 0 < diff.low < 0.3 < diff.high


def test_mean_and_paired_differences():
    assert stats.mean_interval([1, 2, 3, 4]) == pytest.approx((2.5, 0.4457, 4.5543), abs=1e-4)
    same = stats.paired_mean_difference([1, 2, 3], [1, 2, 3])
    assert same.estimate == 0 and same.p == 1.0
    shifted = stats.paired_mean_difference([2, 4, 5, 7, 9], [1, 2, 3, 4, 5])
    assert shifted.estimate == pytest.approx(2.4) and shifted.p < 0.05
    welch = stats.mean_difference([1, 2, 3, 4, 5], [2, 3, 4, 5, 6])
    assert welch.estimate == pytest.approx(-1) and welch.p == pytest.approx(0.3466, abs=1e-3)


def test_first_player_test_against_a_known_rate():
    assert stats.rate_against(50, 100, 0.5) == pytest.approx(1.0)
    assert stats.rate_against(70, 100, 0.5) < 0.001


def test_holm_keeps_only_what_survives_the_correction():
    ps = [0.001, 0.01, 0.03, 0.2]
    marked = stats.holm([Difference(1, 0, 2, p) for p in ps])
    # thresholds 0.05/4, 0.05/3, 0.05/2, ...: 0.001 and 0.01 pass, 0.03 > 0.025 stops
    assert [d.significant for d in marked] == [True, True, False, False]


def test_median_and_p95():
    values = list(range(1, 101))
    assert stats.quantile(values, 0.5) == 50.5
    assert stats.quantile(values, 0.95) == pytest.approx(95.05)
    assert math.isnan(stats.quantile([], 0.5))


def _always_covered(p: float, runs: int, steps: int, look_every: int, seed: int):
    """Per run, whether the confidence sequence and a Wilson interval recomputed at every look held the
    true rate at every look."""
    import numpy as np

    rng = np.random.default_rng(seed)
    sequence = stats.ConfidenceSequence(runs=runs, grid=250)
    outcomes = rng.random((steps, runs)) < p
    sequence_ok = np.ones(runs, bool)
    wilson_ok = np.ones(runs, bool)
    for start in range(0, steps, look_every):
        sequence.update(outcomes[start:start + look_every].astype(float))
        intervals = np.array(sequence.intervals())
        sequence_ok &= (intervals[:, 0] <= p) & (p <= intervals[:, 1])
        wins = outcomes[:start + look_every].sum(axis=0)
        bounds = np.array([stats.wilson(int(k), start + look_every) for k in wins])
        wilson_ok &= (bounds[:, 0] <= p) & (p <= bounds[:, 1])
    return sequence_ok.mean(), wilson_ok.mean()


@pytest.mark.parametrize("p", [0.05, 0.3, 0.5])
def test_the_confidence_sequence_covers_the_rate_at_every_look(p):
    """Optional stopping: over 200 runs of 300 games looked at every 5 games, the confidence sequence
    holds the true rate at every look in at least 95% of runs; Wilson intervals looked at as often do not."""
    sequence, wilson = _always_covered(p, runs=200, steps=300, look_every=5, seed=13)
    assert sequence >= 0.95
    assert wilson < 0.9  # the reason for the confidence sequence: repeated looks at Wilson intervals mislead


def test_the_confidence_sequence_narrows_and_stays_inside_0_and_1():
    sequence = stats.ConfidenceSequence()
    assert sequence.interval() == (0.0, 1.0)
    sequence.update([1.0] * 50)
    low, high = sequence.interval()
    assert high == 1.0 and 0.7 < low < 1.0
    sequence = stats.ConfidenceSequence()
    sequence.update([0.0, 1.0, 1.0, 0.0] * 500)
    low, high = sequence.interval()
    assert low < 0.5 < high and 0.03 < (high - low) / 2 < 0.06
    assert (high - low) > (lambda w: w[1] - w[0])(stats.wilson(1000, 2000))  # the price of looking often
