"""Feeding read directly from the rules, apart from the arrangement solver: whether an arrangement is
validly fed (`valid`, for tests and invariants) and why a card is left unfed (`why_unfed`, for people).
Imported through arrange.py, which re-exports both; imports only the card table.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardtool.games.ecologies.table import CardTable


def valid(table: CardTable, code: str, cards: Sequence[int], roles: Sequence[str]) -> list[str]:
    """Why an arrangement is not validly fed (empty when every card is fed in its role): the rules read
    directly, independently of the solver, for tests and invariants."""
    problems = []
    acting = dict(zip(cards, roles))
    for card, role in acting.items():
        name = table.ids[card]
        if table.kind[card] != "organism":
            problems.append(f"{name} is not an organism")
            continue
        if code not in table.biomes[card]:
            problems.append(f"{name} does not live in {code}")
        if role not in table.roles[card]:
            problems.append(f"{name} cannot act as {role}")
        if role == "P":
            continue
        if role == "SD":
            if not any(other != card and r == "P" for other, r in acting.items()):
                problems.append(f"{name} (SD) has no producer in its web")
            continue
        needed = {"C1": ("P",), "C2": ("C1", "SD"), "C3": ("C2",), "C4": ("C3",)}[role]
        if not any(r in needed and table.eats(card, other) for other, r in acting.items()):
            problems.append(f"{name} ({role}) eats no card acting as {' or '.join(needed)}")
    return problems


def why_unfed(table: CardTable, code: str, arrangement, card: int) -> str:
    """Why a card is left without food in this arrangement (an arrange.Arrangement), role by role, for people."""
    if table.kind[card] != "organism":
        return f"it is a {table.kind[card]} card, not an organism"
    if code not in table.biomes[card]:
        return f"it does not live in {code} (it lives in {', '.join(sorted(table.biomes[card]))})"
    acting = {c: r for c, r in zip(arrangement.cards, arrangement.roles) if r is not None}
    prey = [c for c in arrangement.cards if table.eats(card, c)]
    feeding = [r for r in table.roles[card] if r not in ("P", "SD")]
    reasons = []
    if feeding and not prey:
        eaten = ", ".join(table.defs[d].id for d in sorted(table.eats_def[table.def_of[card]])) or "nothing"
        reasons.append(f"as {'/'.join(feeding)} it eats none of these cards (it eats {eaten})")
    elif feeding:
        now = ", ".join(f"{table.ids[c]} acting as {acting[c]}" if c in acting else f"{table.ids[c]} (not fed)"
                        for c in prey)
        for role in feeding:
            wanted = " or ".join({"C1": ("P",), "C2": ("C1", "SD"), "C3": ("C2",), "C4": ("C3",)}[role])
            reasons.append(f"as {role} it needs prey acting as {wanted}")
        reasons[-1] += f", and its prey here are {now}"
    if "SD" in table.roles[card]:
        reasons.append("as SD it needs a producer in the web")
    return "; ".join(reasons)
