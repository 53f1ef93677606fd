"""A biome's food web described for people (text) and for tools (JSON-ready data)."""

from __future__ import annotations

from dataclasses import asdict

from cardtool.games.ecologies.model import HEALTHY_ROLES, EcologiesDeck
from cardtool.games.ecologies.webs import find_witness, metrics, organisms_in, why_unhealthy


def summary(deck: EcologiesDeck, code: str) -> dict:
    """Metrics, a healthy witness web or why there is none, as JSON-ready data."""
    witness = find_witness(deck, code)
    return {"name": deck.biome(code).name, "metrics": asdict(metrics(deck, code)),
            "healthy_witness": witness, "why_unhealthy": None if witness else why_unhealthy(deck, code)}


def text(deck: EcologiesDeck, code: str) -> str:
    """The same as lines to read, the witness web in table rows (top row first)."""
    m = metrics(deck, code)
    incoherence = "n/a" if m.incoherence is None else f"{m.incoherence:.2f}"
    lines = [f"{code} {deck.biome(code).name}",
             f"  species {m.species} (different organism cards; copies are not counted), links {m.links}, links/species {m.links_per_species:.2f}, "
             f"connectance {m.connectance:.3f}",
             f"  basal {m.basal:.0%}, intermediate {m.intermediate:.0%}, top {m.top:.0%}; "
             f"longest chain {m.longest_chain} links; omnivores {m.omnivores:.0%}; "
             f"trophic incoherence {incoherence}"]
    witness = find_witness(deck, code)
    if witness is None:
        lines.append(f"  cannot be healthy: {why_unhealthy(deck, code)}")
    else:
        living = organisms_in(deck, code)
        lines.append("  a healthy web (top row first):")
        for role in reversed(HEALTHY_ROLES[:-1]):
            line = f"    {role:<3} {living[witness[role]].name}"
            if role == "C1":
                line += f"   |  SD  {living[witness['SD']].name}"
            lines.append(line)
    return "\n".join(lines) + "\n"
