"""Imposition: where cards, crop marks and backs go on a print-and-play sheet, in millimetres.

Pure arithmetic, no drawing. A sheet holds a grid of *cells*, each a card with its bleed; the grid is
centred in what the page leaves after the printer's unprintable margin, the crop marks (drawn outside
the grid, never over a card) and the band for the "print at 100%" line. The orientation that fits more
cards wins (portrait on a tie). A backs page mirrors its fronts page across the axis the sheet is turned
over on, so that every card's back lands behind its front; when that axis is horizontal the backs are
also turned 180 degrees, so the top of a back is always behind the top of its front.

Two ways to cut (SheetSpec.cuts): *separate*, every card with its own bleed all round and two cuts between
neighbours; *shared*, neighbours butted together so one cut separates them, the bleed kept only on the
outer edges of the block (each card's inner bleed is clipped away: Cell.clip). Shared cuts fit 9 poker
cards on A4 and on Letter; `auto` (the default) takes whichever fits more, separate on a tie.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from fractions import Fraction

from cardtool.errors import UsageError
from cardtool.render.shared_cuts import Margins, shared_grid
from cardtool.suggest import did_you_mean

SAFE_MARGIN = 3.0  # nothing is printed nearer the paper's edge than this (most printers reach 3 mm)
MARK_GAP = 0.5  # crop marks start this far outside the grid's bleed
MARK_LENGTH = 3.5
NOTE_BAND = 3.5  # height of the "print at 100% scale" line
DUPLEX_MODES = ("long", "short", "none")
CUT_MODES = ("auto", "shared", "separate")
PRINT_NOTE = ("Print at 100% scale (actual size), not \"fit to page\": the bar is 50 mm long. "
              "Cut on the crop marks.")

_MM_PER_UNIT = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72}


@dataclass(frozen=True)
class Paper:
    """A sheet of paper, portrait, in millimetres."""

    name: str
    width: float
    height: float


@dataclass(frozen=True)
class CardSize:
    """A card's trim size in millimetres."""

    name: str
    width: float
    height: float

    @property
    def label(self) -> str:
        return f"{self.name} ({_num(self.width)} x {_num(self.height)} mm)" if self.name else \
            f"{_num(self.width)} x {_num(self.height)} mm"


PAPERS = {"a4": Paper("A4", 210.0, 297.0), "letter": Paper("Letter", 215.9, 279.4)}
CARD_SIZES = {
    "poker": CardSize("poker", 63.5, 88.9),  # 2.5 x 3.5 in
    "bridge": CardSize("bridge", 57.15, 88.9),  # 2.25 x 3.5 in
    "mini": CardSize("mini", 44.45, 63.5),  # 1.75 x 2.5 in
    "tarot": CardSize("tarot", 69.85, 120.65),  # 2.75 x 4.75 in
}


def _num(mm: float) -> str:
    return f"{mm:.2f}".rstrip("0").rstrip(".")


