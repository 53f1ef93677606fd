"""Tabletop Simulator export: sheets of card faces, a back image and a saved object that TTS loads as
the deck, with the right number of copies of every card.

TTS draws a custom deck from one image per deck, a grid of at most 10 x 7 cells and 4096 px a side, in
RGB (https://kb.tabletopsimulator.com/custom-content/asset-creation/); by convention the grid's last cell
is the picture TTS shows for a card hidden in another player's hand, so a sheet holds at most 69 faces
and its last cell shows the back. Each sheet is one CustomDeck entry; a card's CardID is the entry's
number times 100 plus its cell, and the deck lists one CardID per copy (DeckIDs) with a Card object each.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from pathlib import Path

from cardtool.deck.model import Deck
from cardtool.errors import RenderError
from cardtool.render.sheets import CardSize

MAX_COLUMNS, MAX_ROWS, MAX_SIDE = 10, 7, 4096
PER_SHEET = MAX_COLUMNS * MAX_ROWS - 1  # the last cell is the hidden card


@dataclass(frozen=True)
class Cell:
    """Where a card face lies: its sheet (1, 2, ...), its cell (0 = top left, row by row) and its CardID."""

    card_id: str
    name: str
    sheet: int
    index: int
    copies: int

    @property
    def tts_id(self) -> int:
        return self.sheet * 100 + self.index


@dataclass(frozen=True)
class Sheet:
    number: int
    file: str
    back: str
    columns: int
    rows: int
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class TtsExport:
    sheets: tuple[Sheet, ...]
    cell_size: tuple[int, int]
    saved_object: str  # file name of the JSON
    copies: int


def cell_size(card: CardSize) -> tuple[int, int]:
    """The largest cell that keeps a full 10 x 7 sheet within 4096 px a side, in the card's proportions."""
    scale = min(MAX_SIDE // MAX_COLUMNS / card.width, MAX_SIDE // MAX_ROWS / card.height)
    return math.floor(card.width * scale), math.floor(card.height * scale)


def grid(faces: int) -> tuple[int, int]:
    """Columns and rows for this many faces plus the hidden cell: as few rows as fit, at most 10 x 7."""
    columns = min(MAX_COLUMNS, max(2, faces + 1))
    return columns, math.ceil((faces + 1) / columns)


def tts_export(deck: Deck, card: CardSize, only: str | None, out: Path, url_base: str | None,
               reads=(), command: str = "render tts") -> TtsExport:
    """Write sheet-N.png, back.png (back-N.png for more backs), <deck-id>.json and its thumbnail into out."""
    from PIL import Image

    from cardtool.render.cards import DeckPrint
    from cardtool.render.images import rasterise
    from cardtool.render.output import staged_dir

    deck_print = DeckPrint(deck, card, 0.0, only)
    faces, pdf = deck_print.singles(backs=True)
    size = cell_size(card)
    pictures = dict(zip([f.key for f in faces], rasterise(pdf, *size)))
    counts = {c.id: c.count for c in deck_print.cards}
    by_back: dict[str, list] = {}
    for front, back in deck_print.pairs:
        by_back.setdefault(back.key, []).append(front)
    backs = list(by_back)
    sheets = []
    for back_key, fronts in by_back.items():
        back_file = "back.png" if len(backs) == 1 else f"back-{backs.index(back_key) + 1}.png"
        for start in range(0, len(fronts), PER_SHEET):
            chunk, number = fronts[start:start + PER_SHEET], len(sheets) + 1
            columns, rows = grid(len(chunk))
            cells = tuple(Cell(f.card_id, f.name, number, i, counts[f.card_id]) for i, f in enumerate(chunk))
            sheets.append((Sheet(number, f"sheet-{number}.png", back_file, columns, rows, cells), chunk, back_key))
    if len(sheets) > 99:
        raise RenderError("a Tabletop Simulator deck holds at most 99 sheets of 69 cards")
    name = f"{deck.manifest.id}.json"
    with staged_dir(out, reads=reads, command=command) as stage:
        for sheet, chunk, back_key in sheets:
            image = Image.new("RGB", (sheet.columns * size[0], sheet.rows * size[1]), "white")
            for cell, front in zip(sheet.cells, chunk):
                image.paste(pictures[front.key], _corner(cell.index, sheet.columns, size))
            image.paste(pictures[back_key], _corner(sheet.columns * sheet.rows - 1, sheet.columns, size))
            image.save(stage / sheet.file, optimize=True)
            if not (stage / sheet.back).exists():
                pictures[back_key].save(stage / sheet.back, optimize=True)
        plain = tuple(s for s, _, _ in sheets)
        (stage / name).write_text(json.dumps(saved_object(deck.manifest.name, plain, _url(out, url_base)), indent=2)
                                  + "\n", encoding="utf-8")
        pictures[faces[0].key].resize((256, round(256 * size[1] / size[0]))).save(stage / f"{deck.manifest.id}.png")
    return TtsExport(plain, size, name, sum(counts.values()))


def _corner(index: int, columns: int, size: tuple[int, int]) -> tuple[int, int]:
    return (index % columns) * size[0], (index // columns) * size[1]


def _url(out: Path, url_base: str | None):
    """How the JSON names an image: url_base + name, else the file's own file:// URI."""
    if url_base:
        return lambda file: url_base.rstrip("/") + "/" + file
    folder = Path(out).resolve()
    return lambda file: (folder / file).as_uri()


def saved_object(title: str, sheets: tuple[Sheet, ...], url) -> dict:
    """The saved-object JSON: one Deck (or one Card, for a single copy) with every copy of every card."""
    custom = {str(s.number): {"FaceURL": url(s.file), "BackURL": url(s.back), "NumWidth": s.columns,
                              "NumHeight": s.rows, "BackIsHidden": True, "UniqueBack": False, "Type": 0}
              for s in sheets}
    cards = [(cell, sheet) for sheet in sheets for cell in sheet.cells for _ in range(cell.copies)]
    objects = [{"Name": "Card", "Nickname": cell.name, "Description": cell.card_id, "CardID": cell.tts_id,
                "CustomDeck": {str(sheet.number): custom[str(sheet.number)]}, "Transform": _transform(),
                "GUID": _guid(f"{cell.card_id}/{n}"), "Hands": True, "SidewaysCard": False}
               for n, (cell, sheet) in enumerate(cards)]
    if len(objects) == 1:
        top = {**objects[0], "Nickname": objects[0]["Nickname"]}
    else:
        top = {"Name": "Deck", "Nickname": title, "Description": f"{len(objects)} cards, made by cardtool",
               "Transform": _transform(), "Hands": False, "SidewaysCard": False,
               "DeckIDs": [o["CardID"] for o in objects], "CustomDeck": custom, "ContainedObjects": objects,
               "GUID": _guid(title)}
    return {"SaveName": title, "GameMode": "", "Date": "", "Gravity": 0.5, "PlayArea": 0.5, "Table": "", "Sky": "",
            "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "TabStates": {},
            "VersionNumber": "", "ObjectStates": [top]}


def _transform() -> dict:
    return {"posX": 0.0, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


def _guid(text: str) -> str:
    """A GUID TTS accepts (six hex digits), the same for the same card on every run."""
    return hashlib.sha1(text.encode("utf-8"), usedforsecurity=False).hexdigest()[:6]
