"""What every card template is given: the card's frame (size, bleed, text scale), its fitted text sizes,
and file URLs for icons and art. Each game builds its own typed card context on top (games/<game>/render/).
Light to import (templates load only when a picture is drawn), so validate can read faces' text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from urllib.parse import quote

from cardtool.deck.containment import OUTSIDE, Outside, Remote, Roots, find_file
from cardtool.deck.printing import Floors
from cardtool.errors import RenderError
from cardtool.render.sheets import CardSize
from cardtool.resources import templates_dir

#: The size the card layouts are drawn for; other sizes scale text and spacing with the card.
DESIGN_WIDTH, DESIGN_HEIGHT = 63.5, 88.9
SAFE_ZONE = 3.0  # mm inside the trim that a cut may wander into: nothing important goes there


@dataclass(frozen=True)
class Frame:
    """A card's geometry in mm: trim size, bleed, safe zone, and `em`, the text scale in points."""

    width: float
    height: float
    bleed: float
    scale: float

    @classmethod
    def of(cls, card: CardSize, bleed: float) -> "Frame":
        return cls(card.width, card.height, bleed, min(card.width / DESIGN_WIDTH, card.height / DESIGN_HEIGHT))

    @property
    def full_width(self) -> float:
        return self.width + 2 * self.bleed

    @property
    def full_height(self) -> float:
        return self.height + 2 * self.bleed

    @property
    def em(self) -> float:
        """The card's base font size in pt: 10 pt on a poker card; layouts are measured in em."""
        return round(10 * self.scale, 3)

    @property
    def safe(self) -> float:
        return SAFE_ZONE


@dataclass(frozen=True)
class TextField:
    """A box of text the layout fits: its size on a poker card, the smallest size its layout allows (pt),
    and whether it is gameplay text or a label (which text floor applies: deck/printing.py)."""

    name: str
    size: float
    minimum: float
    kind: str = "text"  # text (gameplay) | label
    #: The fit box's width and height in em on a poker card, kept in step with the stylesheet, for the
    #: fast estimate `cardtool validate` makes (render/estimate.py); one_line boxes do not wrap.
    box: tuple[float, float] | None = None
    one_line: bool = False
    spacing: float = 0.0  # letter-spacing, em


@dataclass(frozen=True)
class Face:
    """One side of one card, ready to render: its template, typed context and fittable text fields."""

    card_id: str
    side: str  # front | back
    template: str
    card: object
    fields: tuple[TextField, ...] = ()
    count: int = 1
    name: str = ""
    sizes: dict = field(default_factory=dict, compare=False)  # field -> pt, set by fitting
    floors: Floors = Floors()  # the smallest gameplay text and labels the deck allows (pt)

    @property
    def key(self) -> str:
        return f"{self.card_id}:{self.side}"


Words = list[list[tuple[str, bool]]]  # paragraphs, each a list of (word, bold)


def words(text: str, bold: bool = False) -> list[tuple[str, bool]]:
    return [(word, bold) for word in text.split()]


@dataclass(frozen=True)
class FaceText:
    """A face's fitted fields and the text each shows, as its template prints it, without drawing it:
    what `cardtool validate` estimates the fit of (render/print_checks.py)."""

    card_id: str
    side: str
    fields: tuple[TextField, ...]
    floors: Floors
    texts: dict  # field name -> Words

    @property
    def key(self) -> str:
        return f"{self.card_id}:{self.side}"


def back_template(game: str, kind: str) -> tuple[str, str]:
    """The back template for a kind and the key its faces share: `<game>/back-<kind>.html.j2` if the
    templates have one, else the game's common `<game>/back.html.j2`."""
    from cardtool.render.environment import template_exists

    specific = f"{game}/back-{kind}.html.j2"
    if template_exists(specific):
        return specific, f"back-{kind}"
    return f"{game}/back.html.j2", "back"


def file_url(path: Path) -> str:
    return Path(path).resolve().as_uri()


