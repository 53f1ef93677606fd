"""Hedgerow scoring, as pure functions of the hedgerows on the table.

A Plant scores its points; a Visitor scores its points for each Plant of its Habitat in the same
hedgerow (Visitors are not Plants); for each Habitat, every player with the most Plants of it (at least
one) scores the Habitat's bonus, tied players each in full.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cardtool_hedgerow.model import CardTable


@dataclass(frozen=True)
class HedgerowScore:
    """One seat's points by source: its Plants, its Visitors, and the Habitat bonuses it won."""

    seat: int
    plants: int
    visitors: int
    bonuses: tuple[str, ...]  # ids of the Habitats whose bonus this seat scores
    bonus_points: int

    @property
    def total(self) -> int:
        return self.plants + self.visitors + self.bonus_points


def plant_counts(table: CardTable, hedgerow: Sequence[int]) -> list[int]:
    """Plants of each Habitat (by habitat number) in a hedgerow."""
    counts = [0] * len(table.habitats)
    for card in hedgerow:
        if table.is_plant[card]:
            counts[table.habitat[card]] += 1
    return counts


def score_table(table: CardTable, hedgerows: Sequence[Sequence[int]]) -> tuple[HedgerowScore, ...]:
    """Every seat's breakdown."""
    counts = [plant_counts(table, h) for h in hedgerows]
    most = [max(c[h] for c in counts) for h in range(len(table.habitats))]
    result = []
    for seat, hedgerow in enumerate(hedgerows):
        plants = sum(table.points[c] for c in hedgerow if table.is_plant[c])
        visitors = sum(table.points[c] * counts[seat][table.habitat[c]] for c in hedgerow if not table.is_plant[c])
        won = tuple(habitat.id for h, habitat in enumerate(table.habitats) if most[h] and counts[seat][h] == most[h])
        bonus = sum(table.habitats[h].bonus for h in range(len(table.habitats))
                    if most[h] and counts[seat][h] == most[h])
        result.append(HedgerowScore(seat, plants, visitors, won, bonus))
    return tuple(result)


def totals(table: CardTable, hedgerows: Sequence[Sequence[int]]) -> list[int]:
    """Every seat's score."""
    return [score.total for score in score_table(table, hedgerows)]


def winners(scores: Sequence[int]) -> list[int]:
    """The seats with the best score: a tie is a shared victory."""
    best = max(scores)
    return [seat for seat, score in enumerate(scores) if score == best]
