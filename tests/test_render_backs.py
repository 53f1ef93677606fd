"""Card backs: an expansion prints its base game's back unless it declares its own (then validate warns
that mixed decks can be told apart), and a back's text is fitted and checked like a front's."""

from __future__ import annotations

import shutil

import pytest

from cardtool.deck.loader import load, load_deck
from cardtool.errors import RenderError
from cardtool.render.cards import DeckPrint, faces_of
from cardtool.render.sheets import CARD_SIZES
from tests.conftest import DECKS


@pytest.fixture
def decks(tmp_path):
    for name in ("ecologies-bizarre-biomes", "frozen-and-deep"):
        shutil.copytree(DECKS / name, tmp_path / name)
    return tmp_path


def _declare_back(deck_dir, title: str) -> None:
    manifest = deck_dir / "deck.yaml"
    manifest.write_text(manifest.read_text() + f"print:\n  back:\n    title: \"{title}\"\n", encoding="utf-8")


def _back(deck):
    return faces_of(deck).back(deck.cards[-1]).card


def test_an_expansion_prints_its_base_games_back():
    base = _back(load_deck(DECKS / "ecologies-bizarre-biomes"))
    for standalone in (False, True):
        expansion = _back(load_deck(DECKS / "frozen-and-deep", standalone=standalone))
        assert expansion == base  # title, subtitle and the ring of the base game's biome colours
    assert (base.title, base.subtitle, len(base.colours)) == ("Ecologies", "Bizarre Biomes", 7)


def test_a_declared_back_is_printed_and_warned_about_at_its_line(decks):
    _declare_back(decks / "frozen-and-deep", "Frozen and Deep")
    result = load(decks / "frozen-and-deep")
    warnings = [i for i in result.report.warnings if i.code == "distinguishable-back"]
    assert len(warnings) == 1 and result.report.ok
    assert warnings[0].location.file.name == "deck.yaml" and warnings[0].location.line > 1
    assert "told apart from behind" in warnings[0].message and "Ecologies" in warnings[0].message
    assert _back(result.deck).title == "Frozen and Deep"
    assert not [i for i in load(decks / "ecologies-bizarre-biomes").report.warnings if i.code == "distinguishable-back"]


def test_declaring_the_base_games_own_back_is_no_warning(decks):
    _declare_back(decks / "frozen-and-deep", "Ecologies")
    (decks / "frozen-and-deep" / "deck.yaml").write_text(
        (decks / "frozen-and-deep" / "deck.yaml").read_text() + "    subtitle: Bizarre Biomes\n", encoding="utf-8")
    assert not [i for i in load(decks / "frozen-and-deep").report.warnings if i.code == "distinguishable-back"]


def test_a_back_title_too_long_for_the_card_is_an_overflow_error(decks):
    _declare_back(decks / "ecologies-bizarre-biomes", "Ecologies of the Strangest and Most Bizarre Biomes")
    deck = load_deck(decks / "ecologies-bizarre-biomes")
    with pytest.raises(RenderError, match=r"card back: field 'title' does not fit its box on the back"):
        DeckPrint(deck, CARD_SIZES["poker"], 3.0, "coyote").singles()


def test_a_long_back_title_is_shrunk_to_fit(decks):
    _declare_back(decks / "ecologies-bizarre-biomes", "Ecologies Deluxe")
    deck_print = DeckPrint(load_deck(decks / "ecologies-bizarre-biomes"), CARD_SIZES["poker"], 3.0, "coyote")
    faces, _ = deck_print.singles()
    back = next(f for f in faces if f.side == "back")
    assert 9 <= back.sizes["title"] < 17
