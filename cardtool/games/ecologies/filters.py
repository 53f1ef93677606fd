"""Effect filters naming biomes that a deck leaves out: dropped like an organism's biomes (links.restrict).

One rule for every reference to a biome the deck does not have (excluded from the base, or the base's own
when an expansion is taken alone): the code is dropped, from an organism's `biomes` and from an effect's
`filter: {biomes: ...}` alike. A card left with nothing to apply to goes: an organism with no biome, or a
card whose effect's filter named only such biomes (it could never apply). That is a `left-out` note in a
combined deck and a `needs-base` error when an expansion is taken alone (not a stand-alone game).
"""

from __future__ import annotations

from cardtool.deck.source import CardEntry, DeckSource
from cardtool.issues import Report


def _effects_at(data: dict) -> tuple[tuple, list]:
    if isinstance(data.get("effects"), list):
        return ("effects",), data["effects"]
    bonus = data.get("bonus")
    if isinstance(bonus, dict) and isinstance(bonus.get("effects"), list):
        return ("bonus", "effects"), bonus["effects"]
    return (), []


def drop_filter_codes(source: DeckSource, lost_codes: set[str], report: Report) -> set[str]:
    """Drop lost biome codes from every effect filter; returns the ids of cards that had to go."""
    gone: set[str] = set()
    if not lost_codes:
        return gone
    for entry in list(source.cards.values()):
        where, effects = _effects_at(entry.data)
        new_effects, emptied = [], None
        for index, effect in enumerate(effects):
            codes = (effect.get("filter") or {}).get("biomes") if isinstance(effect, dict) else None
            if not isinstance(codes, list) or not set(codes) & lost_codes:
                new_effects.append(effect)
                continue
            kept = [code for code in codes if code not in lost_codes]
            if not kept:
                emptied = (index, codes)
                break
            new_effects.append({**effect, "filter": {**effect["filter"], "biomes": kept}})
        if emptied is not None:
            index, codes = emptied
            _leave_out(source, entry, where + (index, "filter", "biomes"), codes, report)
            gone.add(entry.id)
        elif new_effects != effects:
            data = dict(entry.data)
            if where == ("effects",):
                data["effects"] = new_effects
            else:
                data["bonus"] = {**data["bonus"], "effects": new_effects}
            source.cards[entry.id] = CardEntry(entry.id, entry.kind, data, entry.doc, entry.path, dict(entry.moved))
    return gone


def _leave_out(source: DeckSource, entry: CardEntry, fields: tuple, codes: list, report: Report) -> None:
    named = "/".join(codes)
    where = dict(location=entry.locate(*fields), card=entry.id, path=entry.path + fields)
    if source.standalone:
        report.error("needs-base", f"cannot be played without the base deck: its effect applies only in {named}, "
                     "a biome of the base", **where,
                     hint="add one of the expansion's own biomes to the filter, or play it combined with its base")
    else:
        report.note("left-out", f"left out: its effect applies only in {named}, biome(s) left out", **where)
    del source.cards[entry.id]
    source.origins.pop(entry.id, None)
