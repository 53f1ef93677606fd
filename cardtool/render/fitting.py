"""WeasyPrint documents, and text that does not fit: found in the laid-out boxes, shrunk, or reported.

A card template marks each box of text it fits with `data-fit="FIELD"` (a box of fixed size) and the
parts inside it with `data-field="NAME"`; the card's root carries `data-card` and `data-side`. After a
layout, a fit box overflows when any line or word inside it ends below or right of its content box.
Overflowing fields are shrunk step by step (a few candidate sizes of every such face laid out together
in one extra document) down to the minimum their layout sets; a field that still does not fit is an
error naming card and field. Layouts are written to PDF at once, so only bytes and findings travel
between the processes that share the work (render/cards.py).

Text floors (deck/printing.py): no field shrinks below the floor of its kind, and every piece of text on a
laid-out card, fitted or not, is measured: gameplay text (inside an element marked `data-floor="text"`)
below the deck's text floor, or any other text (labels, flavour) below its label floor, is an error
naming the card and the part, so a template cannot print 4 pt labels unnoticed.
"""

from __future__ import annotations

import logging
import warnings
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from cardtool.deck.containment import Roots
from cardtool.errors import RenderError
from cardtool.render.context import Face, Frame
from cardtool.render.fetcher import check as check_fetches
from cardtool.render.fetcher import deck_fetcher
from cardtool.render.lean import PREFIX as SHARED_PREFIX
from cardtool.render.lean import card_html_class, shared_styles
from cardtool.render.reproducible import weasyprint_pdf

STEP = 0.25  # pt between candidate sizes
WINDOW = 4  # candidate sizes tried per face in one layout
TOLERANCE = 0.3  # CSS px (1/96 in) a line may stick out before it counts as overflow

warnings.filterwarnings("ignore", message="HarfBuzz-Subset", category=DeprecationWarning)  # fontTools subsets
logging.getLogger("weasyprint").setLevel(logging.ERROR)  # its warnings about unsupported CSS are noise here
logging.getLogger("fontTools").setLevel(logging.ERROR)
_FETCHERS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # document -> the fetcher it loads with


@lru_cache(maxsize=1)
def font_config():
    from weasyprint.text.fonts import FontConfiguration

    return FontConfiguration()


def render_html(html: str, base_url: str, roots: Roots = Roots(()), what: str = "cards", lean: bool = False):
    """Lay out an HTML string into a WeasyPrint document (pages of boxes), loading only files inside
    roots (and cardtool's own templates) and data: URLs; `what` names the document in errors. `lean`
    styles a document of many cards with less work and the same result (render/lean.py)."""
    from weasyprint import HTML

    if lean:
        html = shared_styles(html)
    fetcher = deck_fetcher(roots, what)
    document = (card_html_class(html) if lean else HTML)(string=html, base_url=base_url, url_fetcher=fetcher) \
        .render(font_config=font_config())
    _FETCHERS[document] = fetcher
    check_fetches(fetcher)
    check_floors(document)
    return document


def check_floors(document) -> None:
    """RenderError naming the card and part of the first text laid out below its card's floor. Checked
    on every layout, so a face kept in a cache passed it when it was made; fitted fields never shrink
    below their floor, so only a template's fixed sizes (or a floor above a field's size) can fail."""
    for page in document.pages:
        found = small_text(page)
        if found:
            raise RenderError(min(found, key=lambda t: t.size).message())


def write_pdf(document) -> bytes:
    """The document's PDF; RenderError if writing it wanted anything outside the roots (SVG pictures
    load what they refer to only now)."""
    pdf = weasyprint_pdf(document)  # fixed dates and a content /ID: same input, same bytes
    fetcher = _FETCHERS.get(document)
    if fetcher is not None:
        check_fetches(fetcher)
    return pdf


def write_pages(document) -> list[bytes]:
    """Each page of the document as a PDF of its own (fonts subset to that page alone, so its bytes do
    not depend on the other pages: a build can keep and reuse it by content); checked as write_pdf."""
    pdfs = [weasyprint_pdf(document.copy([page])) for page in document.pages]
    fetcher = _FETCHERS.get(document)  # copies load through the same fetcher
    if fetcher is not None:
        check_fetches(fetcher)
    return pdfs


@dataclass(frozen=True)
class Overflow:
    """A fit box whose text does not fit: the card, the side, the fitted field and the part that spills."""

    key: str  # card:side (or a candidate's key)
    field: str
    part: str
    fill: float = 1.0  # how much of its content the box holds, by height (1.0 when only a word sticks out)


def _element_attr(box, name: str) -> str | None:
    element = getattr(box, "element", None)
    return element.get(name) if element is not None else None


def overflows(document) -> list[Overflow]:
    """Every fit box in the document whose content ends outside it."""
    found: list[Overflow] = []
    for page in document.pages:
        stack = [(page._page_box, None)]
        while stack:
            box, key = stack.pop()
            card = _element_attr(box, "data-card")
            if card is not None:
                key = f"{card}:{_element_attr(box, 'data-side')}"
            field = _element_attr(box, "data-fit")
            if field is not None and key is not None and _is_block(box):
                spill = _spill(box)
                if spill is not None:
                    found.append(Overflow(key, field, spill[0] or field, spill[1]))
                continue
            stack.extend((child, key) for child in getattr(box, "children", ()))
    return found


