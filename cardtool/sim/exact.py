"""Exact two-sided tests on counts: the binomial test and Fisher's exact test of a 2x2 table, each the
p-value scipy.stats.binomtest and scipy.stats.fisher_exact give, to floating precision (tests compare them).

Both sum the probabilities of the outcomes no more likely than the one observed, as scipy does and with
its tolerances for near-ties. The probabilities are taken relative to the most likely outcome, each from
its neighbour by the ratio of the two (a few roundings each), and divided by their sum at the end, so no
factorial or power is ever formed; outcomes too unlikely to show in a double (below 1e-308 of the most
likely) are left out, on every side. Importing scipy.stats costs a `cardtool simulate` about a second
of CPU, many times what its tests need: this module imports nothing beyond the standard library.
"""

from __future__ import annotations

import math
from collections.abc import Callable

#: scipy's allowance for outcomes as likely as the observed one but computed a little above it.
BINOMIAL_TIE = 1 + 1e-7  # scipy.stats.binomtest's rerr
FISHER_TIE = 1 + 1e-14  # scipy.stats.fisher_exact's gamma


def binomial_p(k: int, n: int, p: float) -> float:
    """Two-sided p-value of k successes in n trials of probability p (scipy.stats.binomtest's)."""
    if n == 0 or k == p * n:  # the float comparison scipy makes: the expected count itself
        return 1.0
    if p in (0.0, 1.0):  # every trial one way: k is the only outcome, or an impossible one
        return 1.0 if k == n * p else 0.0
    odds = p / (1 - p)
    mode = min(n, math.floor((n + 1) * p))
    low, weights = _relative(mode, 0, n, lambda x: (n - x) / (x + 1) * odds)
    observed = _at(weights, low, k) * BINOMIAL_TIE
    if k < p * n:  # every outcome up to k, and those above the mean no more likely than k
        chosen = weights[:max(0, k + 1 - low)] + _tail(reversed(weights[max(0, math.ceil(p * n) - low):]),
                                                        observed)
    else:
        chosen = weights[max(0, k - low):] + _tail(weights[:max(0, math.floor(p * n) + 1 - low)], observed)
    return min(1.0, math.fsum(chosen) / math.fsum(weights))


def fisher_p(table: tuple[tuple[int, int], tuple[int, int]]) -> float:
    """Two-sided p-value of Fisher's exact test of [[a, b], [c, d]] (scipy.stats.fisher_exact's): the
    probability, given the table's margins, of a table no more likely than this one."""
    (a, b), (c, d) = table
    first, second, column = a + b, c + d, a + c  # row totals, and the first column's
    if 0 in (first, second, column, b + d):
        return 1.0
    least, most = max(0, column - second), min(first, column)
    mode = min(most, max(least, (column + 1) * (first + 1) // (first + second + 2)))
    low, weights = _relative(mode, least, most,
                             lambda x: (first - x) * (column - x) / ((x + 1) * (second - column + x + 1)))
    observed = _at(weights, low, a) * FISHER_TIE
    return min(1.0, math.fsum(w for w in weights if w <= observed) / math.fsum(weights))


def _relative(mode: int, least: int, most: int, ratio: Callable[[int], float]) -> tuple[int, list[float]]:
    """(first outcome kept, the probability of each outcome from it on relative to the mode's), where
    ratio(x) is P(x + 1) / P(x); outcomes whose relative probability underflows are left out."""
    above, weight = [], 1.0
    for x in range(mode, most):
        weight *= ratio(x)
        if weight == 0.0:
            break
        above.append(weight)
    below, weight = [], 1.0
    for x in range(mode - 1, least - 1, -1):
        weight /= ratio(x)
        if weight == 0.0:
            break
        below.append(weight)
    return mode - len(below), below[::-1] + [1.0] + above


def _at(weights: list[float], low: int, x: int) -> float:
    return weights[x - low] if 0 <= x - low < len(weights) else 0.0


def _tail(weights, limit: float) -> list[float]:
    """The weights, from the far end of one side inwards (they grow), while they stay within limit."""
    chosen = []
    for w in weights:
        if w > limit:
            break
        chosen.append(w)
    return chosen
