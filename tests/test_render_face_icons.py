"""Inline icon tokens in card text (`:P:`, `:VER:`) print as the game's icons on the faces."""

from __future__ import annotations

from dataclasses import replace

from cardtool.deck.loader import load_deck
from cardtool.render.cards import card_html, faces_of
from cardtool.render.context import Frame
from cardtool.render.fitting import with_sizes
from cardtool.render.sheets import CARD_SIZES
from cardtool.render.update_pack import face_changes
from tests.conftest import DECKS


def test_tokens_in_a_factors_text_and_flavour_draw_icons():
    deck = load_deck(DECKS / "ecologies-bizarre-biomes")
    frame = Frame.of(CARD_SIZES["poker"], 3.0)
    face = faces_of(deck).front(deck.card("wildfire"))
    face = replace(face, card=replace(face.card, text="Destroy a :P: in :VER:.", flavor="Not :nothing: here"))
    html = card_html(with_sizes(face, frame), frame)
    assert html.count('class="icon-inline"') == 2 and "roles/P.svg" in html and "biomes/VER.svg" in html
    assert ":nothing:" in html and ":P:" not in html  # an unknown token stays as written (validate reports it)


def test_the_icon_lookup_is_not_a_printed_difference():
    base = load_deck(DECKS / "ecologies-bizarre-biomes")
    combined = load_deck(DECKS / "frozen-and-deep")  # more biomes, so more tokens: same printed coyote
    before = faces_of(base).front(base.card("coyote")).card
    after = faces_of(combined).front(combined.card("coyote")).card
    assert before.icons != after.icons and face_changes(before, after) == ()
