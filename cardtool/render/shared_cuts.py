"""Shared cut lines: neighbouring cards butted together so that one cut separates them, the bleed kept
only around the outside of the block. Fits 9 poker cards with 3 mm bleed on A4 and on Letter.

Pure arithmetic on plain numbers (render/sheets.py turns them into cells, marks and bands). Each card
is still laid out with its bleed all round; on the sheet its inner bleed is clipped away, so a card's
art runs to the shared cut and the next card's starts there. Crop marks sit in the margin in line with
every cut; where the margin has no room for them (Letter, top and bottom) they are drawn in the outer
bleed instead, which the outer cuts remove. The print note goes below the block or, where there is no
room (Letter), up the left margin.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

MIN_MARK = 1.5  # a margin mark shorter than this is hard to line a ruler up with: mark in the bleed instead
IN_BLEED_STOP = 1.0  # a mark drawn in the outer bleed stops this far short of the card

Box = tuple[float, float, float, float]  # left, top, right, bottom in mm from the page's top-left corner


@dataclass(frozen=True)
class Margins:
    """What the page keeps clear (mm): the printer's margin, the note band, crop mark gap and length."""

    safe: float
    note: float
    mark_gap: float
    mark_length: float


@dataclass(frozen=True)
class SharedGrid:
    """A shared-cut sheet: page size, grid, each cell's bleed box and visible box, marks and note band."""

    width: float
    height: float
    cols: int
    rows: int
    cells: tuple[Box, ...]  # each card's box with its bleed all round (neighbours' overlap)
    clips: tuple[Box, ...]  # what of each is printed: bleed on the outer edges only
    marks: tuple[Box, ...]  # lines (x1, y1, x2, y2)
    note: Box  # (x, y, length, thickness); rotated when note_up
    note_up: bool


def _fits(avail: float, card: float, bleed: float) -> int:
    return max(0, math.floor((avail - 2 * bleed + 1e-9) / card))


def shared_grid(paper: tuple[float, float], card: tuple[float, float], bleed: float, margins: Margins,
                crop_marks: bool) -> SharedGrid | None:
    """The densest shared-cut sheet (portrait, then the note below, on a tie), or None if no card fits."""
    options = []
    for width, height in (paper, paper[::-1]):
        for up in (False, True):
            avail_w = width - 2 * margins.safe - (margins.note if up else 0)
            avail_h = height - 2 * margins.safe - (0 if up else margins.note)
            cols, rows = _fits(avail_w, card[0], bleed), _fits(avail_h, card[1], bleed)
            if cols * rows:
                options.append((cols * rows, -len(options), width, height, cols, rows, up))
    if not options:
        return None
    _, _, width, height, cols, rows, up = max(options)
    return _grid(width, height, cols, rows, up, card, bleed, margins, crop_marks)


def _grid(width, height, cols, rows, up, card, bleed, margins: Margins, crop_marks: bool) -> SharedGrid:
    card_w, card_h = card
    block_w, block_h = cols * card_w + 2 * bleed, rows * card_h + 2 * bleed
    left_band = margins.note if up else 0.0
    bottom_band = 0.0 if up else margins.note
    x0 = margins.safe + left_band + (width - 2 * margins.safe - left_band - block_w) / 2
    y0 = margins.safe + (height - 2 * margins.safe - bottom_band - block_h) / 2
    cells, clips = [], []
    for row in range(rows):
        for col in range(cols):
            tx, ty = x0 + bleed + col * card_w, y0 + bleed + row * card_h
            cells.append((tx - bleed, ty - bleed, tx + card_w + bleed, ty + card_h + bleed))
            clips.append((tx - (bleed if col == 0 else 0), ty - (bleed if row == 0 else 0),
                          tx + card_w + (bleed if col == cols - 1 else 0), ty + card_h + (bleed if row == rows - 1 else 0)))
    xs = [x0 + bleed + c * card_w for c in range(cols + 1)]
    ys = [y0 + bleed + r * card_h for r in range(rows + 1)]
    room = (margins.safe + left_band, margins.safe, width - margins.safe, height - margins.safe - bottom_band)
    marks = _marks(xs, ys, (x0, y0, x0 + block_w, y0 + block_h), room, bleed, margins) if crop_marks else ()
    if up:
        note = (margins.safe, margins.safe, height - 2 * margins.safe, margins.note)
    else:
        note = (margins.safe, height - margins.safe - margins.note, width - 2 * margins.safe, margins.note)
    return SharedGrid(width, height, cols, rows, tuple(cells), tuple(clips), marks, note, up)


def _marks(xs, ys, block: Box, room: Box, bleed: float, margins: Margins) -> tuple[Box, ...]:
    """A mark in line with every cut on each side of the block: in the margin (up to the mark length,
    never nearer the paper's edge than the safe margin), or in the outer bleed where the margin is too
    narrow."""
    left, top, right, bottom = block
    lines: list[Box] = []

    def side(positions, outer, limit, inward_stop, make):
        direction = 1 if limit > outer else -1
        length = min(margins.mark_length, abs(limit - outer) - margins.mark_gap)
        if length >= MIN_MARK:
            start = outer + direction * margins.mark_gap
            lines.extend(make(p, start, start + direction * length) for p in positions)
        elif bleed > IN_BLEED_STOP:  # in the bleed: from its outer edge to just short of the card
            lines.extend(make(p, outer, inward_stop) for p in positions)

    side(xs, top, room[1], ys[0] - IN_BLEED_STOP, lambda x, a, b: (x, a, x, b))
    side(xs, bottom, room[3], ys[-1] + IN_BLEED_STOP, lambda x, a, b: (x, a, x, b))
    side(ys, left, room[0], xs[0] - IN_BLEED_STOP, lambda y, a, b: (a, y, b, y))
    side(ys, right, room[2], xs[-1] + IN_BLEED_STOP, lambda y, a, b: (a, y, b, y))
    return tuple(lines)
