"""`cardtool cards`: every card with its id, name, kind, copies and the game's columns, filtered."""

from __future__ import annotations

import csv
import io
import json

from tests.conftest import DECKS

ECO = DECKS / "ecologies-bizarre-biomes"


def test_cards_lists_ids_roles_biomes_and_links(run_cli):
    code, out, err = run_cli("cards", ECO)
    assert code == 0, err
    header = out.splitlines()[0].split()
    assert header[:4] == ["id", "name", "kind", "count"] and {"biomes", "roles", "eats", "eaten_by"} <= set(header)
    line = next(l for l in out.splitlines() if l.startswith("cave-amphipod "))
    assert "CAV" in line and "SD, C1" in line and "sulfur-oxidizing-bacteria" in line


def test_cards_filters_by_kind_biome_and_role(run_cli):
    code, out, _ = run_cli("cards", ECO, "--biome", "CAV", "--role", "P", "--format", "json")
    rows = json.loads(out)
    assert rows and all("CAV" in r["biomes"] and "P" in r["roles"] for r in rows)
    code, out, _ = run_cli("cards", ECO, "--kind", "biome", "--format", "json")
    assert {r["kind"] for r in json.loads(out)} == {"biome"} and len(json.loads(out)) == 7


def test_cards_of_an_expansion_name_their_deck_and_own_filters(run_cli):
    code, out, _ = run_cli("cards", DECKS / "frozen-and-deep", "--format", "json")
    decks = {r["deck"] for r in json.loads(out)}
    assert decks == {"frozen-and-deep", "ecologies-bizarre-biomes"}
    code, out, _ = run_cli("cards", DECKS / "frozen-and-deep", "--own", "--format", "json")
    assert {r["deck"] for r in json.loads(out)} == {"frozen-and-deep"}


def test_cards_csv_joins_lists_and_symbiosis_has_its_own_columns(run_cli):
    code, out, _ = run_cli("cards", DECKS / "symbiosis", "--where", "animal=fish", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rows and {r["animal"] for r in rows} == {"fish"} and "scoring" in rows[0]
    code, out, _ = run_cli("cards", ECO, "--format", "csv")
    amphipod = next(r for r in csv.DictReader(io.StringIO(out)) if r["id"] == "cave-amphipod")
    assert amphipod["roles"] == "SD; C1"


def test_cards_filter_on_a_column_the_game_lacks_is_a_usage_error(run_cli):
    code, _, err = run_cli("cards", DECKS / "symbiosis", "--biome", "CAV")
    assert code == 2 and "no column 'biomes'" in err and "animal" in err
    code, _, err = run_cli("cards", ECO, "--where", "roles")
    assert code == 2 and "COLUMN=VALUE" in err


def test_info_labels_copies_and_points_to_cards(run_cli):
    code, out, _ = run_cli("info", ECO)
    assert "cards by kind, in copies:" in out and "cardtool cards" in out


def test_foodweb_labels_species_as_different_cards(run_cli):
    code, out, _ = run_cli("foodweb", ECO, "--biome", "CAV")
    assert "species 12 (different organism cards; copies are not counted)" in out
