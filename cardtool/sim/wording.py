"""Numbers in words and in files: percentages, rates with their intervals, differences in
percentage points, p-values, and the same numbers as JSON and CSV cells.

Shared by the balance report (simulate), the comparison report (compare) and the ladder; imports
only cardtool.sim.stats.
"""

from __future__ import annotations

import math

from cardtool.sim.stats import Difference, Rate


def percent(x: float, digits: int = 1) -> str:
    return "–" if x is None or math.isnan(x) else f"{100 * x:.{digits}f}%"


def rate_text(rate: Rate) -> str:
    """'26.3% (23.7–29.1%)'."""
    if not rate.n:
        return "– (no games)"
    return f"{percent(rate.value)} ({percent(rate.low)}–{percent(rate.high)})"


def points_diff(diff: Difference, digits: int = 2) -> str:
    if math.isnan(diff.estimate):
        return "–"
    return f"{diff.estimate:+.{digits}f} ({diff.low:+.{digits}f} to {diff.high:+.{digits}f})"


def rate_diff(diff: Difference) -> str:
    """'+4.2 pp (+1.0 to +7.5)': a difference of rates in percentage points."""
    if math.isnan(diff.estimate):
        return "–"
    return f"{100 * diff.estimate:+.1f} pp ({100 * diff.low:+.1f} to {100 * diff.high:+.1f})"


def p_text(p: float) -> str:
    return "–" if math.isnan(p) else ("< 0.0001" if p < 0.0001 else f"{p:.4f}" if p < 0.01 else f"{p:.3f}")


def number(x: float, digits: int = 1) -> str:
    return "–" if x is None or math.isnan(x) else f"{x:.{digits}f}"


def seat_names(players: int) -> list[str]:
    return [f"seat {seat + 1}" for seat in range(players)]


def csv_number(x: float) -> str:
    """A number for a CSV cell: six significant digits, empty when missing."""
    return "" if x is None or math.isnan(x) else f"{x:.6g}"


def json_number(x: float):
    """A number for JSON: rounded to six places, null when missing."""
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else round(x, 6)


def rate_json(rate: Rate, counted: str = "wins") -> dict:
    """A rate as JSON: how many (under the key `counted`, e.g. "wins" or "healthy_games") of how many."""
    j = json_number
    return {counted: rate.k, "of": rate.n, "rate": j(rate.value), "ci95": [j(rate.low), j(rate.high)]}


def diff_json(diff: Difference) -> dict:
    j = json_number
    return {"estimate": j(diff.estimate), "ci95": [j(diff.low), j(diff.high)], "p": j(diff.p),
            "significant": diff.significant}
