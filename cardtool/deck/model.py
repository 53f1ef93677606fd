"""Game-neutral frozen definitions: a deck's manifest, its cards, and the deck itself."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from cardtool.errors import UnknownCardError
from cardtool.suggest import did_you_mean


@dataclass(frozen=True)
class Manifest:
    """What deck.yaml says about a deck."""

    id: str
    name: str
    version: str
    game: str
    card_files: tuple[str, ...]
    root: Path
    extends: tuple[str, ...] = ()
    description: str = ""
    authors: tuple[str, ...] = ()
    include: Mapping | None = None  # selector over base cards (expansions)
    exclude: Mapping | None = None
    overrides: tuple[Mapping, ...] = ()
    #: The rulebook's Markdown sections (paths); a combined expansion lists its bases' sections first.
    rulebook: tuple[Path, ...] = ()
    #: deck.yaml `print:` (back, text floors: deck/printing.py); an expansion's carries its base's back.
    print: Mapping | None = None
    #: deck.yaml `rules:` (option name -> {choice, source, why}), read by the game; an expansion's
    #: carries its base's options under its own.
    rules: Mapping | None = None

    def rule(self, name: str) -> str | None:
        """The choice deck.yaml makes for a rule option, or None (the game's rulebook rule)."""
        option = (self.rules or {}).get(name)
        return option.get("choice") if isinstance(option, Mapping) else None

    @property
    def is_expansion(self) -> bool:
        return bool(self.extends)


@dataclass(frozen=True)
class Override:
    """One field of a base card changed by an expansion's `overrides:`."""

    card: str
    field: str
    old: object
    new: object

    @staticmethod
    def brief(value: object, width: int = 60) -> str:
        """A value short enough for one line of a report."""
        text = repr(value)
        return text if len(text) <= width else text[: width - 1] + "…"

    def __str__(self) -> str:
        return f"{self.card}.{self.field}: {self.brief(self.old)} -> {self.brief(self.new)}"


@dataclass(frozen=True)
class Card:
    """What every card definition has; each game adds its own fields in a subclass."""

    id: str
    kind: str
    name: str
    count: int


@dataclass(frozen=True)
class Deck:
    """A validated deck: its manifest and card definitions (one per id, with a copy count)."""

    manifest: Manifest
    cards: tuple[Card, ...]
    #: Which deck defines each card (card id -> deck id); an expansion's cards and its bases' differ.
    origins: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    overrides: tuple[Override, ...] = ()
    bases: tuple[str, ...] = ()  # ids of the base decks this deck was combined with
    left_out: tuple[str, ...] = ()  # base card ids that include/exclude left out
    standalone: bool = False  # an expansion taken alone, without its bases
    #: The real folders the deck may name files in: its own, then its bases' (deck/containment.py).
    roots: tuple[Path, ...] = ()

    def own_cards(self) -> tuple[Card, ...]:
        """The cards this deck defines itself (all of them for a deck that extends nothing)."""
        return tuple(c for c in self.cards if self.origins.get(c.id, self.manifest.id) == self.manifest.id)

    @property
    def game(self) -> str:
        return self.manifest.game

    @property
    def size(self) -> int:
        """Physical cards in the deck, copies included."""
        return sum(card.count for card in self.cards)

    def card(self, card_id: str) -> Card:
        """The definition with this id, or UnknownCardError with a suggestion."""
        for card in self.cards:
            if card.id == card_id:
                return card
        hint = did_you_mean(card_id, (c.id for c in self.cards))
        raise UnknownCardError(f"deck '{self.manifest.id}' has no card '{card_id}'" + (f"; {hint}" if hint else ""))

    def of_kind(self, kind: str) -> tuple[Card, ...]:
        return tuple(card for card in self.cards if card.kind == kind)

    def copies(self) -> list[str]:
        """Card ids with one entry per physical copy, in deck order."""
        return [card.id for card in self.cards for _ in range(card.count)]
