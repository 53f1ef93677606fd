"""Imposition at the PDF level: each different card face is laid out once (one page of a "singles" PDF,
trim plus bleed) and stamped onto the sheet pages as a form XObject wherever a copy goes; crop marks,
the 50 mm scale bar and the print note are drawn straight into each sheet page.

A deck of 108 cards has about 95 different faces (every back is the same), so this lays out half as
much as drawing every copy, and the sheet PDF holds each face once however often it is printed.
"""

from __future__ import annotations

from dataclasses import dataclass
from io import BytesIO

from pypdf import PdfReader, PdfWriter
from pypdf.generic import (ArrayObject, DecodedStreamObject, DictionaryObject, FloatObject, NameObject,
                           TextStringObject)

from cardtool.render.reproducible import digest, pypdf_stamp

PT_PER_MM = 72 / 25.4
NOTE_SIZE = 6.5  # pt
BAR_LENGTH = 50.0  # mm: the scale bar a person measures to check the print scale
MARK_WIDTH = 0.25  # mm: thin enough to cut on, thick enough to see
HALO_WIDTH = 0.7  # mm of white under each mark


@dataclass(frozen=True)
class Stamp:
    """Put singles page `index` with its bleed box's top-left corner at (x, y) mm from the top-left."""

    index: int
    x: float
    y: float
    rotated: bool = False  # turned a half turn about its centre
    clip: tuple[float, float, float, float] | None = None  # left, top, right, bottom (mm) kept: shared cuts


@dataclass(frozen=True)
class Note:
    """The line on each page: a 50 mm scale bar, a bold label and the print note, in a band (mm)."""

    x: float
    y: float
    height: float
    label: str
    text: str
    width: float = 0.0  # the band's length; a rotated band runs up the page from (x, y + width)
    rotated: bool = False


@dataclass(frozen=True)
class SheetPage:
    """One page of a sheet: its size (mm), the cards stamped on it, crop marks (x1, y1, x2, y2 mm), a note."""

    width: float
    height: float
    stamps: tuple[Stamp, ...]
    marks: tuple[tuple[float, float, float, float], ...]
    note: Note


def _pdf_text(text: str) -> str:
    data = text.encode("cp1252", "replace").decode("latin-1")
    return "(" + data.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"


def _note_ops(note: Note, height_pt: float) -> list[str]:
    if note.rotated:  # drawn as a horizontal note in a frame turned a quarter turn anticlockwise
        tx, ty = (note.x + note.height / 2) * PT_PER_MM, height_pt - (note.y + note.width) * PT_PER_MM
        flat = Note(0.0, -note.height / 2, note.height, note.label, note.text)
        return [f"q 0 1 -1 0 {tx:.4f} {ty:.4f} cm", *_note_ops(flat, 0.0), "Q"]
    x = note.x * PT_PER_MM
    base = height_pt - (note.y + note.height / 2) * PT_PER_MM - NOTE_SIZE * 0.35
    bar_top, bar_bottom = base + NOTE_SIZE * 0.75, base - 0.5
    bar_end = x + BAR_LENGTH * PT_PER_MM
    ops = ["q 0.2 g 0.2 G 0.6 w", f"{x:.3f} {bar_top:.3f} m {x:.3f} {bar_bottom:.3f} l "
           f"{bar_end:.3f} {bar_bottom:.3f} l {bar_end:.3f} {bar_top:.3f} l S"]
    for tick in range(10, int(BAR_LENGTH), 10):
        tx = x + tick * PT_PER_MM
        ops.append(f"{tx:.3f} {bar_bottom:.3f} m {tx:.3f} {(bar_top + bar_bottom) / 2:.3f} l S")
    text_x = bar_end + 3 * PT_PER_MM
    ops.append(f"BT /CardtoolBold {NOTE_SIZE} Tf {text_x:.3f} {base:.3f} Td {_pdf_text(note.label + '  ')} Tj "
               f"/CardtoolNote {NOTE_SIZE} Tf {_pdf_text(note.text)} Tj ET Q")
    return ops


def _font(name: str) -> DictionaryObject:
    return DictionaryObject({NameObject("/Type"): NameObject("/Font"), NameObject("/Subtype"): NameObject("/Type1"),
                             NameObject("/BaseFont"): NameObject(name),
                             NameObject("/Encoding"): NameObject("/WinAnsiEncoding")})


