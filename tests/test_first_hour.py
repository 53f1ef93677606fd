"""The first hour of a new designer (issue 17's frictions): each one fixed, each with a test."""

from __future__ import annotations

import json

from tests.conftest import DECKS

BASE = DECKS / "ecologies-bizarre-biomes"


def test_diff_calls_a_new_biome_new_not_unhealthy(run_cli):
    code, out, _ = run_cli("diff", BASE, DECKS / "frozen-and-deep")
    line = next(l for l in out.splitlines() if l.startswith("- TUN:"))
    assert "(new biome) →" in line and "cannot be healthy" not in line
    code, out, _ = run_cli("diff", BASE, DECKS / "frozen-and-deep", "--format", "json")
    tundra = next(w for w in json.loads(out)["witnesses"] if w["biome"] == "TUN")
    assert tundra["status"] == "added" and tundra["old"] is None
