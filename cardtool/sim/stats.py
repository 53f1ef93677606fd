"""The statistics of a simulation: intervals for rates, differences, tests, medians and p95.

Every interval is a 95% interval unless asked otherwise. Rates use Wilson's score interval (sound
near 0% and 100% and for small counts, unlike "rate +- 2 standard errors"); differences of two rates
use Newcombe's interval built from two Wilson intervals (independent samples, or paired ones for
two decks played under common random numbers). docs/simulation.md explains them in plain words.
numpy and scipy.special are imported inside the functions that need them, so importing this module is
cheap; scipy.stats is never imported (it costs a `simulate` about a second of CPU): the exact tests are
cardtool.sim.exact's, and the t and normal quantiles and tail areas the very scipy.special functions
scipy.stats calls (ndtri, stdtrit, stdtr), so the numbers are scipy's (tests compare them).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

ALPHA = 0.05


@lru_cache(maxsize=None)
def _z(confidence: float) -> float:
    from scipy.special import ndtri  # what scipy.stats.norm.ppf computes

    return float(ndtri(0.5 + confidence / 2))


def wilson(successes: int, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of a rate; (0, 1) when there are no trials."""
    if trials == 0:
        return 0.0, 1.0
    z = _z(confidence)
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    # exact ends: none in n cannot have a rate below 0, all in n none above 1
    return (0.0 if successes == 0 else max(0.0, centre - half)), (1.0 if successes == trials else min(1.0, centre + half))


@dataclass(frozen=True)
class Rate:
    """k of n, with its Wilson interval."""

    k: int
    n: int
    low: float
    high: float

    @classmethod
    def of(cls, k: int, n: int) -> "Rate":
        return cls(k, n, *wilson(k, n))

    @property
    def value(self) -> float:
        return self.k / self.n if self.n else math.nan


@dataclass(frozen=True)
class Difference:
    """An estimated difference (first minus second) with its interval and a two-sided p-value."""

    estimate: float
    low: float
    high: float
    p: float
    significant: bool = False  # set after correcting for the number of comparisons (see holm)

    def marked(self, significant: bool) -> "Difference":
        return Difference(self.estimate, self.low, self.high, self.p, significant)


def newcombe(k1: int, n1: int, k2: int, n2: int, confidence: float = 0.95) -> tuple[float, float]:
    """Interval of p1 - p2 for two independent rates (Newcombe's hybrid score method)."""
    p1, p2 = k1 / n1 if n1 else 0.0, k2 / n2 if n2 else 0.0
    l1, u1 = wilson(k1, n1, confidence)
    l2, u2 = wilson(k2, n2, confidence)
    diff = p1 - p2
    return diff - math.hypot(p1 - l1, u2 - p2), diff + math.hypot(u1 - p1, p2 - l2)


def rate_difference(k1: int, n1: int, k2: int, n2: int) -> Difference:
    """p1 - p2 for independent samples: Newcombe interval, Fisher's exact test."""
    from cardtool.sim.exact import fisher_p

    low, high = newcombe(k1, n1, k2, n2)
    if not n1 or not n2:
        return Difference(math.nan, low, high, 1.0)
    p = fisher_p(((k1, n1 - k1), (k2, n2 - k2)))
    return Difference(k1 / n1 - k2 / n2, low, high, min(1.0, p))


def paired_rate_difference(first: Sequence[bool], second: Sequence[bool], confidence: float = 0.95) -> Difference:
    """p1 - p2 for paired outcomes (game i of deck A against game i of deck B): Newcombe's paired
    interval, and McNemar's exact test on the pairs that disagree."""
    from cardtool.sim.exact import binomial_p

    n = len(first)
    if n == 0:
        return Difference(math.nan, -1.0, 1.0, 1.0)
    a = sum(1 for x, y in zip(first, second) if x and y)
    b = sum(1 for x, y in zip(first, second) if x and not y)
    c = sum(1 for x, y in zip(first, second) if y and not x)
    d = n - a - b - c
    p1, p2 = (a + b) / n, (a + c) / n
    l1, u1 = wilson(a + b, n, confidence)
    l2, u2 = wilson(a + c, n, confidence)
    denominator = (a + b) * (c + d) * (a + c) * (b + d)
    phi = (a * d - b * c) / math.sqrt(denominator) if denominator else 0.0
    below = math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    above = math.sqrt(max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2))
    p = binomial_p(b, b + c, 0.5) if b + c else 1.0
    return Difference(p1 - p2, max(-1.0, p1 - p2 - below), min(1.0, p1 - p2 + above), p)


