"""`cardtool cards` for Ecologies: each card's biomes, roles, VP and food-web links (ListsCards)."""

from __future__ import annotations

from cardtool.games.ecologies.model import Biome, EcologiesDeck, Factor, Organism, format_vp

COLUMNS = ("biomes", "roles", "vp", "eats", "eaten_by")


def card_row(deck: EcologiesDeck, card) -> dict[str, str | tuple[str, ...]]:
    """A biome card lists its own code; a factor card the biomes and roles its effects name."""
    if isinstance(card, Organism):
        return dict(biomes=card.biomes, roles=card.roles, vp=format_vp(card.vp), eats=card.eats,
                    eaten_by=card.eaten_by)
    if isinstance(card, Biome):
        return dict(biomes=(card.code,), roles=(), vp="", eats=(), eaten_by=())
    if isinstance(card, Factor):
        filters = [effect.filter for effect in card.effects if effect.filter is not None]
        biomes = tuple(dict.fromkeys(code for f in filters for code in f.biomes))
        roles = tuple(dict.fromkeys(role for f in filters for role in (*f.roles, *f.acting)))
        return dict(biomes=biomes, roles=roles, vp="", eats=(), eaten_by=())
    return dict.fromkeys(COLUMNS, "")
