"""Text that does not fit is found in WeasyPrint's layout, shrunk down to the layout's minimum, or reported."""

from __future__ import annotations

import pytest

from cardtool.deck.loader import load_deck
from cardtool.errors import RenderError
from cardtool.render.cards import DeckPrint
from cardtool.render.fitting import overflows, with_sizes
from cardtool.render.sheets import CARD_SIZES
from tests.conftest import DATA, DECKS


def test_overflowing_fixture_card_fails_naming_card_and_field(run_cli, tmp_path):
    code, out, err = run_cli("render", "cards", DATA / "render" / "overflow", "--out", tmp_path / "cards.pdf")
    assert code == 1
    assert "card worm: field 'text' (flavor) does not fit its box" in err
    assert "Traceback" not in out + err
    assert not (tmp_path / "cards.pdf").exists()


def test_the_layout_finds_the_overflowing_box():
    deck_print = DeckPrint(load_deck(DATA / "render" / "overflow"), CARD_SIZES["poker"], 3.0, "worm,heron")
    faces = [with_sizes(f, deck_print.frame) for f in deck_print.faces(backs=False)]
    found = overflows(deck_print._single_document(faces))
    assert [(o.key, o.field, o.part) for o in found] == [("worm:front", "text", "flavor")]
    assert 0 < found[0].fill < 1  # how much of the text the box holds (lines past the page are cut)


def test_long_text_is_shrunk_to_fit_and_reported(run_cli, tmp_path):
    deck = load_deck(DECKS / "ecologies-bizarre-biomes")
    deck_print = DeckPrint(deck, CARD_SIZES["poker"], 3.0, "red-swamp-crayfish,coyote")
    faces, _ = deck_print.singles(backs=False)
    crayfish = faces[[f.card_id for f in faces].index("red-swamp-crayfish")]
    assert crayfish.sizes["text"] < 6.6  # its long lists of prey and predators needed a smaller size
    assert [f.card_id for f in deck_print.fitted] == ["red-swamp-crayfish"]
    code, out, _ = run_cli("render", "cards", DECKS / "ecologies-bizarre-biomes", "--only", "red-swamp-crayfish",
                           "--out", tmp_path / "c.pdf")
    assert code == 0 and "note: card red-swamp-crayfish: field 'text' set at" in out


def test_text_scales_with_the_card_size_but_never_below_its_floor():
    deck = load_deck(DECKS / "ecologies-bizarre-biomes")
    poker, _ = DeckPrint(deck, CARD_SIZES["poker"], 3.0, "coyote").singles(backs=False)
    bridge, _ = DeckPrint(deck, CARD_SIZES["bridge"], 3.0, "coyote").singles(backs=False)
    assert bridge[0].sizes["name"] == pytest.approx(poker[0].sizes["name"] * 0.9, abs=0.05)
    assert bridge[0].sizes["text"] == 6.0  # 6.6 pt x 0.9 would be 5.94: the gameplay floor holds
    with pytest.raises(RenderError, match=r"card coyote: label '.*' on the front is set at .* below the 5 pt floor"):
        DeckPrint(deck, CARD_SIZES["mini"], 3.0, "coyote").singles(backs=False)  # labels at 0.7 x


def test_a_field_that_cannot_fit_names_its_minimum(tmp_path):
    with pytest.raises(RenderError, match=r"card worm: field 'text' \(flavor\) does not fit .* even at 6 pt"):
        DeckPrint(load_deck(DATA / "render" / "overflow"), CARD_SIZES["poker"], 3.0, "worm").singles()