def _is_block(box) -> bool:
    return getattr(box, "element_tag", None) is not None and hasattr(box, "content_box_y") and \
        type(box).__name__ not in ("LineBox", "TextBox", "InlineBox")


def _spill(box) -> tuple[str, float] | None:
    """None when the box's content fits; else the data-field of the first part that spills ('' if none)
    and the fraction of the content's height the box holds."""
    bottom = box.content_box_y() + box.height + TOLERANCE
    right = box.content_box_x() + box.width + TOLERANCE
    left = box.content_box_x() - TOLERANCE
    first = None
    lowest = bottom
    stack = [(child, "") for child in reversed(getattr(box, "children", ()))]
    while stack:  # depth first, in document order, so the first part found is the first to spill
        child, part = stack.pop()
        part = _element_attr(child, "data-field") or part
        name = type(child).__name__
        if name == "LineBox":
            end = child.position_y + child.height
            lowest = max(lowest, end)
            over = end > bottom
        elif name == "TextBox":
            over = child.position_x + child.width > right or child.position_x < left
        else:
            over = False
        if over and (first is None or (not first and part)):
            first = part
        stack.extend((c, part) for c in reversed(getattr(child, "children", ())))
    if first is None:
        return None
    top = box.content_box_y()
    return first, min(1.0, (bottom - top) / max(lowest - top, 1e-6))


def floor(face: Face, kind: str) -> float:
    return face.floors.text if kind == "text" else face.floors.label


def base_sizes(face: Face, frame: Frame) -> dict[str, float]:
    """The layout's sizes for a face's fields, scaled to the card (never below the field's text floor)."""
    return {f.name: max(round(f.size * frame.scale, 2), floor(face, f.kind)) for f in face.fields}


@dataclass(frozen=True)
class SmallText:
    """Text of one kind in one part of a laid-out card set below the card's floor for that kind (pt)."""

    key: str  # card:side
    part: str  # the data-field, else the classes of the elements holding the text
    kind: str  # text | label
    size: float
    floor: float

    def message(self) -> str:
        card, side = self.key.split(":")
        what = "gameplay text" if self.kind == "text" else "label"
        setting = "print.text_floor" if self.kind == "text" else "print.label_floor"
        return (f"card {card}: {what} '{self.part}' on the {side} is set at {self.size:g} pt, below the "
                f"{self.floor:g} pt floor ({setting} in deck.yaml); shorten the text, enlarge it in the "
                "template, or use a larger --card size")


def small_text(page) -> list[SmallText]:
    """Text on a laid-out page below its card's floors (the card root's data-floors="TEXT LABEL", in pt;
    a card without it is not checked): the smallest size of each part that is, by kind."""
    smallest: dict[tuple[str, str, str], float] = {}
    floors: dict[str, tuple[float, float]] = {}
    stack = [(page._page_box, None, "label", "", "")]
    while stack:
        box, key, kind, named, classed = stack.pop()  # the nearest data-field, the nearest class
        card = _element_attr(box, "data-card")
        if card is not None and _element_attr(box, "data-floors"):
            key = f"{card}:{_element_attr(box, 'data-side')}"
            text_floor, label_floor = _element_attr(box, "data-floors").split()
            floors[key] = (float(text_floor), float(label_floor))
        kind = _element_attr(box, "data-floor") or kind
        named = _element_attr(box, "data-field") or named
        classes = [c for c in (_element_attr(box, "class") or "").split() if not c.startswith(SHARED_PREFIX)]
        classed = " ".join((classed.split()[-1:] if classed else []) + classes[-1:]) if classes else classed
        if type(box).__name__ == "TextBox" and key is not None and getattr(box, "text", "").strip():
            size = round(box.style["font_size"] * 0.75, 2)  # CSS px to pt
            limit = floors[key][0 if kind == "text" else 1]
            if size < limit - 0.01:
                where = (key, named or classed or "text", kind)
                smallest[where] = min(size, smallest.get(where, size))
        stack.extend((child, key, kind, named, classed) for child in getattr(box, "children", ()))
    return [SmallText(key, part, kind, size, floors[key][0 if kind == "text" else 1])
            for (key, part, kind), size in smallest.items()]


def with_sizes(face: Face, frame: Frame) -> Face:
    """The face with every field sized: fitted sizes kept, others at the layout's size."""
    sizes = base_sizes(face, frame)
    sizes.update(face.sizes)
    return replace(face, sizes=sizes)


