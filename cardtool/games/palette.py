"""The optional palette capability of a game plugin (beside those of cardtool.games.plugin, which is full):
the colours its players must tell apart, for validate's colour-vision check and the build's palette
(cardtool.render.colour_vision). Who may import it: any layer and any game package; it imports nothing of
cardtool at run time."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from cardtool.deck.model import Deck
    from cardtool.deck.source import DeckSource


@dataclass(frozen=True)
class PaletteColour:
    """A colour players must tell from the others of its group, and where the deck declares it."""

    group: str  # colours compared with each other, e.g. "biomes"
    name: str  # as players call it, e.g. "VER Vernal Pool"
    colour: str  # "#rrggbb"
    location: Any = None  # cardtool.issues.Location of the field declaring it (None without a source)
    card: str | None = None  # the card declaring it, if a card does
    path: tuple = ()  # the field's path inside that card, e.g. ("colour",)


@runtime_checkable
class HasPalette(Protocol):
    """A game whose cards tell things apart by colour (Ecologies: biomes; Symbiosis: Seasons)."""

    def palette(self, deck: Deck, source: DeckSource | None = None) -> Sequence[PaletteColour]:
        """The colours players must tell apart, located in source when it is given."""
