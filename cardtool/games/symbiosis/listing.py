"""`cardtool cards` for Symbiosis: each card's Animal, Season and scoring rule (ListsCards)."""

from __future__ import annotations

from cardtool.games.symbiosis.model import SymbiosisCard, SymbiosisDeck

COLUMNS = ("animal", "season", "scoring")


def card_row(deck: SymbiosisDeck, card: SymbiosisCard) -> dict[str, str]:
    """The rule written as in deck files: 'fixed 3', 'per_animal fish 3', 'per_season spring 2'."""
    scoring = card.scoring
    counted = scoring.animal or scoring.season or ""
    rule = " ".join(part for part in (scoring.rule, counted, str(scoring.points)) if part)
    return dict(animal=card.animal, season=card.season, scoring=rule)
