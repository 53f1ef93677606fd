"""The report's charts: matplotlib figures as SVG text, inlined in the HTML (and so in the PDF).

Figures are made with the object API (no pyplot state) and written with fixed ids and no date, so the
same analysis gives byte-identical SVG. matplotlib is imported on the first chart drawn, not with this
module, so that commands importing it start quickly.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence

from contextlib import contextmanager

from cardtool.sim.stats import Rate

WIDTH = 6.4  # inches; the page is A4 with 2 cm margins
COLOURS = ("#2b6f8e", "#d1793a", "#5a9b4b", "#8a5aa8", "#c04b5a", "#6b6b6b", "#b89b2e", "#3a8f8a")
A, B = COLOURS[0], COLOURS[1]
# Card names and labels are plain text: no mathtext ("$x^$" would not parse) and no TeX. The SVG backend
# escapes <, > and & itself, so the inlined figure carries no markup from the deck.
STYLE = {"svg.fonttype": "none", "svg.hashsalt": "cardtool", "font.size": 9, "axes.spines.top": False,
         "axes.spines.right": False, "axes.titlesize": 10, "font.family": "sans-serif",
         "text.parse_math": False, "text.usetex": False}


def _matplotlib():
    """matplotlib's Agg backend, imported on first use."""
    import matplotlib

    matplotlib.use("Agg")
    return matplotlib


@contextmanager
def rc_context(style):
    """matplotlib's rc_context, importing matplotlib first."""
    with _matplotlib().rc_context(style):
        yield


def _svg(figure) -> str:
    out = io.StringIO()
    with rc_context(STYLE):
        figure.savefig(out, format="svg", bbox_inches="tight", metadata={"Date": None})
    text = out.getvalue()
    return text[text.index("<svg"):]  # inline: drop the XML declaration and doctype


def _ticker():
    from matplotlib import ticker

    return ticker


def _figure(height: float) -> tuple[object, object]:
    from matplotlib.figure import Figure

    with rc_context(STYLE):
        figure = Figure(figsize=(WIDTH, height))
        return figure, figure.add_subplot()


def _errors(rates: Sequence[Rate]) -> list[list[float]]:
    return [[max(0.0, r.value - r.low) if r.n else 0 for r in rates],
            [max(0.0, r.high - r.value) if r.n else 0 for r in rates]]


def rates(labels: Sequence[str], series: Sequence[tuple[str, Sequence[Rate]]], *, reference: float | None = None,
          reference_label: str = "", ylabel: str = "win rate") -> str:
    """Bars of rates with their 95% Wilson intervals; several series side by side (deck A and B)."""
    with rc_context(STYLE):
        figure, ax = _figure(2.6)
        width = 0.8 / len(series)
        for i, (name, values) in enumerate(series):
            xs = [x + (i - (len(series) - 1) / 2) * width for x in range(len(labels))]
            ax.bar(xs, [r.value if r.n else 0 for r in values], width * 0.9, yerr=_errors(values), capsize=3,
                   color=COLOURS[i % len(COLOURS)], label=name or None, error_kw={"elinewidth": 1})
        if reference is not None and not math.isnan(reference):
            ax.axhline(reference, color="#555", linestyle="--", linewidth=1, label=reference_label or None)
        ax.set_xticks(range(len(labels)), labels)
        ax.set_ylabel(ylabel)
        from matplotlib.ticker import PercentFormatter

        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        ax.set_ylim(bottom=0)
        if len(series) > 1 or reference_label:
            ax.legend(frameon=False, fontsize=8)
        return _svg(figure)


