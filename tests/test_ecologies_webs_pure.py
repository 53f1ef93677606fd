"""The plain-Python food-web algorithms (games/ecologies/trophic.py) answer as networkx does.

validate and info no longer load networkx or numpy (issue 15 item 1), so the trophic levels, the
reachability from basal organisms and the strongly connected parts are compared here with networkx's
own functions: on every shipped Ecologies deck (whole deck and each biome), on random graphs
(hypothesis, derandomized) and on shapes chosen to reach the sparse solve and long chains. The
food-web warnings of the shipped decks and fixtures are compared with those computed from networkx's levels.
"""

from __future__ import annotations

import math

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtool.deck.loader import load
from cardtool.games.ecologies import checks, trophic, webs
from tests.conftest import DATA, DECKS

ECOLOGIES_DECKS = [DECKS / "ecologies-bizarre-biomes", DECKS / "frozen-and-deep"]
FIXTURES = sorted(p for p in (DATA / "foodweb").iterdir() if (p / "deck.yaml").is_file())


def _prey(graph: nx.DiGraph) -> dict:
    return {node: set(graph.predecessors(node)) for node in graph}


def _networkx_levels(graph: nx.DiGraph) -> dict:
    """nx.trophic_levels on the part of graph a basal node reaches (where networkx defines them)."""
    basal = [n for n in graph if graph.in_degree(n) == 0]
    reached = set(basal).union(*(nx.descendants(graph, n) for n in basal))
    sub = graph.subgraph(reached).copy()
    return {node: float(level) for node, level in nx.trophic_levels(sub).items()} if sub else {}


def _assert_same_levels(found: dict, expected: dict) -> None:
    assert list(found) == list(expected)  # same nodes, same order (basal first)
    for node, level in expected.items():
        assert math.isclose(found[node], level, rel_tol=1e-9, abs_tol=1e-12), node


def _deck_networkx_levels(deck, code=None) -> dict:
    graph = webs.deck_graph(deck, code)
    graph.remove_nodes_from(webs._sd_only(deck) & set(graph))
    return _networkx_levels(graph)


@pytest.mark.parametrize("folder", ECOLOGIES_DECKS, ids=lambda p: p.name)
def test_shipped_decks_levels_are_networkx_levels(folder):
    deck = load(folder).deck
    for code in (None, *deck.biome_codes):
        _assert_same_levels(webs.trophic_levels(deck, code), _deck_networkx_levels(deck, code))
    assert webs.prey_graph(deck) == _prey(webs.deck_graph(deck))


@pytest.mark.parametrize("folder", ECOLOGIES_DECKS + FIXTURES, ids=lambda p: p.name)
def test_food_web_warnings_are_those_of_networkx_levels(folder, monkeypatch):
    """The same trophic-level warnings, word for word, as with networkx's levels."""
    plain = load(folder).report.format()
    monkeypatch.setattr(checks, "trophic_levels", _deck_networkx_levels)
    assert load(folder).report.format() == plain


def _graph(size: int, edges: list[tuple[int, int]]) -> nx.DiGraph:
    graph = nx.DiGraph()
    graph.add_nodes_from(f"n{i}" for i in range(size))
    graph.add_edges_from((f"n{a % size}", f"n{b % size}") for a, b in edges)
    return graph


graphs = st.integers(1, 30).flatmap(
    lambda size: st.builds(_graph, st.just(size), st.lists(st.tuples(st.integers(0, size - 1),
                                                                     st.integers(0, size - 1)), max_size=3 * size)))


@settings(max_examples=60, derandomize=True, deadline=None)
@given(graphs, st.sampled_from([trophic.DENSE_CIRCLE, 0]))  # 0: every circle takes the sparse solve
def test_random_graphs_levels_are_networkx_levels(graph, dense_circle):
    _assert_same_levels(trophic.trophic_levels(_prey(graph), dense_circle), _networkx_levels(graph))


@settings(max_examples=60, derandomize=True, deadline=None)
@given(graphs)
def test_random_graphs_parts_and_reach_are_networkx(graph):
    prey = _prey(graph)
    parts = trophic.strong_components(prey)
    assert sorted(map(sorted, parts)) == sorted(map(sorted, nx.strongly_connected_components(graph)))
    where = {node: i for i, part in enumerate(parts) for node in part}
    assert all(where[a] <= where[b] for a, b in graph.edges)  # each part after the parts holding its prey
    basal = [n for n in graph if graph.in_degree(n) == 0]
    assert trophic.reachable(prey, basal) == set(basal).union(*(nx.descendants(graph, n) for n in basal))


def test_a_large_circle_takes_the_sparse_solve_and_matches_networkx():
    size = 3 * trophic.DENSE_CIRCLE // 2
    graph = nx.DiGraph([(f"c{i}", f"c{(i + 1) % size}") for i in range(size)])  # a ring of 300
    graph.add_edges_from((f"b{i}", f"c{7 * i}") for i in range(20))  # fed from 20 producers
    graph.add_edges_from((f"c{i}", f"c{(i * 31) % size}") for i in range(0, size, 3))  # and chords
    assert max(map(len, nx.strongly_connected_components(graph))) > trophic.DENSE_CIRCLE
    _assert_same_levels(trophic.trophic_levels(_prey(graph)), _networkx_levels(graph))


def test_a_chain_of_ten_thousand_needs_no_recursion():
    prey = {0: set(), **{i: {i - 1} for i in range(1, 10_000)}}
    levels = trophic.trophic_levels(prey)
    assert levels[9_999] == 10_000.0
    assert len(trophic.strong_components(prey)) == 10_000


def test_webs_levels_of_a_networkx_graph_use_the_plain_solve():
    graph = nx.DiGraph([("a", "b"), ("b", "c"), ("c", "b")])  # b eats a and c, c eats b
    assert webs._levels(graph) == pytest.approx({"a": 1.0, "b": 4.0, "c": 5.0})  # b = 1 + (1 + c) / 2, c = 1 + b
