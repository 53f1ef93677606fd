"""Symbiosis card faces as typed contexts: the Animal in front, the Season's colour behind, the scoring
rule at the bottom, with the same wording the scoring engine uses."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from cardtool.deck.printing import back_of, floors_of
from cardtool.games.symbiosis.model import SymbiosisCard, SymbiosisDeck
from cardtool.render.bases import back_source
from cardtool.render.context import (Face, FaceText, TextField, art_url, back_template, deck_roots, icon_url, ink_on,
                                     mix, picture_url, words)

# Rule and hint are gameplay text (>= 6 pt). Boxes (em, poker card) follow symbiosis/cards.css.
CARD_FIELDS = (TextField("name", 10.0, 6.5, box=(15.4, 2.1)), TextField("rule", 7.0, 6.0, box=(14.9, 2.65)))
BACK_FIELDS = (TextField("title", 18.0, 9.0, "label", box=(16.8, 2.3), one_line=True, spacing=0.08),)
VARIABLE_HINT = "Side column: your neighbour's pond. Middle: your own pond."


@dataclass(frozen=True)
class Mark:
    """An Animal or a Season as drawn: name, icon, and for a Season its colour."""

    id: str
    name: str
    icon: str
    colour: str = ""
    colour_name: str = ""
    ink: str = "#1b1b1b"


@dataclass(frozen=True)
class Rule:
    """The scoring rule at the bottom: fixed points, or points per Animal or Season counted."""

    variable: bool
    points: int
    per: Mark | None  # what a variable card counts
    text: str  # "3 points", "2 per Frog", "2 per pink (Spring) card"
    hint: str


@dataclass(frozen=True)
class SymbiosisFront:
    id: str
    name: str
    animal: Mark
    season: Mark
    rule: Rule
    art: str | None
    paper: str  # a light tint of the Season for the panels
    flavor: str
    icons: dict = field(default_factory=dict, compare=False, repr=False)  # token -> icon, for the `icons` filter


@dataclass(frozen=True)
class SymbiosisBack:
    """The back: a pond seen from above, with the Season colours (symbiosis/back.svg.j2)."""

    title: str
    colours: tuple[str, ...]

    def image(self, frame) -> str:
        return picture_url("symbiosis/back.svg.j2", frame, back=self)


class SymbiosisFaces:
    """Builds every Symbiosis face of a deck."""

    game = "symbiosis"
    stylesheet = "symbiosis/cards.css"

    def __init__(self, deck: SymbiosisDeck):
        self.deck = deck
        self.root = deck_roots(deck)  # art and icons may come from the deck or its bases
        self.floors = floors_of(deck.manifest)  # the smallest text it allows (deck.yaml print:)
        self.animals = {a.id: Mark(a.id, a.name, self._icon(f"animals/{a.id}.svg", "animals/generic.svg"))
                        for a in deck.animals}
        self.plurals = {a.id: a.plural_name for a in deck.animals}
        self.seasons = {s.id: Mark(s.id, s.name, self._icon(f"seasons/{s.id}.svg", "seasons/generic.svg"),
                                   s.colour, s.colour_name, ink_on(s.colour)) for s in deck.seasons}
        self._back: SymbiosisBack | None = None
        self._back_title = None

    @cached_property
    def icons(self) -> dict:
        """Inline icon tokens (`:frog:`, `:spring:`) for the `icons` filter, found once per deck."""
        from cardtool.render.icon_links import icon_urls

        return icon_urls(self.deck)

    def _icon(self, *names: str) -> str:
        return icon_url(*names, deck_root=self.root)

    def rule(self, card: SymbiosisCard) -> Rule:
        scoring = card.scoring
        if scoring.rule == "per_animal":
            per = self.animals[scoring.animal]
            return Rule(True, scoring.points, per, f"{scoring.points} per {per.name}", VARIABLE_HINT)
        if scoring.rule == "per_season":
            per = self.seasons[scoring.season]
            colour = f"{per.colour_name} ({per.name})" if per.colour_name else per.name
            return Rule(True, scoring.points, per, f"{scoring.points} per {colour} card", VARIABLE_HINT)
        points = "point" if scoring.points == 1 else "points"
        return Rule(False, scoring.points, None, f"{scoring.points} {points}", "Scores the same in any column.")

    def front(self, card: SymbiosisCard) -> Face:
        season = self.seasons[card.season]
        context = SymbiosisFront(
            id=card.id, name=card.name, animal=self.animals[card.animal], season=season, rule=self.rule(card),
            art=art_url(self.root, card.art, card.id), paper=mix(season.colour, "#ffffff", 0.75),
            flavor=card.flavor, icons=self.icons)
        return Face(card.id, "front", "symbiosis/card.html.j2", context, CARD_FIELDS, card.count, card.name,
                    floors=self.floors)

    def back(self, card: SymbiosisCard) -> Face:
        template, key = back_template(self.game, card.kind)
        if self._back is None:  # an expansion's is its base game's unless it declares its own
            source = back_source(self.deck)
            back = back_of(source.manifest)
            title = f"{back.title}: {back.subtitle}" if back.subtitle else back.title
            self._back = SymbiosisBack(title, tuple(s.colour for s in source.seasons))
        return Face(key, "back", template, self._back, BACK_FIELDS, 1, "Back", floors=self.floors)

    # -- text only, as the templates print it (for validate's fitting estimate: no pictures drawn) --------
    def _back_words(self):
        if self._back_title is None:  # the deck whose back this one prints is loaded once
            self._back_title = back_of(back_source(self.deck).manifest)
        return self._back_title

    def front_text(self, card: SymbiosisCard) -> FaceText:
        rule = self.rule(card)
        return FaceText(card.id, "front", CARD_FIELDS, self.floors,
                        {"name": [words(card.name)], "rule": [words(rule.text), words(rule.hint)]})

    def back_text(self, card: SymbiosisCard) -> FaceText:
        back = self._back_words()
        title = f"{back.title}: {back.subtitle}" if back.subtitle else back.title
        return FaceText("back", "back", BACK_FIELDS, self.floors, {"title": [words(title)]})  # same words on every kind

    def faces(self) -> list[tuple[Face, Face]]:
        return [(self.front(card), self.back(card)) for card in self.deck.cards]