def merge(pdfs: list[bytes], pages: list[tuple[int, int]], title: str = "") -> bytes:
    """One PDF of the given pages, (pdf index, page number) each, in order; boxes and fonts kept."""
    if len(pdfs) == 1 and pages == [(0, i) for i in range(len(pages))]:
        return pdfs[0]
    readers = [PdfReader(BytesIO(pdf)) for pdf in pdfs]
    if len(pdfs) == 1 and len(pages) == len(readers[0].pages) and pages == [(0, i) for i in range(len(pages))]:
        return pdfs[0]
    writer = PdfWriter()
    for pdf, number in pages:
        writer.add_page(readers[pdf].pages[number])
    if title:
        writer.add_metadata({"/Title": TextStringObject(title), "/Creator": TextStringObject("cardtool")})
    pypdf_stamp(writer, digest([*pdfs, repr(pages).encode()]))
    out = BytesIO()
    writer.write(out)
    return out.getvalue()


def impose(singles: bytes, pages: list[SheetPage], title: str = "") -> bytes:
    """A PDF of the sheet pages with the singles' pages stamped on them."""
    cards = PdfReader(BytesIO(singles))
    writer = PdfWriter()
    forms: dict[int, object] = {}
    boxes = [tuple(float(v) for v in page.mediabox) for page in cards.pages]
    fonts = DictionaryObject({NameObject("/CardtoolNote"): writer._add_object(_font("/Helvetica")),
                              NameObject("/CardtoolBold"): writer._add_object(_font("/Helvetica-Bold"))})

    def form(index: int):
        if index not in forms:
            page = cards.pages[index]
            xobject = DecodedStreamObject()
            xobject.set_data(page.get_contents().get_data())
            xobject.update({
                NameObject("/Type"): NameObject("/XObject"),
                NameObject("/Subtype"): NameObject("/Form"),
                NameObject("/BBox"): ArrayObject(FloatObject(v) for v in boxes[index]),
                NameObject("/Resources"): page["/Resources"].clone(writer),
            })
            forms[index] = writer._add_object(xobject.flate_encode())
        return forms[index]

    for sheet in pages:
        width, height = sheet.width * PT_PER_MM, sheet.height * PT_PER_MM
        page = writer.add_blank_page(width, height)
        xobjects = DictionaryObject()
        ops = []
        for stamp in sheet.stamps:
            name = f"/Card{stamp.index}"
            xobjects[NameObject(name)] = form(stamp.index)
            llx, lly, urx, ury = boxes[stamp.index]
            left = stamp.x * PT_PER_MM
            bottom = height - stamp.y * PT_PER_MM - (ury - lly)
            clip = ""
            if stamp.clip is not None:  # shared cuts: the bleed stops at the cut shared with a neighbour
                cl, ct, cr, cb = (v * PT_PER_MM for v in stamp.clip)
                clip = f"{cl:.4f} {height - cb:.4f} {cr - cl:.4f} {cb - ct:.4f} re W n "
            if stamp.rotated:
                ops.append(f"q {clip}-1 0 0 -1 {left + urx:.4f} {bottom + ury:.4f} cm {name} Do Q")
            else:
                ops.append(f"q {clip}1 0 0 1 {left - llx:.4f} {bottom - lly:.4f} cm {name} Do Q")
        if sheet.marks:
            # A white line under each black one, so a mark drawn in the outer bleed shows on any colour.
            for grey, width_mm in ((1, HALO_WIDTH), (0, MARK_WIDTH)):
                ops.append(f"q {grey} G {width_mm * PT_PER_MM:.4f} w 0 J")
                for x1, y1, x2, y2 in sheet.marks:
                    ops.append(f"{x1 * PT_PER_MM:.4f} {height - y1 * PT_PER_MM:.4f} m "
                               f"{x2 * PT_PER_MM:.4f} {height - y2 * PT_PER_MM:.4f} l S")
                ops.append("Q")
        ops += _note_ops(sheet.note, height)
        stream = DecodedStreamObject()
        stream.set_data("\n".join(ops).encode("latin-1"))
        page[NameObject("/Contents")] = writer._add_object(stream.flate_encode())
        page[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): xobjects,
                                                           NameObject("/Font"): fonts})
    if title:
        writer.add_metadata({"/Title": TextStringObject(title), "/Creator": TextStringObject("cardtool")})
    pypdf_stamp(writer, digest([singles, repr(pages).encode()]))
    out = BytesIO()
    writer.write(out)
    return out.getvalue()
