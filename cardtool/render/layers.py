"""Card faces in two layers: the parts many cards share, laid out once, under each card's own text.

Most of a face looks the same on many cards: its background and panels, the role badges, a VP disc,
a kind label. A face template marks each such part as a *piece* (the `piece` macro of
templates/ecologies/_frame.html.j2). Rendered with a `Layers`, the template hands every piece over in a
card box of its own and leaves it out of the card, so WeasyPrint lays out per card only what differs
(its text, its art); the different pieces of all the faces are laid out once each, a page each of the
card's size, and `stamp` draws them, in order, under the card's text as PDF form XObjects. The face's
own one-page PDF then shows what it showed before and holds everything it shows (a build keeps it by
content, render/cache.py); text in a piece stays text.

A piece is named in the PDF after a digest of its own PDF's bytes (/Piece<digest>), so pieces of the same
name are the same wherever the deck lies and whichever faces were laid out with it, and a sheet of many
faces keeps one copy of each (`copy_sharing_pieces`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from io import BytesIO

from markupsafe import Markup

PREFIX = "/Piece"


@dataclass(frozen=True)
class Piece:
    """A part of a face that other faces may share."""

    key: str  # what it looks like: the card's classes and the part's HTML, the same on every card showing it
    html: Markup  # what is laid out: the part in a card box (of the first card that showed it)


class Layers:
    """What a face template hands over as pieces while it is rendered (the `layers` of its context)."""

    def __init__(self):
        self.pieces: list[Piece] = []

    def __bool__(self) -> bool:
        return True

    def add(self, classes: str, inner: str, boxed: str) -> Markup:
        """Take a piece (the part, and the part in its card box) out of the card: nothing is left in its place."""
        self.pieces.append(Piece(f"{classes}\n{inner}", Markup(boxed)))
        return Markup("")


class Forms:
    """One-page PDFs of pieces by their id (a digest of what each is made from), each opened once (by
    qpdf) when a face first stamps it."""

    def __init__(self):
        self.pdfs: dict[str, bytes] = {}
        self._opened: dict[str, tuple] = {}

    def name(self, piece: str) -> str:
        """The piece's name in a PDF, from its bytes."""
        return f"{PREFIX}{hashlib.sha256(self.pdfs[piece]).hexdigest()[:32]}"

    def form(self, piece: str):
        """The piece's page as a form XObject of its own PDF (kept open while this holds it)."""
        import pikepdf

        if piece not in self._opened:
            source = pikepdf.open(BytesIO(self.pdfs[piece]))
            page = source.pages[0]
            page.contents_coalesce()
            form = page.obj.Contents
            form.Type, form.Subtype = pikepdf.Name.XObject, pikepdf.Name.Form
            form.BBox = pikepdf.Array([float(v) for v in page.mediabox])
            form.Resources = page.obj.Resources
            self._opened[piece] = (source, form)
        return self._opened[piece][1]


def stamp(page_pdf: bytes, pieces: list[str], forms: Forms) -> bytes:
    """A one-page PDF with the pieces (by id; pages of the same size) drawn under its content, in order."""
    if not pieces:
        return page_pdf
    import pikepdf

    with pikepdf.open(BytesIO(page_pdf)) as face:
        page = face.pages[0]
        resources = page.obj.Resources
        if not isinstance(resources.get("/XObject"), pikepdf.Dictionary):
            resources.XObject = pikepdf.Dictionary()
        xobjects = resources.XObject
        names = [forms.name(piece) for piece in pieces]
        for piece, name in zip(pieces, names):
            if name not in xobjects:
                xobjects[name] = face.copy_foreign(forms.form(piece))
        page.contents_coalesce()
        under = "".join(f"q {name} Do Q\n" for name in names).encode("latin-1")
        page.obj.Contents = face.make_stream(under + page.obj.Contents.read_bytes())
        buffer = BytesIO()
        face.save(buffer, deterministic_id=True, compress_streams=True,
                  object_stream_mode=pikepdf.ObjectStreamMode.generate)
        return buffer.getvalue()


def copy_sharing_pieces(copy, holder, kept: dict):
    """`copy(holder)` (a page or form XObject of another PDF, copied into one being made) with each piece
    of a name copied once: a piece an earlier holder brought is not copied again but referred to. `kept`
    (name -> the copy) grows with the pieces this holder brings; the copy is returned."""
    import pikepdf

    resources = holder.get("/Resources")
    xobjects = resources.get("/XObject") if resources is not None else None
    if not isinstance(xobjects, pikepdf.Dictionary):
        return copy(holder)
    names = sorted(name for name in xobjects.keys() if name.startswith(PREFIX))
    known = {name: xobjects[name] for name in names if name in kept}
    for name in known:
        del xobjects[name]  # left out while copying, put back below
    try:
        copied = copy(holder)
    finally:
        for name, piece in known.items():
            xobjects[name] = piece
    into = copied.Resources.XObject
    for name in names:
        if name in known:
            into[name] = kept[name]
        else:
            kept[name] = into[name]
    return copied