def parse_length(text: str, *, what: str = "length") -> float:
    """A length in millimetres from '3mm', '0.3cm', '1/8in', '0.125in', '9pt' or a bare number of mm."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?(?:/\d+)?)\s*(mm|cm|in|pt)?\s*", str(text))
    if not match:
        raise UsageError(f"{what} '{text}' is not a length; write e.g. 3mm, 1/8in or 0.125in")
    number, unit = match.groups()
    try:
        value = float(Fraction(number))
    except ZeroDivisionError:
        raise UsageError(f"{what} '{text}' divides by zero") from None
    return value * _MM_PER_UNIT[unit or "mm"]


def parse_paper(text: str) -> Paper:
    try:
        return PAPERS[text.lower()]
    except KeyError:
        hint = did_you_mean(text, PAPERS)
        raise UsageError(f"unknown paper '{text}'" + (f"; {hint}" if hint else "")
                         + f" (papers: {', '.join(PAPERS)})") from None


def parse_card_size(text: str) -> CardSize:
    """A preset name (poker, bridge, mini, tarot) or WxH with a unit, e.g. 63x88mm or 2.5x3.5in."""
    preset = CARD_SIZES.get(text.lower())
    if preset:
        return preset
    match = re.fullmatch(r"\s*([\d./]+)\s*[xX×]\s*([\d./]+)\s*(mm|cm|in)?\s*", text)
    if not match:
        hint = did_you_mean(text, CARD_SIZES)
        raise UsageError(f"unknown card size '{text}'" + (f"; {hint}" if hint else "")
                         + f" (presets: {', '.join(CARD_SIZES)}; or WxH such as 63x88mm or 2.5x3.5in)")
    unit = match.group(3) or "mm"
    width = parse_length(match.group(1) + unit, what="card width")
    height = parse_length(match.group(2) + unit, what="card height")
    if width < 20 or height < 20 or width > 300 or height > 300:
        raise UsageError(f"card size '{text}' is {_num(width)} x {_num(height)} mm; "
                         "cards must be 20 to 300 mm on each side")
    return CardSize("", width, height)


def parse_offset(text: str) -> tuple[float, float]:
    """A back offset 'X,Y' in millimetres (units allowed, signs too): '0.5,-1' or '1/32in,0'."""
    parts = str(text).split(",")
    if len(parts) != 2:
        raise UsageError(f"back offset '{text}' must be X,Y in millimetres, e.g. 0.5,-1")
    values = []
    for part in parts:
        part = part.strip()
        sign = -1.0 if part.startswith("-") else 1.0
        values.append(sign * parse_length(part.lstrip("+-"), what="back offset"))
    return values[0], values[1]


@dataclass(frozen=True)
class SheetSpec:
    """What the user asked for: paper, card size, bleed, gutter, marks, duplex and back offset (mm)."""

    paper: Paper = PAPERS["a4"]
    card: CardSize = CARD_SIZES["poker"]
    bleed: float = 3.0
    gutter: float = 0.0
    crop_marks: bool = True
    duplex: str = "long"
    back_offset: tuple[float, float] = (0.0, 0.0)
    cuts: str = "auto"  # shared | separate | auto: the one that fits more cards (separate on a tie)

    def __post_init__(self):
        if self.cuts not in CUT_MODES:
            raise UsageError(f"cuts must be one of {', '.join(CUT_MODES)}, not '{self.cuts}'")
        if self.cuts == "shared" and self.gutter > 0:
            raise UsageError("shared cuts butt neighbouring cards together: they take no --gutter "
                             "(use --cuts separate with a gutter)")
        if self.duplex not in DUPLEX_MODES:
            raise UsageError(f"duplex must be one of {', '.join(DUPLEX_MODES)}, not '{self.duplex}'")
        if not 0 <= self.bleed <= 10:
            raise UsageError(f"bleed must be between 0 and 10 mm, not {_num(self.bleed)} mm")
        if not 0 <= self.gutter <= 50:
            raise UsageError(f"gutter must be between 0 and 50 mm, not {_num(self.gutter)} mm")
        if any(abs(v) > 20 for v in self.back_offset):
            raise UsageError("a back offset over 20 mm is not a printer's drift; measure it with "
                             "'cardtool render alignment'")


@dataclass(frozen=True)
class Cell:
    """One card with its bleed on a page: top-left corner and size in mm; rotated = turned 180 degrees."""

    x: float
    y: float
    width: float
    height: float
    bleed: float
    rotated: bool = False
    clip: tuple[float, float, float, float] | None = None  # left, top, right, bottom kept; None: all of it

    @property
    def visible(self) -> tuple[float, float, float, float]:
        """What of the card is printed: its whole bleed box, or with shared cuts up to the inner cuts."""
        return self.clip or (self.x, self.y, self.x + self.width, self.y + self.height)

    @property
    def trim(self) -> tuple[float, float, float, float]:
        """The card's cut edges: left, top, right, bottom."""
        return (self.x + self.bleed, self.y + self.bleed,
                self.x + self.width - self.bleed, self.y + self.height - self.bleed)


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True)
class Band:
    """A rectangle for the print note; a rotated band runs up the page (width is then its length)."""

    x: float
    y: float
    width: float
    height: float
    rotated: bool = False

    def mirrored(self, page_width: float, page_height: float, vertical: bool) -> "Band":
        """The band as placed on the backs page, mirrored like the cards."""
        across, along = (self.height, self.width) if self.rotated else (self.width, self.height)
        if vertical:
            return Band(page_width - self.x - across, self.y, self.width, self.height, self.rotated)
        return Band(self.x, page_height - self.y - along, self.width, self.height, self.rotated)


