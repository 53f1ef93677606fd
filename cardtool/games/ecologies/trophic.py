"""Trophic levels of a food web in plain Python: a graph is a mapping node -> its prey (dicts of sets).

What networkx's `trophic_levels` computes (Levine 1980): a node eating nothing is basal, level 1; any
other node is 1 + the mean level of its prey; nodes no basal node reaches get no level. networkx inverts
one dense matrix of every non-basal node with numpy; here levels follow prey before predator (the
strongly connected parts in that order), and only organisms eating each other in a circle need a linear
system, solved exactly by Gaussian elimination over that circle alone. The validate path thus loads
neither networkx nor numpy (issue 15 item 1); tests/test_ecologies_webs_pure.py compares the answers
with networkx's.

Imported by games/ecologies/webs.py; imports nothing of cardtool.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable, Mapping

Node = Hashable
Prey = Mapping[Node, Collection[Node]]

#: Largest circle solved as a dense system; larger ones use the sparse elimination.
DENSE_CIRCLE = 200


def predators_of(prey: Prey) -> dict[Node, list[Node]]:
    """The reverse mapping: each node's predators (the nodes listing it as prey), in node order."""
    predators: dict[Node, list[Node]] = {node: [] for node in prey}
    for node, eaten in prey.items():
        for p in eaten:
            predators[p].append(node)
    return predators


def reachable(prey: Prey, sources: Iterable[Node]) -> set[Node]:
    """Every node some source reaches along prey -> predator links (the sources included)."""
    predators = predators_of(prey)
    seen = set(sources)
    frontier = list(seen)
    while frontier:
        for predator in predators[frontier.pop()]:
            if predator not in seen:
                seen.add(predator)
                frontier.append(predator)
    return seen


def strong_components(prey: Prey) -> list[list[Node]]:
    """The strongly connected parts (organisms eating each other in a circle, or single nodes), each
    listed after every part holding its prey: Tarjan's algorithm over prey links, without recursion,
    so a chain of 10,000 organisms does not reach Python's recursion limit."""
    index: dict[Node, int] = {}
    low: dict[Node, int] = {}
    stack: list[Node] = []
    on_stack: set[Node] = set()
    parts: list[list[Node]] = []
    for root in prey:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root), on_stack.add(root)
        work = [(root, iter(prey[root]))]
        while work:
            node, edges = work[-1]
            for p in edges:
                if p not in index:
                    index[p] = low[p] = len(index)
                    stack.append(p), on_stack.add(p)
                    work.append((p, iter(prey[p])))
                    break
                if p in on_stack:
                    low[node] = min(low[node], index[p])
            else:  # every prey of node looked at
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    part = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        part.append(member)
                        if member == node:
                            break
                    parts.append(part)
    return parts


def trophic_levels(prey: Prey, dense_circle: int = DENSE_CIRCLE) -> dict[Node, float]:
    """Level of every node a basal node reaches, ordered as networkx orders them: basal nodes first,
    then the others, each group in the mapping's order. Every prey must be a node of the mapping."""
    basal = [node for node, eaten in prey.items() if not eaten]
    fed = reachable(prey, basal)
    web = {node: [p for p in eaten if p in fed] for node, eaten in prey.items() if node in fed}
    levels: dict[Node, float] = {}
    for part in strong_components(web):
        if len(part) == 1 and part[0] not in web[part[0]]:
            node = part[0]
            eaten = web[node]
            levels[node] = 1.0 + sum(levels[p] for p in eaten) / len(eaten) if eaten else 1.0
        else:
            levels.update(_circle_levels(web, part, levels, dense_circle))
    return {**{n: 1.0 for n in basal}, **{n: levels[n] for n in web if web[n]}}


def _circle_levels(web: Prey, members: list[Node], known: Mapping[Node, float],
                   dense_circle: int) -> dict[Node, float]:
    """Levels of a group eating each other in a circle, their other prey's levels known:
    s_i - sum over prey j in the group of s_j / k_i = 1 + sum over other prey j of s_j / k_i.

    The matrix is an M-matrix (ones on the diagonal, each row's other entries negative and summing to
    at least -1, strictly more for a member eating outside the circle, which some member does since a
    basal node reaches it): elimination needs no pivoting and every pivot stays positive."""
    position = {node: i for i, node in enumerate(members)}
    rows: list[dict[int, float]] = []
    rhs: list[float] = []
    for node in members:
        eaten = web[node]  # never empty: the node has prey inside its group
        row = {position[node]: 1.0}
        total = 1.0
        for p in eaten:
            if p in position:
                j = position[p]
                row[j] = row.get(j, 0.0) - 1.0 / len(eaten)
            else:
                total += known[p] / len(eaten)
        rows.append(row)
        rhs.append(total)
    solve = _dense_solve if len(members) <= dense_circle else _sparse_solve
    solution = solve(rows, rhs)
    return {node: solution[i] for node, i in position.items()}


def _dense_solve(rows: list[dict[int, float]], rhs: list[float]) -> list[float]:
    """Gaussian elimination of a small system, row by row, without pivoting (see _circle_levels)."""
    size = len(rows)
    matrix = [[row.get(j, 0.0) for j in range(size)] + [b] for row, b in zip(rows, rhs)]
    for k in range(size):
        pivot_row = matrix[k]
        pivot = pivot_row[k]
        for i in range(k + 1, size):
            row = matrix[i]
            factor = row[k] / pivot
            if factor:
                for j in range(k, size + 1):
                    row[j] -= factor * pivot_row[j]
    solution = [0.0] * size
    for k in range(size - 1, -1, -1):
        row = matrix[k]
        solution[k] = (row[size] - sum(row[j] * solution[j] for j in range(k + 1, size))) / row[k]
    return solution


def _sparse_solve(rows: list[dict[int, float]], rhs: list[float]) -> list[float]:
    """Gaussian elimination keeping only nonzero entries, variables eliminated fewest entries first
    (a static minimum-degree order, which keeps the fill-in of a sparse web small)."""
    size = len(rows)
    rows = [dict(row) for row in rows]
    rhs = list(rhs)
    column: list[set[int]] = [set() for _ in range(size)]  # rows holding each variable
    for i, row in enumerate(rows):
        for j in row:
            column[j].add(i)
    order = sorted(range(size), key=lambda k: (len(rows[k]) + len(column[k]), k))
    done: list[int] = []
    eliminated: set[int] = set()
    for k in order:
        pivot_row = rows[k]
        pivot = pivot_row[k]
        for i in column[k] - eliminated - {k}:
            row = rows[i]
            factor = row.pop(k) / pivot
            for j, value in pivot_row.items():
                if j != k:
                    if j not in row:
                        column[j].add(i)
                    row[j] = row.get(j, 0.0) - factor * value
            rhs[i] -= factor * rhs[k]
        eliminated.add(k)
        done.append(k)
    solution = [0.0] * size
    for k in reversed(done):  # row k holds only k and variables eliminated after it
        row = rows[k]
        solution[k] = (rhs[k] - sum(v * solution[j] for j, v in row.items() if j != k)) / row[k]
    return solution
