"""The reports' charts as SVG text, inlined in the HTML (and so in the PDF).

Drawn with cardtool.sim.svgplot rather than a plotting library: a report of 200 games used to spend
most of its time importing matplotlib, laying its figures out and, in WeasyPrint, drawing their many
elements. The same analysis gives byte-identical SVG; card names and labels are plain, escaped text.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from cardtool.sim.stats import Rate
from cardtool.sim.svgplot import COLOURS, FONT, Plot, label_width, percent, plain, ticks

__all__ = ["COLOURS", "boxes", "curves", "forest", "grouped", "histogram", "intervals", "rates"]

MARK_DASHES = ("5 3", "1.5 2.5", "6 2 1.5 2")
PAGE_ROWS = 56  # rows of a forest plot that fit an A4 page


def _bars_x(count: int, series: int, index: int) -> tuple[list[float], float]:
    """Centres of series `index` of `series` side-by-side bars per category, and their width."""
    width = 0.8 / max(1, series)
    return [x + (index - (series - 1) / 2) * width for x in range(count)], width * 0.9


def rates(labels: Sequence[str], series: Sequence[tuple[str, Sequence[Rate]]], *, reference: float | None = None,
          reference_label: str = "", ylabel: str = "win rate") -> str:
    """Bars of rates with their 95% Wilson intervals; several series side by side (deck A and B)."""
    plot = Plot(208)
    top = max([r.high for _, values in series for r in values if r.n] + [reference or 0, 0.05])
    plot.y_range = (0.0, ticks(0, top)[-1])
    plot.x_range = (-0.6, len(labels) - 0.4)
    plot.y_axis(ticks(0, top), ylabel, percent)
    keys = []
    for i, (name, values) in enumerate(series):
        colour = COLOURS[i % len(COLOURS)]
        xs, width = _bars_x(len(labels), len(series), i)
        for x, r in zip(xs, values):
            if r.n:
                plot.rect(x - width / 2, 0, x + width / 2, r.value, colour)
                plot.whisker(x, r.low, r.high)
        keys.append((name, colour, "box"))
    if reference is not None and not math.isnan(reference):
        plot.line([(-0.6, reference), (len(labels) - 0.4, reference)], "#555", 1, "5 3")
        keys.append((reference_label, "#555", "dash"))
    plot.x_labels(labels, range(len(labels)))
    if len(series) > 1 or reference_label:
        plot.legend(keys)
    return plot.svg()


def histogram(series: Sequence[tuple[str, Sequence[float]]], *, xlabel: str, marks: Sequence[tuple[str, float]] = ()) -> str:
    """Histograms (overlaid when several), with vertical marks such as the median and p95."""
    plot = Plot(192)
    values = [v for _, data in series for v in data]
    low, high = (min(values), max(values)) if values else (0, 1)
    integral = all(float(v).is_integer() for v in values)
    if integral and high - low <= 60:
        edges = [x - 0.5 for x in range(int(low), int(high) + 2)]
    else:
        step = (high - low) / 30 or 1
        edges = [low + step * k for k in range(31)]
    counts = [_counts(data, edges) for _, data in series]
    plot.x_range = (edges[0], edges[-1])
    y_ticks = ticks(0, max((max(c) for c in counts if c), default=1), integer=True)
    plot.y_range = (0, y_ticks[-1])
    plot.y_axis(y_ticks, "games")
    keys = []
    for i, ((name, _), bins) in enumerate(zip(series, counts)):
        colour = COLOURS[i % len(COLOURS)]
        for left, right, count in zip(edges, edges[1:], bins):
            if count:
                plot.rect(left, 0, right, count, colour, 0.75 if len(series) > 1 else 1.0)
        keys.append((name, colour, "box"))
    for j, (name, x) in enumerate(marks):
        if not math.isnan(x):
            plot.line([(x, 0), (x, y_ticks[-1])], "#222", 1, MARK_DASHES[j % 3])
            keys.append((name, "#222", ("dash", "dot", "dash")[j % 3]))
    plot.x_axis([t for t in ticks(low, high, 8, integer=integral) if edges[0] <= t <= edges[-1]], xlabel)
    if marks or len(series) > 1:
        plot.legend(keys)
    return plot.svg()


def _counts(data: Sequence[float], edges: Sequence[float]) -> list[int]:
    counts = [0] * (len(edges) - 1)
    low, last = edges[0], len(edges) - 2
    for value in data:
        if len(edges) > 2 and edges[1] - edges[0] == edges[-1] - edges[-2]:  # even bins: index directly
            index = min(last, max(0, int((value - low) / (edges[1] - edges[0]))))
        else:
            index = next((k for k in range(last + 1) if value < edges[k + 1]), last)
        counts[index] += 1
    return counts


def _quantile(ordered: Sequence[float], q: float) -> float:
    """Linear interpolation between order statistics (numpy's default)."""
    position = (len(ordered) - 1) * q
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (position - below)


def boxes(labels: Sequence[str], data: Sequence[Sequence[float]], *, ylabel: str) -> str:
    """Box plots (median, quartiles, 5th-95th percentile whiskers) side by side."""
    plot = Plot(208)
    summaries = []
    for values in data:
        ordered = sorted(values)
        summaries.append([_quantile(ordered, q) for q in (0.05, 0.25, 0.5, 0.75, 0.95)] if ordered else None)
    present = [s for s in summaries if s]
    low, high = (min(s[0] for s in present), max(s[4] for s in present)) if present else (0, 1)
    y_ticks = ticks(low, high)
    plot.y_range = (y_ticks[0], y_ticks[-1])
    plot.x_range = (0.4, len(labels) + 0.6)
    plot.y_axis(y_ticks, ylabel)
    for x, s in enumerate(summaries, start=1):
        if not s:
            continue
        p5, q1, median, q3, p95 = s
        plot.line([(x, p5), (x, q1)], "#222", 1)
        plot.line([(x, q3), (x, p95)], "#222", 1)
        plot.line([(x - 0.12, p5), (x + 0.12, p5)], "#222", 1)
        plot.line([(x - 0.12, p95), (x + 0.12, p95)], "#222", 1)
        plot.rect(x - 0.25, q1, x + 0.25, q3, "#e8eef2")
        plot.line([(x - 0.25, q1), (x + 0.25, q1), (x + 0.25, q3), (x - 0.25, q3), (x - 0.25, q1)], "#222", 1)
        plot.line([(x - 0.25, median), (x + 0.25, median)], COLOURS[1], 2)
    plot.x_labels(labels, range(1, len(labels) + 1))
    return plot.svg()


def curves(series: Sequence[tuple[str, Sequence[float]]], *, xlabel: str, ylabel: str,
           styles: Sequence[str] = ()) -> str:
    """Lines over rounds (x from 1)."""
    plot = Plot(208)
    values = [v for _, ys in series for v in ys if not math.isnan(v)]
    rounds = max((len(ys) for _, ys in series), default=1)
    y_ticks = ticks(min(values, default=0), max(values, default=1))
    plot.y_range = (y_ticks[0], y_ticks[-1])
    plot.x_range = (0.5, rounds + 0.5)
    plot.y_axis(y_ticks, ylabel)
    keys = []
    for i, (name, ys) in enumerate(series):
        dash = "5 3" if i < len(styles) and styles[i] != "-" else ""
        colour = COLOURS[(i // 2 if styles else i) % len(COLOURS)]
        points = [(x, y) for x, y in enumerate(ys, start=1) if not math.isnan(y)]
        plot.line(points, colour, 1.5, dash)
        for x, y in points:
            plot.dot(x, y, colour, 2.2)
        keys.append((name, colour, "dash" if dash else "line"))
    plot.x_axis([t for t in ticks(1, rounds, 8, integer=True) if 1 <= t <= rounds], xlabel)
    plot.legend(keys, "left")  # scores grow over the rounds: the top left is where the lines are not
    return plot.svg()


def intervals(labels: Sequence[str], estimates: Sequence[float], lows: Sequence[float], highs: Sequence[float],
              flagged: Sequence[bool], *, xlabel: str, centre: float = 0.0, as_percent: bool = True,
              size: float = FONT - 2) -> str:
    """Estimates with their intervals, one row each (a forest plot); flagged rows in colour, a line at
    `centre`. More rows than a page holds are drawn as several charts on one scale."""
    finite = [v for v in list(lows) + list(highs) + [centre] if not math.isnan(v)]
    x_ticks = ticks(min(finite), max(finite), 6)
    parts = math.ceil(len(labels) / PAGE_ROWS)
    if parts > 1:
        step = math.ceil(len(labels) / parts)
        rows = [slice(k, k + step) for k in range(0, len(labels), step)]
        return "".join(_intervals(labels[r], estimates[r], lows[r], highs[r], flagged[r], xlabel, centre, as_percent,
                                  size, x_ticks, label_width(labels, size)) for r in rows)
    return _intervals(labels, estimates, lows, highs, flagged, xlabel, centre, as_percent, size, x_ticks,
                      label_width(labels, size))


def _intervals(labels, estimates, lows, highs, flagged, xlabel, centre, as_percent, size, x_ticks, widest) -> str:
    row = size + 4
    plot = Plot(max(116, row * len(labels) + 62), left=min(300, widest + 14))
    plot.x_range = (x_ticks[0], x_ticks[-1])
    plot.y_range = (-0.8, len(labels) - 0.2)
    ys = list(range(len(labels)))[::-1]
    plot.line([(centre, -0.8), (centre, len(labels) - 0.2)], "#999", 0.8)
    for y, estimate, low, high, flag in zip(ys, estimates, lows, highs, flagged):
        if math.isnan(estimate):
            continue
        colour = COLOURS[1] if flag else "#555"
        plot.line([(low, y), (high, y)], colour, 1.2)
        plot.dot(estimate, y, colour, 2.6)
    plot.y_labels(labels, ys, size)
    plot.x_axis(x_ticks, xlabel, percent if as_percent else plain)
    return plot.svg()


def forest(labels: Sequence[str], estimates: Sequence[float], lows: Sequence[float], highs: Sequence[float],
           flagged: Sequence[bool], *, xlabel: str) -> str:
    """Differences of rates with their intervals, one row each; flagged rows in colour."""
    return intervals(labels, estimates, lows, highs, flagged, xlabel=xlabel)


def grouped(categories: Sequence[str], series: Sequence[tuple[str, Sequence[float]]], *, ylabel: str) -> str:
    """Bars per category, one per series (e.g. every seat against the winners)."""
    plot = Plot(192)
    values = [0 if math.isnan(v) else v for _, vs in series for v in vs]
    y_ticks = ticks(min(0, min(values, default=0)), max(values, default=1))
    plot.y_range = (y_ticks[0], y_ticks[-1])
    plot.x_range = (-0.6, len(categories) - 0.4)
    plot.y_axis(y_ticks, ylabel)
    keys = []
    for i, (name, vs) in enumerate(series):
        colour = COLOURS[i % len(COLOURS)]
        xs, width = _bars_x(len(categories), len(series), i)
        for x, v in zip(xs, vs):
            plot.rect(x - width / 2, 0, x + width / 2, 0 if math.isnan(v) else v, colour)
        keys.append((name, colour, "box"))
    plot.x_labels([c.replace("_", " ") for c in categories], range(len(categories)))
    plot.legend(keys)
    return plot.svg()