def _ladder(size: float, minimum: float, fill: float = 1.0) -> list[float]:
    """Candidate sizes from large to small. Text's height goes roughly with its size squared, so sizes
    well above size * sqrt(fill) cannot fit and are skipped (keeping one step above, to be safe)."""
    start = max(minimum, min(size - STEP, size * fill ** 0.5 + STEP))
    steps, value = [], size
    while value >= minimum - 1e-9:
        if value <= start + 1e-9:
            steps.append(round(value, 2))
        value -= STEP
    if not steps or steps[-1] > minimum + 1e-9:
        steps.append(round(minimum, 2))  # always try the smallest size the layout allows
    return steps


@dataclass
class LaidOut:
    """Faces laid out one a page: the PDFs written, where each face's page is, and what overflowed."""

    pdfs: list[bytes]
    pages: list[tuple[int, int]]  # per face: (index in pdfs, page number)
    overflows: list[Overflow]

    @classmethod
    def of(cls, document) -> "LaidOut":
        """A WeasyPrint document's findings and PDF (fonts subset, so each part stays small)."""
        found = overflows(document)
        return cls([write_pdf(document)], [(0, i) for i in range(len(document.pages))], found)

    @classmethod
    def join(cls, parts: Sequence["LaidOut"]) -> "LaidOut":
        pdfs, pages, found = [], [], []
        for part in parts:
            pages += [(pdf + len(pdfs), page) for pdf, page in part.pages]
            pdfs += part.pdfs
            found += part.overflows
        return cls(pdfs, pages, found)


def fit(faces: Sequence[Face], frame: Frame, lay_out: Callable[[Sequence[Face]], LaidOut]):
    """Lay out faces one a page, shrinking fields that overflow. Returns (faces, LaidOut), page i face i.

    The first layout finds the overflowing faces. Then each round lays out, in one more document, a few
    candidate sizes of every face still overflowing (step k shrinks each of its overflowing fields to
    the k-th size of that field's ladder); a face takes the first step at which nothing overflows, and
    its page is taken from that round's layout, so no face is laid out again once it fits.
    """
    faces = [with_sizes(f, frame) for f in faces]
    first_layout = lay_out(faces)
    if not first_layout.overflows:
        return faces, first_layout
    wanted: dict[str, dict[str, str]] = {}
    fill: dict[tuple[str, str], float] = {}
    for overflow in first_layout.overflows:
        wanted.setdefault(overflow.key, {}).setdefault(overflow.field, overflow.part)
        fill[overflow.key, overflow.field] = overflow.fill
    by_key = {f.key: f for f in faces}
    ladders: dict[str, dict[str, list[float]]] = {}
    for key, fields in wanted.items():
        face = by_key[key]
        minimum = {f.name: max(f.minimum, floor(face, f.kind)) for f in face.fields}
        ladders[key] = {name: _ladder(face.sizes[name], min(minimum[name], face.sizes[name]), fill[key, name])
                        for name in fields}
    depth = {key: max(len(ladder) for ladder in ladders[key].values()) for key in wanted}
    layouts = [first_layout]
    chosen: dict[str, tuple[int, int]] = {}  # key -> (layout, index of the face in it)
    first = 0
    pending = list(wanted)
    while pending:
        candidates = []
        for key in pending:
            face = by_key[key]
            for step in range(first, min(first + WINDOW, depth[key])):
                sizes = dict(face.sizes)
                for name, ladder in ladders[key].items():
                    sizes[name] = ladder[min(step, len(ladder) - 1)]
                candidates.append(replace(face, card_id=f"{face.card_id}~{step}", sizes=sizes))
        trial = lay_out(candidates)
        layouts.append(trial)
        still = {(o.key, o.field) for o in trial.overflows}
        for index, candidate in enumerate(candidates):
            key = f"{candidate.card_id.split('~')[0]}:{candidate.side}"
            if key not in chosen and not any((candidate.key, name) in still for name in wanted[key]):
                chosen[key] = (len(layouts) - 1, index)
                by_key[key] = replace(by_key[key], sizes=candidate.sizes)
        first += WINDOW
        for key in pending:
            if key not in chosen and first >= depth[key]:
                _too_long(key, wanted[key], ladders[key], still, depth[key])
        pending = [key for key in pending if key not in chosen]
    joined = LaidOut.join(layouts)
    offsets = [0]
    for part in layouts:
        offsets.append(offsets[-1] + len(part.pages))
    pages = [joined.pages[offsets[chosen[f.key][0]] + chosen[f.key][1]] if f.key in chosen else joined.pages[i]
             for i, f in enumerate(faces)]
    return [by_key[f.key] for f in faces], LaidOut(joined.pdfs, pages, [])


def _too_long(key: str, fields: dict[str, str], ladders: dict[str, list[float]], still: set, depth: int):
    card_id, side = key.split(":")
    last = f"{card_id}~{depth - 1}:{side}"
    name = next((n for n in fields if (last, n) in still), next(iter(fields)))
    part = fields[name]
    what = f"field '{name}'" + (f" ({part})" if part and part != name else "")
    raise RenderError(f"card {card_id}: {what} does not fit its box on the {side}, even at "
                      f"{ladders[name][-1]:g} pt; shorten the text (or use a larger --card size)")
