"""Ecologies' own step of `cardtool build`: the food-web report (text, JSON) and a picture per biome."""

from __future__ import annotations

import json
from pathlib import Path

from cardtool.games.ecologies import web_report
from cardtool.games.ecologies.model import EcologiesDeck
from cardtool.games.ecologies.render.foodweb_svg import render_svg
from cardtool.games.plugin import BuildOutput, BuildStep


def foodweb_files(deck: EcologiesDeck, folder: Path) -> tuple[list[BuildOutput], str]:
    """foodweb.txt, foodweb.json and foodweb/<CODE>.svg for every biome, written into folder."""
    (folder / "foodweb.txt").write_text("\n".join(web_report.text(deck, code) for code in deck.biome_codes),
                                        encoding="utf-8")
    (folder / "foodweb.json").write_text(
        json.dumps({code: web_report.summary(deck, code) for code in deck.biome_codes}, indent=2), encoding="utf-8")
    outputs = [BuildOutput("foodweb.txt", "Food-web report"), BuildOutput("foodweb.json", "Food-web report (JSON)")]
    (folder / "foodweb").mkdir()
    for code in deck.biome_codes:
        (folder / "foodweb" / f"{code}.svg").write_text(render_svg(deck, code), encoding="utf-8")
        outputs.append(BuildOutput(f"foodweb/{code}.svg", f"Food web of {deck.biome(code).name}"))
    return outputs, f"{len(deck.biome_codes)} biomes"


FOODWEB = BuildStep("foodweb", "Food-web report", foodweb_files)
