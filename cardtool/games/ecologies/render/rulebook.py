"""The parts of an Ecologies rulebook computed from the deck: components, the biome table, trophic roles,
the factor card reference, food-web pictures and the index of every card.

An expansion's rulebook insert shows only some cards of the combined deck (its own and the base cards it
reprints): the tables and the index list those, the food webs are the combined game's webs of their biomes,
and what the base rulebook already explains (reading the cards, the trophic roles) is left to it."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from urllib.parse import quote

from markupsafe import Markup

from cardtool.games.ecologies.model import HEALTHY_ROLES, ROLES, ROW_OF_ROLE, EcologiesDeck, Organism, format_vp
from cardtool.games.ecologies.webs import find_witness, organisms_in, why_unhealthy
from cardtool.games.ecologies.render.faces import PLACEMENT, ROLE_COLOURS, EcologiesFaces
from cardtool.games.ecologies.render.effect_text import ROLE_NAMES
from cardtool.render.card_diagram import Figure, Part, diagram
from cardtool.render.environment import render
from cardtool.render.rulebook_parts import Components, count_line, reprint_note

KIND_NAMES = {"organism": ("organism", "organisms"), "biome": ("biome", "biomes"),
              "factor": ("factor card", "factor cards")}
KIND_ORDER = ("organism", "biome", "factor")
#: The parts of each kind of card the rulebook names around a real card (classes of templates/ecologies/*).
CARD_PARTS = {
    "organism": (Part("roles", "Trophic roles", "the roles it can take in a food web; it acts in one at a time"),
                 Part("vp", "Victory points", "what it scores while it is in one of your food webs"),
                 Part("name-panel", "Name", "common and scientific name"),
                 Part("art", "Picture"),
                 Part("text-panel", "Eats and Eaten by", "the organisms it can feed on, and those that feed on it"),
                 Part("codes", "Biomes", "the colours and codes of the biomes it can live in")),
    "biome": (Part("title", "Name and code", "organisms showing this code can live here"),
              Part("glyph", "Biome symbol"),
              Part("bonus-panel", "Healthy ecology bonus", "in force while the ecology is healthy"),
              Part("needs", "Roles it needs", "a card acting as each of them makes the ecology healthy"),
              Part("kind-label", "Card kind")),
    "factor": (Part("band", "Biotic or abiotic", "from the living or the non-living world"),
               Part("title", "Name"),
               Part("place", "Where it goes", "on a food web, in front of you, or discarded once played"),
               Part("effect-panel", "Effect", "what happens when you play it"),
               Part("kind-label", "Card kind")),
}
ROW_NAMES = ("bottom row, beside the biome card", "second row", "third row", "fourth row", "fifth row and above")
#: What each role is, as the rules describe it (the rows come from ROW_OF_ROLE).
ROLE_DUTIES = {
    "P": "makes its own food; every web is built on producers, and a producer never leaves its web",
    "C1": "eats producers",
    "C2": "eats primary consumers (or an organism acting as SD)",
    "C3": "eats secondary consumers",
    "C4": "eats tertiary consumers; not needed for a healthy ecology",
    "SD": "scavenger, decomposer or detritivore: feeds on any organism in its ecology",
}


@dataclass(frozen=True)
class BiomeRow:
    code: str
    name: str
    colour: str
    ink: str
    icon: str
    bonus: str
    copies: int
    organisms: int
    design: bool = False  # the bonus is the project's invention (source: design), marked with a dagger


@dataclass(frozen=True)
class RoleRow:
    code: str
    name: str
    colour: str
    icon: str
    row: str
    duty: str
    organisms: int
    healthy: bool


@dataclass(frozen=True)
class FactorRow:
    name: str
    factor: str
    placement: str
    text: str
    copies: int
    design: bool = False  # the card is the project's invention (source: design)


@dataclass(frozen=True)
class CardRow:
    name: str
    kind: str
    biomes: str
    roles: str
    vp: str
    copies: int


@dataclass(frozen=True)
class FoodWeb:
    code: str
    name: str
    picture: str  # SVG data URL
    caption: str


class EcologiesRulebook:
    """Generated rulebook parts for an Ecologies deck."""

    def __init__(self, deck: EcologiesDeck, shown: frozenset[str] | None = None, reprinted: frozenset[str] = frozenset()):
        """shown: the ids of the cards an insert is about (None: the whole deck's book), of which reprinted
        are base cards the expansion reprints."""
        self.deck = deck
        self.faces = EcologiesFaces(deck)
        self.insert = shown is not None
        self.reprinted = reprinted
        keep = (lambda card: True) if shown is None else (lambda card: card.id in shown)
        self.cards = tuple(c for c in deck.cards if keep(c))
        self.organisms = tuple(o for o in deck.organisms if keep(o))
        self.biomes = tuple(b for b in deck.biomes if keep(b))
        self.factors = tuple(f for f in deck.factors if keep(f))

    def components(self) -> Components:
        new = lambda cards: tuple(c for c in cards if c.id not in self.reprinted)  # noqa: E731
        cards, organisms = new(self.cards), new(self.organisms)
        by_kind = Counter()
        for card in cards:
            by_kind[card.kind] += card.count
        counts = [(KIND_NAMES[k][by_kind[k] != 1], by_kind[k]) for k in KIND_ORDER if by_kind[k]]
        biomes = len({b.code for b in new(self.biomes)})
        factors = Counter(f.factor for f in new(self.factors) for _ in range(f.count))
        both = sum(1 for o in organisms if len(o.biomes) > 1)
        notes = (f"{len(organisms)} different organisms"
                 + {0: ", each living in one biome", 1: ", one of which lives in two biomes"}.get(
                     both, f", {both} of which live in two biomes"),
                 f"{biomes} biomes, {by_kind['biome'] // max(biomes, 1)} cards of each" if biomes else "no biomes",
                 ", ".join(f"{n} {kind}" for kind, n in sorted(factors.items())) + " factor cards"
                 if factors else "no factor cards")
        notes += reprint_note([c.name for c in self.cards if c.id in self.reprinted])
        return Components(count_line(sum(c.count for c in cards), counts), tuple(counts), notes)

    def directives(self) -> dict:
        return {}

    def introduction(self) -> list[tuple[str, Markup]]:
        """'Reading the cards': one real card of each kind with its parts named (an insert leaves it to the
        base rulebook)."""
        if self.insert:
            return []
        figures = []
        for kind, card in self.examples():
            article = "An" if kind[0] in "aeiou" else "A"
            figures.append(Figure(diagram(self.deck, card.id, CARD_PARTS[kind]),
                                  f"{article} {KIND_NAMES[kind][0]}: {card.name}, at its printed size."))
        if not figures:
            return []
        return [("Reading the cards", Markup(render("rulebook/anatomy.html.j2", diagrams=tuple(figures))))]

    def examples(self) -> list[tuple[str, object]]:
        """A card of each kind to show: for organisms, one that lives in two biomes with several roles."""
        deck = self.deck
        shown = []
        if deck.organisms:
            shown.append(("organism", max(deck.organisms, key=lambda o: (len(o.biomes), min(len(o.roles), 2), bool(o.eaten_by),
                                                                         -len(o.eats) - len(o.eaten_by)))))
        if deck.biomes:
            shown.append(("biome", deck.biomes[0]))
        if deck.factors:
            shown.append(("factor", deck.factors[0]))
        return shown

    # -- reference chapters ------------------------------------------------------------------------
    def reference(self) -> list[tuple[str, Markup]]:
        deck = self.deck
        biomes = tuple(BiomeRow(b.code, b.name, b.colour, mark.ink, mark.icon, self.faces.biome(b).bonus, b.count,
                                len(organisms_in(deck, b.code)), b.bonus_source == "design")
                       for b in self.biomes for mark in (self.faces.biome_marks[b.code],))
        roles = tuple(RoleRow(r, ROLE_NAMES[r], ROLE_COLOURS[r], self.faces.role(r).icon, ROW_NAMES[ROW_OF_ROLE[r]],
                              ROLE_DUTIES[r], sum(1 for o in deck.organisms if r in o.roles), r in HEALTHY_ROLES)
                      for r in ROLES)
        factors = tuple(FactorRow(f.name, f.factor.capitalize(), PLACEMENT[f.placement], self.faces.factor(f).text,
                                  f.count, f.source == "design") for f in self.factors)
        parts = [("Biomes", render("rulebook/ecologies.html.j2", part="biomes", biomes=biomes))] \
            if biomes or not self.insert else []
        if not self.insert:
            parts.append(("Trophic roles", render("rulebook/ecologies.html.j2", part="roles", roles=roles)))
        if factors:
            parts.append(("Factor cards", render("rulebook/ecologies.html.j2", part="factors", factors=factors)))
        parts.append(("Food webs", render("rulebook/ecologies.html.j2", part="webs", webs=self.food_webs())))
        parts.append(("Card index", render("rulebook/ecologies.html.j2", part="index", cards=self.index())))
        return [(title, Markup(html)) for title, html in parts]

    def food_webs(self) -> tuple[FoodWeb, ...]:
        from cardtool.games.ecologies.render.foodweb_svg import render_svg

        webs = []
        for biome in self.web_biomes():
            code = biome.code
            living = organisms_in(self.deck, code)
            witness = find_witness(self.deck, code)
            if witness:
                caption = ("A healthy web: " + ", ".join(f"{role} {living[witness[role]].name}"
                                                         for role in HEALTHY_ROLES) + " (bold arrows).")
            else:
                caption = f"Cannot become healthy: {why_unhealthy(self.deck, code)}"
            url = "data:image/svg+xml," + quote(render_svg(self.deck, code))
            joining = [o.name for o in self.organisms if code in o.biomes and o.id not in self.reprinted] \
                if self.insert and biome not in self.biomes else []
            joins = f" Joining it: {', '.join(joining)}." if joining else ""
            webs.append(FoodWeb(code, biome.name, url, f"{len(living)} organisms.{joins} {caption}"))
        return tuple(webs)

    def web_biomes(self) -> tuple:
        """The biomes whose webs the book draws: every one; in an insert its own biomes, then the base
        biomes its organisms join (drawn as the combined game plays them)."""
        if not self.insert:
            return self.deck.biomes
        joined = {code for o in self.organisms if o.id not in self.reprinted for code in o.biomes}
        return self.biomes + tuple(b for b in self.deck.biomes if b.code in joined and b not in self.biomes)

    def index(self) -> tuple[CardRow, ...]:
        rows = []
        for card in sorted(self.cards, key=lambda c: c.name.lower()):
            reprint = " (reprint)" if card.id in self.reprinted else ""
            if isinstance(card, Organism):
                rows.append(CardRow(card.name, "organism" + reprint, " ".join(card.biomes), " ".join(card.roles),
                                    format_vp(card.vp), card.count))
            elif card.kind == "biome":
                rows.append(CardRow(card.name, "biome" + reprint, card.code, "", "", card.count))
            else:
                rows.append(CardRow(card.name, f"{card.factor} factor{reprint}", "", "", "", card.count))
        return tuple(rows)
