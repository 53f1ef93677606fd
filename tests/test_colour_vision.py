"""Colours players must tell apart stay apart for colour-blind players: validate warns, at the colour's
field, about pairs too alike under deuteranopia, protanopia or tritanopia; the build shows the palette."""

from __future__ import annotations

import shutil

import pytest

from cardtool.deck.loader import load, load_deck
from cardtool.games.palette import PaletteColour
from cardtool.issues import Report
from cardtool.render.colour_science import delta_e_2000, parse_hex, simulate, to_lab
from cardtool.render.colour_vision import (CODE, TOO_CLOSE, VISIONS, check_palette, close_pairs, colour_differences,
                                           game_palette, palette_files, swatches)
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


# -- the colour science (render/colour_science.py) against its references -------------------------------

#: Sharma, Wu & Dalal (2005), table 1: pairs of Lab colours and their CIEDE2000, to 4 decimals.
SHARMA = [((50, 2.6772, -79.7751), (50, 0, -82.7485), 2.0425), ((50, 3.1571, -77.2803), (50, 0, -82.7485), 2.8615),
          ((50, 0, 0), (50, -1, 2), 2.3669), ((50, 2.49, -0.001), (50, -2.49, 0.0009), 7.1792),
          ((50, 2.49, -0.001), (50, -2.49, 0.0011), 7.2195), ((50, -0.001, 2.49), (50, 0.0009, -2.49), 4.8045),
          ((50, 2.5, 0), (73, 25, -18), 27.1492), ((50, 2.5, 0), (61, -5, 29), 22.8977),
          ((50, 2.5, 0), (56, -27, -3), 31.9030), ((50, 2.5, 0), (58, 24, 15), 19.4535),
          ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644)]


@pytest.mark.parametrize("first, second, expected", SHARMA)
def test_ciede2000_gives_sharmas_published_differences(first, second, expected):
    assert round(delta_e_2000(first, second), 4) == expected
    assert round(delta_e_2000(second, first), 4) == expected


def _reference_colours() -> list[str]:
    """The shipped palettes, greys, primaries and seeded random colours."""
    import random

    colours = {entry.colour.lower() for deck in ("ecologies-bizarre-biomes", "frozen-and-deep", "symbiosis")
               for entry in game_palette(load_deck(DECKS / deck))}
    colours |= {"#000000", "#ffffff", "#7f7f7f", "#010101", "#ff0000", "#00ff00", "#0000ff", "#ffff00", "#00ffff",
                "#ff00ff", "#d62728", "#2ca02c", "#1f77b4"}
    generator = random.Random(15)
    return sorted(colours) + [f"#{generator.randrange(1 << 24):06x}" for _ in range(400)]


def test_every_simulated_colour_and_difference_is_coloraides():
    """ColorAide (the library the check used before, kept as the reference) simulates each vision, converts
    to Lab and measures each pair the same: channels and Lab to 1e-9, hex codes exactly, CIEDE2000 of the
    same Lab to 1e-9, and of each pair to 1e-5 (a grey's hue is rounding noise, which CIEDE2000 weighs by
    the square root of its chroma: about 1e-6 for white beside a saturated colour, in either library)."""
    Color = pytest.importorskip("coloraide").Color
    colours = _reference_colours()
    theirs = {}
    for colour in colours:
        base = Color(colour)
        theirs[colour] = [base if f is None else base.filter(f, method=m).convert("srgb").clip()
                          for _, f, m in VISIONS]
        mine = [simulate(parse_hex(colour), f) for _, f, _ in VISIONS]
        for their, my in zip(theirs[colour], mine):
            assert their[:-1] == pytest.approx(list(my), abs=1e-9), colour
            assert their.convert("lab-d65")[:-1] == pytest.approx(list(to_lab(my)), abs=1e-9), colour
        assert swatches([PaletteColour("test", colour, colour)])[0].seen == tuple(
            c.to_string(hex=True) for c in theirs[colour])
    pairs = {tuple(sorted(pair)) for pair in zip(colours, colours[1:] + colours[:1])}
    pairs |= {(a, b) for a in colours[:40] for b in colours[:40] if a < b}
    for (a, b), mine in colour_differences(pairs).items():
        expected = [x.delta_e(y, method="2000") for x, y in zip(theirs[a], theirs[b])]
        assert list(mine) == pytest.approx(expected, abs=1e-5), (a, b)
        same_lab = [delta_e_2000(x.convert("lab-d65")[:-1], y.convert("lab-d65")[:-1])
                    for x, y in zip(theirs[a], theirs[b])]
        assert same_lab == pytest.approx(expected, abs=1e-9), (a, b)


@pytest.mark.parametrize("text", ["red", "#12345", "#gg0000", "", "#1234567"])
def test_a_colour_not_written_as_hex_is_refused_by_name(text):
    with pytest.raises(ValueError, match="not a colour as #rrggbb"):
        parse_hex(text)
    assert parse_hex("#abc") == parse_hex("#aabbcc")
