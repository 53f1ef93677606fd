"""Colours as people with a colour-vision deficiency see them, and the pairs of a deck's colours that they
cannot tell apart.

A game lists the colours its players must tell apart (cardtool.games.plugin.HasPalette: Ecologies' biomes,
Symbiosis' Seasons). Each colour is simulated as a dichromat sees it: deuteranopia and protanopia by the
model of Machado, Oliveira & Fernandes (2009, severity 1), tritanopia by that of Brettel, Viénot & Mollon
(1997), which Machado's paper recommends for tritans; every pair in a group is then compared with the
CIEDE2000 colour difference (ΔE00; Sharma, Wu & Dalal 2005). Pairs closer than TOO_CLOSE are warned about
at the field that declares the colour (docs/printing.md explains the threshold). The colour science is
render/colour_science.py's plain Python (ColorAide's methods and numbers, which a test compares), so a
palette is checked in about a millisecond and validate imports no colour library.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

#: Ways of seeing, in the order reports show them: (name, dichromacy simulated, its model).
VISIONS = (("normal vision", None, None), ("deuteranopia", "deutan", "machado"),
           ("protanopia", "protan", "machado"), ("tritanopia", "tritan", "brettel"))
#: ΔE00 below which two colours of a group count as too alike to tell apart at a glance across a table.
TOO_CLOSE = 10.0
CODE = "colour-too-close"


@dataclass(frozen=True)
class Swatch:
    """One colour of the palette as each vision sees it."""

    group: str
    name: str
    colour: str
    seen: tuple[str, ...]  # #rrggbb under each of VISIONS


@dataclass(frozen=True)
class ClosePair:
    """Two colours of one group that a vision can hardly tell apart."""

    group: str
    first: str
    second: str
    vision: str
    difference: float  # ΔE00


def _simulated(colour: str) -> list[tuple[float, float, float]]:
    """The colour as each of VISIONS sees it, as sRGB channels 0 to 1 (the colour is parsed once)."""
    from cardtool.render.colour_science import parse_hex, simulate

    base = parse_hex(colour)
    return [simulate(base, vision) for _, vision, _ in VISIONS]


def swatches(palette) -> tuple[Swatch, ...]:
    """Each colour of the palette as each of VISIONS sees it."""
    out = []
    from cardtool.render.colour_science import to_hex

    for entry in palette:
        seen = tuple(to_hex(colour) for colour in _simulated(entry.colour))
        out.append(Swatch(entry.group, entry.name, entry.colour, seen))
    return tuple(out)


def close_pairs(palette, threshold: float = TOO_CLOSE) -> list[ClosePair]:
    """Every pair of colours in one group closer than threshold (ΔE00) under some vision: the vision is
    normal vision when the pair is alike to everyone, else the deficiency under which it is closest."""
    by_group: dict[str, list] = {}
    for entry in palette:
        by_group.setdefault(entry.group, []).append(entry)
    pairs = [(group, a, b) for group, entries in by_group.items() for a, b in combinations(entries, 2)
             if a.colour.lower() != b.colour.lower()]  # one colour named twice (a biome's two cards) is no pair
    differences = colour_differences({_pair(a.colour, b.colour) for _, a, b in pairs})
    found = []
    for group, a, b in pairs:
        measured = list(zip(differences[_pair(a.colour, b.colour)], (name for name, _, _ in VISIONS)))
        worst, vision = measured[0] if measured[0][0] < threshold else min(measured)
        if worst < threshold:  # alike to everyone is said so, even where a deficiency makes it worse
            found.append(ClosePair(group, a.name, b.name, vision, round(worst, 1)))
    return found


def _pair(first: str, second: str) -> tuple[str, str]:
    return tuple(sorted((first.lower(), second.lower())))


def colour_differences(pairs: set[tuple[str, str]]) -> dict[tuple[str, str], tuple[float, ...]]:
    """The ΔE00 of each pair of colours under each of VISIONS (each colour simulated once)."""
    from cardtool.render.colour_science import delta_e_2000, to_lab

    colours = {colour for pair in pairs for colour in pair}
    seen = {colour: [to_lab(rgb) for rgb in _simulated(colour)] for colour in colours}
    return {(a, b): tuple(delta_e_2000(seen[a][v], seen[b][v]) for v in range(len(VISIONS)))
            for a, b in sorted(pairs)}


def game_palette(deck, source=None) -> tuple:
    """The deck's palette, asked of its game's plugin; () for a game without one."""
    from cardtool.games import get
    from cardtool.games.palette import HasPalette

    plugin = get(deck.game)
    return tuple(plugin.palette(deck, source)) if isinstance(plugin, HasPalette) else ()


def check_palette(deck, source, report) -> None:
    """Warn, at the field declaring the colour, about each pair of colours players cannot tell apart."""
    palette = game_palette(deck, source)
    by_name = {(e.group, e.name): e for e in palette}
    for pair in close_pairs(palette):
        entry = by_name[pair.group, pair.second]
        where = "to everyone" if pair.vision == "normal vision" else f"to people with {pair.vision}"
        report.warning(CODE, f"{pair.group}: {pair.second} ({entry.colour}) and {pair.first} "
                             f"({by_name[pair.group, pair.first].colour}) look alike {where} "
                             f"(ΔE00 {pair.difference:g}, at least {TOO_CLOSE:g} wanted)",
                       location=entry.location, card=entry.card, path=entry.path,
                       hint="change one of the two colours' lightness more than its hue: lightness is what "
                            "every kind of colour vision sees (docs/printing.md#colours-everyone-can-tell-apart)")


@dataclass(frozen=True)
class PaletteView:
    """The typed context of templates/palette.svg.j2: each group's swatches under each vision."""

    groups: tuple[tuple[str, tuple[Swatch, ...]], ...]
    visions: tuple[str, ...]
    close: tuple[ClosePair, ...]
    threshold: float
    width: int
    height: int
    cell: int = 84
    label: int = 130


def palette_svg(deck) -> str | None:
    """The deck's palette as each vision sees it, with the pairs too alike, as SVG; None without a palette."""
    from cardtool.render.environment import render

    palette = game_palette(deck)
    if not palette:
        return None
    seen = swatches(palette)
    groups: dict[str, list[Swatch]] = {}
    for swatch in seen:
        groups.setdefault(swatch.group, []).append(swatch)
    close = tuple(close_pairs(palette))
    widest = max(len(s) for s in groups.values())
    view = PaletteView(tuple((g, tuple(s)) for g, s in groups.items()), tuple(v for v, _, _ in VISIONS), close,
                       TOO_CLOSE, 0, 0)
    width = view.label + widest * view.cell + 10
    height = sum(60 + len(VISIONS) * 40 for _ in groups) + 24 + 16 * max(len(close), 1)
    view = PaletteView(view.groups, view.visions, close, TOO_CLOSE, width, height)
    return render("palette.svg.j2", view=view)


def palette_files(deck, folder) -> tuple[list, str]:
    """palette.svg in the build folder, for the build index; and a one-line verdict."""
    svg = palette_svg(deck)
    if svg is None:
        return [], "this game names no colours to compare"
    (folder / "palette.svg").write_text(svg, encoding="utf-8")
    close = close_pairs(game_palette(deck))
    verdict = (f"{len(close)} pair(s) too alike: " + "; ".join(f"{p.first} and {p.second} ({p.vision})"
                                                            for p in close)) if close else \
        f"every pair differs by at least {TOO_CLOSE:g} ΔE00 under normal vision, deuteranopia, protanopia and tritanopia"
    return [("palette.svg", "Colours as each kind of colour vision sees them")], verdict
