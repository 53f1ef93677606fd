"""The explicit registry of card renderers, one per game: adding a game adds one line here."""

from __future__ import annotations

from typing import Protocol

from cardtool.deck.model import Card, Deck
from cardtool.render.context import Face
from cardtool.render.ecologies import EcologiesFaces
from cardtool.render.ecologies_rulebook import EcologiesRulebook
from cardtool.render.symbiosis import SymbiosisFaces
from cardtool.render.symbiosis_rulebook import SymbiosisRulebook


class Faces(Protocol):
    """What printing needs from a game: each card's front and back faces and the cards' stylesheet."""

    game: str
    stylesheet: str  # template path of the CSS shared by the game's card templates

    def front(self, card: Card) -> Face: ...

    def back(self, card: Card) -> Face: ...


class RulebookParts(Protocol):
    """What a rulebook needs from a game, all computed from the deck's data."""

    def components(self):
        """The component list: a line ('108 cards: 77 organisms, ...') and rows of counts."""

    def reference(self) -> list:
        """Reference chapters after the prose, as (title, HTML)."""

    def directives(self) -> dict:
        """`cardtool:NAME` blocks the prose may use: name -> handler(args, body, folder, where) -> HTML."""


RENDERERS = {"ecologies": EcologiesFaces, "symbiosis": SymbiosisFaces}
RULEBOOKS = {"ecologies": EcologiesRulebook, "symbiosis": SymbiosisRulebook}


def faces_of(deck: Deck) -> Faces:
    """The face builder for a deck's game."""
    return RENDERERS[deck.game](deck)


def rulebook_parts_of(deck: Deck) -> RulebookParts:
    """The generated rulebook parts for a deck's game."""
    return RULEBOOKS[deck.game](deck)
