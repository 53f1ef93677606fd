"""Frozen card definitions of Ecologies: biomes, organisms, factor cards and their effects."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from cardtool.deck.model import Card, Deck

ROLES = ("P", "C1", "C2", "C3", "C4", "SD")
#: Roles an ecology needs, one card each, to be healthy (C4 is not needed).
HEALTHY_ROLES = ("P", "C1", "C2", "C3", "SD")
#: The table row each role sits in: SD shares the C1 row.
ROW_OF_ROLE = {"P": 0, "C1": 1, "SD": 1, "C2": 2, "C3": 3, "C4": 4}


@dataclass(frozen=True, kw_only=True)
class Filter:
    """Which cards an effect applies to; every condition given must hold."""

    kind: tuple[str, ...] = ()
    roles: tuple[str, ...] = ()
    acting: tuple[str, ...] = ()
    biomes: tuple[str, ...] = ()
    owner: str = "any"


@dataclass(frozen=True, kw_only=True)
class Effect:
    """One word of the effect vocabulary with its arguments (docs/effects.md)."""

    trigger: str
    action: str
    target: str = "you"
    amount: int = 1
    every: int = 1
    filter: Filter | None = None
    multiplayer_only: bool = False


@dataclass(frozen=True, kw_only=True)
class Biome(Card):
    """A biome card: starts an ecology and grants its bonus while that ecology is healthy."""

    code: str
    colour: str
    bonus: tuple[Effect, ...]
    bonus_text: str | None = None
    flavor: str = ""
    art: str | None = None
    tags: tuple[str, ...] = ()
    source: str = ""  # the biome card itself: "rulebook", "design", or "" (not claimed)
    bonus_source: str = ""  # its healthy-ecology bonus, likewise


@dataclass(frozen=True, kw_only=True)
class Organism(Card):
    """An organism card: one role at a time in an ecology of one of its biomes."""

    biomes: tuple[str, ...]
    roles: tuple[str, ...]
    vp: Fraction
    eats: tuple[str, ...]
    eaten_by: tuple[str, ...]
    scientific_name: str = ""
    flavor: str = ""
    art: str | None = None
    tags: tuple[str, ...] = ()
    source: str = ""  # "rulebook", "design", or "" (not claimed)


@dataclass(frozen=True, kw_only=True)
class Factor(Card):
    """A biotic or abiotic factor card."""

    factor: str  # biotic | abiotic
    placement: str  # web | table | discard
    effects: tuple[Effect, ...]
    text: str | None = None
    flavor: str = ""
    art: str | None = None
    tags: tuple[str, ...] = ()
    source: str = ""  # where its rules come from: "rulebook", "design", or "" (not claimed)


@dataclass(frozen=True, kw_only=True)
class EcologiesDeck(Deck):
    """An Ecologies deck with look-ups by biome code."""

    biome_codes: tuple[str, ...] = field(default=())

    def biome(self, code: str) -> Biome:
        """The biome card definition with this three-letter code."""
        for card in self.cards:
            if isinstance(card, Biome) and card.code == code:
                return card
        raise KeyError(code)

    @property
    def organisms(self) -> tuple[Organism, ...]:
        return tuple(c for c in self.cards if isinstance(c, Organism))

    @property
    def biomes(self) -> tuple[Biome, ...]:
        return tuple(c for c in self.cards if isinstance(c, Biome))

    @property
    def factors(self) -> tuple[Factor, ...]:
        return tuple(c for c in self.cards if isinstance(c, Factor))


def parse_vp(value: int | str) -> Fraction:
    """Victory points as an exact fraction: 2, "1/2" and "1 1/2" are all allowed."""
    if isinstance(value, int):
        return Fraction(value)
    whole, _, rest = value.strip().partition(" ")
    if rest:
        return Fraction(int(whole)) + Fraction(rest)
    return Fraction(whole)


def format_vp(vp: Fraction) -> str:
    """VP as printed: 2, 1/2 or 1 1/2."""
    if vp.denominator == 1:
        return str(vp.numerator)
    whole, rest = divmod(vp.numerator, vp.denominator)
    return f"{whole} {rest}/{vp.denominator}" if whole else f"{rest}/{vp.denominator}"
