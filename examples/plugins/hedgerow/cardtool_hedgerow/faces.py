"""Hedgerow card faces as typed contexts (templates/card.html.j2 and back.html.j2, mounted as
"hedgerow/..."): the Habitat's colour, the name, Plant or Visitor, the points and the rule in words,
with the same wording the scoring uses (CardTable.rule_text)."""

from __future__ import annotations

from dataclasses import dataclass

from cardtool.render.context import Face, TextField, art_url, deck_roots, initials, ink_on, mix, placeholder_url
from cardtool_hedgerow.model import PLANT, CardTable, HedgerowCard, HedgerowDeck

CARD_FIELDS = (TextField("name", 10.0, 6.5), TextField("rule", 8.0, 5.5), TextField("flavor", 7.0, 5.0))
HINTS = {PLANT: "Counts as a Plant of its Habitat.", "visitor": "Counts the Plants of its Habitat in your hedgerow."}


@dataclass(frozen=True)
class HedgerowFront:
    """What a card's front shows."""

    id: str
    name: str
    kind: str  # "Plant" or "Visitor"
    habitat: str
    colour: str  # the Habitat's colour
    ink: str  # black or white, whichever reads on the colour
    paper: str  # a light tint of the colour for the panels
    points: int
    per_plant: bool  # a Visitor: points per Plant
    rule: str  # "3 points" / "2 per Berry plant"
    hint: str
    flavor: str
    art: str | None
    placeholder: str  # the pattern drawn where there is no art
    initials: str


@dataclass(frozen=True)
class HedgerowBack:
    """The back every card shares: the deck's name over the Habitat colours."""

    title: str
    colours: tuple[str, ...]


class HedgerowFaces:
    """Builds every Hedgerow face of a deck (cardtool.games.plugin.Faces)."""

    game = "hedgerow"
    stylesheet = "hedgerow/cards.css"

    def __init__(self, deck: HedgerowDeck):
        self.deck, self.table = deck, CardTable.of(deck)
        self.root = deck_roots(deck)

    def front(self, card: HedgerowCard) -> Face:
        number = self.table.index[card.id]
        habitat = self.deck.habitat(card.habitat)
        ink = ink_on(habitat.colour)
        context = HedgerowFront(
            id=card.id, name=card.name, kind=card.kind.capitalize(), habitat=habitat.name, colour=habitat.colour,
            ink=ink, paper=mix(habitat.colour, "#ffffff", 0.8), points=card.points, per_plant=card.kind != PLANT,
            rule=self.table.rule_text(number), hint=HINTS[card.kind], flavor=card.flavor,
            art=art_url(self.root, card.art, card.id), placeholder=placeholder_url(habitat.colour, ink),
            initials=initials(card.name))
        return Face(card.id, "front", "hedgerow/card.html.j2", context, CARD_FIELDS, card.count, card.name)

    def back(self, card: HedgerowCard) -> Face:
        context = HedgerowBack(self.deck.manifest.name, tuple(h.colour for h in self.deck.habitats))
        return Face("back", "back", "hedgerow/back.html.j2", context, (), 1, "Back")
