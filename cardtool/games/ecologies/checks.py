"""Food-web checks of an Ecologies deck: the eats/eaten_by lists tell one consistent, playable story."""

from __future__ import annotations

from collections import defaultdict
from statistics import mean

from cardtool.deck.source import DeckSource
from cardtool.games.ecologies.model import HEALTHY_ROLES, EcologiesDeck, Organism
from cardtool.games.ecologies.webs import (
    ROLE_LEVEL, candidates_in, feedable_in, organisms_by_biome, prey_roles, trophic_levels, why_unhealthy_in,
    witness_in)
from cardtool.issues import Report

#: How far (in trophic levels) a card's nearest printed role may sit from its network level.
LEVEL_TOLERANCE = 1.5


def check_food_webs(deck: EcologiesDeck, source: DeckSource, report: Report) -> None:
    """Add located issues for every food-web inconsistency in deck."""
    _warn_generic_icons(deck, source, report)
    organisms = {o.id: o for o in deck.organisms}
    listed = {o.id: (frozenset(o.eats), frozenset(o.eaten_by)) for o in organisms.values()}  # fast membership
    for organism in organisms.values():
        _check_links(organism, organisms, listed, source, report)
        _check_roles(organism, organisms, source, report)
    if not report.ok:
        return  # playability and health mean little while the links disagree
    living = organisms_by_biome(deck)  # each biome's organisms and fed pairs, found once for every check
    fed = {code: feedable_in(living[code]) for code in deck.biome_codes}
    _check_playable(deck, fed, source, report)
    _check_healthy(deck, living, fed, source, report)
    _warn_uneaten_producers(deck, source, report)
    _warn_single_card_roles(deck, living, source, report)
    _warn_trophic_levels(deck, source, report)
    _warn_vp_order(deck, source, report)


def _warn_generic_icons(deck: EcologiesDeck, source: DeckSource, report: Report) -> None:
    """A biome with no icon of its own (icons/biomes/CODE.svg in the deck, or one cardtool ships) prints
    the generic icon: say so, rather than let a new biome look like every other."""
    from cardtool.resources import templates_dir

    shipped = templates_dir() / "icons" / "biomes"
    for biome in deck.biomes:
        name = f"{biome.code}.svg"
        if any((root / "icons" / "biomes" / name).is_file() for root in deck.roots) or (shipped / name).is_file():
            continue
        report.warning("generic-icon", f"biome {biome.code} has no icon of its own, so its cards print the "
                       "generic biome icon", location=source.locate(biome.id, "code"), card=biome.id,
                       path=source.cards[biome.id].path + ("code",) if biome.id in source.cards else (),
                       hint=f"draw one as icons/biomes/{name} in the deck folder (SVG, 24 x 24, white on the "
                            "biome colour; templates/icons/biomes/ has examples)")


def _check_links(organism: Organism, organisms: dict[str, Organism], listed: dict[str, tuple[frozenset, frozenset]],
                 source: DeckSource, report: Report) -> None:
    """Each link is listed on both cards (listed: each card's eats and eaten_by as sets)."""
    for i, prey_id in enumerate(organism.eats):
        prey = organisms[prey_id]
        one_sided = organism.id not in listed[prey_id][1]
        apart = not set(organism.biomes) & set(prey.biomes)
        if not (one_sided or apart):
            continue
        where = dict(location=source.locate(organism.id, "eats", i), card=organism.id)
        if one_sided:
            report.error("one-sided-link", f"eats '{prey_id}', but '{prey_id}' does not list it in eaten_by",
                         hint=f"add {organism.id} to eaten_by of {prey_id}, or remove {prey_id} from eats", **where)
        if apart:
            report.error("no-shared-biome", f"eats '{prey_id}', but they share no biome "
                         f"({'/'.join(organism.biomes)} vs {'/'.join(prey.biomes)})", **where)
    for i, predator_id in enumerate(organism.eaten_by):
        if organism.id not in listed[predator_id][0]:
            report.error("one-sided-link",
                         f"lists '{predator_id}' in eaten_by, but '{predator_id}' does not eat it",
                         location=source.locate(organism.id, "eaten_by", i), card=organism.id,
                         hint=f"add {organism.id} to eats of {predator_id}, or remove it from eaten_by")


