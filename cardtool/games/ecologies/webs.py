"""Food-web analysis of an Ecologies deck with networkx: who can be fed, healthy witnesses, metrics.

Decision (docs/rules/ecologies.md): an SD eats everything, so it is fed by any other organism in its
ecology; `eats` lists only what a card eats in its other roles. A card eating an SD acts as C2.
"""

from __future__ import annotations

from dataclasses import dataclass
from statistics import pstdev

import networkx as nx

from cardtool.games.ecologies.model import HEALTHY_ROLES, ROLES, EcologiesDeck, Organism

#: The printed trophic level of each feeding role (P is level 1).
ROLE_LEVEL = {"P": 1, "C1": 2, "C2": 3, "C3": 4, "C4": 5}


def organisms_in(deck: EcologiesDeck, code: str) -> dict[str, Organism]:
    """The organisms that can live in a biome, by id, in deck order."""
    return {o.id: o for o in deck.organisms if code in o.biomes}


def prey_roles(role: str) -> tuple[str, ...]:
    """The roles a card's prey must be acting in for it to act in `role` (SD needs no listed prey)."""
    return {"C1": ("P",), "C2": ("C1", "SD"), "C3": ("C2",), "C4": ("C3",)}.get(role, ())


def feedable(deck: EcologiesDeck, code: str) -> set[tuple[str, str]]:
    """(organism id, role) pairs that can be fed in this biome through a chain down to a producer."""
    living = organisms_in(deck, code)
    fed = {(o.id, "P") for o in living.values() if "P" in o.roles}
    changed = True
    while changed:
        changed = False
        for organism in living.values():
            for role in organism.roles:
                if (organism.id, role) in fed:
                    continue
                if role == "SD":
                    ok = any(other != organism.id and r != "SD" for other, r in fed)
                else:
                    ok = any((prey, r) in fed for prey in organism.eats if prey in living and prey != organism.id
                             for r in prey_roles(role))
                if ok:
                    fed.add((organism.id, role))
                    changed = True
    return fed


def candidates(deck: EcologiesDeck, code: str) -> dict[str, list[str]]:
    """For each role, the organisms of this biome that print it."""
    living = organisms_in(deck, code)
    return {role: [o.id for o in living.values() if role in o.roles] for role in ROLES}


def find_witness(deck: EcologiesDeck, code: str) -> dict[str, str] | None:
    """Five distinct organisms filling P, C1, C2, C3 and SD, each fed inside that web; None if none.

    A larger healthy web always contains such a five-card core (each role needs one fed card, and
    one prey in the row below), so searching five-card webs is enough.
    """
    living = organisms_in(deck, code)
    fed = feedable(deck, code)
    pick = {role: [oid for oid in candidates(deck, code)[role] if (oid, role) in fed] for role in HEALTHY_ROLES}
    for c3 in pick["C3"]:
        for c2 in (x for x in pick["C2"] if x in living[c3].eats and x != c3):
            for c1 in (x for x in pick["C1"] if x not in (c2, c3)):
                for p in (x for x in pick["P"] if x in living[c1].eats and x not in (c1, c2, c3)):
                    for sd in (x for x in pick["SD"] if x not in (p, c1, c2, c3)):
                        if c1 in living[c2].eats or sd in living[c2].eats:
                            return {"P": p, "C1": c1, "C2": c2, "C3": c3, "SD": sd}
    return None


def why_unhealthy(deck: EcologiesDeck, code: str) -> str:
    """A sentence saying which healthy role cannot be filled in this biome, and why."""
    cands = candidates(deck, code)
    fed = feedable(deck, code)
    for role in HEALTHY_ROLES:
        if not cands[role]:
            return f"no organism of this biome can act as {role}"
    for role in HEALTHY_ROLES:
        if not any((oid, role) in fed for oid in cands[role]):
            below = " or ".join(prey_roles(role)) or "any other organism"
            return (f"{role} cannot be fed: {', '.join(cands[role])} eat no card that can act as {below} here")
    return ("every role can be fed, but not by five different organisms at once "
            "(the same cards are needed for two roles)")


