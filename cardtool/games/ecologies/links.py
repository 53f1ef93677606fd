"""How Ecologies cards hold together when an expansion adds cards or leaves base cards out."""

from __future__ import annotations

from collections.abc import Mapping

from cardtool.deck.source import CardEntry, DeckSource
from cardtool.games.ecologies.filters import drop_filter_codes
from cardtool.issues import Report


def _edit(source: DeckSource, entry: CardEntry, **fields) -> None:
    """Replace some fields of a card's data without touching the data other sources share."""
    source.cards[entry.id] = CardEntry(entry.id, entry.kind, {**entry.data, **fields}, entry.doc, entry.path,
                                       dict(entry.moved))


def restrict(source: DeckSource, dropped: Mapping[str, CardEntry], report: Report) -> None:
    """Drop references to cards left out, and the biome codes of biome cards left out.

    An organism left with no biome goes too: a note in a combined deck, an error when an expansion is
    taken alone (it cannot be played without its base).
    """
    lost_codes = {e.data["code"] for e in dropped.values() if e.kind == "biome"}
    lost_codes -= {e.data["code"] for e in source.cards.values() if e.kind == "biome"}
    gone_ids = set(dropped) | drop_filter_codes(source, lost_codes, report)  # effects' biomes too (filters.py)
    while True:
        gone = []
        for entry in list(source.cards.values()):
            if entry.kind != "organism":
                continue
            biomes = [c for c in entry.data["biomes"] if c not in lost_codes]
            eats = [c for c in entry.data["eats"] if c not in gone_ids]
            eaten_by = [c for c in entry.data["eaten_by"] if c not in gone_ids]
            if not biomes:
                gone.append(entry)
            elif (biomes, eats, eaten_by) != (entry.data["biomes"], entry.data["eats"], entry.data["eaten_by"]):
                _edit(source, entry, biomes=biomes, eats=eats, eaten_by=eaten_by)
        if not gone:
            return
        for entry in gone:
            codes = "/".join(entry.data["biomes"])
            where = dict(location=entry.locate("biomes"), card=entry.id)
            if source.standalone:
                report.error("needs-base", f"cannot be played without the base deck: it lives only in {codes}, "
                             "a biome of the base", **where)
            else:
                report.note("left-out", f"left out with its only biome(s) {codes}", **where)
            del source.cards[entry.id]
            source.origins.pop(entry.id, None)
            gone_ids.add(entry.id)


def link(source: DeckSource, added: set[str]) -> None:
    """Complete on the base side each link an expansion's organisms declare to base organisms."""
    for cid in sorted(added):
        entry = source.cards.get(cid)
        if entry is None or entry.kind != "organism":
            continue
        for field, reverse in (("eats", "eaten_by"), ("eaten_by", "eats")):
            for other_id in entry.data[field]:
                other = source.cards.get(other_id)
                if other is None or other_id in added or other.kind != "organism":
                    continue
                if cid not in other.data[reverse]:
                    _edit(source, other, **{reverse: [*other.data[reverse], cid]})
