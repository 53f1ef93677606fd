"""Ecologies' part of `cardtool diff`: food-web links gained and lost, and biomes whose healthy web
(the witness the food-web checks find) changed."""

from __future__ import annotations

from fractions import Fraction

from cardtool.games.ecologies.model import EcologiesDeck, format_vp
from cardtool.games.ecologies.webs import find_witness
from cardtool.games.plugin import DiffSection


def show_value(value: object) -> str | None:
    """VP written as on the cards (1/2 as ½)."""
    return format_vp(value) if isinstance(value, Fraction) else None


def diff_sections(old: EcologiesDeck, new: EcologiesDeck) -> list[DiffSection]:
    """The food-web links section and the healthy-webs section (each always present in JSON)."""
    links_old = {(prey, o.id) for o in old.organisms for prey in o.eats}
    links_new = {(prey, o.id) for o in new.organisms for prey in o.eats}
    gained, lost = sorted(links_new - links_old), sorted(links_old - links_new)
    witnesses = []
    for code in dict.fromkeys(old.biome_codes + new.biome_codes):
        before = find_witness(old, code) if code in old.biome_codes else None
        after = find_witness(new, code) if code in new.biome_codes else None
        if before != after:
            witnesses.append((code, before, after))
    links = DiffSection(
        "Food-web links",
        tuple([f"- gained: `{pred}` eats `{prey}`" for prey, pred in gained]
              + [f"- lost: `{pred}` no longer eats `{prey}`" for prey, pred in lost]),
        {"links_gained": [{"prey": p, "predator": q} for p, q in gained],
         "links_lost": [{"prey": p, "predator": q} for p, q in lost]})
    webs = DiffSection(
        "Biomes whose healthy web changed",
        tuple(f"- {code}: {_witness(before, code in old.biome_codes, 'old')} → "
              f"{_witness(after, code in new.biome_codes, 'new')}" for code, before, after in witnesses),
        {"witnesses": [{"biome": code, "old": before, "new": after,
                        "status": _status(code in old.biome_codes, code in new.biome_codes)}
                       for code, before, after in witnesses]})
    return [links, webs]


def _status(in_old: bool, in_new: bool) -> str:
    """added (a new biome), removed, or changed."""
    return "added" if not in_old else "removed" if not in_new else "changed"


def _witness(witness: dict | None, present: bool, side: str) -> str:
    if not present:  # a biome the deck did not (or no longer does) have: no web to speak of
        return "(new biome)" if side == "old" else "(biome removed)"
    if witness is None:
        return "cannot be healthy"
    return ", ".join(f"{role} {oid}" for role, oid in witness.items())
