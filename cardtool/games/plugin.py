"""The small protocol every game package implements, so deck tools need no game-specific code."""

from __future__ import annotations

from typing import Protocol

from cardtool.deck.model import Deck
from cardtool.deck.source import DeckSource
from cardtool.report import Report


class GamePlugin(Protocol):
    """What the deck tools need from a game: its schema, its checks, its model and its summary."""

    name: str  # the `game:` value in deck.yaml
    title: str  # shown to people
    card_schema: str  # path under schemas/ of the schema every card file follows
    default_kind: str  # the kind of a card that does not say one

    def check_source(self, source: DeckSource, report: Report) -> None:
        """Cross-card checks on schema-valid data (references, counts), as located issues."""

    def build(self, source: DeckSource) -> Deck:
        """The frozen deck model; called only when the source has no errors."""

    def check_deck(self, deck: Deck, source: DeckSource, report: Report) -> None:
        """Later-stage checks that need the model (food webs); run only on decks without errors."""

    def composition(self, deck: Deck) -> list[tuple[str, dict[str, int]]]:
        """Titled tables of counts (copies included) for `cardtool info`."""
