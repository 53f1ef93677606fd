"""The print shops cardtool prepares files for: each preset is what the shop asks for, as frozen data.

Figures and their sources are in docs/printing.md ("Print shops"); a figure marked unconfirmed there
is the usual value for that shop that could not be checked against the shop's own page.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardtool.errors import UsageError
from cardtool.render.sheets import CARD_SIZES, CardSize

INCH = 25.4


@dataclass(frozen=True)
class Preset:
    """What one shop takes: the files, their geometry, colour and the limits its preflight checks."""

    name: str
    title: str
    output: str  # png-files | pdf
    card: CardSize
    bleed: float  # mm beyond the trim on every side
    safe: float  # mm inside the trim that text must keep clear of
    dpi: int  # raster resolution (PNG files and CMYK pages), and the least effective resolution of images
    colour: str  # rgb | cmyk
    pdf_variant: str | None = None  # WeasyPrint's pdf_variant, e.g. pdf/x-1a
    ink_limit: int | None = None  # total area coverage, % (CMYK only)
    rich_black: tuple[int, int, int, int] | None = None  # the shop's rich black recipe, C, M, Y, K %
    spec_url: str = ""  # the shop; docs/printing.md says which of its figures could be confirmed

    @property
    def pixels(self) -> tuple[int, int]:
        """A card's image size in pixels, bleed included."""
        return (round((self.card.width + 2 * self.bleed) / INCH * self.dpi),
                round((self.card.height + 2 * self.bleed) / INCH * self.dpi))


POKER = CARD_SIZES["poker"]
EIGHTH = INCH / 8  # 1/8 in = 3.175 mm

PRESETS: dict[str, Preset] = {p.name: p for p in (
    Preset("thegamecrafter", "The Game Crafter: one PNG per face, 825 x 1125 px with 1/8 in bleed",
           "png-files", POKER, EIGHTH, EIGHTH, 300, "rgb",
           spec_url="https://www.thegamecrafter.com/"),
    Preset("drivethrucards", "DriveThruCards: one PDF/X-1a, CMYK at 300 dpi, front and back alternating",
           "pdf", POKER, EIGHTH, EIGHTH, 300, "cmyk", pdf_variant="pdf/x-1a", ink_limit=240,
           rich_black=(60, 40, 40, 100),
           spec_url="https://www.drivethrucards.com/"),
    Preset("generic", "Home or copy shop: one vector PDF, a card a page with 3 mm bleed, RGB, fonts embedded",
           "pdf", POKER, 3.0, 3.0, 300, "rgb"),
)}
ALIASES = {"tgc": "thegamecrafter", "dtc": "drivethrucards", "copyshop": "generic", "home": "generic"}


def preset(name: str) -> Preset:
    """The preset a --shop name (or its short alias) stands for."""
    key = ALIASES.get(name.casefold(), name.casefold())
    if key not in PRESETS:
        from cardtool.suggest import did_you_mean

        hint = did_you_mean(name, [*PRESETS, *ALIASES])
        raise UsageError(f"--shop {name}: no such shop; cardtool knows {', '.join(PRESETS)} "
                         f"(or {', '.join(ALIASES)})" + (f"; {hint}" if hint else ""))
    return PRESETS[key]
