"""`cardtool new` for Symbiosis: a new deck's files (36 cards over four Seasons and four Animals), and
what a new expansion of a Symbiosis deck shows."""

from __future__ import annotations

from cardtool.games.symbiosis.model import SymbiosisDeck
from cardtool.render.environment import render

SEASONS = (
    dict(id="spring", name="Spring", colour_name="pink", colour="#d092af"),
    dict(id="summer", name="Summer", colour_name="yellow", colour="#f2c94c"),
    dict(id="autumn", name="Autumn", colour_name="orange", colour="#e07b39"),
    dict(id="winter", name="Winter", colour_name="blue", colour="#6fa8dc"),
)
ANIMALS = (dict(id="frog", name="Frog", plural=""), dict(id="snail", name="Snail", plural=""),
           dict(id="dragonfly", name="Dragonfly", plural="Dragonflies"), dict(id="fish", name="Fish", plural="Fish"))


def scaffold_deck(name: str, context: dict) -> dict[str, str]:
    """deck.yaml, pond-life.yaml (Seasons and Animals) and cards.yaml of a deck that validates."""
    context = dict(context, seasons=SEASONS, animals=ANIMALS, cards=_cards())
    return {f: render(f"scaffold/symbiosis/{f}.j2", **context) for f in ("deck.yaml", "pond-life.yaml", "cards.yaml")}


def scaffold_expansion(base: SymbiosisDeck, context: dict) -> tuple[dict, str]:
    """An expansion whose example card shares the first base card's Animal and Season, and an override
    renaming that card."""
    first = base.cards[0]
    extra = dict(animal=first.animal, season=first.season, example_id=first.id, example_field="name",
                 example_value=f'"{first.name} II"')
    return extra, render("scaffold/expansion/symbiosis-cards.yaml.j2", **{**context, **extra})


def _cards() -> list[dict]:
    """36 cards covering every Season x Animal pair and each scoring word, in a fixed order."""
    cards = []
    for i in range(36):
        season, animal = SEASONS[i % 4], ANIMALS[(i // 4 + i) % 4]
        kind = i % 3
        if kind == 0:
            scoring, label = f"{{rule: fixed, points: {2 + i % 5}}}", f"{2 + i % 5} Points"
        elif kind == 1:
            target = ANIMALS[(i + 1) % 4]
            scoring, label = f"{{rule: per_animal, animal: {target['id']}, points: 2}}", f"Friend of {target['name']}"
        else:
            target = SEASONS[(i + 2) % 4]
            scoring, label = f"{{rule: per_season, season: {target['id']}, points: 2}}", f"{target['name']} Lover"
        cards.append(dict(id=f"card-{i + 1:02d}", name=f"{season['name']} {animal['name']}: {label}",
                          animal=animal["id"], season=season["id"], scoring=scoring))
    return cards
