"""A biome's food web drawn as it sits on the table: producers at the bottom, C4 at the top."""

from __future__ import annotations

from dataclasses import dataclass

from cardtool.games.ecologies.model import ROW_OF_ROLE, EcologiesDeck
from cardtool.games.ecologies.webs import find_witness, organisms_in, table_row, trophic_levels
from cardtool.render.environment import render

#: A card's box and the gaps, in picture units. At most PER_LINE cards stand side by side in a row (a longer
#: row wraps onto a second line within its band), so every picture has one width and, printed across a
#: rulebook's page, its names stay above 7 pt and its role labels above 6 pt (tests/test_rulebook_layout.py).
BOX_W, BOX_H, GAP_X, GAP_Y, LINE_GAP, MARGIN_L, MARGIN_T, PER_LINE = 112, 42, 6, 24, 8, 52, 54, 6
ROW_LABELS = ("P", "C1 / SD", "C2", "C3", "C4")


@dataclass(frozen=True)
class Box:
    """One organism card on the picture."""

    id: str
    lines: tuple[str, ...]
    roles: str
    x: float
    y: float
    witness_role: str | None
    is_biome: bool = False


@dataclass(frozen=True)
class Arrow:
    """Prey to predator."""

    x1: float
    y1: float
    x2: float
    y2: float
    highlighted: bool


@dataclass(frozen=True)
class FoodWebPicture:
    """The typed context of templates/ecologies/foodweb.svg.j2."""

    title: str
    colour: str
    width: int
    height: int
    rows: tuple[tuple[str, float, float], ...]  # (label, y of the band's middle, y of the line below it)
    boxes: tuple[Box, ...]
    arrows: tuple[Arrow, ...]
    box_w: int = BOX_W
    box_h: int = BOX_H


def _wrap(name: str, width: int = 16) -> tuple[str, ...]:
    words, lines, line = name.split(), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    lines.append(line)
    return tuple(lines[:2]) if len(lines) <= 2 else (lines[0], " ".join(lines[1:])[: width - 1] + "…")


def picture(deck: EcologiesDeck, code: str) -> FoodWebPicture:
    """Lay out the web of one biome in table rows (each card in the row of its usual role)."""
    biome = deck.biome(code)
    living = organisms_in(deck, code)
    levels = trophic_levels(deck, code)
    witness = find_witness(deck, code) or {}
    role_of_witness = {oid: role for role, oid in witness.items()}
    rows: dict[int, list[str]] = {r: [] for r in range(len(ROW_LABELS))}
    rows[0].append(biome.id)  # the biome card starts the bottom row, beside the producers
    for oid, organism in living.items():
        role = role_of_witness.get(oid) or table_row(organism, levels)
        rows[ROW_OF_ROLE[role]].append(oid)
    widest = PER_LINE  # one width for every web, so all print at one type size
    width = MARGIN_L + widest * (BOX_W + GAP_X) + 10
    place: dict[str, tuple[float, float]] = {}
    boxes = []
    row_labels = []
    y = MARGIN_T
    for row in reversed(range(len(ROW_LABELS))):  # C4 at the top, producers at the bottom
        ids = rows[row]
        lines = [ids[i:i + PER_LINE] for i in range(0, len(ids), PER_LINE)] or [[]]
        band = len(lines) * BOX_H + (len(lines) - 1) * LINE_GAP if ids else BOX_H / 2  # an empty row stays thin
        row_labels.append((ROW_LABELS[row], y + band / 2, y + band + GAP_Y / 2))
        for line in lines:
            offset = MARGIN_L + (widest - len(line)) * (BOX_W + GAP_X) / 2
            for i, oid in enumerate(line):
                x = offset + i * (BOX_W + GAP_X)
                place[oid] = (x, y)
                if oid == biome.id:
                    boxes.append(Box(oid, _wrap(biome.name), "biome", x, y, None, is_biome=True))
                    continue
                organism = living[oid]
                boxes.append(Box(oid, _wrap(organism.name), " ".join(organism.roles), x, y,
                                 role_of_witness.get(oid)))
            y += (BOX_H if ids else BOX_H / 2) + LINE_GAP
        y += GAP_Y - LINE_GAP
    height = y + 14
    fed_by = _witness_links(witness, living)
    arrows = []
    for oid, organism in living.items():
        for prey in organism.eats:
            if prey not in place:
                continue
            (px, py), (x, y) = place[prey], place[oid]
            upward = py > y
            arrows.append(Arrow(px + BOX_W / 2, py if upward else py + BOX_H, x + BOX_W / 2, y + BOX_H if upward else y,
                                (prey, oid) in fed_by))
    title = f"{biome.code} {biome.name}: {len(living)} organisms" + ("" if witness else " (cannot be healthy)")
    return FoodWebPicture(title, biome.colour, int(width), int(height), tuple(row_labels), tuple(boxes),
                          tuple(arrows))


def _witness_links(witness: dict[str, str], living: dict) -> set[tuple[str, str]]:
    """The (prey, predator) links that feed the witness web: P to C1, C1 or SD to C2, C2 to C3."""
    if not witness:
        return set()
    links = {(witness["P"], witness["C1"]), (witness["C2"], witness["C3"])}
    for below in ("C1", "SD"):
        if witness[below] in living[witness["C2"]].eats:
            links.add((witness[below], witness["C2"]))
    return links


def render_svg(deck: EcologiesDeck, code: str) -> str:
    return render("ecologies/foodweb.svg.j2", web=picture(deck, code))
