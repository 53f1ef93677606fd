"""The arrangement solver: a role for each organism of one ecology, keeping the most cards fed.

Feeding (docs/rules/ecologies.md): a producer (P) needs nothing; an SD needs another organism fed in
a non-SD role, which in any web means a producer; a C1 eats a card acting as P; a C2 eats a card acting
as C1 or SD; a C3 eats a C2; a C4 eats a C3. A card has one role at a time and feeds any number of
predators. The best arrangement keeps the most cards, then is healthy (P, C1, C2, C3 and SD each
filled), then earns the most role bonus (`weights`: VP per card acting in each role, e.g. Mangrove's
C4), then comes first in a fixed search order, so it is a pure function of the cards and is memoised.
That order only proposes: `alternatives` lists every arrangement as good by those three counts (all
cards fed, health, role-bonus VP), among which the owner chooses (the engine's `Arrange` choice).

The search is a branch and bound over cards (fewest options first) with forward checking: after each
choice, every chosen card must still have a possible prey. Webs hold at most a biome's organisms
(about 14), and in practice the first complete arrangement found already meets the upper bound.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cardtool.games.ecologies import accel
from cardtool.games.ecologies.feeding import valid, why_unfed  # the rules read directly; their old home
from cardtool.games.ecologies.table import CardTable
from cardtool.games.ecologies.web_masks import masks

__all__ = ["Arrangement", "alternatives", "arrange", "canonical", "feasible", "fits", "fits_with", "is_healthy",
           "valid", "why_unfed"]

#: Roles as small numbers inside the solver; P=0, C1=1, SD=2 (both on the second row), C2, C3, C4.
ROLE_NAMES = ("P", "C1", "SD", "C2", "C3", "C4")
ROLE_NUMBER = {name: i for i, name in enumerate(ROLE_NAMES)}
_ROLE_OR_NONE = {None: None, **dict(enumerate(ROLE_NAMES))}  # a solver's role number (None: unfed) as a name
P, C1, SD, C2, C3, C4 = range(6)
HEALTH = (P, C1, C2, C3, SD)
#: The roles a card's prey must act in, per role (SD is special: any producer in the web feeds it).
PREY = {C1: (P,), C2: (C1, SD), C3: (C2,), C4: (C3,)}
NO_WEIGHTS = (0, 0, 0, 0, 0, 0)
#: The same by role name: the roles a consumer's prey may act in.
PREY_ROLES = {"C1": ("P",), "C2": ("C1", "SD"), "C3": ("C2",), "C4": ("C3",)}
#: Search nodes before the solver settles for the best arrangement found so far (never reached by
#: the shipped decks; a guard for pathological designer decks).
NODE_BUDGET = 50_000
_CACHE_LIMIT = 200_000


@dataclass(frozen=True, slots=True)
class Arrangement:
    """Cards in a canonical order (by definition, then number) and the role of each (None: not fed)."""

    cards: tuple[int, ...]
    roles: tuple[str | None, ...]
    healthy: bool
    value: int = 0

    @property
    def kept(self) -> tuple[int, ...]:
        return tuple(c for c, r in zip(self.cards, self.roles) if r is not None)

    @property
    def dropped(self) -> tuple[int, ...]:
        return tuple(c for c, r in zip(self.cards, self.roles) if r is None)

    def role_of(self, card: int) -> str | None:
        return self.roles[self.cards.index(card)]


def canonical(table: CardTable, cards: Sequence[int]) -> tuple[int, ...]:
    """Cards sorted by definition, then by number: the order every arrangement uses."""
    return tuple(sorted(cards, key=table.canonical_rank.__getitem__))


def arrange(table: CardTable, code: str, cards: Sequence[int], weights: tuple[int, ...] = NO_WEIGHTS
            ) -> Arrangement:
    """The best arrangement of these organisms in an ecology of biome `code` (memoised per deck)."""
    quick = (code, tuple(cards), weights)  # the same cards in the same order: no sorting needed
    found = table.arranged.get(quick)
    if found is not None:
        return found
    order = canonical(table, cards)
    defs = tuple(table.def_of[c] for c in order)
    key = (code, defs, weights)
    cache = table.arrangements
    solved = cache.get(key)
    if solved is None:
        solved = _solve(table, code, defs, weights)
        if len(cache) >= _CACHE_LIMIT:
            cache.clear()
        cache[key] = solved
    roles, healthy, value = solved
    result = Arrangement(order, roles, healthy, value)
    if len(table.arranged) >= _CACHE_LIMIT:
        table.arranged.clear()
    table.arranged[quick] = result
    return result


def fits(table: CardTable, code: str, cards: Sequence[int], weights: tuple[int, ...] = NO_WEIGHTS) -> bool:
    """Whether every one of these organisms can be fed together in an ecology of this biome."""
    return None not in arrange(table, code, cards, weights).roles


def fits_with(table: CardTable, code: str, cards: Sequence[int], roles: Sequence[str], card: int) -> bool:
    """fits(cards + (card,)) for a web whose cards are all fed acting in `roles`: true at once when the
    new card is fed beside them as they are (a producer, an SD beside a producer, or a consumer whose
    prey acts in the row below), since a new card never starves another; false at once when no card
    there could ever feed it (none prints a role its prey needs); else the solver decides."""
    if code not in table.biomes[card]:
        return False
    printed, def_of = table.roles, table.def_of
    prey = table.eats_def[def_of[card]]  # table.eats(card, other), inlined: asked for every card of the web
    could = False  # whether some arrangement might feed it
    for role in printed[card]:
        if role == "P":
            return True
        if role == "SD":
            if "P" in roles:
                return True
            could = could or any("P" in printed[other] for other in cards)
            continue
        prey_roles = PREY_ROLES[role]
        for other, acting in zip(cards, roles):
            if other != card and def_of[other] in prey:
                if acting in prey_roles:
                    return True
                could = could or any(r in prey_roles for r in printed[other])
    return could and fits(table, code, tuple(cards) + (card,))


def _masks(table: CardTable, code: str, defs: tuple[int, ...]):
    """web_masks.masks of a web of biome `code`: by the compiled kernel where it serves (accel.py), else in Python."""
    lives = table.solver_roles.get(code) or _solver_roles(table, code)
    if accel.serving(len(defs), NO_WEIGHTS):  # within the kernel's range (accel.MAX_CARDS)
        return accel.KERNEL.masks(table.eats_def, lives, defs)
    return masks(table.eats_def, lives, defs)


def _solver_roles(table: CardTable, code: str) -> tuple[tuple[int, ...], ...]:
    """Per definition, its printed roles as the solver's numbers where it lives in biome `code`, else
    none (made once per card table and biome)."""
    table.solver_roles[code] = found = tuple(
        tuple(ROLE_NUMBER[r] for r in getattr(d, "roles", ())) if code in getattr(d, "biomes", ()) else ()
        for d in table.defs)
    return found


def feasible(eats: list[int], roles: list[tuple[int, ...]]) -> list[int]:
    """Per role, the bitmask of positions that could be fed in it if every other card helped."""
    can = [0] * 6
    for i, rs in enumerate(roles):
        if P in rs:
            can[P] |= 1 << i
    changed = True
    while changed:
        changed = False
        for i, rs in enumerate(roles):
            bit = 1 << i
            for r in rs:
                if r == P or can[r] & bit:
                    continue
                if r == SD:
                    ok = can[P] & ~bit
                else:
                    prey = 0
                    for p in PREY[r]:
                        prey |= can[p]
                    ok = eats[i] & prey
                if ok:
                    can[r] |= bit
                    changed = True
    return can


def _solve(table: CardTable, code: str, defs: tuple[int, ...], weights: tuple[int, ...]):
    """The best arrangement's roles (names, None: unfed), health and role-bonus VP: solved by the compiled
    kernel where it serves (accel.py), else by `solve`, the readable reference it follows node for node."""
    eats, printed = _masks(table, code, defs)
    solved = None
    if accel.serving(len(defs), weights):
        try:
            solved = accel.KERNEL.solve(eats, printed, weights, NODE_BUDGET)
        except (ValueError, TypeError, OverflowError):  # a web outside the kernel's range
            solved = None
    roles, healthy, value = solved or solve(eats, printed, weights)
    return tuple(map(_ROLE_OR_NONE.__getitem__, roles)), healthy, value


def solve(eats: list[int], printed: list[tuple[int, ...]], weights: tuple[int, ...]):
    """The branch and bound over one web's masks (`_masks`): its roles as numbers (None: unfed), whether
    it is healthy, and its role-bonus VP."""
    n = len(eats)
    can = feasible(eats, printed)
    # A card tries first the roles that earn most, then the healthy roles fewest cards can fill.
    preference = [(-weights[r], can[r].bit_count() if r in HEALTH else 99, r) for r in range(6)]
    options = [sorted([r for r in printed[i] if can[r] >> i & 1], key=preference.__getitem__) for i in range(n)]
    order = sorted((i for i in range(n) if options[i]), key=lambda i: (len(options[i]), i))
    prey_can = [0] * 6
    for r, prey in PREY.items():
        for p in prey:
            prey_can[r] |= can[p]

    assigned: list[int | None] = [None] * n
    role_mask = [0] * 6
    kept: list[int] = []  # positions assigned a role, in order
    unassigned = 0
    for i in order:
        unassigned |= 1 << i
    best_key = (-1, -1, -1)
    best: list[int | None] | None = None
    max_weight = [max(weights[r] for r in options[i]) if options[i] else 0 for i in range(n)]
    ceiling = (len(order), int(all(can[h] for h in HEALTH) and len(order) >= 5), sum(max_weight))
    nodes = 0

    can_p, can_c1, can_sd, can_c2, can_c3 = can[P], can[C1], can[SD], can[C2], can[C3]
    rest_weight = [sum(max_weight[i] for i in order[depth:]) for depth in range(len(order) + 1)]
    size = len(order)

    def consistent() -> bool:
        """Every card given a role still has a possible prey (forward checking)."""
        producers = role_mask[P] | (unassigned & can_p)
        prey_now = (0, role_mask[P], 0, role_mask[C1] | role_mask[SD], role_mask[C2], role_mask[C3])
        for k in kept:
            r = assigned[k]
            if r == P:
                continue
            if r == SD:
                if not producers & ~(1 << k):
                    return False
            elif not eats[k] & (prey_now[r] | (unassigned & prey_can[r])):
                return False
        return True

    def search(depth: int, weight: int) -> bool:
        """Explore; True stops the whole search (the ceiling is reached or the budget spent)."""
        nonlocal best_key, best, nodes, unassigned
        nodes += 1
        if depth == size:
            key = (len(kept), int(bool(role_mask[P] and role_mask[C1] and role_mask[C2] and role_mask[C3]
                                       and role_mask[SD])), weight)
            if key > best_key:
                best_key, best = key, assigned[:]
            return best_key == ceiling
        if nodes > NODE_BUDGET:
            return True
        healthy = bool((role_mask[P] or unassigned & can_p) and (role_mask[C1] or unassigned & can_c1)
                       and (role_mask[C2] or unassigned & can_c2) and (role_mask[C3] or unassigned & can_c3)
                       and (role_mask[SD] or unassigned & can_sd))
        if (len(kept) + size - depth, int(healthy), weight + rest_weight[depth]) <= best_key:
            return False
        i = order[depth]
        bit = 1 << i
        unassigned &= ~bit
        for r in options[i]:
            assigned[i] = r
            role_mask[r] |= bit
            kept.append(i)
            if consistent() and search(depth + 1, weight + weights[r]):
                return True
            kept.pop()
            role_mask[r] &= ~bit
        assigned[i] = None
        stop = consistent() and search(depth + 1, weight)
        unassigned |= bit
        return stop

    search(0, 0)
    if best is None:  # only when the budget ran out first: producers alone are always fed
        best = [P if P in options[i] else None for i in range(n)]
        best_key = (0, 0, sum(weights[P] for r in best if r == P))
    return tuple(best), bool(best_key[1]), best_key[2]


#: At most this many arrangements are offered to an owner to choose from (the solver's first).
MAX_ALTERNATIVES = 12
_ALTERNATIVE_NODES = 20_000


def alternatives(table: CardTable, code: str, cards: Sequence[int], weights: tuple[int, ...] = NO_WEIGHTS
                 ) -> tuple[tuple[str, ...], ...]:
    """The arrangements an owner may choose among for these organisms, all fed: each role tuple (in the
    canonical order of the cards) keeps every card fed, is healthy when the best arrangement is, and
    earns the same role-bonus VP. The solver's arrangement comes first; arrangements differing only by
    which copy of one card takes which role count once. Empty when the cards cannot all be fed."""
    quick = ("alternatives", code, tuple(cards), weights)  # asked after every change to a web: as arrange does
    found = table.arranged.get(quick)
    if found is not None:
        return found
    best = arrange(table, code, cards, weights)
    if None in best.roles:
        found = ()
    else:
        defs = tuple(table.def_of[c] for c in best.cards)
        key = ("alternatives", code, defs, weights)
        cache = table.arrangements
        found = cache.get(key)
        if found is None:
            found = _alternatives(table, code, defs, weights, best.roles, best.healthy, best.value)
            if len(cache) >= _CACHE_LIMIT:
                cache.clear()
            cache[key] = found
    if len(table.arranged) >= _CACHE_LIMIT:
        table.arranged.clear()
    table.arranged[quick] = found
    return found


def _alternatives(table: CardTable, code: str, defs: tuple[int, ...], weights: tuple[int, ...],
                  first: tuple[str, ...], healthy: bool, value: int) -> tuple[tuple[str, ...], ...]:
    """By the compiled kernel where it serves (accel.py), else by `list_alternatives`, which it follows."""
    eats, printed = _masks(table, code, defs)
    if accel.serving(len(defs), weights):
        try:
            found = accel.KERNEL.alternatives(eats, printed, weights, defs, [ROLE_NUMBER[r] for r in first],
                                              healthy, value, MAX_ALTERNATIVES, _ALTERNATIVE_NODES)
            return tuple(tuple(ROLE_NAMES[r] for r in roles) for roles in found)
        except (ValueError, TypeError, OverflowError):  # a web outside the kernel's range
            pass
    return list_alternatives(eats, printed, weights, defs, first, healthy, value)


def list_alternatives(eats: list[int], printed: list[tuple[int, ...]], weights: tuple[int, ...],
                      defs: tuple[int, ...], first: tuple[str, ...], healthy: bool, value: int
                      ) -> tuple[tuple[str, ...], ...]:
    """Every arrangement as good as `first` (see alternatives), from one web's masks (`_masks`)."""
    n = len(defs)
    can = feasible(eats, printed)
    options = [[r for r in printed[i] if can[r] >> i & 1] for i in range(n)]
    order = sorted(range(n), key=lambda i: (len(options[i]), i))
    low = [min(weights[r] for r in options[i]) for i in range(n)]
    high = [max(weights[r] for r in options[i]) for i in range(n)]
    assigned: list[int | None] = [None] * n
    role_mask = [0] * 6
    unassigned = (1 << n) - 1
    found: dict[tuple[str, ...], None] = {_same_copies(defs, first): None}
    nodes = 0

    rest_low = [sum(low[i] for i in order[depth:]) for depth in range(n + 1)]
    rest_high = [sum(high[i] for i in order[depth:]) for depth in range(n + 1)]

    def all_fed() -> bool:
        """Every card given a role can still be fed (its prey assigned or unassigned but able)."""
        could = [role_mask[r] | (unassigned & can[r]) for r in range(6)]
        producers = could[P]
        prey_of = (0, could[P], 0, could[C1] | could[SD], could[C2], could[C3])
        for k, r in enumerate(assigned):
            if r is None or r == P:
                continue
            if r == SD:
                if not producers & ~(1 << k):
                    return False
            elif not eats[k] & prey_of[r]:
                return False
        return True

    def search(depth: int, weight: int) -> None:
        nonlocal nodes, unassigned
        nodes += 1
        if nodes > _ALTERNATIVE_NODES or len(found) >= MAX_ALTERNATIVES:
            return
        if not rest_low[depth] <= value - weight <= rest_high[depth]:
            return
        if healthy and not all(role_mask[h] or unassigned & can[h] for h in HEALTH):
            return
        if depth == n:
            roles = tuple(ROLE_NAMES[r] for r in assigned)
            found.setdefault(_same_copies(defs, roles), None)
            return
        i = order[depth]
        bit = 1 << i
        unassigned &= ~bit
        for r in options[i]:
            assigned[i] = r
            role_mask[r] |= bit
            if all_fed():
                search(depth + 1, weight + weights[r])
            role_mask[r] &= ~bit
        assigned[i] = None
        unassigned |= bit

    search(0, 0)
    return tuple(found)


def _same_copies(defs: tuple[int, ...], roles: Sequence[str]) -> tuple[str, ...]:
    """Roles with the copies of one card (adjacent in canonical order) in a fixed order of their roles."""
    result = list(roles)
    start = 0
    while start < len(defs):
        end = start
        while end < len(defs) and defs[end] == defs[start]:
            end += 1
        result[start:end] = sorted(result[start:end], key=ROLE_NUMBER.__getitem__)
        start = end
    return tuple(result)


def is_healthy(roles: Sequence[str | None]) -> bool:
    """Five different cards acting as P, C1, C2, C3 and SD (each card has one role)."""
    present = set(roles)
    return all(r in present for r in ("P", "C1", "C2", "C3", "SD"))
