"""The colours an Ecologies player must tell apart: the biomes'. An organism's background shows the colour
of each biome it can live in, so a player matches it to a biome card by colour first (the code printed
beside it confirms). Trophic-role badges and factor cards carry their name or code as well, so their
colours are not compared."""

from __future__ import annotations

from cardtool.games.ecologies.model import EcologiesDeck
from cardtool.games.palette import PaletteColour


def palette(deck: EcologiesDeck, source=None) -> tuple[PaletteColour, ...]:
    """Each biome's colour, located at its `colour:` field when source is given."""
    return tuple(PaletteColour("biomes", f"{b.code} {b.name}", b.colour,
                               source.locate(b.id, "colour") if source is not None else None, b.id, ("colour",))
                 for b in deck.biomes)
