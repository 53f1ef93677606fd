"""Colours players must tell apart stay apart for colour-blind players: validate warns, at the colour's
field, about pairs too alike under deuteranopia, protanopia or tritanopia; the build shows the palette."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from cardtool.deck.loader import load, load_deck
from cardtool.games.palette import PaletteColour
from cardtool.issues import Report
from cardtool.render.colour_cache import FILE, DifferenceCache, method_key
from cardtool.render.colour_vision import (CODE, TOO_CLOSE, VISIONS, check_palette, close_pairs, colour_differences,
                                           palette_files, swatches)
from tests.conftest import DECKS, ROOT


@pytest.mark.parametrize("deck", ["ecologies-bizarre-biomes", "frozen-and-deep", "symbiosis"])
def test_shipped_palettes_stay_apart_for_every_kind_of_colour_vision(deck):
    result = load(DECKS / deck)
    report = Report()
    check_palette(result.deck, result.source, report)
    assert [i.message for i in report.warnings] == []


def _deck_with_colours(tmp_path, riparian: str, chaparral: str):
    folder = tmp_path / "deck"
    shutil.copytree(DECKS / "ecologies-bizarre-biomes", folder)
    biomes = folder / "biomes.yaml"
    text = biomes.read_text(encoding="utf-8")
    text = text.replace('colour: "#75a867"', f'colour: "{riparian}"').replace('colour: "#c38823"',
                                                                            f'colour: "{chaparral}"')
    biomes.write_text(text, encoding="utf-8")
    return folder


def test_a_pair_alike_only_to_protanopes_is_warned_at_the_colour_field(run_cli, tmp_path):
    # the green and ochre the base deck had: plainly different to most eyes, all but one to a protanope
    folder = _deck_with_colours(tmp_path, "#5a9e3a", "#c48a2c")
    code, out, _ = run_cli("validate", folder)
    assert code == 0  # a warning: the deck is still valid
    [line] = [line for line in out.splitlines() if CODE in line]
    assert "biomes.yaml:80:13:" in line  # the chaparral's colour: line
    assert "CHA Chaparral (#c48a2c) and RIP Riparian (#5a9e3a) look alike to people with protanopia" in line
    assert run_cli("validate", "--strict", folder)[0] == 1


def test_a_pair_alike_to_everyone_says_so(tmp_path):
    folder = _deck_with_colours(tmp_path, "#75a867", "#76a866")
    result = load(folder)
    report = Report()
    check_palette(result.deck, result.source, report)
    [issue] = report.warnings
    assert issue.card == "chaparral" and issue.path == ("colour",) and "to everyone" in issue.message


def test_each_vision_is_simulated_and_compared_perceptually():
    red, green = PaletteColour("test", "red", "#d62728"), PaletteColour("test", "green", "#2ca02c")
    [seen_red, _] = swatches([red, green])
    assert seen_red.seen[0] == "#d62728" and len(set(seen_red.seen)) == len(VISIONS)
    # the classic red/green pair: far apart for normal vision, close for a deuteranope
    [pair] = close_pairs([red, green], threshold=40)
    assert pair.vision in ("deuteranopia", "protanopia") and pair.difference < 40
    assert close_pairs([red, green]) == [] or close_pairs([red, green])[0].difference < TOO_CLOSE
    # one colour listed twice is one colour, not a pair to tell apart
    assert close_pairs([red, PaletteColour("test", "red again", "#D62728")]) == []


def test_the_build_writes_the_palette_as_each_vision_sees_it(tmp_path):
    outputs, verdict = palette_files(load_deck(DECKS / "symbiosis"), tmp_path)
    assert outputs == [("palette.svg", "Colours as each kind of colour vision sees them")]
    svg = (tmp_path / "palette.svg").read_text(encoding="utf-8")
    for vision, _, _ in VISIONS:
        assert vision in svg
    assert "Spring" in svg and "every pair differs" in verdict


# -- the cache of differences already computed (render/colour_cache.py) --------------------------------
RED, GREEN, BLUE = "#d62728", "#2ca02c", "#1f77b4"


def _fresh(pairs, monkeypatch):
    """The differences computed by ColorAide, the cache turned off."""
    monkeypatch.setenv("CARDTOOL_CACHE_DIR", "")
    return colour_differences(pairs)


def test_cached_differences_are_the_computed_ones(monkeypatch, tmp_path):
    pairs = {tuple(sorted((RED, GREEN))), tuple(sorted((GREEN, BLUE)))}
    computed = _fresh(pairs, monkeypatch)
    monkeypatch.setenv("CARDTOOL_CACHE_DIR", str(tmp_path))
    assert colour_differences(pairs) == computed  # computed, then kept
    assert (tmp_path / FILE).is_file()
    monkeypatch.setattr("cardtool.render.colour_vision._computed", lambda missing: pytest.fail(f"computed {missing}"))
    assert colour_differences(pairs) == computed  # read back, bit for bit


@pytest.mark.parametrize("damage", ["not json {", '{"key": "another method", "pairs": {}}', "[1, 2]",
                                    '{"key": "KEY", "pairs": {"#2ca02c|#d62728": [-1.0, 0.0, 0.0, 0.0]}}',
                                    '{"key": "KEY", "pairs": {"#2ca02c|#d62728": ["a", "b"]}}'])
def test_a_damaged_or_foreign_cache_is_never_trusted(monkeypatch, tmp_path, damage):
    pair = tuple(sorted((RED, GREEN)))
    computed = _fresh({pair}, monkeypatch)
    (tmp_path / FILE).write_text(damage.replace("KEY", method_key(VISIONS)), encoding="utf-8")
    monkeypatch.setenv("CARDTOOL_CACHE_DIR", str(tmp_path))
    assert colour_differences({pair}) == computed
    assert DifferenceCache(tmp_path / FILE, method_key(VISIONS), len(VISIONS)).known({pair}) == computed  # mended


def test_an_unwritable_cache_folder_does_not_stop_the_check(monkeypatch, tmp_path):
    blocked = tmp_path / "a-file"
    blocked.write_text("", encoding="utf-8")
    monkeypatch.setenv("CARDTOOL_CACHE_DIR", str(blocked / "cache"))  # below a file: cannot be made
    pair = tuple(sorted((RED, GREEN)))
    assert colour_differences({pair}) == _fresh({pair}, monkeypatch)


def test_validate_loads_coloraide_only_for_colours_not_compared_before(tmp_path):
    """The second validate of an unchanged palette reads the numbers and warns the same, ColorAide unloaded."""
    folder = _deck_with_colours(tmp_path, "#5a9e3a", "#c48a2c")  # a pair close to protanopes: a warning
    script = ("import contextlib, io, sys\nfrom cardtool.cli import main\nout = io.StringIO()\n"
              "with contextlib.redirect_stdout(out):\n    code = main(['validate', sys.argv[1]])\n"
              "print(code, 'coloraide' in sys.modules, out.getvalue().count('colour-too-close'))")
    env = {**os.environ, "CARDTOOL_CACHE_DIR": str(tmp_path / "cache")}
    runs = [subprocess.run([sys.executable, "-c", script, str(folder)], capture_output=True, text=True, env=env,
                           cwd=ROOT, timeout=120) for _ in range(2)]
    assert [run.stdout.split() for run in runs] == [["0", "True", "1"], ["0", "False", "1"]], runs[0].stderr


_NUMBERS = """
import json, sys
if sys.argv[1] == "ordinary":
    import coloraide  # ColorAide's own import: every table built at once
