"""Ecologies card faces as typed contexts: what each organism, biome and factor card shows.

Everything a template prints is decided here (names of prey and predators, VP as a fraction, bonus and
effect text generated from the effect data when the YAML has no `text`); templates only lay it out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

from cardtool.deck.printing import back_of, floors_of
from cardtool.games.ecologies.model import HEALTHY_ROLES, Biome, EcologiesDeck, Factor, Organism, format_vp
from cardtool.render.bases import back_source
from cardtool.render.context import (Face, FaceText, TextField, art_url, back_template, deck_roots, icon_url, initials, ink_on,
                                     mix, picture_url, placeholder_url, words)
from cardtool.games.ecologies.render.effect_text import ROLE_NAMES, EffectText

ROLE_COLOURS = {"P": "#3f8f3a", "C1": "#c9a227", "C2": "#d9772b", "C3": "#c0392b", "C4": "#7b3f98",
                "SD": "#7a5a3a"}
FACTOR_COLOURS = {"biotic": "#2f7d5b", "abiotic": "#3d6e9e"}
PLACEMENT = {
    "web": "Place on a food web",
    "table": "Keep in front of you",
    "discard": "Play once, then discard",
}
KIND_TITLES = {"organism": "Organism", "biome": "Biome", "factor": "Factor"}

# Fields shrink to fit down to the larger of their layout's minimum and the deck's floor for their kind
# (deck/printing.py: 6 pt gameplay text, 5 pt labels); 7 pt names keep the scientific name (0.8 em) at 5.6.
# Boxes (em, poker card) follow ecologies/cards.css: a trim of 18 x 25.2 em less each panel's insets.
ORGANISM_FIELDS = (TextField("name", 9.0, 7.0, box=(15.5, 2.75)), TextField("text", 6.6, 6.0, box=(15.3, 8.0)))
BIOME_FIELDS = (TextField("name", 13.0, 8.0, box=(16.3, 2.9)), TextField("bonus", 9.2, 6.0, box=(15.2, 5.2)),
                TextField("flavor", 6.4, 5.0, "label", box=(16.0, 2.55)))
FACTOR_FIELDS = (TextField("name", 10.5, 7.0, box=(15.5, 2.65)), TextField("text", 8.4, 6.0, box=(15.2, 5.55)),
                 TextField("flavor", 6.4, 5.0, "label", box=(16.0, 2.55)))
BACK_FIELDS = (TextField("title", 17.0, 9.0, "label", box=(16.9, 2.1), one_line=True, spacing=0.08),
               TextField("subtitle", 8.5, 5.0, "label", box=(16.9, 1.0), one_line=True, spacing=0.25))


@dataclass(frozen=True)
class VP:
    """Victory points as printed: a whole part and a fraction ('1 1/2' is whole 1, fraction 1/2)."""

    whole: str
    numerator: str
    denominator: str
    text: str

    @classmethod
    def of(cls, vp: Fraction) -> "VP":
        whole, rest = divmod(vp.numerator, vp.denominator)
        if rest == 0:
            return cls(str(whole), "", "", format_vp(vp))
        return cls(str(whole) if whole else "", str(rest), str(vp.denominator), format_vp(vp))


@dataclass(frozen=True)
class BiomeMark:
    code: str
    name: str
    colour: str
    ink: str
    icon: str


@dataclass(frozen=True)
class RoleMark:
    code: str
    name: str
    colour: str
    icon: str


@dataclass(frozen=True)
class Art:
    """The art area: an image, or a placeholder pattern with the card's initials."""

    url: str | None
    placeholder: str
    initials: str
    ink: str


@dataclass(frozen=True)
class OrganismCard:
    id: str
    name: str
    scientific_name: str
    roles: tuple[RoleMark, ...]
    vp: VP
    biomes: tuple[BiomeMark, ...]
    eats: tuple[str, ...]
    eaten_by: tuple[str, ...]
    diet_note: str  # what the roles say about food: producers make theirs, SD eats anything
    flavor: str
    art: Art
    icons: dict = field(default_factory=dict, compare=False, repr=False)  # token -> icon, for the `icons` filter


@dataclass(frozen=True)
class BiomeCard:
    id: str
    name: str
    biome: BiomeMark
    bonus: str
    healthy_roles: tuple[RoleMark, ...]
    flavor: str
    art: Art
    icons: dict = field(default_factory=dict, compare=False, repr=False)  # token -> icon, for the `icons` filter


