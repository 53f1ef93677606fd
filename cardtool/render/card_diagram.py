"""An annotated card for the rulebook: one real card face, laid out and rasterised exactly as it prints,
with callouts that name its parts. A game says which card and which parts (each a class on an element of
its face template); where each part sits is read from the laid-out card, so the callouts follow the
template when it changes."""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass
from urllib.parse import quote

from cardtool.deck.model import Deck
from cardtool.errors import RenderError
from cardtool.render.environment import render

PX_PER_MM = 96 / 25.4  # WeasyPrint lays out in CSS pixels
DPI = 200  # the card's picture: sharp in print, small in the PDF
WIDTH, LABEL_W, GAP = 170.0, 48.0, 4.0  # mm: the figure, each side's label column, label to card
LABEL_SIZE, TEXT_SIZE, LEADING = 3.0, 2.7, 3.3  # mm: about 8.5 pt and 7.7 pt type
WRAP = 32  # characters a description line holds in a label column


@dataclass(frozen=True)
class Part:
    """A part to name: the class of its element on the face template, a label and a line saying what it is."""

    css_class: str
    label: str
    text: str = ""


@dataclass(frozen=True)
class Callout:
    label: str
    lines: tuple[str, ...]
    side: str  # left | right
    x: float  # where the label's text is anchored
    y: float  # the label's first baseline
    px: float  # the point on the card
    py: float
    elbow: float  # x where the leader turns towards the point


@dataclass(frozen=True)
class CardDiagram:
    """The typed context of templates/rulebook/card-diagram.svg.j2 (all lengths in mm)."""

    width: float
    height: float
    picture: str  # the card as a PNG data URL
    card_x: float
    card_y: float
    card_w: float
    card_h: float
    callouts: tuple[Callout, ...]


@dataclass(frozen=True)
class Figure:
    """One annotated card as the rulebook shows it (templates/rulebook/anatomy.html.j2)."""

    picture: str  # SVG data URL
    caption: str


def _wrap(text: str, width: int = WRAP) -> tuple[str, ...]:
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return tuple(lines + [line]) if line else tuple(lines)


def _classes(box) -> set[str]:
    element = getattr(box, "element", None)
    return set((element.get("class") or "").split()) if element is not None else set()


def part_boxes(document, classes: set[str]) -> dict[str, tuple[float, float, float, float]]:
    """(x, y, width, height) in mm of the first laid-out box of each class, relative to the card."""
    found: dict[str, tuple[float, float, float, float]] = {}
    origin = None
    stack = [document.pages[0]._page_box]
    while stack:
        box = stack.pop()
        own = _classes(box)
        if hasattr(box, "border_box_x"):
            x, y = box.border_box_x(), box.border_box_y()
            if origin is None and "card" in own:
                origin = (x, y)
            for name in own & classes:
                if name not in found and box.border_width() > 0 and box.border_height() > 0:
                    found[name] = (x, y, box.border_width(), box.border_height())
        stack.extend(reversed(getattr(box, "children", ())))
    ox, oy = origin or (0.0, 0.0)
    return {name: ((x - ox) / PX_PER_MM, (y - oy) / PX_PER_MM, w / PX_PER_MM, h / PX_PER_MM)
            for name, (x, y, w, h) in found.items()}


def _centre(box: tuple[float, float, float, float]) -> float:
    return box[0] + box[2] / 2


def _spread(wanted: list[float], heights: list[float], top: float, bottom: float) -> list[float]:
    """Label tops as near as possible to the wanted ones without overlapping, inside [top, bottom]."""
    placed = []
    for want, height in zip(wanted, heights):
        y = max(want, placed[-1][0] + placed[-1][1] + 2.0 if placed else top)
        placed.append((y, height))
    overshoot = placed[-1][0] + placed[-1][1] - bottom if placed else 0
    if overshoot > 0:  # push the column up from the bottom
        shifted, limit = [], bottom
        for y, height in reversed(placed):
            y = min(y, limit - height)
            shifted.append((y, height))
            limit = y - 2.0
        placed = list(reversed(shifted))
    return [y for y, _ in placed]


def diagram(deck: Deck, card_id: str, parts: tuple[Part, ...]) -> str:
    """The card as it prints (poker size, no bleed) with a callout for each of its parts, as an SVG data URL."""
    from cardtool.render.cards import DeckPrint
    from cardtool.render.fitting import render_html
    from cardtool.render.images import rasterise
    from cardtool.render.sheets import CARD_SIZES

    card = CARD_SIZES["poker"]
    deck_print = DeckPrint(deck, card, 0.0, card_id)
    faces, pdf = deck_print.singles(backs=False)
    document = render_html(deck_print.single_html(faces[:1]), deck_print.base_url, deck_print.roots,
                           f"the card diagram of {card_id}")
    boxes = part_boxes(document, {p.css_class for p in parts})
    missing = [p.css_class for p in parts if p.css_class not in boxes]
    if missing:
        raise RenderError(f"card diagram of {card_id}: its face shows no element of class {', '.join(missing)}")
    [image] = rasterise(pdf, round(card.width / 25.4 * DPI), round(card.height / 25.4 * DPI), [0])
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=True)
    picture = "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
    card_x, card_y = (WIDTH - card.width) / 2, 2.0
    height = card.height + 4.0
    sides: dict[str, list] = {"left": [], "right": []}
    for part in sorted(parts, key=lambda p: abs(_centre(boxes[p.css_class]) - card.width / 2), reverse=True):
        x, y, w, h = boxes[part.css_class]
        cx, cy = x + w / 2, y + h / 2
        if abs(cx - card.width / 2) > 3:
            side = "left" if cx < card.width / 2 else "right"
        else:  # a centred part takes the side with fewer labels
            side = "left" if len(sides["left"]) <= len(sides["right"]) else "right"
        inset = min(w / 2, max(2.0, w * 0.2))  # on the part, a little in from the side its label is on
        px = card_x + (x + inset if side == "left" else x + w - inset)
        sides[side].append((card_y + cy, part, px))
    callouts = []
    for side, items in sides.items():
        items.sort(key=lambda item: item[0])
        texts = [_wrap(part.text) for _, part, _ in items]
        heights = [LABEL_SIZE + LEADING * len(lines) + 1.0 for lines in texts]
        tops = _spread([py - LABEL_SIZE for py, _, _ in items], heights, 1.0, height - 1.0)
        x = LABEL_W if side == "left" else WIDTH - LABEL_W
        elbow = card_x - GAP / 2 if side == "left" else card_x + card.width + GAP / 2
        for (py, part, px), lines, top in zip(items, texts, tops):
            callouts.append(Callout(part.label, lines, side, x, top + LABEL_SIZE, px, py, elbow))
    context = CardDiagram(WIDTH, height, picture, card_x, card_y, card.width, card.height, tuple(callouts))
    return "data:image/svg+xml," + quote(render("rulebook/card-diagram.svg.j2", diagram=context))
