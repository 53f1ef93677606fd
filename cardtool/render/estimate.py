"""A fast estimate of text fitting, without WeasyPrint, so `cardtool validate` can report text that will
not fit even at its floor before anything is rendered.

Each fitted field (TextField with a `box`, in em of the poker-size layout) is measured from the card's
text as its template prints it (each game's faces give it, as paragraphs of words: FaceText): each
paragraph is broken into lines greedily with the card font's widths, at the field's size and line height.
`paragraphs` reads the same from a rendered card's HTML, which the tests use to keep the two in step.
It errs on the side of fitting (one font size for the whole box, bold only where the HTML says <b>),
so it never blocks a deck the renderer would print; the renderer still measures the real layout. The
font's widths come from a table (render/font_metrics.py), so validating loads no font or template library.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import unescape

from cardtool.render.font_metrics import width

LINE_HEIGHT = 1.18  # the card stylesheets' line-height
PARAGRAPH_GAP = 0.3  # em between paragraphs (.text-panel p)
SLACK = 1.03  # an estimate 3% over its box still counts as fitting: the estimate is not the layout
Paragraphs = list[list[tuple[str, bool]]]  # each a list of (word, bold)
_DATA_URL = re.compile(r"data:[^\"')]*")


def _width(text: str, bold: bool) -> float:
    """Width of text at 1 pt, in pt."""
    return width(text, bold)


_TOKEN = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9]*)([^>]*)>|([^<]+)")
_FIT = re.compile(r"""data-fit=["']([^"']+)["']""")
_BLOCKS = {"p", "div", "br", "li"}
_VOID = {"br", "img", "meta", "link", "input", "hr"}


def paragraphs(html: str) -> dict[str, list[Paragraphs]]:
    """Each data-fit field's boxes in the card's HTML, each as its non-empty paragraphs of (word, bold);
    a field may have several boxes (a back's title is printed once each way up). A small tokenizer, not
    a full HTML parser: the card templates write well-formed markup, and this runs on every card."""
    boxes: dict[str, list[Paragraphs]] = {}
    stack: list[tuple[str, str | None, bool]] = []  # tag, fit box, bold
    for closing, tag, attrs, text in _TOKEN.findall(_DATA_URL.sub("", html)):
        if text:
            if stack and stack[-1][1] is not None and text.strip():
                _, fit, bold = stack[-1]
                boxes[fit][-1][-1].extend((word, bold) for word in unescape(text).split())
            continue
        tag = tag.lower()
        if closing:
            while stack:
                if stack.pop()[0] == tag:
                    break
            continue
        fit, bold = (stack[-1][1], stack[-1][2]) if stack else (None, False)
        bold = bold or tag in ("b", "strong")
        named = _FIT.search(attrs)
        if named:
            fit = named.group(1)
            boxes.setdefault(fit, []).append([[]])
        elif fit is not None and tag in _BLOCKS:
            boxes[fit][-1].append([])
        if tag not in _VOID and not attrs.rstrip().endswith("/"):
            stack.append((tag, fit, bold))
    return {fit: [[p for p in box if p] for box in found] for fit, found in boxes.items()}


@dataclass(frozen=True)
class Estimate:
    """How a field's text fits its box at one size: the height it needs and the box's, in pt."""

    needed: float
    height: float
    too_wide: bool  # a word (or a one-line field) wider than the box

    @property
    def fits(self) -> bool:
        return not self.too_wide and self.needed <= self.height * SLACK


def estimate(paras: list[list[tuple[str, bool]]], size: float, width: float, height: float,
             one_line: bool = False, spacing: float = 0.0) -> Estimate:
    """The text at `size` pt in a box `width` x `height` pt (spacing: letter-spacing in em)."""
    lines, too_wide = 0, False
    for para in paras:
        line = 0.0
        count = 1
        for word, bold in para:
            w = size * (_width(word, bold) + spacing * len(word))
            space = size * (_width(" ", bold) + spacing)
            if w > width * SLACK:
                too_wide = True
            if line and line + space + w > width:
                if one_line:
                    too_wide = True
                count += 1
                line = w
            else:
                line += (space if line else 0) + w
        lines += count
    needed = lines * LINE_HEIGHT * size + max(0, len(paras) - 1) * PARAGRAPH_GAP * size
    return Estimate(needed, height, too_wide)


def smallest_fitting(paras, start: float, width: float, height: float, one_line: bool = False,
                     spacing: float = 0.0, lowest: float = 2.0, step: float = 0.25) -> float | None:
    """The largest size from start down to lowest (pt) at which the text fits, or None."""
    size = start
    while size >= lowest - 1e-9:
        if estimate(paras, size, width, height, one_line, spacing).fits:
            return round(size, 2)
        size -= step
    return None
