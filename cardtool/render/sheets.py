"""Imposition: where cards, crop marks and backs go on a print-and-play sheet, in millimetres.

Pure arithmetic, no drawing. A sheet holds a grid of *cells*, each a card with its bleed; the grid is
centred in what the page leaves after the printer's unprintable margin, the crop marks (drawn outside
the grid, never over a card) and the band for the "print at 100%" line. The orientation that fits more
cards wins (portrait on a tie). A backs page mirrors its fronts page across the axis the sheet is turned
over on, so that every card's back lands behind its front; when that axis is horizontal the backs are
also turned 180 degrees, so the top of a back is always behind the top of its front.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from fractions import Fraction

from cardtool.errors import UsageError
from cardtool.suggest import did_you_mean

SAFE_MARGIN = 4.0  # most printers cannot print nearer the edge than this
MARK_GAP = 0.5  # crop marks start this far outside the grid's bleed
MARK_LENGTH = 3.5
NOTE_BAND = 3.5  # height of the "print at 100% scale" line
DUPLEX_MODES = ("long", "short", "none")
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

    def __post_init__(self):
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
    """A rectangle for the print note."""

    x: float
    y: float
    width: float
    height: float


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

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def orientation(self) -> str:
        return "landscape" if self.width > self.height else "portrait"

    def describe(self) -> str:
        spec = self.spec
        return (f"{spec.paper.name} {self.orientation}, {spec.card.label} cards with {_num(spec.bleed)} mm bleed, "
                f"{self.cols} x {self.rows} = {self.per_page} a page")

    def pages(self, cards: int) -> int:
        return math.ceil(cards / self.per_page) if cards else 0


def _grid(avail: float, cell: float, gutter: float) -> int:
    return max(0, math.floor((avail + gutter + 1e-9) / (cell + gutter)))


def layout(spec: SheetSpec) -> Layout:
    """The sheet for spec: as many cards as fit, in the better orientation."""
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
        raise UsageError(f"a {spec.card.label} card with {_num(spec.bleed)} mm bleed does not fit on "
                         f"{spec.paper.name} paper with crop marks and margins; choose a smaller card or bleed")
    grid_w = cols * cell_w + (cols - 1) * spec.gutter
    grid_h = rows * cell_h + (rows - 1) * spec.gutter
    x0 = (width - grid_w) / 2
    y0 = SAFE_MARGIN + zone + (avail_h - grid_h) / 2
    fronts = tuple(Cell(x0 + c * (cell_w + spec.gutter), y0 + r * (cell_h + spec.gutter), cell_w, cell_h, spec.bleed)
                   for r in range(rows) for c in range(cols))
    marks = _crop_marks(fronts, x0, y0, grid_w, grid_h) if spec.crop_marks else ()
    portrait = width < height
    vertical = (spec.duplex == "long") == portrait  # the page is turned over on its vertical axis
    dx, dy = spec.back_offset
    backs: tuple[Cell, ...] = ()
    if spec.duplex != "none":
        if vertical:
            backs = tuple(Cell(width - f.x - f.width + dx, f.y + dy, f.width, f.height, f.bleed) for f in fronts)
        else:
            backs = tuple(Cell(f.x + dx, height - f.y - f.height + dy, f.width, f.height, f.bleed, rotated=True)
                          for f in fronts)
    front_note = Band(SAFE_MARGIN, height - SAFE_MARGIN - NOTE_BAND, width - 2 * SAFE_MARGIN, NOTE_BAND)
    back_note = front_note if vertical else Band(SAFE_MARGIN, SAFE_MARGIN, width - 2 * SAFE_MARGIN, NOTE_BAND)
    return Layout(spec, width, height, cols, rows, fronts, backs, marks, front_note, back_note,
                  "vertical" if vertical else "horizontal")


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
