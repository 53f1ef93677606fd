"""Ecologies checks that every name a card uses (biome codes, prey and predator ids) exists, and that
deck.yaml's `rules:` names options and choices the game has."""

from __future__ import annotations

from cardtool.deck.source import DeckSource
from cardtool.games.ecologies.options import RULE_OPTIONS
from cardtool.issues import Report
from cardtool.suggest import did_you_mean


def check_rule_options(source: DeckSource, report: Report) -> None:
    """Every option of deck.yaml's `rules:` is one Ecologies has, with one of its choices."""
    for name, option in (source.manifest.rules or {}).items():
        if name not in RULE_OPTIONS:
            report.error("unknown-rule", f"Ecologies has no rule option '{name}'",
                         location=source.manifest_doc.locate(("rules", name), key=True), path=("rules", name),
                         hint=did_you_mean(name, RULE_OPTIONS) or f"options: {', '.join(RULE_OPTIONS)}")
        elif option.get("choice") not in RULE_OPTIONS[name]:
            report.error("unknown-rule", f"the rule option '{name}' has no choice '{option.get('choice')}'",
                         location=source.manifest_doc.locate(("rules", name, "choice")),
                         path=("rules", name, "choice"),
                         hint=did_you_mean(str(option.get("choice")), RULE_OPTIONS[name])
                         or f"choices: {', '.join(RULE_OPTIONS[name])}")


def check_references(source: DeckSource, report: Report) -> None:
    biome_codes: dict[str, str] = {}
    for entry in source.cards.values():
        if entry.kind != "biome":
            continue
        code = entry.data["code"]
        if code in biome_codes:
            report.error("duplicate-biome", f"biome code {code} is already used by card '{biome_codes[code]}'",
                         location=entry.locate("code"), card=entry.id, path=entry.path + ("code",),
                         hint="one biome card per biome; give it a count for its copies")
        else:
            biome_codes[code] = entry.id
    if not biome_codes:
        where = "taken alone, this expansion" if source.standalone else "this deck"
        report.error("no-biome", f"{where} has no biome card, so no ecology can be started",
                     location=source.manifest_doc.locate(("cards",)),
                     hint="add a biome card (kind: biome), or play it combined with its base deck")
    organisms = {cid for cid, e in source.cards.items() if e.kind == "organism"}
    for entry in source.cards.values():
        if entry.kind == "organism":
            for i, code in enumerate(entry.data["biomes"]):
                _check_code(entry, ("biomes", i), code, biome_codes, report)
            for field in ("eats", "eaten_by"):
                for i, other in enumerate(entry.data[field]):
                    _check_organism_ref(source, entry, (field, i), other, organisms, report)
        effects = entry.data.get("effects") or entry.data.get("bonus", {}).get("effects", [])
        base = ("effects",) if "effects" in entry.data else ("bonus", "effects")
        for e, effect in enumerate(effects):
            for b, code in enumerate(effect.get("filter", {}).get("biomes", ())):
                _check_code(entry, base + (e, "filter", "biomes", b), code, biome_codes, report)


def _check_code(entry, fields, code, biome_codes, report) -> None:
    if code not in biome_codes:
        report.error("unknown-biome", f"no biome card has the code {code}", location=entry.locate(*fields),
                     card=entry.id, path=entry.path + fields,
                     hint=did_you_mean(code, biome_codes) or f"known biomes: {', '.join(sorted(biome_codes))}")


def _check_organism_ref(source, entry, fields, other, organisms, report) -> None:
    if other in organisms:
        return
    if other in source.cards:
        report.error("bad-ref", f"'{other}' is a {source.cards[other].kind} card, not an organism",
                     location=entry.locate(*fields), card=entry.id, path=entry.path + fields)
        return
    report.error("unknown-ref", f"unknown card '{other}' in '{fields[0]}'", location=entry.locate(*fields),
                 card=entry.id, path=entry.path + fields, hint=did_you_mean(other, organisms))
