"""Scoring, as pure functions: a pond's cards against the ponds its columns face.

Left-column cards count the pond their left column faces, the four middle cards count their own pond
(themselves included), right-column cards the pond their right column faces; fixed points score the
same anywhere. `score_pond` returns the breakdown per column and per card (for `cardtool score`, the
account of a game and the rulebook); `totals` is the fast path the engine and bots use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cardtool.games.symbiosis.layout import COLUMN_OF_SLOT, LEFT, MIDDLE, RIGHT, RIVER, SLOTS_OF_COLUMN
from cardtool.games.symbiosis.table import FIXED, CardTable


@dataclass(frozen=True)
class CardScore:
    """What one card scores: fixed points, or points per match times the matches counted."""

    slot: int
    card: int  # card number in the CardTable
    points: int
    per: int | None = None  # points per match, for a variable card
    matches: int | None = None  # cards counted in the pond its column faces


@dataclass(frozen=True)
class ColumnScore:
    """One column's cards and the pond (seat, or RIVER) its variable cards count."""

    column: str  # left, middle or right
    target: int
    cards: tuple[CardScore, ...]

    @property
    def total(self) -> int:
        return sum(card.points for card in self.cards)


@dataclass(frozen=True)
class PondScore:
    """A seat's pond scored column by column."""

    seat: int
    columns: tuple[ColumnScore, ...]  # left, middle, right

    @property
    def total(self) -> int:
        return sum(column.total for column in self.columns)


def column_targets(seat: int, faces: tuple[int, int]) -> dict[str, int]:
    """The pond each column of a seat counts: left and right as faced, the middle its own."""
    return {LEFT: faces[0], MIDDLE: seat, RIGHT: faces[1]}


def score_pond(table: CardTable, seat: int, ponds: Sequence[Sequence[int]], faces: tuple[int, int],
               river: Sequence[int] = ()) -> PondScore:
    """The breakdown of one seat's pond, given every pond (and the River, for a column facing it)."""
    pond = ponds[seat]
    columns = []
    for column, target in column_targets(seat, faces).items():
        counted = table.counts(river if target == RIVER else ponds[target])
        cards = []
        for slot in SLOTS_OF_COLUMN[column]:
            card = pond[slot]
            feature = table.counted[card]
            if feature == FIXED:
                cards.append(CardScore(slot, card, table.points[card]))
            else:
                per, matches = table.points[card], counted[feature]
                cards.append(CardScore(slot, card, per * matches, per, matches))
        columns.append(ColumnScore(column, target, tuple(cards)))
    return PondScore(seat, tuple(columns))


def score_table(table: CardTable, ponds: Sequence[Sequence[int]], faces: Sequence[tuple[int, int]],
                river: Sequence[int] = ()) -> tuple[PondScore, ...]:
    """Every seat's breakdown."""
    return tuple(score_pond(table, seat, ponds, faces[seat], river) for seat in range(len(ponds)))


def totals(table: CardTable, ponds: Sequence[Sequence[int]], faces: Sequence[tuple[int, int]],
           river: Sequence[int] = ()) -> list[int]:
    """Every seat's pond total, without building a breakdown (the engine's fast path)."""
    counts = [table.counts(pond) for pond in ponds]
    river_counts = table.counts(river)
    counted, points = table.counted, table.points
    result = []
    for seat, pond in enumerate(ponds):
        left, right = faces[seat]
        by_column = {LEFT: river_counts if left == RIVER else counts[left], MIDDLE: counts[seat],
                     RIGHT: river_counts if right == RIVER else counts[right]}
        total = 0
        for slot, card in enumerate(pond):
            feature = counted[card]
            total += points[card] if feature == FIXED else points[card] * by_column[COLUMN_OF_SLOT[slot]][feature]
        result.append(total)
    return result


def team_totals(pond_totals: Sequence[int], teams: Sequence[Sequence[int]]) -> list[int]:
    """Each team's points: its ponds added together."""
    return [sum(pond_totals[seat] for seat in team) for team in teams]


def winners(pond_totals: Sequence[int], teams: Sequence[Sequence[int]]) -> list[int]:
    """The seats of every team with the best total: a tie is a shared victory."""
    scores = team_totals(pond_totals, teams)
    best = max(scores)
    return sorted(seat for team, score in zip(teams, scores) if score == best for seat in team)
