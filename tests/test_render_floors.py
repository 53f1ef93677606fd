"""Text floors: gameplay text never below 6 pt, labels never below 5 pt (deck.yaml print: text_floor,
label_floor); below that a located error and exit 1 from validate (estimated), render and build."""

from __future__ import annotations

import shutil

import pytest

from cardtool.deck.loader import load, load_deck
from cardtool.render.estimate import estimate, paragraphs
from cardtool.render.print_checks import check_text_floors
from tests.conftest import DATA, DECKS

OVERFLOW = DATA / "render" / "overflow"  # a worm whose flavour text cannot fit even at 6 pt


def _with_print(tmp_path, source, settings: str):
    deck = tmp_path / source.name
    shutil.copytree(source, deck)
    (deck / "deck.yaml").write_text((deck / "deck.yaml").read_text() + "print:\n" + settings, encoding="utf-8")
    return deck


def test_validate_reports_text_below_its_floor_at_the_card(run_cli):
    code, out, err = run_cli("validate", OVERFLOW)
    assert code == 1 and "Traceback" not in out + err
    line = next(line for line in out.splitlines() if "text-below-floor" in line)
    assert "overflow/cards.yaml:99:" in line and "worm: field 'text'" in line and "6 pt" in line


def test_render_fails_naming_card_and_field_with_exit_1(run_cli, tmp_path):
    code, out, err = run_cli("render", "cards", OVERFLOW, "--out", tmp_path / "c.pdf")
    assert code == 1 and "card worm: field 'text' (flavor) does not fit its box on the front, even at 6 pt" in err
    assert not (tmp_path / "c.pdf").exists()


def test_build_fails_with_exit_1(run_cli, tmp_path):
    code, out, err = run_cli("build", OVERFLOW, "--out", tmp_path / "build", "--sim-games", "0")
    assert code == 1 and "card worm: field 'text'" in err and "Traceback" not in out + err


def test_the_shipped_decks_pass_validates_estimate():
    for name in ("ecologies-bizarre-biomes", "frozen-and-deep", "symbiosis"):
        result = load(DECKS / name)
        check_text_floors(result.deck, result.source, result.report)
        assert result.report.ok, [i.format() for i in result.report.errors]


def test_a_deck_may_raise_its_label_floor_and_the_layout_enforces_it(run_cli, tmp_path):
    deck = _with_print(tmp_path, DECKS / "ecologies-bizarre-biomes", "  label_floor: 6\n")
    code, out, err = run_cli("render", "cards", deck, "--only", "coyote", "--out", tmp_path / "c.pdf")
    assert code == 1 and "card coyote: label '" in err and "below the 6 pt floor (print.label_floor" in err


def test_a_deck_may_raise_its_text_floor_and_validate_estimates_it(tmp_path):
    deck = _with_print(tmp_path, DECKS / "ecologies-bizarre-biomes", "  text_floor: 7\n")
    result = load(deck)
    check_text_floors(result.deck, result.source, result.report)
    flagged = {i.card for i in result.report.errors if i.code == "text-below-floor"}
    assert "red-swamp-crayfish" in flagged and "coyote" not in flagged
    assert load_deck(deck).manifest.print["text_floor"] == 7


def test_a_floor_out_of_range_is_a_schema_error(tmp_path):
    deck = _with_print(tmp_path, DECKS / "symbiosis", "  text_floor: 2\n")
    report = load(deck).report
    assert not report.ok and any("print" in str(i.path) or "text_floor" in i.message for i in report.errors)


def test_the_estimate_wraps_words_and_counts_lines():
    paras = paragraphs('<div data-fit="t"><p>one two three four</p><p>five</p></div>')["t"][0]
    assert len(paras) == 2
    wide = estimate(paras, 10, width=1000, height=100)
    narrow = estimate(paras, 10, width=40, height=100)
    assert wide.needed == pytest.approx(2 * 11.8 + 3) and narrow.needed > wide.needed and wide.fits
    assert estimate(paras, 10, width=1000, height=20).fits is False


@pytest.mark.parametrize("name", ["ecologies-bizarre-biomes", "frozen-and-deep", "symbiosis"])
def test_the_text_validate_estimates_is_the_text_the_templates_print(name):
    """Each game's front_text/back_text (read without drawing) say word for word what its card HTML shows."""
    from cardtool.render.cards import card_html, faces_of
    from cardtool.render.context import Frame
    from cardtool.render.fitting import with_sizes
    from cardtool.render.sheets import CARD_SIZES

    deck = load_deck(DECKS / name)
    renderer, frame = faces_of(deck), Frame.of(CARD_SIZES["poker"], 3.0)
    for card in deck.cards:
        for face, text in ((renderer.front(card), renderer.front_text(card)),
                           (renderer.back(card), renderer.back_text(card))):
            shown = paragraphs(card_html(with_sizes(face, frame), frame))
            assert [f.name for f in text.fields] == [f.name for f in face.fields]
            for field in text.fields:
                for box in shown.get(field.name, [[]]):  # every box of the field (a back's title: two)
                    assert [p for p in text.texts.get(field.name, []) if p] == box, (card.id, face.side, field.name)
