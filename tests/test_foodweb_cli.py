"""`cardtool foodweb`: statistics, witness web, GraphML and table pictures per biome."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from tests.conftest import DATA, DECKS

VALID = DATA / "foodweb" / "valid"


def test_text_shows_metrics_and_witness(run_cli):
    code, out, _ = run_cli("foodweb", VALID)
    assert code == 0
    assert "species 11 (different organism cards; copies are not counted), links 12" in out
    assert "C1  Mayfly   |  SD  Crayfish" in out


def test_json_has_metrics_and_witness(run_cli):
    code, out, _ = run_cli("foodweb", VALID, "--format", "json")
    data = json.loads(out)["RIP"]
    assert data["metrics"]["connectance"] == 12 / 121
    assert set(data["healthy_witness"]) == {"P", "C1", "C2", "C3", "SD"}


def test_unhealthy_biome_explained(run_cli):
    code, out, _ = run_cli("foodweb", DATA / "foodweb" / "unhealthy-biome")
    assert code == 1  # the deck has an error, so no stage after validation runs
    code, out, _ = run_cli("foodweb", DATA / "foodweb" / "single-card-role")
    assert code == 0 and "a healthy web" in out


def test_graphml_is_parseable(run_cli):
    code, out, _ = run_cli("foodweb", VALID, "--format", "graphml")
    root = ET.fromstring(out)
    ns = {"g": "http://graphml.graphdrawing.org/xmlns"}
    assert len(root.findall(".//g:node", ns)) == 11
    assert len(root.findall(".//g:edge", ns)) == 12


def test_svg_lays_rows_out_like_the_table(run_cli, tmp_path):
    code, out, _ = run_cli("foodweb", VALID, "--format", "svg", "--out", tmp_path)
    assert code == 0 and out.strip().endswith("RIP.svg")
    svg = ET.parse(tmp_path / "RIP.svg").getroot()
    ns = "{http://www.w3.org/2000/svg}"
    ys = {}
    for group in svg.iter(f"{ns}g"):
        title = group.find(f"{ns}title").text.split(":")[0]
        ys[title] = float(group.find(f"{ns}rect").get("y"))
    # Producers at the bottom, then C1/SD, C2, C3, C4 above (smaller y is higher on the page).
    assert ys["algae"] > ys["mayfly"] > ys["trout"] > ys["kingfisher"] > ys["eagle"]
    assert ys["worm"] == ys["mayfly"]  # SD sits on the C1 row
    assert ys["riparian"] == ys["algae"]  # the biome card starts the bottom row
    # Only the links that feed the witness web are drawn bold: algae->mayfly->trout->kingfisher.
    bold = [line for line in svg.iter(f"{ns}line") if line.get("stroke-width") == "2.2"]
    assert len(bold) == 3


def test_unknown_biome_is_a_usage_error(run_cli):
    code, _, err = run_cli("foodweb", VALID, "--biome", "RIX")
    assert code == 2 and "did you mean 'RIP'?" in err


def test_symbiosis_deck_is_refused(run_cli):
    code, _, err = run_cli("foodweb", DECKS / "symbiosis")
    assert code == 2 and "Ecologies" in err