def deck_roots(deck) -> Roots:
    """The folders a loaded deck may name files in (its own, then its bases')."""
    return Roots.of(*deck.roots) if deck.roots else Roots.of(deck.manifest.root)


def _roots(deck_root: Path | Roots | None) -> Roots:
    if deck_root is None:
        return Roots(())
    return deck_root if isinstance(deck_root, Roots) else Roots.of(deck_root)


def icon_url(*names: str, deck_root: Path | Roots | None = None) -> str:
    """The first icon found among names (paths under icons/): in the icons/ folder of the deck (then of
    each base deck), then among the shipped ones. A deck icon leading outside the deck is an error."""
    roots = _roots(deck_root)
    for name in names:
        for folder in roots.folders:
            try:
                path = roots.locate(name, folder / "icons")
            except Outside as exc:
                raise RenderError(f"{folder / 'icons' / name}: error[{OUTSIDE}] icon '{name}' {exc}") from None
            if path.is_file():
                return file_url(path)
        if (templates_dir() / "icons" / name).is_file():
            return file_url(templates_dir() / "icons" / name)
    raise RenderError(f"no icon {' or '.join(names)} in templates/icons")


def art_url(deck_root: Path | Roots, art: str | None, card_id: str) -> str | None:
    """The card's art as a URL, or None for a placeholder; art named but missing, or leading outside the
    deck's folders, is an error (`cardtool validate` reports the second with its line)."""
    if not art:
        return None
    if art.startswith("data:image/"):
        return art
    roots = _roots(deck_root)
    try:
        path = find_file(roots, art)
    except (Outside, Remote) as exc:
        raise RenderError(f"card {card_id}: error[{exc.code}] field 'art': '{art}': {exc}") from None
    if path is None:
        raise RenderError(f"card {card_id}: field 'art': no file '{art}' in the deck folder {roots.folders[0]}")
    if path.suffix.lower() not in (".png", ".jpg", ".jpeg", ".svg", ".gif", ".webp"):
        raise RenderError(f"card {card_id}: field 'art': '{art}' is not a PNG, JPEG or SVG image")
    return file_url(path)


def initials(name: str) -> str:
    words = [w for w in name.replace("-", " ").split() if w[:1].isalnum()]
    return "".join(w[0].upper() for w in words[:2]) or "?"


@lru_cache(maxsize=256)
def placeholder_url(colour: str, ink: str) -> str:
    """A repeating pattern in the card's colour, as an SVG data URL (one per colour, shared by cards)."""
    from cardtool.render.environment import render

    svg = render("placeholder.svg.j2", colour=colour, ink=ink)
    return "data:image/svg+xml," + quote(svg)


@lru_cache(maxsize=64)
def picture_url(template: str, frame: Frame, **context) -> str:
    """An SVG template rendered for one card size, as a data URL: every card drawing it shares one image."""
    from cardtool.render.environment import render

    return "data:image/svg+xml," + quote(render(template, frame=frame, **context))


def _channel(value: int) -> float:
    c = value / 255
    return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4


def luminance(colour: str) -> float:
    """Relative luminance of #rrggbb (WCAG)."""
    colour = colour.lstrip("#")
    r, g, b = (int(colour[i:i + 2], 16) for i in (0, 2, 4))
    return 0.2126 * _channel(r) + 0.7152 * _channel(g) + 0.0722 * _channel(b)


def ink_on(colour: str) -> str:
    """Black or white, whichever reads better on colour."""
    return "#1b1b1b" if luminance(colour) > 0.33 else "#ffffff"


def mix(colour: str, other: str, amount: float) -> str:
    """colour blended towards other by amount (0..1), as #rrggbb."""
    a = [int(colour.lstrip("#")[i:i + 2], 16) for i in (0, 2, 4)]
    b = [int(other.lstrip("#")[i:i + 2], 16) for i in (0, 2, 4)]
    return "#" + "".join(f"{round(x + (y - x) * amount):02x}" for x, y in zip(a, b))
