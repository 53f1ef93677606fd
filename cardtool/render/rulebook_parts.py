"""What every game's rulebook parts share: the component list a rulebook opens with (and an insert's).

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


def reprint_note(names: list[str]) -> tuple[str, ...]:
    """An insert's component note on the base cards it reprints (none: no note)."""
    if not names:
        return ()
    several = len(names) != 1
    return (f"also {len(names)} reprinted base card{'s' if several else ''}, to replace {'their' if several else 'its'} "
            f"old print{'s' if several else ''}: " + ", ".join(names),)
