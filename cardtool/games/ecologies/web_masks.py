"""A web as the arrangement solver (arrange.py) reads it: per position of the canonical order, the positions it
eats (a bitmask) and the roles it may take there. The compiled kernel builds the same (`cardtool_accel._ecologies`,
compared with this reference in tests/test_ecologies_accel.py); arrange._masks chooses which builds it.
"""

from __future__ import annotations


def masks(eats_def: tuple[frozenset[int], ...], lives: tuple[tuple[int, ...], ...], defs: tuple[int, ...]):
    """Per position: what it eats (bitmask of positions) and the roles it may take (numbers, printed order),
    from each definition's prey (`eats_def`) and its roles where the web lives (`lives`: arrange._solver_roles)."""
    positions: dict[int, int] = {}  # definition -> bitmask of the positions holding a copy
    for j, d in enumerate(defs):
        positions[d] = positions.get(d, 0) | 1 << j
    eats = []
    for d in defs:
        mask = 0
        for prey in eats_def[d] & positions.keys():  # never its own definition: no copy eats another
            mask |= positions[prey]
        eats.append(mask)
    return eats, [lives[d] for d in defs]
