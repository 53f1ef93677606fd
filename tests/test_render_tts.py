"""`cardtool render tts`: the saved object Tabletop Simulator loads, and sheets whose cells are the cards."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote, urlparse

import numpy as np
import pytest
from PIL import Image

from cardtool.cli import main
from cardtool.deck.loader import load_deck
from cardtool.render.cards import DeckPrint
from cardtool.render.images import rasterise
from cardtool.render.sheets import CARD_SIZES
from cardtool.render.tts import MAX_SIDE, cell_size, grid
from tests.conftest import DECKS

ONLY = ["spring-frog-per-pink", "spring-frog-3", "spring-snail-per-snail", "winter-fish-7"]


@pytest.fixture(scope="module")
def export(tmp_path_factory):
    out = tmp_path_factory.mktemp("tts") / "tts"
    assert main(["render", "tts", str(DECKS / "symbiosis"), "--only", ",".join(ONLY), "--out", str(out)]) == 0
    return out, json.loads((out / "symbiosis.json").read_text())


def _path(url: str) -> Path:
    parsed = urlparse(url)
    assert parsed.scheme == "file"
    return Path(unquote(parsed.path))


def test_the_saved_object_is_a_deck_with_every_copy(export):
    out, saved = export
    deck = load_deck(DECKS / "symbiosis")
    counts = {c.id: c.count for c in deck.cards if c.id in ONLY}
    [top] = saved["ObjectStates"]
    assert top["Name"] == "Deck" and top["Nickname"] == "Symbiosis"
    assert len(top["DeckIDs"]) == len(top["ContainedObjects"]) == sum(counts.values())
    assert [o["CardID"] for o in top["ContainedObjects"]] == top["DeckIDs"]
    assert len({o["GUID"] for o in top["ContainedObjects"]}) == len(top["DeckIDs"])
    for card in top["ContainedObjects"]:
        assert card["Name"] == "Card"
        sheet = str(card["CardID"] // 100)
        assert card["CustomDeck"] == {sheet: top["CustomDeck"][sheet]}
    copies = {}
    for card in top["ContainedObjects"]:
        copies[card["Description"]] = copies.get(card["Description"], 0) + 1
    assert copies == counts
    for entry in top["CustomDeck"].values():
        assert {"FaceURL", "BackURL", "NumWidth", "NumHeight"} <= set(entry)
        assert _path(entry["FaceURL"]).parent == out.resolve() and _path(entry["BackURL"]).is_file()


def test_each_sheet_cell_is_the_card_it_claims_and_the_last_cell_is_the_back(export):
    out, saved = export
    [top] = saved["ObjectStates"]
    deck = load_deck(DECKS / "symbiosis")
    size = cell_size(CARD_SIZES["poker"])
    faces, pdf = DeckPrint(deck, CARD_SIZES["poker"], 0.0, ",".join(ONLY)).singles(backs=True)
    own = {f.card_id if f.side == "front" else "back": np.asarray(p, dtype=np.int16)
           for f, p in zip(faces, rasterise(pdf, *size))}
    entry = top["CustomDeck"]["1"]
    with Image.open(_path(entry["FaceURL"])) as sheet:
        assert sheet.mode == "RGB" and max(sheet.size) <= MAX_SIDE
        assert sheet.size == (entry["NumWidth"] * size[0], entry["NumHeight"] * size[1])
        pixels = np.asarray(sheet, dtype=np.int16)

    def cell(index: int):
        x, y = (index % entry["NumWidth"]) * size[0], (index // entry["NumWidth"]) * size[1]
        return pixels[y:y + size[1], x:x + size[0]]

    claimed = {o["CardID"] % 100: o["Description"] for o in top["ContainedObjects"]}
    for index, card_id in claimed.items():
        differences = {other: np.abs(cell(index) - picture).mean() for other, picture in own.items()}
        assert differences[card_id] < 1.0, (card_id, differences)
        assert min(differences, key=differences.get) == card_id
    hidden = cell(entry["NumWidth"] * entry["NumHeight"] - 1)
    assert np.abs(hidden - own["back"]).mean() < 1.0
    with Image.open(_path(entry["BackURL"])) as back:
        assert np.abs(np.asarray(back.convert("RGB"), dtype=np.int16) - own["back"]).mean() < 1.0


def test_a_sheet_is_at_most_10_by_7_with_room_for_the_hidden_card():
    assert grid(69) == (10, 7)
    assert grid(4) == (5, 1)
    for faces in range(1, 70):
        columns, rows = grid(faces)
        assert columns <= 10 and rows <= 7 and columns * rows >= faces + 1
    width, height = cell_size(CARD_SIZES["poker"])
    assert 10 * width <= MAX_SIDE and 7 * height <= MAX_SIDE
    assert width / height == pytest.approx(63.5 / 88.9, abs=0.003)


def test_url_base_names_the_images_where_they_will_be_uploaded(tmp_path):
    out = tmp_path / "tts"
    assert main(["render", "tts", str(DECKS / "symbiosis"), "--only", "winter-fish-7", "--out", str(out),
                 "--url-base", "https://example.org/deck/"]) == 0
    [top] = json.loads((out / "symbiosis.json").read_text())["ObjectStates"]
    assert top["Name"] == "Card" and top["CardID"] == 100  # one copy of one card: TTS wants a Card, not a Deck
    entry = next(iter(top["CustomDeck"].values()))
    assert entry["FaceURL"] == "https://example.org/deck/sheet-1.png"
    assert entry["BackURL"] == "https://example.org/deck/back.png"
