"""The faster validation paths (issue 15, scale) give the answers of the plain ones they replaced.

Trophic levels are compared with networkx's dense computation, fed pairs and healthy witnesses with a
plain fixpoint and a plain nested search, and the compiled schema check with jsonschema: it may only
say "valid" where jsonschema finds nothing wrong, since jsonschema alone words the errors.
"""

from __future__ import annotations

import copy
import math
import random
from fractions import Fraction

import networkx as nx
import pytest
from jsonschema import Draft202012Validator

from cardtool.deck.model import Manifest
from cardtool.deck.schema import _surely_valid, load_schema
from cardtool.deck.yamlsource import load_yaml
from cardtool.games.ecologies import webs
from cardtool.games.ecologies.model import EcologiesDeck, Organism
from cardtool.issues import Report
from cardtool.resources import schemas_dir
from tests.conftest import DATA

ROOT = DATA.parent.parent
SCHEMAS = sorted(str(p.relative_to(schemas_dir())) for p in schemas_dir().rglob("*.schema.json"))


def _random_graph(rng: random.Random, size: int, links: int) -> nx.DiGraph:
    graph = nx.DiGraph()
    graph.add_nodes_from(f"n{i}" for i in range(size))
    for _ in range(links):
        a, b = rng.sample(range(size), 2)
        graph.add_edge(f"n{a}", f"n{b}")
    basal = [n for n in graph if graph.in_degree(n) == 0]
    reachable = set(basal).union(*(nx.descendants(graph, n) for n in basal))
    return graph.subgraph(reachable).copy()


@pytest.mark.parametrize("dense_limit", [webs._DENSE_CYCLE, 1])  # 1: every circle takes the sparse solve
def test_trophic_levels_are_networkx_levels(monkeypatch, dense_limit):
    monkeypatch.setattr(webs, "_DENSE_CYCLE", dense_limit)
    rng = random.Random(15)
    circles = 0
    for _ in range(60):
        size = rng.choice([3, 12, 40, 150])
        graph = _random_graph(rng, size, size * rng.choice([1, 2, 3]))
        if not graph:
            continue
        circles += any(len(c) > 1 for c in nx.strongly_connected_components(graph))
        expected = {node: float(level) for node, level in nx.trophic_levels(graph).items()}
        found = webs._levels(graph)
        assert list(found) == list(expected)  # same order too: basal nodes first
        assert all(math.isclose(found[n], expected[n], rel_tol=1e-9) for n in expected)
    assert circles > 10  # the random webs did have organisms eating each other in circles


def _plain_feedable(living: dict[str, Organism]) -> set[tuple[str, str]]:
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
                             for r in webs.prey_roles(role))
                if ok:
                    fed.add((organism.id, role))
                    changed = True
    return fed


def _plain_witness(living: dict[str, Organism], fed) -> dict[str, str] | None:
    cands = webs.candidates_in(living)
    pick = {role: [oid for oid in cands[role] if (oid, role) in fed] for role in ("P", "C1", "C2", "C3", "SD")}
    for c3 in pick["C3"]:
        for c2 in (x for x in pick["C2"] if x in living[c3].eats and x != c3):
            for c1 in (x for x in pick["C1"] if x not in (c2, c3)):
                for p in (x for x in pick["P"] if x in living[c1].eats and x not in (c1, c2, c3)):
                    for sd in (x for x in pick["SD"] if x not in (p, c1, c2, c3)):
                        if c1 in living[c2].eats or sd in living[c2].eats:
                            return {"P": p, "C1": c1, "C2": c2, "C3": c3, "SD": sd}
    return None


def _random_web(rng: random.Random, size: int) -> dict[str, Organism]:
    roles = ["P", "C1", "C2", "C3", "SD", "C4"]
    ids = [f"o{i}" for i in range(size)]
    living = {}
    for oid in ids:
        printed = tuple(dict.fromkeys(rng.choice(roles) for _ in range(rng.choice([1, 1, 2]))))
        eats = tuple(dict.fromkeys(rng.choice(ids) for _ in range(rng.randint(0, 3)))) if printed != ("P",) else ()
        living[oid] = Organism(id=oid, kind="organism", name=oid, count=1, biomes=("RIP",), roles=printed,
                               vp=Fraction(1), eats=eats, eaten_by=())
    return living


def test_fed_pairs_and_witness_are_those_of_the_plain_search():
    rng = random.Random(7)
    healthy = unhealthy = 0
    for _ in range(400):
        living = _random_web(rng, rng.choice([5, 8, 12, 25]))
        fed = webs.feedable_in(living)
        assert fed == _plain_feedable(living)
        witness = webs.witness_in(living, fed)
        assert witness == _plain_witness(living, fed)
        healthy += witness is not None
        unhealthy += witness is None
    assert healthy > 20 and unhealthy > 20


