"""The rule options an Ecologies deck may set in deck.yaml's `rules:`, each with its choices, the
rulebook's first (docs/rules/ecologies.md says what each does). The engine (rules.py) plays them and the
deck check (references.py) refuses any other; both read them here. Imports nothing.
"""

from __future__ import annotations

RULE_OPTIONS: dict[str, tuple[str, ...]] = {
    "ending": ("immediate", "round"),
    "opening": ("equal", "first-player-draws-3"),
}
