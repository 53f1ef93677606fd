"""A small SVG plotting kit for the reports' charts: axes with round ticks, bars, lines, markers,
interval whiskers and legends, written as plain SVG text.

Drawing the handful of chart types the reports use needs no plotting library: written directly they
take microseconds instead of matplotlib's import and layout, and their few elements lay out quickly in
WeasyPrint's PDF. Text is escaped (a card name is text, never markup) and nothing depends on the date
or on dictionaries' order, so the same numbers give the same bytes. Imports nothing of cardtool.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from html import escape

COLOURS = ("#2b6f8e", "#d1793a", "#5a9b4b", "#8a5aa8", "#c04b5a", "#6b6b6b", "#b89b2e", "#3a8f8a")
WIDTH = 640  # user units; the page shows it about 16 cm wide, so 12 units of text read as 8.5 pt
FONT = 12
TEXT = "#333"
AXIS = "#666"


def ticks(low: float, high: float, count: int = 5, integer: bool = False) -> list[float]:
    """Round values (1, 2 or 5 times a power of ten) covering low..high, about `count` of them."""
    if not (math.isfinite(low) and math.isfinite(high)):
        return [0.0, 1.0]
    if high <= low:
        high = low + (1 if integer or low == 0 else abs(low) * 0.1)
    raw = (high - low) / max(1, count)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    if integer:
        step = max(1.0, round(step))
    first = math.floor(low / step + 1e-9) * step
    values = []
    value = first
    while value <= high + step * 1e-9:
        values.append(round(value, 10))
        value += step
    if values[-1] < high - step * 1e-9:
        values.append(round(values[-1] + step, 10))
    return values


def percent(value: float) -> str:
    return f"{100 * value:.0f}%"


def plain(value: float) -> str:
    return f"{value:.0f}" if float(value).is_integer() else f"{value:g}"


def _n(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".") if math.isfinite(x) else "0"


class Plot:
    """One chart: a plotting area inside margins, data ranges mapped onto it, and its SVG elements."""

    def __init__(self, height: float, *, left: float = 58, right: float = 14, top: float = 10, bottom: float = 42):
        self.width, self.height = WIDTH, height
        self.left, self.right, self.top, self.bottom = left, right, top, bottom
        self.x_range = (0.0, 1.0)
        self.y_range = (0.0, 1.0)
        self.parts: list[str] = []

    # -- coordinates

    def x(self, value: float) -> float:
        low, high = self.x_range
        return self.left + (value - low) / ((high - low) or 1) * (self.width - self.left - self.right)

    def y(self, value: float) -> float:
        low, high = self.y_range
        return self.height - self.bottom - (value - low) / ((high - low) or 1) * (self.height - self.top - self.bottom)

    # -- marks, in data coordinates

    def rect(self, x0: float, y0: float, x1: float, y1: float, colour: str, opacity: float = 1.0) -> None:
        left, right = sorted((self.x(x0), self.x(x1)))
        top, bottom = sorted((self.y(y0), self.y(y1)))
        extra = f' fill-opacity="{opacity:g}"' if opacity < 1 else ""
        self.parts.append(f'<rect x="{_n(left)}" y="{_n(top)}" width="{_n(right - left)}" height="{_n(bottom - top)}" '
                          f'fill="{colour}"{extra}/>')

    def line(self, points: Sequence[tuple[float, float]], colour: str, width: float = 1.5, dash: str = "") -> None:
        path = " ".join(f"{_n(self.x(a))},{_n(self.y(b))}" for a, b in points)
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        self.parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="{width:g}"{extra}/>')

    def dot(self, x: float, y: float, colour: str, radius: float = 3.0) -> None:
        self.parts.append(f'<circle cx="{_n(self.x(x))}" cy="{_n(self.y(y))}" r="{radius:g}" fill="{colour}"/>')

    def whisker(self, x: float, low: float, high: float, cap: float = 4.0) -> None:
        """A vertical interval from low to high at x, with caps."""
        px, top, bottom = self.x(x), self.y(high), self.y(low)
        self.parts.append(f'<path d="M{_n(px)},{_n(bottom)}V{_n(top)}M{_n(px - cap)},{_n(top)}H{_n(px + cap)}'
                          f'M{_n(px - cap)},{_n(bottom)}H{_n(px + cap)}" stroke="#222" stroke-width="1" fill="none"/>')

    def text(self, px: float, py: float, words: str, *, anchor: str = "middle", size: float = FONT,
             rotate: bool = False, colour: str = TEXT) -> None:
        """Text at a position in pixels (escaped: never markup)."""
        turn = f' transform="rotate(-90 {_n(px)} {_n(py)})"' if rotate else ""
        self.parts.append(f'<text x="{_n(px)}" y="{_n(py)}" text-anchor="{anchor}" font-size="{size:g}" '
                          f'fill="{colour}"{turn}>{escape(str(words), quote=False)}</text>')

    # -- axes

    def x_axis(self, values: Sequence[float], label: str, words: Callable[[float], str] = plain) -> None:
        base = self.height - self.bottom
        self.parts.append(f'<path d="M{_n(self.left)},{_n(base)}H{_n(self.width - self.right)}" stroke="{AXIS}"/>')
        for value in values:
            px = self.x(value)
            self.parts.append(f'<path d="M{_n(px)},{_n(base)}v4" stroke="{AXIS}"/>')
            self.text(px, base + 16, words(value))
        if label:
            self.text((self.left + self.width - self.right) / 2, self.height - 6, label)

    def x_labels(self, labels: Sequence[str], positions: Sequence[float]) -> None:
        """Category labels under the x axis."""
        base = self.height - self.bottom
        self.parts.append(f'<path d="M{_n(self.left)},{_n(base)}H{_n(self.width - self.right)}" stroke="{AXIS}"/>')
        for label, position in zip(labels, positions):
            self.text(self.x(position), base + 16, label)

    def y_axis(self, values: Sequence[float], label: str, words: Callable[[float], str] = plain) -> None:
        self.parts.append(f'<path d="M{_n(self.left)},{_n(self.top)}V{_n(self.height - self.bottom)}" stroke="{AXIS}"/>')
        for value in values:
            py = self.y(value)
            self.parts.append(f'<path d="M{_n(self.left - 4)},{_n(py)}h4" stroke="{AXIS}"/>')
            self.text(self.left - 7, py + 4, words(value), anchor="end")
        if label:
            self.text(14, (self.top + self.height - self.bottom) / 2, label, rotate=True)

    def y_labels(self, labels: Sequence[str], positions: Sequence[float], size: float = FONT) -> None:
        """Category labels left of the plotting area (one row each, e.g. card names)."""
        for label, position in zip(labels, positions):
            self.text(self.left - 6, self.y(position) + size / 3, label, anchor="end", size=size)

    def legend(self, items: Sequence[tuple[str, str, str]], corner: str = "right") -> None:
        """Keys at the top right (or left): (label, colour, "box" | "line" | "dash" | "dot")."""
        left = corner == "left"
        px, py = (self.left + 30 if left else self.width - self.right - 4), self.top + 12
        for label, colour, kind in items:
            if not label:
                continue
            key = px - 22 if not left else px - 24
            self.text(px - 26 if not left else px, py + 4, label, anchor="start" if left else "end", size=FONT - 1)
            if kind == "box":
                self.parts.append(f'<rect x="{_n(key + 2)}" y="{_n(py - 5)}" width="16" height="10" fill="{colour}"/>')
            else:
                dash = {"dash": ' stroke-dasharray="5 3"', "dot": ' stroke-dasharray="1.5 2.5"'}.get(kind, "")
                self.parts.append(f'<path d="M{_n(key)},{_n(py)}h18" stroke="{colour}" stroke-width="1.5"{dash}/>')
            py += 16

    def svg(self) -> str:
        return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_n(self.width)} {_n(self.height)}" '
                f'width="{_n(self.width)}" height="{_n(self.height)}" font-family="DejaVu Sans, Arial, sans-serif">'
                + "".join(self.parts) + "</svg>")


def label_width(labels: Sequence[str], size: float = FONT) -> float:
    """About how wide the longest label is drawn, in user units."""
    return max((len(label) for label in labels), default=0) * size * 0.58