def _check_roles(organism: Organism, organisms: dict[str, Organism], source: DeckSource, report: Report) -> None:
    """Each printed role has food of the right level in a shared biome (SD eats everything)."""
    if organism.roles == ("P",) and organism.eats:
        report.error("producer-eats", "a producer eats nothing, but this card lists prey",
                     location=source.locate(organism.id, "eats"), card=organism.id,
                     hint="remove the eats entries or give the card a consumer role")
    for index, role in enumerate(organism.roles):
        needed = prey_roles(role)
        if not needed:
            continue
        food = [p for p in organism.eats
                if set(organisms[p].roles) & set(needed) and set(organisms[p].biomes) & set(organism.biomes)]
        if not food:
            report.error("role-without-food",
                         f"can act as {role} but eats no card that can act as {' or '.join(needed)} in a shared biome",
                         location=source.locate(organism.id, "roles", index), card=organism.id,
                         hint=f"add such prey to eats, or remove {role} from roles")


def _check_playable(deck: EcologiesDeck, fed: dict[str, set], source: DeckSource, report: Report) -> None:
    for organism in deck.organisms:
        if not any((organism.id, role) in fed[code] for code in organism.biomes for role in organism.roles):
            report.error("unplayable",
                         f"no role of this card can be fed in {' or '.join(organism.biomes)}: "
                         "no chain of its prey leads down to a producer there",
                         location=source.locate(organism.id, "roles"), card=organism.id)


def _check_healthy(deck: EcologiesDeck, living: dict[str, dict], fed: dict[str, set], source: DeckSource,
                   report: Report) -> None:
    for biome in deck.biomes:
        code = biome.code
        if witness_in(living[code], fed[code]) is None:
            report.error("unhealthy-biome", f"{code} can never be healthy: {why_unhealthy_in(living[code], fed[code])}",
                         location=source.locate(biome.id, "code"), card=biome.id,
                         hint="`cardtool foodweb DECK --biome " + biome.code + "` shows its web")


def _warn_uneaten_producers(deck: EcologiesDeck, source: DeckSource, report: Report) -> None:
    for organism in deck.organisms:
        if "P" in organism.roles and not organism.eaten_by:
            report.warning("uneaten-producer", "a producer that nothing eats: it can never support a C1",
                           location=source.locate(organism.id, "eaten_by"), card=organism.id)


def _warn_single_card_roles(deck: EcologiesDeck, living: dict[str, dict], source: DeckSource,
                            report: Report) -> None:
    for biome in deck.biomes:
        cands = candidates_in(living[biome.code])
        for role in HEALTHY_ROLES:
            if len(cands[role]) == 1:
                only = cands[role][0]
                report.warning("single-card-role",
                               f"in {biome.code}, only '{only}' can act as {role}: every healthy "
                               f"{biome.name} web depends on that one card",
                               location=source.locate(biome.id, "code"), card=biome.id)


def _warn_trophic_levels(deck: EcologiesDeck, source: DeckSource, report: Report) -> None:
    levels = trophic_levels(deck)
    for organism in deck.organisms:
        printed = [ROLE_LEVEL[r] for r in organism.roles if r != "SD"]
        if organism.id not in levels or not printed:
            continue
        level = levels[organism.id]
        if min(abs(p - level) for p in printed) > LEVEL_TOLERANCE:
            report.warning("trophic-level-mismatch",
                           f"printed roles {'/'.join(organism.roles)} are far from its network trophic level "
                           f"{level:.1f} (P=1, C1=2, C2=3, C3=4, C4=5)",
                           location=source.locate(organism.id, "roles"), card=organism.id,
                           hint="check its eats list, or its roles")


def _warn_vp_order(deck: EcologiesDeck, source: DeckSource, report: Report) -> None:
    by_role: dict[str, list] = defaultdict(list)
    first: dict[str, str] = {}
    for organism in deck.organisms:
        feeding = [r for r in organism.roles if r != "SD"]
        top = max(feeding, key=ROLE_LEVEL.__getitem__) if feeding else "C1"
        by_role[top].append(organism.vp)
        first.setdefault(top, organism.id)
    averages = [(role, mean(by_role[role])) for role in ROLE_LEVEL if by_role[role]]
    for (low, low_vp), (high, high_vp) in zip(averages, averages[1:]):
        if high_vp < low_vp:
            report.warning("vp-not-rising",
                           f"cards topping out at {high} are worth {float(high_vp):.2f} VP on average, "
                           f"less than those topping out at {low} ({float(low_vp):.2f})",
                           location=source.locate(first[high], "vp"), card=first[high])
