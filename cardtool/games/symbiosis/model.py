"""Frozen definitions of Symbiosis: Seasons, Animals, and cards with their scoring rule."""

from __future__ import annotations

from dataclasses import dataclass

from cardtool.deck.model import Card, Deck


@dataclass(frozen=True, kw_only=True)
class Season:
    """A card background: a Season with its colour."""

    id: str
    name: str
    colour: str
    colour_name: str = ""


@dataclass(frozen=True, kw_only=True)
class Animal:
    """A card foreground."""

    id: str
    name: str
    plural: str = ""

    @property
    def plural_name(self) -> str:
        return self.plural or f"{self.name}s"


@dataclass(frozen=True, kw_only=True)
class Scoring:
    """A word of the scoring vocabulary: fixed, per_animal or per_season, with its points."""

    rule: str
    points: int
    animal: str | None = None
    season: str | None = None

    @property
    def variable(self) -> bool:
        """Whether the score depends on the pond the card's column faces."""
        return self.rule != "fixed"


@dataclass(frozen=True, kw_only=True)
class SymbiosisCard(Card):
    """A Symbiosis card: an Animal, a Season and a scoring rule."""

    animal: str
    season: str
    scoring: Scoring
    flavor: str = ""
    art: str | None = None
    tags: tuple[str, ...] = ()
    source: str = ""  # "rulebook" (shown in the printed rules), "design", or "" (not claimed)


@dataclass(frozen=True, kw_only=True)
class SymbiosisDeck(Deck):
    """A Symbiosis deck with its Seasons and Animals."""

    seasons: tuple[Season, ...] = ()
    animals: tuple[Animal, ...] = ()

    def season(self, season_id: str) -> Season:
        return next(s for s in self.seasons if s.id == season_id)

    def animal(self, animal_id: str) -> Animal:
        return next(a for a in self.animals if a.id == animal_id)
