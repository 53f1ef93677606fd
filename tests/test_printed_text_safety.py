"""Card names from a shared deck stay text: no terminal escapes reach the screen, no formula reaches a spreadsheet."""

from __future__ import annotations

import csv
import shutil

import pytest

from cardtool.csvtext import spreadsheet_text
from tests.conftest import DECKS


@pytest.mark.parametrize("name", ["\x1b[31mChorus", "Chorus\x07", "Two\nlines", "Tab\there", "C1\x9bcontrol"])
def test_a_name_with_control_characters_is_a_located_error(tmp_path, run_cli, name):
    deck = tmp_path / "deck"
    shutil.copytree(DECKS / "symbiosis", deck)
    cards = deck / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    escaped = name.encode("unicode_escape").decode("ascii")
    cards.write_text(text.replace("name: Chorus of Spring", f'name: "{escaped}"', 1), encoding="utf-8")
    code, out, err = run_cli("validate", deck)
    assert code == 1
    assert "cards.yaml:" in out and "error[bad-value]" in out and "control characters" in out
    assert "\x1b" not in out + err and "\x07" not in out + err


@pytest.mark.parametrize("cell", ["=HYPERLINK(\"x\")", "+1", "-1+2", "@SUM(A1)", "\tx", "\rx"])
def test_a_formula_like_name_is_written_as_text(cell):
    assert spreadsheet_text(cell) == "'" + cell


def test_an_ordinary_name_is_written_as_it_is():
    assert spreadsheet_text("Chorus of Spring") == "Chorus of Spring"


def test_card_images_index_never_holds_a_formula(tmp_path, run_cli):
    deck = tmp_path / "deck"
    shutil.copytree(DECKS / "symbiosis", deck)
    cards = deck / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("name: Chorus of Spring", 'name: "=1+2"', 1),
                     encoding="utf-8")
    code, out, err = run_cli("render", "images", deck, "--out", tmp_path / "images", "--dpi", "72",
                             "--only", "spring-frog-per-pink")
    assert code == 0, out + err
    rows = list(csv.DictReader((tmp_path / "images" / "cards.csv").open(encoding="utf-8")))
    assert [row["name"] for row in rows if row["card"] == "spring-frog-per-pink"] == ["'=1+2"]