def rate_against(k: int, n: int, expected: float) -> float:
    """Two-sided p-value of k in n against a known rate (exact binomial test)."""
    from cardtool.sim.exact import binomial_p

    if n == 0:
        return 1.0
    return binomial_p(k, n, min(1.0, max(0.0, expected)))


def mean_interval(values: Sequence[float], confidence: float = 0.95) -> tuple[float, float, float]:
    """Mean with its t interval."""
    import numpy as np

    data = np.asarray(values, dtype=float)
    if data.size == 0:
        return math.nan, math.nan, math.nan
    mean = float(data.mean())
    if data.size < 2 or float(data.std()) == 0.0:
        return mean, mean, mean
    half = float(_t_quantile(0.5 + confidence / 2, data.size - 1) * data.std(ddof=1) / math.sqrt(data.size))
    return mean, mean - half, mean + half


def paired_mean_difference(first: Sequence[float], second: Sequence[float]) -> Difference:
    """Mean of first - second over pairs: t interval and paired t-test."""
    import numpy as np

    diffs = np.asarray(first, dtype=float) - np.asarray(second, dtype=float)
    mean, low, high = mean_interval(diffs)
    if diffs.size < 2 or not np.any(diffs):
        return Difference(mean if diffs.size else math.nan, low, high, 1.0)
    if float(diffs.std()) == 0.0:  # the same non-zero difference in every pair
        return Difference(mean, mean, mean, 0.0)
    t = float(diffs.mean()) / math.sqrt(float(diffs.var(ddof=1)) / diffs.size)  # scipy.stats.ttest_rel's
    return Difference(mean, low, high, _t_two_sided(t, diffs.size - 1))


def mean_difference(first: Sequence[float], second: Sequence[float], confidence: float = 0.95) -> Difference:
    """Mean of first minus mean of second for independent samples: Welch's interval and test."""
    import numpy as np

    x, y = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    if x.size < 2 or y.size < 2:
        return Difference(math.nan, math.nan, math.nan, 1.0)
    diff = float(x.mean() - y.mean())
    vx, vy = x.var(ddof=1) / x.size, y.var(ddof=1) / y.size
    if vx + vy == 0:
        return Difference(diff, diff, diff, 1.0 if diff == 0 else 0.0)
    df = (vx + vy) ** 2 / ((vx ** 2 / (x.size - 1) if vx else 0) + (vy ** 2 / (y.size - 1) if vy else 0))
    half = float(_t_quantile(0.5 + confidence / 2, df) * math.sqrt(vx + vy))
    p = _t_two_sided(diff / math.sqrt(vx + vy), df)  # Welch's test, as scipy.stats.ttest_ind(equal_var=False)
    return Difference(diff, diff - half, diff + half, p)


def _t_quantile(q: float, df: float) -> float:
    from scipy.special import stdtrit  # what scipy.stats.t.ppf computes

    return float(stdtrit(df, q))


def _t_two_sided(t: float, df: float) -> float:
    """Two-sided p-value of Student's t statistic t with df degrees of freedom."""
    from scipy.special import stdtr  # scipy.stats.t.sf(x, df) is stdtr(df, -x)

    return float(2 * stdtr(df, -abs(t)))


def holm(differences: Sequence[Difference], alpha: float = ALPHA) -> list[Difference]:
    """The differences marked significant or not by Holm's step-down correction: with many metrics
    compared at once, some would pass p < 0.05 by chance alone; this keeps that chance under alpha."""
    order = sorted(range(len(differences)), key=lambda i: differences[i].p)
    significant = [False] * len(differences)
    m = len(differences)
    for rank, i in enumerate(order):
        if differences[i].p > alpha / (m - rank) or math.isnan(differences[i].p):
            break
        significant[i] = True
    return [d.marked(s) for d, s in zip(differences, significant)]


