"""`cardtool new` for Ecologies: a new deck's files, and what a new expansion of an Ecologies deck shows."""

from __future__ import annotations

from cardtool.errors import UsageError
from cardtool.games.ecologies.model import EcologiesDeck, format_vp
from cardtool.games.ecologies.webs import find_witness
from cardtool.render.environment import render


def scaffold_deck(name: str, context: dict) -> dict[str, str]:
    """deck.yaml, biomes.yaml, organisms.yaml and factors.yaml of a small deck that validates."""
    return {f: render(f"scaffold/ecologies/{f}.j2", **context)
            for f in ("deck.yaml", "biomes.yaml", "organisms.yaml", "factors.yaml")}


def scaffold_expansion(base: EcologiesDeck, context: dict) -> tuple[dict, str]:
    """An expansion built on a biome of base that can be healthy: new cards eating its witness web, and
    an override raising one card's VP."""
    biome, witness = next(((code, w) for code in base.biome_codes if (w := find_witness(base, code)) is not None),
                          (None, None))
    if witness is None:
        raise UsageError(f"base deck {context['base_path']} has no biome that can be healthy to build on")
    example = base.card(witness["C3"])
    extra = dict(biome=biome, prey=[witness["C3"], witness["C2"]], example_id=example.id, example_field="vp",
                 example_value=f'"{format_vp(example.vp + 1)}"', select_by="id, tag, kind or biome",
                 include_example="{kinds: [biome, organism]}")
    return extra, render("scaffold/expansion/ecologies-cards.yaml.j2", **{**context, **extra})
