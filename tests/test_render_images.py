"""Card images for print-on-demand: pixel sizes with bleed, one PNG per face and back, a contact sheet."""

from __future__ import annotations

import csv

import pytest
from PIL import Image

from cardtool.deck.loader import load_deck
from cardtool.errors import RenderError
from cardtool.render.images import card_images, pixels
from cardtool.render.sheets import CARD_SIZES, parse_length
from tests.conftest import DATA, DECKS

ONLY = "spring-frog-per-pink,autumn-snail-3"


@pytest.fixture(scope="module")
def images(tmp_path_factory):
    out = tmp_path_factory.mktemp("images") / "images"
    deck = load_deck(DECKS / "symbiosis")
    return out, card_images(deck, CARD_SIZES["poker"], parse_length("1/8in"), 300, ONLY, out)


def test_a_poker_card_at_300_dpi_with_eighth_inch_bleed_is_825_by_1125(images):
    out, listed = images
    assert [i.file for i in listed] == ["spring-frog-per-pink.png", "autumn-snail-3.png", "card-back.png"]
    for image in listed:
        with Image.open(out / image.file) as png:
            assert png.size == (825, 1125)
            assert round(png.info["dpi"][0]) == 300


def test_images_come_with_a_list_a_pdf_and_a_contact_sheet(images):
    out, listed = images
    rows = list(csv.DictReader((out / "cards.csv").open()))
    assert [r["file"] for r in rows] == [i.file for i in listed]
    assert rows[-1]["side"] == "back" and rows[0]["copies"] == "1"
    with Image.open(out / "contact-sheet.png") as sheet:
        assert sheet.width > 3 * 180
    assert (out / "cards.pdf").read_bytes().startswith(b"%PDF")


def test_image_edges_are_bleed_in_the_card_colour(images):
    out, _ = images
    import yaml

    seasons = yaml.safe_load((DECKS / "symbiosis" / "pond-life.yaml").read_text())["seasons"]
    spring = next(s["colour"] for s in seasons if s["id"] == "spring").lstrip("#")
    want = [int(spring[i:i + 2], 16) for i in (0, 2, 4)]
    with Image.open(out / "spring-frog-per-pink.png") as png:
        for xy in ((3, 3), (821, 3), (3, 1121), (821, 1121), (20, 560)):
            got = png.convert("RGB").getpixel(xy)[:3]
            assert all(abs(a - b) < 12 for a, b in zip(got, want)), (xy, got, want)


@pytest.mark.parametrize("card, bleed, dpi, size", [("poker", "3mm", 300, (821, 1121)),
                                                    ("bridge", "1/8in", 300, (750, 1125)),
                                                    ("mini", "0", 300, (525, 750))])
def test_pixel_sizes(card, bleed, dpi, size):
    spec = CARD_SIZES[card]
    b = parse_length(bleed)
    assert (pixels(spec.width + 2 * b, dpi), pixels(spec.height + 2 * b, dpi)) == size


def test_art_from_the_deck_is_drawn_and_missing_art_is_an_error(tmp_path):
    deck = load_deck(DATA / "render" / "art")
    listed = card_images(deck, CARD_SIZES["poker"], 0.0, 100, "heron", tmp_path / "art")
    with Image.open(tmp_path / "art" / listed[0].file) as png:
        colours = {png.convert("RGB").getpixel((x, y)) for x in range(0, png.width, 7) for y in range(0, png.height, 7)}
    assert (255, 0, 255) in colours  # the magenta of art/heron.svg
    broken = tmp_path / "deck"
    import shutil

    shutil.copytree(DATA / "render" / "art", broken)
    loaded = load_deck(broken)
    (broken / "art" / "heron.svg").unlink()
    with pytest.raises(RenderError, match="card heron: field 'art'"):  # art gone after the deck was loaded
        card_images(loaded, CARD_SIZES["poker"], 0.0, 100, "heron", tmp_path / "out")
    assert not (tmp_path / "out").exists()  # nothing half-written
    from cardtool.errors import DeckError

    with pytest.raises(DeckError) as caught:  # and validation finds it first, at its line
        load_deck(broken)
    (missing,) = [i for i in caught.value.report.errors if i.code == "missing-file"]
    assert "heron.svg" in missing.message and missing.card == "heron" and missing.location.line > 0
