"""Food-web analysis of an Ecologies deck: who can be fed, healthy witnesses, trophic levels, metrics.

Decision (docs/rules/ecologies.md): an SD eats everything, so it is fed by any other organism in its
ecology; `eats` lists only what a card eats in its other roles. A card eating an SD acts as C2.

What `validate` and `info` run (fed pairs, witnesses, trophic levels) is plain Python (trophic.py);
networkx is imported only inside deck_graph and metrics, for `cardtool foodweb` and its build step.
"""

from __future__ import annotations

from dataclasses import dataclass
from statistics import pstdev
from typing import TYPE_CHECKING

from cardtool.games.ecologies import trophic
from cardtool.games.ecologies.model import HEALTHY_ROLES, ROLES, EcologiesDeck, Organism

if TYPE_CHECKING:
    import networkx as nx

#: The printed trophic level of each feeding role (P is level 1).
ROLE_LEVEL = {"P": 1, "C1": 2, "C2": 3, "C3": 4, "C4": 5}


def organisms_in(deck: EcologiesDeck, code: str) -> dict[str, Organism]:
    """The organisms that can live in a biome, by id, in deck order."""
    return {o.id: o for o in deck.organisms if code in o.biomes}


def organisms_by_biome(deck: EcologiesDeck) -> dict[str, dict[str, Organism]]:
    """organisms_in for every biome code of the deck, in one pass over the deck."""
    living: dict[str, dict[str, Organism]] = {code: {} for code in deck.biome_codes}
    for organism in deck.organisms:
        for code in organism.biomes:
            living.setdefault(code, {})[organism.id] = organism
    return living


def prey_roles(role: str) -> tuple[str, ...]:
    """The roles a card's prey must be acting in for it to act in `role` (SD needs no listed prey)."""
    return {"C1": ("P",), "C2": ("C1", "SD"), "C3": ("C2",), "C4": ("C3",)}.get(role, ())


def feedable(deck: EcologiesDeck, code: str) -> set[tuple[str, str]]:
    """(organism id, role) pairs that can be fed in this biome through a chain down to a producer."""
    return feedable_in(organisms_in(deck, code))


def feedable_in(living: dict[str, Organism]) -> set[tuple[str, str]]:
    """feedable for the organisms of one biome (organisms_in).

    Fed pairs spread from the producers along the `eats` lists, each pair looked at once (a worklist,
    so the cost grows with the links, not with the links times the length of the longest chain).
    """
    needs: dict[tuple[str, str], list[tuple[str, str]]] = {}  # (prey, its role) -> pairs it would feed
    for organism in living.values():
        for role in organism.roles:
            for prey in organism.eats:
                if prey in living and prey != organism.id:
                    for r in prey_roles(role):
                        needs.setdefault((prey, r), []).append((organism.id, role))
    scavengers = [o.id for o in living.values() if "SD" in o.roles]
    fed: set[tuple[str, str]] = set()
    feeders: set[str] = set()  # organisms with a fed role other than SD: an SD beside them is fed
    queue = [(o.id, "P") for o in living.values() if "P" in o.roles]
    while queue:
        pair = queue.pop()
        if pair in fed:
            continue
        fed.add(pair)
        queue.extend(needs.get(pair, ()))
        if pair[1] != "SD" and pair[0] not in feeders:
            feeders.add(pair[0])
            if len(feeders) <= 2:  # an SD needs one feeder other than itself: only the first two matter
                queue.extend((oid, "SD") for oid in scavengers if feeders - {oid})
    return fed


def candidates(deck: EcologiesDeck, code: str) -> dict[str, list[str]]:
    """For each role, the organisms of this biome that print it."""
    return candidates_in(organisms_in(deck, code))


def candidates_in(living: dict[str, Organism]) -> dict[str, list[str]]:
    """candidates for the organisms of one biome (organisms_in)."""
    return {role: [o.id for o in living.values() if role in o.roles] for role in ROLES}


def find_witness(deck: EcologiesDeck, code: str) -> dict[str, str] | None:
    """Five distinct organisms filling P, C1, C2, C3 and SD, each fed inside that web; None if none.

    A larger healthy web always contains such a five-card core (each role needs one fed card, and
    one prey in the row below), so searching five-card webs is enough.
    """
    living = organisms_in(deck, code)
    return witness_in(living, feedable_in(living))