@dataclass(frozen=True)
class FactorCard:
    id: str
    name: str
    factor: str  # "Biotic factor"
    colour: str
    ink: str
    icon: str
    placement: str
    placement_icon: str
    text: str
    flavor: str
    art: Art
    icons: dict = field(default_factory=dict, compare=False, repr=False)  # token -> icon, for the `icons` filter


@dataclass(frozen=True)
class Slice:
    """A slice of the back's emblem: a biome colour between two angles (unit-circle points)."""

    colour: str
    x0: float
    y0: float
    x1: float
    y1: float


@dataclass(frozen=True)
class EcologiesBack:
    """The back: the game's title and a ring of the deck's biome colours (ecologies/back.svg.j2)."""

    title: str
    subtitle: str
    colours: tuple[str, ...]
    slices: tuple[Slice, ...]

    def image(self, frame) -> str:
        return picture_url("ecologies/back.svg.j2", frame, back=self)


def diet_note(roles: tuple[str, ...]) -> str:
    """What a card's roles say about its food, printed after its prey."""
    notes = []
    if "P" in roles:
        notes.append("makes its own food" if roles == ("P",) else "as P, makes its own food")
    if "SD" in roles:
        notes.append("feeds on any organism in its ecology" if roles == ("SD",)
                     else "as SD, feeds on any organism in its ecology")
    text = "; ".join(notes)
    return text[:1].upper() + text[1:] + "." if text else ""


