"""`cardtool new` for Ecologies: a new deck's files, and what a new expansion of an Ecologies deck shows."""

from __future__ import annotations

from cardtool.errors import UsageError
from cardtool.games.ecologies.model import EcologiesDeck, format_vp
from cardtool.games.ecologies.webs import find_witness
from cardtool.render.environment import render


def scaffold_deck(name: str, context: dict) -> dict[str, str]:
    """deck.yaml, biomes.yaml, organisms.yaml and factors.yaml of a small deck that validates, and its
    biome's icon (a biome without one prints the generic icon, which validate warns about)."""
    files = {f: render(f"scaffold/ecologies/{f}.j2", **context)
             for f in ("deck.yaml", "biomes.yaml", "organisms.yaml", "factors.yaml")}
    files["icons/biomes/MEA.svg"] = render("scaffold/expansion/biome-icon.svg.j2", code="MEA")  # its own icon
    return files


def scaffold_expansion(base: EcologiesDeck, context: dict) -> tuple[dict, str]:
    """An expansion built on a biome of base that can be healthy: new cards eating its witness web, and
    an override raising one card's VP."""
    biome, witness = next(((code, w) for code in base.biome_codes if (w := find_witness(base, code)) is not None),
                          (None, None))
    if witness is None:
        raise UsageError(f"base deck {context['base_path']} has no biome that can be healthy to build on")
    example = base.card(witness["C3"])
    code = new_code(context["id"], set(base.biome_codes))
    extra = dict(biome=biome, prey=[witness["C3"], witness["C2"]], example_id=example.id, example_field="vp",
                 code=code, new_name=f"{context['name']} Biome", colour=new_colour(b.colour for b in base.biomes),
                 example_value=f'"{format_vp(example.vp + 1)}"', select_by="id, tag, kind or biome",
                 include_example="{kinds: [biome, organism]}")
    cards = render("scaffold/expansion/ecologies-cards.yaml.j2", **{**context, **extra})
    extra["files"] = {f"icons/biomes/{code}.svg": render("scaffold/expansion/biome-icon.svg.j2", code=code)}
    return extra, cards


#: Colours a new biome may start with (white icons and text stay readable on each).
COLOURS = ("#2e2e2e", "#8a3b12", "#6b2d5c", "#3d5a1e", "#1f4e79", "#7a6a00", "#a33b3b", "#4b3b8f")


def _lightness(colour: str) -> float:
    """CIE L* of an sRGB colour: what every kind of colour vision sees, so biomes should differ in it."""
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(int(colour[i:i + 2], 16) / 255) for i in (1, 3, 5))
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return 116 * y ** (1 / 3) - 16 if y > 216 / 24389 else y * 24389 / 27


def new_colour(taken) -> str:
    """The candidate colour whose lightness is farthest from every base biome's (so colour-blind players
    tell the new biome apart; validate checks it)."""
    levels = [_lightness(c) for c in taken if isinstance(c, str) and len(c) == 7]
    return max(COLOURS, key=lambda c: min((abs(_lightness(c) - level) for level in levels), default=0))


def new_code(deck_id: str, taken: set[str]) -> str:
    """A biome code of three capital letters from the deck's id that no base biome has: glow-caves -> GLO."""
    letters = [ch.upper() for ch in deck_id if ch.isalpha()] or ["X"]
    first = letters[0]
    candidates = ["".join(letters[:3]).ljust(3, "X")]
    candidates += [first + a + b for a in letters[1:] for b in letters[1:]]
    candidates += [first + chr(a) + chr(b) for a in range(65, 91) for b in range(65, 91)]
    return next(code for code in candidates if len(code) == 3 and code not in taken)