def test_deck_level_functions_use_each_biomes_organisms():
    cards = (Organism(id="a", kind="organism", name="a", count=1, biomes=("RIP", "SWA"), roles=("P",),
                      vp=Fraction(1), eats=(), eaten_by=("b",)),
             Organism(id="b", kind="organism", name="b", count=1, biomes=("SWA",), roles=("C1",),
                      vp=Fraction(1), eats=("a",), eaten_by=()))
    manifest = Manifest(id="t", name="t", version="1", game="ecologies", card_files=(), root=DATA)
    deck = EcologiesDeck(manifest=manifest, cards=cards, biome_codes=("RIP", "SWA"))
    assert webs.organisms_by_biome(deck) == {code: webs.organisms_in(deck, code) for code in ("RIP", "SWA")}
    assert webs.feedable(deck, "SWA") == {("a", "P"), ("b", "C1")}
    assert webs.feedable(deck, "RIP") == {("a", "P")}


def _docs():
    for path in sorted(ROOT.glob("decks/*/**/*.yaml")) + sorted(DATA.rglob("*.yaml")):
        doc = load_yaml(path, Report())
        if doc is not None:  # a few cards of a file are enough to break in every way
            data = doc.data
            yield {**data, "cards": data["cards"][:3]} if isinstance(data, dict) and isinstance(
                data.get("cards"), list) else data


def _mutations(data, rng: random.Random):
    """Copies of a card file's data each broken (or not) in one random place."""
    breakers = [lambda v: None, lambda v: 7, lambda v: "x\n", lambda v: [v], lambda v: {"k": v}, lambda v: True,
                lambda v: float("nan"), lambda v: 10 ** 30, lambda v: "a" * 300, lambda v: "\u0663", lambda v: ""]
    for _ in range(15):
        mutated = copy.deepcopy(data)
        node = mutated
        while isinstance(node, (dict, list)) and node and rng.random() < 0.8:
            key = rng.choice(list(node) if isinstance(node, dict) else range(len(node)))
            if not isinstance(node[key], (dict, list)) or rng.random() < 0.3:
                if isinstance(node, dict) and rng.random() < 0.2:
                    node[rng.choice(["extra", 3, "countt"])] = node.pop(key)  # unknown or number keys
                else:
                    node[key] = rng.choice(breakers)(node[key])
                break
            node = node[key]
        yield mutated


def test_compiled_schema_check_never_passes_what_jsonschema_refuses():
    rng = random.Random(3)
    refused = 0
    validators = {name: Draft202012Validator(load_schema(name)) for name in SCHEMAS}
    for data in _docs():
        for candidate in [data, *_mutations(data, rng)]:
            for name, validator in validators.items():
                valid = validator.is_valid(candidate)
                refused += not valid
                assert valid or not _surely_valid(candidate, name), (name, candidate)
    assert refused > 1000


def test_compiled_schema_check_passes_the_shipped_decks():
    """The fast path is taken for real decks (else it would only cost time)."""
    checked = 0
    for path in sorted(ROOT.glob("decks/*/deck.yaml")):
        data = load_yaml(path, Report()).data
        assert _surely_valid(data, "deck.schema.json")
        game_schema = f"{data['game']}/cards.schema.json"
        for pattern in data["cards"]:
            for card_file in sorted(path.parent.glob(pattern)):
                assert _surely_valid(load_yaml(card_file, Report()).data, game_schema), card_file
                checked += 1
    assert checked > 5


def test_loading_pauses_the_collector_and_gives_it_back_as_it_was(monkeypatch):
    """load pauses cyclic garbage collection (its rescans grew faster than the deck) and restores it as
    the caller had it, on or off, and after an error too."""
    import gc

    from cardtool.deck import loader

    deck = ROOT / "decks" / "ecologies-bizarre-biomes"
    during = []
    plain = loader._load

    def watched(*args, **kwargs):
        during.append(gc.isenabled())
        return plain(*args, **kwargs)

    monkeypatch.setattr(loader, "_load", watched)
    assert gc.isenabled()
    assert loader.load(deck, deep=False).report.ok
    assert during == [False] and gc.isenabled()
    gc.disable()
    try:
        loader.load(deck, deep=False)
        assert not gc.isenabled()
    finally:
        gc.enable()
    with pytest.raises(TypeError):
        loader.load(None)  # not a path: fails inside the pause
    assert gc.isenabled()
