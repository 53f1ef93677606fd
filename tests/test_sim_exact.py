"""cardtool.sim.stats's tests and intervals give scipy.stats's numbers without importing scipy.stats: the
exact tests (cardtool.sim.exact) by integer arithmetic, the t and normal ones through scipy.special."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from cardtool.sim import stats
from cardtool.sim.exact import binomial_p, fisher_p
from tests.conftest import ROOT

sp = pytest.importorskip("scipy.stats")
CLOSE = dict(rel=1e-10, abs=1e-300)  # floating precision: scipy's own sums are rounded term by term


def _binomial_cases():
    cases = [(0, 0, 0.5), (5, 10, 0.5), (0, 10, 0.5), (10, 10, 0.5), (3, 10, 0.3), (7, 10, 0.3), (1, 10, 0.1),
             (0, 5, 0.0), (2, 5, 0.0), (5, 5, 1.0), (4, 5, 1.0), (50, 200, 0.25), (38, 200, 0.25),
             (70, 200, 1 / 3), (201, 800, 0.25), (160, 800, 0.2417), (12, 30, 0.4), (6, 12, 0.5),
             (25300, 100000, 0.2501), (24000, 100000, 0.25)]  # a long run's counts
    rng = random.Random(15)
    for _ in range(80):
        n = rng.randint(1, 400)
        p = rng.choice([0.5, 0.25, 1 / 3, 0.2, rng.random()])
        cases.append((rng.randint(0, n), n, p))
    return cases


@pytest.mark.parametrize("k, n, p", _binomial_cases())
def test_exact_binomial_test_is_scipys(k, n, p):
    expected = 1.0 if n == 0 else float(sp.binomtest(k, n, p).pvalue)
    assert binomial_p(k, n, p) == pytest.approx(expected, **CLOSE)


def _tables():
    tables = [((0, 0), (0, 0)), ((8, 2), (1, 5)), ((0, 10), (0, 12)), ((3, 3), (3, 3)), ((1, 0), (0, 1)),
              ((50, 150), (40, 560)), ((2, 798), (0, 0)), ((12, 188), (150, 450)), ((5, 5), (5, 6)), ((0, 40), (30, 730)),
              ((10300, 29700), (90000, 270000)), ((9000, 31000), (90000, 270000))]  # a long run's counts
    rng = random.Random(4)
    for _ in range(80):
        first, second = rng.randint(1, 300), rng.randint(1, 600)
        tables.append(((a := rng.randint(0, first), first - a), (c := rng.randint(0, second), second - c)))
    return tables


@pytest.mark.parametrize("table", _tables())
def test_fishers_exact_test_is_scipys(table):
    assert fisher_p(table) == pytest.approx(float(sp.fisher_exact(table).pvalue), **CLOSE)


def test_t_intervals_and_tests_are_scipys():
    rng = random.Random(7)
    first = [rng.gauss(20, 4) for _ in range(60)]
    second = [x + rng.gauss(0.8, 2) for x in first]
    other = [rng.gauss(21, 6) for _ in range(45)]
    mean, low, high = stats.mean_interval(first)
    assert (low, high) == pytest.approx(sp.t.interval(0.95, 59, loc=mean, scale=sp.sem(first)), rel=1e-12)
    assert stats.paired_mean_difference(second, first).p == pytest.approx(sp.ttest_rel(second, first).pvalue,
                                                                           rel=1e-10)
    welch = stats.mean_difference(other, first)
    assert welch.p == pytest.approx(sp.ttest_ind(other, first, equal_var=False).pvalue, rel=1e-10)
    assert stats._z(0.95) == float(sp.norm.ppf(0.975))


def test_statistics_do_not_import_scipy_stats():
    script = ("import sys\nfrom cardtool.sim import stats\nstats.rate_difference(30, 200, 50, 210)\n"
              "stats.rate_against(70, 200, 0.25)\nstats.mean_difference([1, 2, 4, 3], [2, 5, 6, 4])\n"
              "stats.paired_mean_difference([1, 2, 4, 3], [2, 5, 6, 4])\nstats.paired_rate_difference([1, 0, 1], [0, 0, 1])\n"
              "print(sorted(m for m in sys.modules if m.startswith('scipy.stats')))")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert run.stdout.split() == ["[]"], run.stderr