from cardtool.deck.loader import load_deck
from cardtool.render import colour_vision, colour_science
Color = colour_science.color_class()
out = {}
for deck in sys.argv[2:]:
    palette = colour_vision.game_palette(load_deck(__import__("pathlib").Path(deck)))
    colours = sorted({entry.colour.lower() for entry in palette} | {"#000000", "#ffffff", "#7f7f7f"})
    pairs = {(a, b) for a in colours for b in colours if a < b}
    out[deck] = [[*pair, *values] for pair, values in sorted(colour_vision._computed(pairs).items())]
    out[deck + " seen"] = [swatch.seen for swatch in colour_vision.swatches(palette)]
robertson = Color.CCT_MAP["robertson-1968"]
out["built before"] = "table" in vars(robertson)
out["temperatures"] = [Color("white").cct(), Color("#ff8800").cct(method="ohno-2013"),
                       Color.blackbody("srgb", 5000).to_string()]
out["built after"] = "table" in vars(robertson)
print(json.dumps(out))
"""


def test_coloraide_without_its_temperature_tables_gives_the_same_numbers():
    """colour_science imports ColorAide without building the colour-temperature tables the palette check
    never reads: every difference and simulated colour is the one ColorAide's ordinary import gives, and a
    colour temperature asked later still is (its table built then)."""
    import json

    decks = [str(DECKS / deck) for deck in ("ecologies-bizarre-biomes", "symbiosis")]
    env = {**os.environ, "CARDTOOL_CACHE_DIR": ""}
    results = {}
    for how in ("ordinary", "deferred"):
        run = subprocess.run([sys.executable, "-c", _NUMBERS, how, *decks], capture_output=True, text=True,
                             env=env, cwd=ROOT, timeout=120)
        assert run.returncode == 0, run.stderr
        results[how] = json.loads(run.stdout)
    ordinary, deferred = results["ordinary"], results["deferred"]
    assert ordinary.pop("built before") and ordinary.pop("built after")
    assert (deferred.pop("built before"), deferred.pop("built after")) == (False, True)
    assert deferred == ordinary
    assert len(deferred[decks[0]]) >= 28  # the palette's colours and three greys, every pair
