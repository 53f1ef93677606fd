"""The optional inline-icon capability of a game plugin: the tokens (`:P:`, `:VER:`, `:frog:`) that card
text and rulebook prose may write to show one of the game's icons inline (cardtool.render.icons draws
them and checks that every token written is known). Who may import it: any layer and any game package;
it imports nothing of cardtool at run time."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from cardtool.deck.model import Deck


@dataclass(frozen=True)
class IconToken:
    """What a token shows: the first icon found among names (paths under icons/, a deck's own first), and
    the words it stands for (the image's alternative text, and what a reader without images gets)."""

    names: tuple[str, ...]  # e.g. ("roles/P.svg",)
    text: str  # e.g. "producer (P)"
    background: str | None = None  # "#rrggbb" behind an icon drawn in white (Ecologies' glyphs), else None


@runtime_checkable
class HasIconTokens(Protocol):
    """A game whose text may show its icons inline."""

    def icon_tokens(self, deck: Deck) -> Mapping[str, IconToken]:
        """Token name (what goes between the colons) -> the icon it shows, for one deck."""
