"""The duplex calibration sheet: a fronts page and a backs page laid out exactly like a cards PDF with the
same options. Each card place holds a cross on the front and two millimetre rulers on the back; held up
to the light, the cross shows on the rulers how far the printer moved the back, which is the value to
pass as --back-offset X,Y."""

from __future__ import annotations

from dataclasses import dataclass, replace

from cardtool.render.environment import render
from cardtool.render.fitting import render_html, write_pdf
from cardtool.render.sheets import PRINT_NOTE, Layout, layout, SheetSpec

RULER = 5  # mm either side of the centre
FLIP_WORDS = {"long": "long edge", "short": "short edge"}


@dataclass(frozen=True)
class Tick:
    offset: float  # mm from the ruler's centre: right or down as the back page is seen
    length: float
    label: str


@dataclass(frozen=True)
class Target:
    """One card place: its trim box (mm) and its centre, where the cross or the rulers go."""

    number: int
    left: float
    top: float
    width: float
    height: float
    cx: float
    cy: float
    rotated: bool


@dataclass(frozen=True)
class AlignmentPage:
    side: str
    title: str
    targets: tuple[Target, ...]
    marks: tuple[tuple[float, float, float, float], ...]
    note: object


@dataclass(frozen=True)
class AlignmentSheet:
    """The typed context of templates/alignment.html.j2 (lengths in mm)."""

    width: float
    height: float
    description: str
    flip: str
    offset: tuple[float, float]
    pages: tuple[AlignmentPage, ...]
    ticks: tuple[Tick, ...]
    note_text: str


def _targets(cells, bleed: float) -> tuple[Target, ...]:
    return tuple(Target(i + 1, c.x + bleed, c.y + bleed, c.width - 2 * bleed, c.height - 2 * bleed,
                        c.x + c.width / 2, c.y + c.height / 2, c.rotated) for i, c in enumerate(cells))


def alignment_sheet(spec: SheetSpec) -> tuple[Layout, AlignmentSheet]:
    if spec.duplex == "none":
        spec = replace(spec, duplex="long")
    sheet = layout(spec)
    ticks = tuple(Tick(i / 2, 2.4 if i % 4 == 0 else 1.5 if i % 2 == 0 else 0.8,
                       f"{i // 2:+d}".replace("+0", "0") if i % 4 == 0 else "")
                  for i in range(-2 * RULER, 2 * RULER + 1))
    marks = tuple((m.x1, m.y1, m.x2, m.y2) for m in sheet.marks)
    pages = (AlignmentPage("front", "Alignment test: FRONT", _targets(sheet.fronts, spec.bleed), marks,
                           sheet.front_note),
             AlignmentPage("back", "Alignment test: BACK", _targets(sheet.backs, spec.bleed), (), sheet.back_note))
    context = AlignmentSheet(sheet.width, sheet.height, sheet.describe(), FLIP_WORDS[spec.duplex],
                             spec.back_offset, pages, ticks, PRINT_NOTE.replace(" Cut on the crop marks.", ""))
    return sheet, context


def alignment_pdf(spec: SheetSpec) -> tuple[Layout, bytes]:
    """The calibration sheet as a PDF: a fronts page and its backs page."""
    sheet, context = alignment_sheet(spec)
    return sheet, write_pdf(render_html(render("alignment.html.j2", sheet=context), "file:///"))