def histogram(series: Sequence[tuple[str, Sequence[float]]], *, xlabel: str, marks: Sequence[tuple[str, float]] = ()) -> str:
    """Histograms (overlaid when several), with vertical marks such as the median and p95."""
    with rc_context(STYLE):
        figure, ax = _figure(2.4)
        values = [v for _, data in series for v in data]
        low, high = (min(values), max(values)) if values else (0, 1)
        integral = all(float(v).is_integer() for v in values)
        if integral and high - low <= 60:
            bins = [x - 0.5 for x in range(int(low), int(high) + 2)]
        else:
            bins = 30
        for i, (name, data) in enumerate(series):
            ax.hist(data, bins=bins, color=COLOURS[i % len(COLOURS)], alpha=0.75 if len(series) > 1 else 1,
                    label=name or None)
        for j, (name, x) in enumerate(marks):
            if not math.isnan(x):
                ax.axvline(x, color="#222", linestyle=("--", ":", "-.")[j % 3], linewidth=1, label=name)
        ax.set_xlabel(xlabel)
        if integral:
            ax.xaxis.set_major_locator(_ticker().MaxNLocator(integer=True))
        ax.set_ylabel("games")
        if marks or len(series) > 1:
            ax.legend(frameon=False, fontsize=8)
        return _svg(figure)


def boxes(labels: Sequence[str], data: Sequence[Sequence[float]], *, ylabel: str) -> str:
    """Box plots (median, quartiles, 5th-95th percentile whiskers) side by side."""
    with rc_context(STYLE):
        figure, ax = _figure(2.6)
        ax.boxplot([list(d) or [math.nan] for d in data], whis=(5, 95), showfliers=False,
                   medianprops={"color": COLOURS[1]})
        ax.set_xticks(range(1, len(labels) + 1), labels)
        ax.set_ylabel(ylabel)
        return _svg(figure)


def curves(series: Sequence[tuple[str, Sequence[float]]], *, xlabel: str, ylabel: str,
           styles: Sequence[str] = ()) -> str:
    """Lines over rounds (x from 1)."""
    with rc_context(STYLE):
        figure, ax = _figure(2.6)
        for i, (name, ys) in enumerate(series):
            style = styles[i] if i < len(styles) else "-"
            colour = COLOURS[(i // 2 if styles else i) % len(COLOURS)]
            ax.plot(range(1, len(ys) + 1), ys, style, color=colour, marker="o", markersize=3, label=name)
        ax.set_xlabel(xlabel)
        ax.xaxis.set_major_locator(_ticker().MaxNLocator(integer=True))
        ax.set_ylabel(ylabel)
        ax.legend(frameon=False, fontsize=8, ncols=2)
        return _svg(figure)


def forest(labels: Sequence[str], estimates: Sequence[float], lows: Sequence[float], highs: Sequence[float],
           flagged: Sequence[bool], *, xlabel: str) -> str:
    """Differences with their intervals, one row each (a forest plot); flagged rows in colour."""
    with rc_context(STYLE):
        figure, ax = _figure(max(1.6, 0.17 * len(labels) + 0.8))
        ys = list(range(len(labels)))[::-1]
        for y, estimate, low, high, flag in zip(ys, estimates, lows, highs, flagged):
            if math.isnan(estimate):
                continue
            colour = COLOURS[1] if flag else "#555"
            ax.plot([low, high], [y, y], color=colour, linewidth=1.2)
            ax.plot([estimate], [y], "o", color=colour, markersize=3.5)
        ax.axvline(0, color="#999", linewidth=0.8)
        ax.set_yticks(ys, labels, fontsize=7)
        ax.set_ylim(-0.8, len(labels) - 0.2)
        ax.set_xlabel(xlabel)
        from matplotlib.ticker import PercentFormatter

        ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        return _svg(figure)


def grouped(categories: Sequence[str], series: Sequence[tuple[str, Sequence[float]]], *, ylabel: str) -> str:
    """Bars per category, one per series (e.g. every seat against the winners)."""
    with rc_context(STYLE):
        figure, ax = _figure(2.4)
        width = 0.8 / max(1, len(series))
        for i, (name, values) in enumerate(series):
            xs = [x + (i - (len(series) - 1) / 2) * width for x in range(len(categories))]
            ax.bar(xs, [0 if math.isnan(v) else v for v in values], width * 0.9, color=COLOURS[i % len(COLOURS)],
                   label=name)
        ax.set_xticks(range(len(categories)), [c.replace("_", " ") for c in categories])
        ax.set_ylabel(ylabel)
        ax.legend(frameon=False, fontsize=8)
        return _svg(figure)
