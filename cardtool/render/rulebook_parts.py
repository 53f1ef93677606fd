"""What every game's rulebook parts share: the component list a rulebook opens with.

A game's own parts (cardtool.games.plugin.RulebookParts) build a Components from its deck; the
rulebook template (templates/rulebook/components.html.j2) shows it. Imports nothing of cardtool.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Components:
    """The component list: one line ('108 cards: 77 organisms, ...'), rows of counts, and notes."""

    line: str
    rows: tuple[tuple[str, int], ...]
    notes: tuple[str, ...] = ()


def count_line(total: int, counts: list[tuple[str, int]]) -> str:
    """'108 cards: 77 organisms, 21 biomes, 10 factor cards'."""
    return f"{total} cards: " + ", ".join(f"{n} {label}" for label, n in counts)