@dataclass(frozen=True)
class Layout:
    """A sheet's geometry: page size, the grid of fronts, where each back goes, crop marks, note bands."""

    spec: SheetSpec
    width: float  # page, mm
    height: float
    cols: int
    rows: int
    fronts: tuple[Cell, ...]  # in reading order: left to right, top to bottom
    backs: tuple[Cell, ...]  # backs[i] is behind fronts[i]; empty without duplex
    marks: tuple[Line, ...]
    front_note: Band
    back_note: Band
    mirror_axis: str = field(default="vertical")  # the axis the sheet is turned over on, as drawn
    cuts: str = "separate"  # separate | shared

    def clips(self, filled: int, backs: bool = False) -> tuple[tuple[float, float, float, float] | None, ...]:
        """The visible box of each of the first `filled` cells of a page (in reading order). With shared
        cuts an inner edge loses its bleed only where a neighbour is printed; next to an empty place
        (the last page of a deck) the card keeps its bleed, so a wandering cut shows no white."""
        cells = self.backs if backs else self.fronts
        if self.cuts != "shared":
            return tuple(c.clip for c in cells[:filled])
        result = []
        for index, (cell, front) in enumerate(zip(cells[:filled], self.fronts)):
            left, top, right, bottom = front.clip
            col, row = index % self.cols, index // self.cols
            if col + 1 < self.cols and index + 1 >= filled:
                right = front.x + front.width
            if row + 1 < self.rows and index + self.cols >= filled:
                bottom = front.y + front.height
            result.append(_moved_clip((left, top, right, bottom), front, cell) if backs else (left, top, right, bottom))
        return tuple(result)

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def orientation(self) -> str:
        return "landscape" if self.width > self.height else "portrait"

    def describe(self) -> str:
        spec = self.spec
        cuts = ", shared cuts" if self.cuts == "shared" else ""
        return (f"{spec.paper.name} {self.orientation}, {spec.card.label} cards with {_num(spec.bleed)} mm bleed"
                f"{cuts}, {self.cols} x {self.rows} = {self.per_page} a page")

    def pages(self, cards: int) -> int:
        return math.ceil(cards / self.per_page) if cards else 0


def _grid(avail: float, cell: float, gutter: float) -> int:
    return max(0, math.floor((avail + gutter + 1e-9) / (cell + gutter)))


def layout(spec: SheetSpec) -> Layout:
    """The sheet for spec: as many cards as fit, in the better orientation; with cuts 'auto', shared cuts
    when they fit more cards than separate ones."""
    if spec.cuts == "shared" or (spec.cuts == "auto" and spec.gutter == 0 and spec.bleed > 0):
        shared = _shared(spec)
        if spec.cuts == "shared":
            if shared is None:
                raise UsageError(f"a {spec.card.label} card with {_num(spec.bleed)} mm bleed does not fit on "
                                 f"{spec.paper.name} paper with margins; choose a smaller card or bleed")
            return shared
        separate = _separate(spec)
        if shared is not None and (separate is None or shared.per_page > separate.per_page):
            return shared
        if separate is not None:
            return separate
    separate = _separate(spec)
    if separate is None:
        raise UsageError(f"a {spec.card.label} card with {_num(spec.bleed)} mm bleed does not fit on "
                         f"{spec.paper.name} paper with crop marks and margins; choose a smaller card or bleed")
    return separate


def _shared(spec: SheetSpec) -> Layout | None:
    """Neighbours share one cut, the bleed only around the block (render/shared_cuts.py)."""
    grid = shared_grid((spec.paper.width, spec.paper.height), (spec.card.width, spec.card.height), spec.bleed,
                       Margins(SAFE_MARGIN, NOTE_BAND, MARK_GAP, MARK_LENGTH), spec.crop_marks)
    if grid is None:
        return None
    b = spec.bleed
    fronts = tuple(Cell(l, t, r - l, bt - t, b, clip=clip) for (l, t, r, bt), clip in zip(grid.cells, grid.clips))
    note = Band(*grid.note, rotated=grid.note_up)
    return finish(spec, grid.width, grid.height, grid.cols, grid.rows, fronts,
                  tuple(Line(*m) for m in grid.marks), note, "shared")


