"""A numeric view of a Symbiosis deck for the engine: card numbers, features and points.

The state holds card numbers (indexes into `CardTable.cards`), never definitions. A *feature* is what a
variable card counts: one number per Animal, then one per Season, so `per_animal` and `per_season`
score the same way (points times the features counted) and a new counting word needs one more feature.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from cardtool.errors import UnknownCardError
from cardtool.games.symbiosis.model import SymbiosisCard, SymbiosisDeck
from cardtool.suggest import did_you_mean

FIXED = -1  # the counted feature of a fixed-points card: none


@dataclass(frozen=True)
class CardTable:
    """The deck's cards numbered 0..n-1, with each card's features and scoring as plain tuples."""

    deck: SymbiosisDeck
    cards: tuple[SymbiosisCard, ...]
    index: dict  # card id -> card number
    feature_names: tuple[str, ...]  # "animal:fish", "season:spring", ...
    animal_feature: tuple[int, ...]  # per card number: its Animal's feature
    season_feature: tuple[int, ...]  # per card number: its Season's feature
    counted: tuple[int, ...]  # per card number: the feature it counts, or FIXED
    points: tuple[int, ...]  # per card number: fixed points, or points per feature counted
    copies: tuple[int, ...]  # per card number: copies in the deck

    @classmethod
    def of(cls, deck: SymbiosisDeck) -> "CardTable":
        animals = [a.id for a in deck.animals]
        seasons = [s.id for s in deck.seasons]
        feature = {("animal", a): i for i, a in enumerate(animals)}
        feature.update({("season", s): len(animals) + i for i, s in enumerate(seasons)})
        cards = tuple(deck.cards)
        counted = []
        for card in cards:
            rule = card.scoring
            if rule.rule == "per_animal":
                counted.append(feature["animal", rule.animal])
            elif rule.rule == "per_season":
                counted.append(feature["season", rule.season])
            else:
                counted.append(FIXED)
        return cls(
            deck=deck, cards=cards, index={c.id: i for i, c in enumerate(cards)},
            feature_names=tuple(f"{kind}:{name}" for kind, name in feature),
            animal_feature=tuple(feature["animal", c.animal] for c in cards),
            season_feature=tuple(feature["season", c.season] for c in cards),
            counted=tuple(counted), points=tuple(c.scoring.points for c in cards),
            copies=tuple(c.count for c in cards))

    @property
    def features(self) -> int:
        return len(self.feature_names)

    def physical(self) -> list[int]:
        """Card numbers with one entry per physical copy, in deck order."""
        return list(self._physical)

    @cached_property
    def _physical(self) -> tuple[int, ...]:
        return tuple(number for number, count in enumerate(self.copies) for _ in range(count))

    def number(self, card_id: str) -> int:
        """The number of a card id, or UnknownCardError with a suggestion."""
        try:
            return self.index[card_id]
        except KeyError:
            hint = did_you_mean(card_id, self.index)
            raise UnknownCardError(f"no card '{card_id}' in the deck" + (f"; {hint}" if hint else "")) from None

    def counts(self, numbers) -> list[int]:
        """How many cards of each feature the cards hold (a card has one Animal and one Season)."""
        counts = [0] * self.features
        animal, season = self.animal_feature, self.season_feature
        for n in numbers:
            counts[animal[n]] += 1
            counts[season[n]] += 1
        return counts

    def rule_text(self, number: int) -> str:
        """The scoring rule as the rulebook says it: '3 points', '3 per Fish', '2 per pink Season card'."""
        card = self.cards[number]
        rule = card.scoring
        if rule.rule == "per_animal":
            return f"{rule.points} per {self.deck.animal(rule.animal).name}"
        if rule.rule == "per_season":
            season = self.deck.season(rule.season)
            return f"{rule.points} per {season.colour_name or season.name} Season card"
        return f"{rule.points} point{'s' if rule.points != 1 else ''}"

    def short_rule(self, number: int) -> str:
        """The scoring rule in a few letters: '4', '3/fish', '2/pink'."""
        rule = self.cards[number].scoring
        if rule.rule == "per_animal":
            return f"{rule.points}/{rule.animal}"
        if rule.rule == "per_season":
            season = self.deck.season(rule.season)
            return f"{rule.points}/{season.colour_name or season.id}"
        return str(rule.points)

    def label(self, number: int) -> str:
        """A card for people: 'Shoal (Fish, Summer: 3 per Fish)'."""
        card = self.cards[number]
        return (f"{card.name} ({self.deck.animal(card.animal).name}, {self.deck.season(card.season).name}: "
                f"{self.rule_text(number)})")
