"""Turning schema-valid Ecologies YAML into frozen definitions."""

from __future__ import annotations

from cardtool.deck.source import DeckSource
from cardtool.games.ecologies.model import Biome, EcologiesDeck, Effect, Factor, Filter, Organism, parse_vp


def effect_from(data: dict) -> Effect:
    filter_data = data.get("filter")
    flt = None
    if filter_data:
        flt = Filter(
            kind=tuple(filter_data.get("kind", ())), roles=tuple(filter_data.get("roles", ())),
            acting=tuple(filter_data.get("acting", ())), biomes=tuple(filter_data.get("biomes", ())),
            owner=filter_data.get("owner", "any"))
    target = data.get("target", "you")
    opponents = target in ("opponent", "random_opponent", "each_opponent")
    return Effect(
        trigger=data["trigger"], action=data["action"], target=target, amount=data.get("amount", 1),
        every=data.get("every", 1), filter=flt,
        multiplayer_only=data.get("multiplayer_only", opponents) or opponents)


def _common(data: dict) -> dict:
    return dict(id=data["id"], kind=data["kind"], name=data["name"], count=data.get("count", 1),
                flavor=data.get("flavor", ""), art=data.get("art"), tags=tuple(data.get("tags", ())),
                source=data.get("source", ""))


def card_from(data: dict):
    kind = data["kind"]
    if kind == "biome":
        bonus = data["bonus"]
        return Biome(**_common(data), code=data["code"], colour=data["colour"],
                     bonus=tuple(effect_from(e) for e in bonus["effects"]), bonus_text=bonus.get("text"),
                     bonus_source=bonus.get("source", ""))
    if kind == "organism":
        return Organism(**_common(data), biomes=tuple(data["biomes"]), roles=tuple(data["roles"]),
                        vp=parse_vp(data["vp"]), eats=tuple(data["eats"]), eaten_by=tuple(data["eaten_by"]),
                        scientific_name=data.get("scientific_name", ""))
    return Factor(**_common(data), factor=data["factor"], placement=data["placement"],
                  effects=tuple(effect_from(e) for e in data["effects"]), text=data.get("text"))


def build(source: DeckSource) -> EcologiesDeck:
    cards = tuple(card_from(entry.data) for entry in source.cards.values())
    codes = tuple(dict.fromkeys(c.code for c in cards if isinstance(c, Biome)))
    return EcologiesDeck(manifest=source.manifest, cards=cards, biome_codes=codes)