def _separate(spec: SheetSpec) -> Layout | None:
    """Every card with its own bleed all round: two cuts between neighbours (None if no card fits)."""
    zone = MARK_GAP + MARK_LENGTH if spec.crop_marks else 0.0
    cell_w, cell_h = spec.card.width + 2 * spec.bleed, spec.card.height + 2 * spec.bleed
    best = None
    for width, height in ((spec.paper.width, spec.paper.height), (spec.paper.height, spec.paper.width)):
        avail_w = width - 2 * (SAFE_MARGIN + zone)
        avail_h = height - 2 * (SAFE_MARGIN + zone) - NOTE_BAND
        cols, rows = _grid(avail_w, cell_w, spec.gutter), _grid(avail_h, cell_h, spec.gutter)
        if best is None or cols * rows > best[2] * best[3]:
            best = (width, height, cols, rows, avail_h)
    width, height, cols, rows, avail_h = best
    if cols * rows == 0:
        return None
    grid_w = cols * cell_w + (cols - 1) * spec.gutter
    grid_h = rows * cell_h + (rows - 1) * spec.gutter
    x0 = (width - grid_w) / 2
    y0 = SAFE_MARGIN + zone + (avail_h - grid_h) / 2
    fronts = tuple(Cell(x0 + c * (cell_w + spec.gutter), y0 + r * (cell_h + spec.gutter), cell_w, cell_h, spec.bleed)
                   for r in range(rows) for c in range(cols))
    marks = _crop_marks(fronts, x0, y0, grid_w, grid_h) if spec.crop_marks else ()
    front_note = Band(SAFE_MARGIN, height - SAFE_MARGIN - NOTE_BAND, width - 2 * SAFE_MARGIN, NOTE_BAND)
    return finish(spec, width, height, cols, rows, fronts, marks, front_note, "separate")


def finish(spec: SheetSpec, width: float, height: float, cols: int, rows: int, fronts: tuple[Cell, ...],
           marks: tuple[Line, ...], front_note: Band, cuts: str) -> Layout:
    """The Layout with its backs mirrored across the axis the sheet is turned over on."""
    portrait = width < height
    vertical = (spec.duplex == "long") == portrait  # the page is turned over on its vertical axis
    backs: tuple[Cell, ...] = ()
    if spec.duplex != "none":
        backs = tuple(_back(f, width, height, vertical, spec.back_offset) for f in fronts)
    back_note = front_note.mirrored(width, height, vertical)
    return Layout(spec, width, height, cols, rows, fronts, backs, marks, front_note, back_note,
                  "vertical" if vertical else "horizontal", cuts)


def _back(front: Cell, width: float, height: float, vertical: bool, offset: tuple[float, float]) -> Cell:
    dx, dy = offset
    if vertical:
        cell = Cell(width - front.x - front.width + dx, front.y + dy, front.width, front.height, front.bleed)
    else:
        cell = Cell(front.x + dx, height - front.y - front.height + dy, front.width, front.height, front.bleed,
                    rotated=True)
    return Cell(cell.x, cell.y, cell.width, cell.height, cell.bleed, cell.rotated,
                _moved_clip(front.clip, front, cell) if front.clip else None)


def _moved_clip(clip, front: Cell, back: Cell) -> tuple[float, float, float, float]:
    """A front's visible box carried over to its back's place (mirrored: the back's left is the front's
    right, or for a half turn its top the front's bottom)."""
    left, top, right, bottom = (v - o for v, o in zip(clip, (front.x, front.y, front.x, front.y)))
    w, h = front.width, front.height
    if back.rotated:  # the page mirrored top to bottom
        top, bottom = h - bottom, h - top
    else:  # mirrored left to right
        left, right = w - right, w - left
    return (back.x + left, back.y + top, back.x + right, back.y + bottom)


def _crop_marks(cells: tuple[Cell, ...], x0: float, y0: float, grid_w: float, grid_h: float) -> tuple[Line, ...]:
    """Short lines in the margins, in line with every cut, outside the grid so they never touch a card."""
    xs = sorted({round(v, 4) for c in cells for v in (c.trim[0], c.trim[2])})
    ys = sorted({round(v, 4) for c in cells for v in (c.trim[1], c.trim[3])})
    top, bottom, left, right = y0 - MARK_GAP, y0 + grid_h + MARK_GAP, x0 - MARK_GAP, x0 + grid_w + MARK_GAP
    lines = []
    for x in xs:
        lines.append(Line(x, top - MARK_LENGTH, x, top))
        lines.append(Line(x, bottom, x, bottom + MARK_LENGTH))
    for y in ys:
        lines.append(Line(left - MARK_LENGTH, y, left, y))
        lines.append(Line(right, y, right + MARK_LENGTH, y))
    return tuple(lines)
