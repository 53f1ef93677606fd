"""Imposition at the PDF level: each different card face is laid out once (a one-page PDF of its own,
trim plus bleed) and stamped onto the sheet pages as a form XObject wherever a copy goes; crop marks,
the 50 mm scale bar and the print note are drawn straight into each sheet page.

A deck of 108 cards has about 95 different faces (every back is the same), so this lays out half as
much as drawing every copy, and the sheet PDF holds each face once however often it is printed.
"""

from __future__ import annotations

from dataclasses import dataclass
from io import BytesIO

from cardtool.render.reproducible import pdf_date

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


def merge(pdfs: list[bytes], pages: list[tuple[int, int]], title: str = "") -> bytes:
    """One PDF of the given pages, (pdf index, page number) each, in order; boxes kept and the faces'
    fonts shared (render/shared_fonts.py), read and written with pikepdf (qpdf)."""
    import pikepdf

    from cardtool.render.layers import copy_sharing_pieces
    from cardtool.render.shared_fonts import share_fonts

    if len(pdfs) == 1 and pages == [(0, i) for i in range(len(pages))]:
        with pikepdf.open(BytesIO(pdfs[0])) as only:
            if len(only.pages) == len(pages):
                return pdfs[0]
    out = pikepdf.new()
    sources = {index: pikepdf.open(BytesIO(pdfs[index])) for index in sorted({pdf for pdf, _ in pages})}
    pieces: dict = {}
    for pdf, number in pages:
        copy_sharing_pieces(lambda page: out.pages.append(pikepdf.Page(page)) or out.pages[-1].obj,
                            sources[pdf].pages[number].obj, pieces)
    share_fonts(out, [page.obj for page in out.pages] + [pieces[name] for name in sorted(pieces)])
    data = _save(out, title)
    for source in sources.values():
        source.close()
    return data


def _save(out, title: str) -> bytes:
    """The PDF's bytes: fixed dates, a title, an /ID from its content (qpdf's deterministic id)."""
    import pikepdf

    if title:
        out.docinfo["/Title"] = title
        out.docinfo["/Creator"] = "cardtool"
    out.docinfo["/CreationDate"] = out.docinfo["/ModDate"] = pdf_date()
    buffer = BytesIO()
    out.save(buffer, deterministic_id=True, compress_streams=True,
             object_stream_mode=pikepdf.ObjectStreamMode.generate)
    return buffer.getvalue()


def impose(faces: list[bytes], pages: list[SheetPage], title: str = "") -> bytes:
    """A PDF of the sheet pages with the faces (one one-page PDF each) stamped on them, each face's page
    a form XObject written once however often it is printed, and the faces' fonts shared
    (render/shared_fonts.py). Read with pikepdf (qpdf): straight from the faces, with no merge first."""
    import pikepdf

    from cardtool.render.layers import copy_sharing_pieces
    from cardtool.render.shared_fonts import share_fonts

    out = pikepdf.new()
    used = sorted({stamp.index for sheet in pages for stamp in sheet.stamps})
    forms, boxes, sources, pieces = {}, {}, [], {}
    for index in used:
        source = pikepdf.open(BytesIO(faces[index]))
        sources.append(source)
        page = source.pages[0]
        boxes[index] = tuple(float(v) for v in page.mediabox)
        page.contents_coalesce()
        form = page.obj.Contents
        form.Type, form.Subtype = pikepdf.Name.XObject, pikepdf.Name.Form
        form.BBox = pikepdf.Array(boxes[index])
        form.Resources = page.obj.Resources
        forms[index] = copy_sharing_pieces(out.copy_foreign, form, pieces)  # each piece once (render/layers.py)
    share_fonts(out, [forms[index] for index in used] + [pieces[name] for name in sorted(pieces)])
    fonts = pikepdf.Dictionary({"/CardtoolNote": out.make_indirect(_note_font("/Helvetica")),
                                "/CardtoolBold": out.make_indirect(_note_font("/Helvetica-Bold"))})
    for sheet in pages:
        width, height = sheet.width * PT_PER_MM, sheet.height * PT_PER_MM
        xobjects = pikepdf.Dictionary()
        ops = []
        for stamp in sheet.stamps:
            name = f"/Card{stamp.index}"
            xobjects[name] = forms[stamp.index]
            ops.append(_stamp_ops(stamp, name, boxes[stamp.index], height))
        ops += _mark_ops(sheet.marks, height) + _note_ops(sheet.note, height)
        content = out.make_stream("\n".join(ops).encode("latin-1"))
        out.pages.append(pikepdf.Page(pikepdf.Dictionary({
            "/Type": pikepdf.Name.Page, "/MediaBox": pikepdf.Array([0, 0, width, height]),
            "/Contents": content, "/Resources": pikepdf.Dictionary({"/XObject": xobjects, "/Font": fonts})})))
    data = _save(out, title)
    for source in sources:
        source.close()
    return data


def _note_font(name: str):
    import pikepdf

    return pikepdf.Dictionary({"/Type": pikepdf.Name.Font, "/Subtype": pikepdf.Name.Type1,
                               "/BaseFont": pikepdf.Name(name), "/Encoding": pikepdf.Name.WinAnsiEncoding})


def _stamp_ops(stamp: Stamp, name: str, box: tuple[float, ...], height: float) -> str:
    llx, lly, urx, ury = box
    left = stamp.x * PT_PER_MM
    bottom = height - stamp.y * PT_PER_MM - (ury - lly)
    clip = ""
    if stamp.clip is not None:  # shared cuts: the bleed stops at the cut shared with a neighbour
        cl, ct, cr, cb = (v * PT_PER_MM for v in stamp.clip)
        clip = f"{cl:.4f} {height - cb:.4f} {cr - cl:.4f} {cb - ct:.4f} re W n "
    if stamp.rotated:
        return f"q {clip}-1 0 0 -1 {left + urx:.4f} {bottom + ury:.4f} cm {name} Do Q"
    return f"q {clip}1 0 0 1 {left - llx:.4f} {bottom - lly:.4f} cm {name} Do Q"


def _mark_ops(marks, height: float) -> list[str]:
    """A white line under each black one, so a mark drawn in the outer bleed shows on any colour."""
    ops = []
    if marks:
        for grey, width_mm in ((1, HALO_WIDTH), (0, MARK_WIDTH)):
            ops.append(f"q {grey} G {width_mm * PT_PER_MM:.4f} w 0 J")
            for x1, y1, x2, y2 in marks:
                ops.append(f"{x1 * PT_PER_MM:.4f} {height - y1 * PT_PER_MM:.4f} m "
                           f"{x2 * PT_PER_MM:.4f} {height - y2 * PT_PER_MM:.4f} l S")
            ops.append("Q")
    return ops
