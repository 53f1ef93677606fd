"""Food-web consistency of an Ecologies deck: the eats/eaten_by lists tell one story."""

from __future__ import annotations

from cardtool.deck.source import DeckSource
from cardtool.games.ecologies.model import EcologiesDeck, Organism
from cardtool.report import Report


def check_food_webs(deck: EcologiesDeck, source: DeckSource, report: Report) -> None:
    """Add located issues for every food-web inconsistency in deck."""
    organisms = {o.id: o for o in deck.organisms}
    for organism in organisms.values():
        _check_links(organism, organisms, source, report)


def _check_links(organism: Organism, organisms: dict[str, Organism], source: DeckSource, report: Report) -> None:
    for i, prey_id in enumerate(organism.eats):
        prey = organisms[prey_id]
        where = dict(location=source.locate(organism.id, "eats", i), card=organism.id)
        if organism.id not in prey.eaten_by:
            report.error("one-sided-link", f"eats '{prey_id}', but '{prey_id}' does not list it in eaten_by",
                         hint=f"add {organism.id} to eaten_by of {prey_id}, or remove {prey_id} from eats", **where)
        if not set(organism.biomes) & set(prey.biomes):
            report.error("no-shared-biome", f"eats '{prey_id}', but they share no biome "
                         f"({'/'.join(organism.biomes)} vs {'/'.join(prey.biomes)})", **where)
    for i, predator_id in enumerate(organism.eaten_by):
        predator = organisms[predator_id]
        if organism.id not in predator.eats:
            report.error("one-sided-link",
                         f"lists '{predator_id}' in eaten_by, but '{predator_id}' does not eat it",
                         location=source.locate(organism.id, "eaten_by", i), card=organism.id,
                         hint=f"add {organism.id} to eats of {predator_id}, or remove it from eaten_by")
    if organism.roles == ("P",) and organism.eats:
        report.error("producer-eats", "a producer eats nothing, but this card lists prey",
                     location=source.locate(organism.id, "eats"), card=organism.id,
                     hint="remove the eats entries or give the card a consumer role")