class EcologiesFaces:
    """Builds every Ecologies face of a deck."""

    game = "ecologies"
    stylesheet = "ecologies/cards.css"

    def __init__(self, deck: EcologiesDeck):
        self.deck = deck
        self.root = deck_roots(deck)  # art and icons may come from the deck or its bases
        self.floors = floors_of(deck.manifest)  # the smallest text it allows (deck.yaml print:)
        self.names = {card.id: card.name for card in deck.cards}
        self.biome_marks = {b.code: self._biome_mark(b) for b in deck.biomes}
        self.effects = EffectText({b.code: b.name for b in deck.biomes})
        self._back: EcologiesBack | None = None
        self._back_title = None
        self._roles: dict[str, RoleMark] = {}

    @cached_property
    def icons(self) -> dict:
        """Inline icon tokens (`:P:`, `:VER:`) for the `icons` filter, found once per deck."""
        from cardtool.render.icon_links import icon_urls

        return icon_urls(self.deck)

    def _icon(self, *names: str) -> str:
        return icon_url(*names, deck_root=self.root)

    def _biome_mark(self, biome: Biome) -> BiomeMark:
        return BiomeMark(biome.code, biome.name, biome.colour, ink_on(biome.colour),
                         self._icon(f"biomes/{biome.code}.svg", "biomes/generic.svg"))

    def role(self, code: str) -> RoleMark:
        if code not in self._roles:  # looked up once: every organism shows a few of the six
            self._roles[code] = RoleMark(code, ROLE_NAMES[code], ROLE_COLOURS[code], self._icon(f"roles/{code}.svg"))
        return self._roles[code]

    def _art(self, card, colour: str) -> Art:
        tint = mix(colour, "#ffffff", 0.55)
        return Art(art_url(self.root, card.art, card.id), placeholder_url(tint, mix(colour, "#ffffff", 0.3)),
                   initials(card.name), mix(colour, "#000000", 0.25))

    # -- faces -----------------------------------------------------------------------------------
    def front(self, card) -> Face:
        if isinstance(card, Organism):
            return Face(card.id, "front", "ecologies/organism.html.j2", self.organism(card), ORGANISM_FIELDS,
                        card.count, card.name, floors=self.floors)
        if isinstance(card, Biome):
            return Face(card.id, "front", "ecologies/biome.html.j2", self.biome(card), BIOME_FIELDS,
                        card.count, card.name, floors=self.floors)
        return Face(card.id, "front", "ecologies/factor.html.j2", self.factor(card), FACTOR_FIELDS,
                    card.count, card.name, floors=self.floors)

    def organism(self, card: Organism) -> OrganismCard:
        biomes = tuple(self.biome_marks[code] for code in card.biomes)
        return OrganismCard(
            id=card.id, name=card.name, scientific_name=card.scientific_name,
            roles=tuple(self.role(r) for r in card.roles), vp=VP.of(card.vp), biomes=biomes,
            eats=tuple(self.names[i] for i in card.eats), eaten_by=tuple(self.names[i] for i in card.eaten_by),
            diet_note=diet_note(card.roles), flavor=card.flavor, art=self._art(card, biomes[0].colour),
            icons=self.icons)

    def biome(self, card: Biome) -> BiomeCard:
        return BiomeCard(
            id=card.id, name=card.name, biome=self.biome_marks[card.code],
            bonus=card.bonus_text or self.effects.describe(card.bonus),
            healthy_roles=tuple(self.role(r) for r in HEALTHY_ROLES), flavor=card.flavor,
            art=self._art(card, card.colour), icons=self.icons)

    def factor(self, card: Factor) -> FactorCard:
        colour = FACTOR_COLOURS[card.factor]
        return FactorCard(
            id=card.id, name=card.name, factor=f"{card.factor.capitalize()} factor", colour=colour,
            ink=ink_on(colour), icon=self._icon(f"factors/{card.factor}.svg"),
            placement=PLACEMENT[card.placement], placement_icon=self._icon(f"factors/{card.placement}.svg"),
            text=card.text or self.effects.describe(card.effects), flavor=card.flavor,
            art=self._art(card, colour), icons=self.icons)

    def back(self, card) -> Face:
        """The back of a card. The shipped templates give every kind the same back: all cards are shuffled
        into one draw pile, so a back must not tell a biome from an organism (a back-<kind> template
        would give a kind its own)."""
        template, key = back_template(self.game, card.kind)
        if self._back is None:
            self._back = self._back_context()
        return Face(key, "back", template, self._back, BACK_FIELDS, 1, "Back", floors=self.floors)

    def _back_context(self) -> "EcologiesBack":
        """The back drawn from the deck whose back this one prints (an expansion: its base game's, biome
        colours included, so its cards cannot be told from the base's)."""
        source = back_source(self.deck)
        colours = tuple(b.colour for b in source.biomes)
        n = len(colours)
        points = [(math.cos(2 * math.pi * i / n - math.pi / 2), math.sin(2 * math.pi * i / n - math.pi / 2))
                  for i in range(n + 1)]
        back = back_of(source.manifest)
        return EcologiesBack(title=back.title, subtitle=back.subtitle, colours=colours,
                             slices=tuple(Slice(c, *points[i], *points[i + 1]) for i, c in enumerate(colours)))

    # -- text only, as the templates print it (for validate's fitting estimate: no pictures drawn) --------
    def _back_words(self):
        if self._back_title is None:  # the deck whose back this one prints is loaded once
            self._back_title = back_of(back_source(self.deck).manifest)
        return self._back_title

    def front_text(self, card) -> FaceText:
        if isinstance(card, Organism):
            eats = [("Eats:", True)] + (words(", ".join(self.names[i] for i in card.eats) + ".") if card.eats else [])
            eats += words(diet_note(card.roles))
            eaten = [("Eaten", True), ("by:", True)] + (
                words(", ".join(self.names[i] for i in card.eaten_by) + ".") if card.eaten_by
                else words("nothing in this deck."))
            texts = {"name": [words(card.name)] + ([words(card.scientific_name)] if card.scientific_name else []),
                     "text": [eats, eaten] + ([words(card.flavor)] if card.flavor else [])}
            fields = ORGANISM_FIELDS
        elif isinstance(card, Biome):
            texts = {"name": [words(card.name)], "bonus": [words(card.bonus_text or self.effects.describe(card.bonus))],
                     "flavor": [words(card.flavor)] if card.flavor else []}
            fields = BIOME_FIELDS
        else:
            texts = {"name": [words(card.name)], "text": [words(card.text or self.effects.describe(card.effects))],
                     "flavor": [words(card.flavor)] if card.flavor else []}
            fields = FACTOR_FIELDS
        return FaceText(card.id, "front", fields, self.floors, texts)

    def back_text(self, card) -> FaceText:
        back = self._back_words()
        texts = {"title": [words(back.title)], "subtitle": [words(back.subtitle.upper())] if back.subtitle else []}
        return FaceText("back", "back", BACK_FIELDS, self.floors, texts)  # every kind prints the same words

    def faces(self) -> list[tuple[Face, Face]]:
        """(front, back) of every different card, in deck order."""
        return [(self.front(card), self.back(card)) for card in self.deck.cards]