def deck_graph(deck: EcologiesDeck, code: str | None = None) -> nx.DiGraph:
    """Prey -> predator edges from the `eats` lists, for one biome or the whole deck."""
    living = organisms_in(deck, code) if code else {o.id: o for o in deck.organisms}
    graph = nx.DiGraph()
    for organism in living.values():
        graph.add_node(organism.id, roles=organism.roles, vp=organism.vp)
    for organism in living.values():
        for prey in organism.eats:
            if prey in living and prey != organism.id:
                graph.add_edge(prey, organism.id)
    return graph


def _sd_only(deck: EcologiesDeck) -> set[str]:
    return {o.id for o in deck.organisms if set(o.roles) == {"SD"}}


def trophic_levels(deck: EcologiesDeck, code: str | None = None) -> dict[str, float]:
    """Network trophic levels (networkx) on the graph without SD-only cards.

    SD-only cards eat everything, which no `eats` list records: left in, they would count as basal
    and pull every predator of theirs one level down. Nodes no basal node reaches get no level.
    """
    graph = deck_graph(deck, code)
    graph.remove_nodes_from(_sd_only(deck) & set(graph))
    basal = [n for n in graph if graph.in_degree(n) == 0]
    reachable = set(basal)
    for node in basal:
        reachable |= nx.descendants(graph, node)
    sub = graph.subgraph(reachable).copy()
    if not sub:
        return {}
    return {node: float(level) for node, level in nx.trophic_levels(sub).items()}


@dataclass(frozen=True)
class WebMetrics:
    """Standard food-web statistics of one biome (Williams & Martinez style)."""

    species: int
    links: int
    links_per_species: float
    connectance: float
    basal: float
    intermediate: float
    top: float
    longest_chain: int
    omnivores: float
    incoherence: float | None


def metrics(deck: EcologiesDeck, code: str) -> WebMetrics:
    graph = deck_graph(deck, code)
    species, links = graph.number_of_nodes(), graph.number_of_edges()
    if not species:
        return WebMetrics(0, 0, 0.0, 0.0, 0.0, 0.0, 0.0, 0, 0.0, None)
    basal = sum(1 for n in graph if graph.in_degree(n) == 0)
    top = sum(1 for n in graph if graph.in_degree(n) > 0 and graph.out_degree(n) == 0)
    levels = trophic_levels(deck, code)
    consumers = [n for n in graph if graph.in_degree(n) > 0 and n in levels]
    omnivores = sum(1 for n in consumers
                    if len({round(levels[p]) for p in graph.predecessors(n) if p in levels}) > 1)
    diffs = [levels[b] - levels[a] for a, b in graph.edges if a in levels and b in levels]
    return WebMetrics(
        species=species, links=links, links_per_species=links / species, connectance=links / species ** 2,
        basal=basal / species, intermediate=(species - basal - top) / species, top=top / species,
        longest_chain=_longest_chain(graph), omnivores=omnivores / len(consumers) if consumers else 0.0,
        incoherence=pstdev(diffs) if len(diffs) > 1 else None)


def _longest_chain(graph: nx.DiGraph) -> int:
    """Links in the longest prey-to-predator chain (cycles condensed to one step)."""
    if not graph:
        return 0
    dag = graph if nx.is_directed_acyclic_graph(graph) else nx.condensation(graph)
    return nx.dag_longest_path_length(dag)


def table_row(organism: Organism, levels: dict[str, float]) -> str:
    """The role a card is drawn in on a table picture: its printed role nearest its network level."""
    feeding = [r for r in organism.roles if r != "SD"]
    if not feeding:
        return "SD"
    level = levels.get(organism.id)
    if level is None:
        return feeding[0]
    return min(feeding, key=lambda r: (abs(ROLE_LEVEL[r] - level), ROLE_LEVEL[r]))

