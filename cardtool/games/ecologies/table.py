"""The deck as the rules engine reads it: physical cards numbered 0..N-1, with flat per-card facts.

Game state holds only these numbers. Everything the engine needs about a card (its kind, biomes, roles,
VP, prey, effects) is looked up here, built once per deck and shared by every game of that deck.
"""

from __future__ import annotations

import math
from fractions import Fraction

from cardtool.games.ecologies.model import Biome, EcologiesDeck, Effect, Factor, Filter, Organism, format_vp

#: Tables by id(deck); each table holds its deck, so an id is never reused while cached.
_TABLES: dict[int, "CardTable"] = {}
_CACHED_DECKS = 16
#: Each seat's own card table, by (deck, seat): the same definitions as the engine's, its own memos.
_SEAT_TABLES: dict[tuple[int, int], "CardTable"] = {}


class CardTable:
    """Per physical card: its definition and the facts the engine reads; per definition: its prey."""

    def __init__(self, deck: EcologiesDeck):
        self.deck = deck
        self.defs = tuple(deck.cards)
        self.def_index = {card.id: i for i, card in enumerate(self.defs)}
        self.def_of = tuple(i for i, card in enumerate(self.defs) for _ in range(card.count))
        self.size = len(self.def_of)
        cards = [self.defs[d] for d in self.def_of]
        self.ids = tuple(c.id for c in cards)
        self.names = tuple(c.name for c in cards)
        self.kind = tuple(c.kind for c in cards)
        self.code = tuple(c.code if isinstance(c, Biome) else "" for c in cards)
        self.biomes = tuple(frozenset(c.biomes) if isinstance(c, Organism)
                            else frozenset((c.code,)) if isinstance(c, Biome) else frozenset() for c in cards)
        self.roles = tuple(c.roles if isinstance(c, Organism) else () for c in cards)
        self.vp = tuple(c.vp if isinstance(c, Organism) else Fraction(0) for c in cards)
        self.placement = tuple(c.placement if isinstance(c, Factor) else "" for c in cards)
        #: A factor card's effects, or a biome card's healthy-ecology bonus.
        self.effects: tuple[tuple[Effect, ...], ...] = tuple(
            c.effects if isinstance(c, Factor) else c.bonus if isinstance(c, Biome) else () for c in cards)
        #: Definition index -> definition indices it eats (never itself).
        self.eats_def = tuple(frozenset(self.def_index[p] for p in c.eats if p in self.def_index and p != c.id)
                              if isinstance(c, Organism) else frozenset() for c in self.defs)
        self.biome_names = {b.code: b.name for b in deck.biomes}
        self.codes = tuple(deck.biome_codes)
        self.organism_cards = tuple(n for n in range(self.size) if self.kind[n] == "organism")
        #: Per card, its place in the order arrangements use: by definition, then by number.
        self.canonical_rank = tuple(self.def_of[n] * self.size + n for n in range(self.size))
        self.factor_cards = tuple(n for n in range(self.size) if self.kind[n] == "factor")
        #: Arrangement results, shared by every game of the deck (see arrange.py).
        self.arrangements: dict = {}
        self.arranged: dict = {}  # the same (and alternatives), by the cards in the order they were given
        # VP as whole numbers of 1/denominator, so sums need no Fraction arithmetic.
        self.vp_denominator = math.lcm(*(v.denominator for v in self.vp)) if self.vp else 1
        self.vp_units = tuple(int(v * self.vp_denominator) for v in self.vp)
        self.vp_float = tuple(float(v) for v in self.vp)  # for bots' estimates only
        #: Per card, its Offer actions for every want (rules.offers fills it once).
        self.offers_by_card: tuple | None = None
        #: Actions made once and shared, by class (a tuple per card) or (card, ecology) (rules.py fills it).
        self.card_actions: dict = {}
        #: Per biome code, per definition, its printed roles as arrange's numbers where it lives there
        #: (arrange fills it once per code).
        self.solver_roles: dict[str, tuple] = {}
        #: A bot's memo of what best arrangements fill, by (biome code, cards) (greedy.Valuer.eco_value).
        self.web_shapes: dict = {}

    @classmethod
    def of(cls, deck: EcologiesDeck) -> "CardTable":
        """The table of a deck, built once and shared."""
        table = _TABLES.get(id(deck))
        if table is None or table.deck is not deck:
            if len(_TABLES) >= _CACHED_DECKS:
                _TABLES.pop(next(iter(_TABLES)))
            table = _TABLES[id(deck)] = cls(deck)
        return table

    def vp_sum(self, cards) -> Fraction:
        """The exact VP of some cards."""
        units = self.vp_units
        return Fraction(sum(units[c] for c in cards), self.vp_denominator)

    def eats(self, predator: int, prey: int) -> bool:
        """Whether card `predator` lists card `prey` among what it eats (two physical cards)."""
        return predator != prey and self.def_of[prey] in self.eats_def[self.def_of[predator]]

    def label(self, card: int) -> str:
        """A card as a person reads it: its name, and for an organism its biomes, roles and VP."""
        kind = self.kind[card]
        if kind == "organism":
            return (f"{self.names[card]} ({'/'.join(sorted(self.biomes[card]))} "
                    f"{'/'.join(self.roles[card])}, {format_vp(self.vp[card])} VP)")
        if kind == "biome":
            return f"{self.names[card]} (biome {self.code[card]})"
        return f"{self.names[card]} ({self.defs[self.def_of[card]].factor} factor)"

    def find(self, card_id: str) -> list[int]:
        """The physical card numbers of a definition id."""
        d = self.def_index[card_id]
        return [n for n in range(self.size) if self.def_of[n] == d]


def seat_table(table: CardTable, seat: int) -> CardTable:
    """A card table for one seat's bot, never the engine's: a table memoises every arrangement asked of
    it, and the engine asks about cards in hidden hands (which plays are legal), so a bot reading a
    shared table's memo would learn them. Kept across games, so a bot's memo stays warm."""
    key = (id(table.deck), seat)
    found = _SEAT_TABLES.get(key)
    if found is None or found.deck is not table.deck:
        if len(_SEAT_TABLES) >= 64:
            _SEAT_TABLES.pop(next(iter(_SEAT_TABLES)))
        found = _SEAT_TABLES[key] = CardTable(table.deck)
    return found


def matches(table: CardTable, flt: Filter | None, card: int, *, owner_relation: str, acting: str | None,
            code: str | None) -> bool:
    """Whether a card matches a filter (docs/effects.md).

    `owner_relation` is "you" or "opponent" as seen from the effect's controller; `acting` the card's
    current role on the table (None in a hand or the discard pile); `code` the biome of the ecology it
    sits in (None off the table: then its printed biomes count).
    """
    if flt is None:
        return True
    if flt.kind and table.kind[card] not in flt.kind:
        return False
    if flt.owner != "any" and flt.owner != owner_relation:
        return False
    if flt.roles and not any(r in flt.roles for r in table.roles[card]):
        return False
    if flt.acting and acting not in flt.acting:
        return False
    if flt.biomes:
        if code is not None:
            if code not in flt.biomes:
                return False
        elif not any(b in flt.biomes for b in table.biomes[card]):
            return False
    return True
