"""Hedgerow's part of `cardtool diff`: Habitats added, removed or changed, and what each Habitat's
Plants are worth in all (the sum a designer balances Habitats by)."""

from __future__ import annotations

import dataclasses

from cardtool.games.plugin import DiffSection
from cardtool_hedgerow.model import PLANT, HedgerowDeck


def plant_points(deck: HedgerowDeck) -> dict[str, int]:
    """Habitat id -> the points of all its Plants, copies counted."""
    totals = {h.id: 0 for h in deck.habitats}
    for card in deck.cards:
        if card.kind == PLANT:
            totals[card.habitat] = totals.get(card.habitat, 0) + card.points * card.count
    return totals


def diff_sections(old: HedgerowDeck, new: HedgerowDeck) -> list[DiffSection]:
    before = {h.id: h for h in old.habitats}
    after = {h.id: h for h in new.habitats}
    lines, changed = [], []
    for hid in sorted(after.keys() - before.keys()):
        lines.append(f"- added Habitat `{hid}` ({after[hid].name}, bonus {after[hid].bonus})")
    for hid in sorted(before.keys() - after.keys()):
        lines.append(f"- removed Habitat `{hid}`")
    for hid in sorted(before.keys() & after.keys()):
        for field in dataclasses.fields(after[hid]):
            was, now = getattr(before[hid], field.name), getattr(after[hid], field.name)
            if was != now:
                lines.append(f"- `{hid}` {field.name}: {was} -> {now}")
                changed.append({"habitat": hid, "field": field.name, "old": was, "new": now})
    points_old, points_new = plant_points(old), plant_points(new)
    moved = {hid: (points_old.get(hid, 0), points_new.get(hid, 0)) for hid in {*points_old, *points_new}
             if points_old.get(hid, 0) != points_new.get(hid, 0)}
    lines += [f"- `{hid}` Plants worth {was} -> {now} points in all" for hid, (was, now) in sorted(moved.items())]
    return [DiffSection("Habitats", tuple(lines),
                        {"habitats_added": sorted(after.keys() - before.keys()),
                         "habitats_removed": sorted(before.keys() - after.keys()), "habitats_changed": changed,
                         "plant_points": {hid: {"old": was, "new": now} for hid, (was, now) in sorted(moved.items())}})]
