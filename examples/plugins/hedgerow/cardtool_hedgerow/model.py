"""Frozen definitions of Hedgerow: Habitats, Plant and Visitor cards, and the deck's numeric card table.

The engine holds card numbers (indexes into `CardTable.cards`), never definitions; the table keeps each
card's kind, habitat and points as plain tuples so scoring is a few lookups.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardtool.deck.model import Card, Deck
from cardtool.errors import UnknownCardError
from cardtool.suggest import did_you_mean

PLANT, VISITOR = "plant", "visitor"
KINDS = (PLANT, VISITOR)


@dataclass(frozen=True, kw_only=True)
class Habitat:
    """A part of the hedgerow (Blossom, Berry, ...): its colour, and the bonus for the most plants of it."""

    id: str
    name: str
    colour: str
    bonus: int = 0


@dataclass(frozen=True, kw_only=True)
class HedgerowCard(Card):
    """A Plant (fixed points, counts for its Habitat) or a Visitor (points per Plant of its Habitat)."""

    habitat: str
    points: int
    flavor: str = ""
    art: str | None = None
    tags: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class HedgerowDeck(Deck):
    """A Hedgerow deck with its Habitats."""

    habitats: tuple[Habitat, ...] = ()

    def habitat(self, habitat_id: str) -> Habitat:
        return next(h for h in self.habitats if h.id == habitat_id)


@dataclass(frozen=True)
class CardTable:
    """The deck's cards numbered 0..n-1 with their kind, habitat number and points."""

    deck: HedgerowDeck
    cards: tuple[HedgerowCard, ...]
    index: dict  # card id -> card number
    habitats: tuple[Habitat, ...]
    is_plant: tuple[bool, ...]  # per card number
    habitat: tuple[int, ...]  # per card number: index into habitats
    points: tuple[int, ...]  # per card number: a Plant's points, or a Visitor's points per Plant
    copies: tuple[int, ...]  # per card number

    @classmethod
    def of(cls, deck: HedgerowDeck) -> "CardTable":
        habitat_index = {h.id: i for i, h in enumerate(deck.habitats)}
        cards = tuple(deck.cards)
        return cls(deck=deck, cards=cards, index={c.id: n for n, c in enumerate(cards)}, habitats=deck.habitats,
                   is_plant=tuple(c.kind == PLANT for c in cards),
                   habitat=tuple(habitat_index[c.habitat] for c in cards),
                   points=tuple(c.points for c in cards), copies=tuple(c.count for c in cards))

    def physical(self) -> list[int]:
        """Card numbers with one entry per physical copy, in deck order."""
        return [number for number, count in enumerate(self.copies) for _ in range(count)]

    def number(self, card_id: str) -> int:
        """The number of a card id, or UnknownCardError with a suggestion."""
        try:
            return self.index[card_id]
        except KeyError:
            hint = did_you_mean(card_id, self.index)
            raise UnknownCardError(f"no card '{card_id}' in the deck" + (f"; {hint}" if hint else "")) from None

    def rule_text(self, number: int) -> str:
        """What a card scores, as the rules say it: '3 points' or '2 per Berry plant'."""
        points, habitat = self.points[number], self.habitats[self.habitat[number]]
        if self.is_plant[number]:
            return f"{points} point{'s' if points != 1 else ''}"
        return f"{points} per {habitat.name} plant"

    def label(self, number: int) -> str:
        """A card for people: 'Hawthorn (Blossom plant: 3 points)'."""
        card = self.cards[number]
        habitat = self.habitats[self.habitat[number]].name
        return f"{card.name} ({habitat} {card.kind}: {self.rule_text(number)})"