def quantile(values: Sequence[float], q: float) -> float:
    """The q-quantile (0.5 median, 0.95 p95), by linear interpolation; nan when empty."""
    import numpy as np

    return float(np.quantile(np.asarray(values, dtype=float), q)) if len(values) else math.nan



class ConfidenceSequence:
    """A 95% confidence sequence for the mean of independent, identically distributed observations in
    [0, 1]: an interval after every observation such that, with probability at least 95%, the true mean
    lies in *every one* of them at once. It therefore stays honest whenever one looks at it and stops
    (e.g. once it is narrow enough), which a Wilson interval recomputed after each batch does not.

    The method is testing by betting (Waudby-Smith and Ramdas 2024, "Estimating means of bounded random
    variables by betting", JRSS B 86(1): the hedged capital process, section 4), with a mixture of
    constant bets (the method of mixtures of Howard, Ramdas, McAuliffe and Sekhon 2021,
    "Time-uniform, nonparametric, nonasymptotic confidence sequences", Annals of Statistics 49(2)).
    For each candidate mean m, gamblers bet a fraction of their wealth that the next observation is
    above m, others that it is below, with `bets` stake sizes from c down to c/2^(bets-1) per unit
    of distance, the stake split evenly among them. Were m the true mean, their total wealth would be
    a nonnegative martingale starting at 1, so by Ville's inequality it reaches 1/alpha with
    probability at most alpha, ever. The interval is the set of m at which it has not.

    `runs` > 1 follows that many independent sequences at once (for testing coverage); candidates lie
    on a grid of `grid` cells and every interval is widened to whole cells.
    """

    def __init__(self, alpha: float = ALPHA, grid: int = 1000, runs: int = 1, bets: int = 10, c: float = 0.5):
        import numpy as np

        self.alpha, self.runs = alpha, runs
        self.m = (np.arange(grid) + 0.5) / grid
        self.cell = 1.0 / grid
        stakes = c * 0.5 ** np.arange(bets)
        self._up = np.minimum(stakes[:, None], c / self.m[None, :])  # (bets, grid): never risk more than c
        self._down = np.minimum(stakes[:, None], c / (1 - self.m[None, :]))
        self._log_up = np.zeros((runs, bets, grid))  # log wealth of each bet that the mean is above m
        self._log_down = np.zeros((runs, bets, grid))
        self._start = math.log(2 * bets)  # the unit stake split over the bets of both sides
        self.n = 0
        self.total = np.zeros(runs)

    def update(self, values) -> None:
        """Add observations in order: numbers in [0, 1] (one run), or arrays of shape (runs,)."""
        import numpy as np

        for value in values:
            x = np.clip(np.asarray(value, dtype=float).reshape(-1), 0.0, 1.0)
            distance = x[:, None, None] - self.m[None, None, :]
            self._log_up += np.log1p(self._up * distance)
            self._log_down += np.log1p(-self._down * distance)
            self.total += x
            self.n += 1

    def rejected(self) -> np.ndarray:
        """(runs, grid): whether each candidate mean is ruled out now."""
        import numpy as np
        from scipy.special import logsumexp

        wealth = np.logaddexp(logsumexp(self._log_up, axis=1), logsumexp(self._log_down, axis=1)) - self._start
        return wealth >= math.log(1 / self.alpha)

    def intervals(self) -> list[tuple[float, float]]:
        """The current interval of each run (the whole of 0-1 before any observation)."""
        import numpy as np

        result = []
        for row, total in zip(self.rejected(), self.total):
            kept = np.flatnonzero(~row)
            if kept.size == 0:  # narrower than a cell: keep the cells next to the observed mean
                centre = total / self.n
                result.append((max(0.0, centre - self.cell), min(1.0, centre + self.cell)))
            else:
                result.append((max(0.0, float(self.m[kept[0]]) - self.cell),
                               min(1.0, float(self.m[kept[-1]]) + self.cell)))
        return result

    def interval(self) -> tuple[float, float]:
        return self.intervals()[0]