def witness_in(living: dict[str, Organism], fed: set[tuple[str, str]]) -> dict[str, str] | None:
    """find_witness for the organisms of one biome and their feedable pairs.

    The first web in the order of a plain search (C3, then C2 among its prey, C1, P among the C1's prey,
    SD, each in deck order), found without trying every SD for every choice of the other four: once
    P, C1, C2 and C3 are chosen the SD can be any other fed SD if the C2 eats the C1, else one the C2 eats.
    """
    pick = {role: [oid for oid in ids if (oid, role) in fed] for role, ids in candidates_in(living).items()
            if role in HEALTHY_ROLES}
    rank = {role: {oid: i for i, oid in enumerate(ids)} for role, ids in pick.items()}

    def in_order(role: str, ids) -> list[str]:
        """The ids that are fed candidates for role, in deck order."""
        return sorted({x for x in ids if x in rank[role]}, key=rank[role].__getitem__)

    for c3 in pick["C3"]:
        for c2 in (x for x in in_order("C2", living[c3].eats) if x != c3):
            eats = set(living[c2].eats)
            sd_prey = in_order("SD", eats)
            if any(x not in (c2, c3) for x in sd_prey):
                c1_options = pick["C1"]
            else:  # no SD can be the C2's food: its C1 must be
                c1_options = in_order("C1", eats)
            for c1 in (x for x in c1_options if x not in (c2, c3)):
                sds = pick["SD"] if c1 in eats else sd_prey
                for p in (x for x in in_order("P", living[c1].eats) if x not in (c1, c2, c3)):
                    sd = next((x for x in sds if x not in (p, c1, c2, c3)), None)
                    if sd is not None:
                        return {"P": p, "C1": c1, "C2": c2, "C3": c3, "SD": sd}
    return None


def why_unhealthy(deck: EcologiesDeck, code: str) -> str:
    """A sentence saying which healthy role cannot be filled in this biome, and why."""
    living = organisms_in(deck, code)
    return why_unhealthy_in(living, feedable_in(living))


def why_unhealthy_in(living: dict[str, Organism], fed: set[tuple[str, str]]) -> str:
    """why_unhealthy for the organisms of one biome and their feedable pairs."""
    cands = candidates_in(living)
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
    """Prey -> predator edges from the `eats` lists, for one biome or the whole deck (networkx, for
    `cardtool foodweb`'s metrics and exports)."""
    import networkx as nx

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


def prey_graph(deck: EcologiesDeck, code: str | None = None) -> dict[str, set[str]]:
    """deck_graph as a plain mapping: each organism's id -> the ids of its prey (in the biome, if given)."""
    living = organisms_in(deck, code) if code else {o.id: o for o in deck.organisms}
    return {o.id: {p for p in o.eats if p in living and p != o.id} for o in living.values()}


def trophic_levels(deck: EcologiesDeck, code: str | None = None) -> dict[str, float]:
    """Network trophic levels (Levine 1980, as networkx defines them) on the graph without SD-only cards.

    SD-only cards eat everything, which no `eats` list records: left in, they would count as basal
    and pull every predator of theirs one level down. Nodes no basal node reaches get no level.
    """
    sd_only = _sd_only(deck)
    graph = {node: prey - sd_only for node, prey in prey_graph(deck, code).items() if node not in sd_only}
    return _solve(graph)


#: Largest group of organisms eating each other in a circle whose levels are solved as a dense system.
_DENSE_CYCLE = trophic.DENSE_CIRCLE


def _solve(graph: dict[str, set[str]]) -> dict[str, float]:
    return trophic.trophic_levels(graph, _DENSE_CYCLE)


def _levels(graph: nx.DiGraph) -> dict[str, float]:
    """What nx.trophic_levels computes for a networkx graph, by the plain-Python solve (trophic.py):
    levels follow prey before predator, and only organisms eating each other in a circle need a
    linear system, solved for that group alone (networkx inverts one dense matrix of every non-basal
    node, whose memory grows with their square and time with their cube)."""
    return _solve({node: set(graph.predecessors(node)) for node in graph})


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
    """The statistics of one biome's web (networkx: `cardtool foodweb` and its build step only)."""
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
        # Rounded: the levels' last bits follow the order a circle's equations are solved in, which set
        # order (string hashing) changes from run to run; six decimals are all anyone reads.
        incoherence=round(pstdev(sorted(diffs)), 6) if len(diffs) > 1 else None)


def _longest_chain(graph: nx.DiGraph) -> int:
    """Links in the longest prey-to-predator chain (cycles condensed to one step)."""
    import networkx as nx

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

