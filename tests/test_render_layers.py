"""Faces in two layers (render/layers.py): the parts many cards share laid out once and stamped under each
card's text look exactly like the card laid out whole, keep their text, and a sheet holds each piece once."""

from __future__ import annotations

import io

import pikepdf
import pytest
from PIL import ImageChops

from cardtool.deck.loader import load_deck
from cardtool.render.cards import DeckPrint, card_html
from cardtool.render.fitting import render_html, with_sizes, write_pages
from cardtool.render.images import rasterise
from cardtool.render.layers import PREFIX, Layers
from cardtool.render.sheets import SheetSpec
from tests.conftest import DECKS

#: Two organisms of one biome (they share pieces), a biome and a factor card.
CARDS = "cave-isopod,cave-salamander,cave,invasive-species"


@pytest.fixture(scope="module")
def deck_print():
    deck = load_deck(DECKS / "ecologies-bizarre-biomes")
    spec = SheetSpec()
    return DeckPrint(deck, spec.card, spec.bleed, CARDS)


def test_a_layered_face_hands_its_shared_parts_over_and_keeps_its_text(deck_print):
    face = next(with_sizes(f, deck_print.frame) for f in deck_print.faces(backs=False) if f.card_id == "cave-isopod")
    layers = Layers()
    own = card_html(face, deck_print.frame, layers)
    whole = card_html(face, deck_print.frame)
    assert layers.pieces and 'class="roles"' in whole and 'class="roles"' not in own
    assert face.card.name in own and all(piece.key.split("\n", 1)[1] in whole for piece in layers.pieces)
    assert all('class="card eco organism"' in piece.html for piece in layers.pieces)


def test_stamped_faces_look_like_faces_laid_out_whole(deck_print):
    faces = deck_print.fitted_faces(backs=False)
    whole = write_pages(render_html(deck_print.single_html(faces), deck_print.base_url, deck_print.roots))
    width, height = 250, 341
    for face, stamped, laid_whole in zip(faces, deck_print.face_pdfs, whole):
        [a] = rasterise(stamped, width, height)
        [b] = rasterise(laid_whole, width, height)
        difference = ImageChops.difference(a, b).convert("L").histogram()
        assert sum(difference[9:]) == 0, f"{face.card_id} looks different stamped"
        assert face.name in page_text(stamped)


def page_text(pdf: bytes) -> str:
    """The text a PDF reader extracts from the first page (pieces included)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    try:
        return document[0].get_textpage().get_text_range()
    finally:
        document.close()


def test_a_sheet_holds_each_piece_once_and_its_text_stays_text(deck_print):
    spec = SheetSpec()
    _, pdf = deck_print.sheets(spec)
    with pikepdf.open(io.BytesIO(pdf)) as sheet:
        names = []
        for page in sheet.pages:
            for card in page.Resources.XObject.values():
                names += [(name, xobject.objgen) for name, xobject in card.Resources.get("/XObject", {}).items()
                          if name.startswith(PREFIX)]
    objects = {}
    for name, objgen in names:
        objects.setdefault(name, set()).add(objgen)
    assert objects and all(len(copies) == 1 for copies in objects.values())
    assert len(names) > len(objects)  # the two organisms of one biome share pieces
    assert "VP" in page_text(pdf) and "Eaten by" in page_text(pdf)
