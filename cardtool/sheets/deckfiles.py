"""A deck's own card files read with ruamel.yaml's round trip, and the sheets `cardtool export` makes of them.

Only the files the deck's manifest names (after the loader has checked that each lies inside the deck
folder) are read here, and only they are ever written back.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path

from cardtool.deck.loader import load
from cardtool.errors import DeckError
from cardtool.sheets.cells import encode
from cardtool.sheets.grid import Sheet


def yaml_rt():
    """A ruamel.yaml round-trip reader/writer set to the shipped decks' layout (it writes them back unchanged)."""
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 4096  # never re-wrap a long flow list or text
    yaml.indent(mapping=2, sequence=4, offset=2)
    return yaml


def plain(value: object) -> object:
    """ruamel's round-trip values as plain Python (dict, list, str, int, float, bool, None)."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, str):
        return str(value)
    if isinstance(value, int):
        if type(value).__name__ == "ScalarBoolean":
            return bool(value)
        return int(value)
    if isinstance(value, float):
        return float(value)
    return str(value)


@dataclass
class CardFile:
    """One of the deck's own card files: its path, text and round-trip document."""

    path: Path
    text: str
    document: object

    def cards(self) -> list:
        cards = self.document.get("cards") if isinstance(self.document, dict) else None
        return cards if isinstance(cards, list) else []

    def dump(self) -> str:
        out = io.StringIO()
        yaml_rt().dump(self.document, out)
        text = out.getvalue()
        return text.replace("\n", "\r\n") if "\r\n" in self.text else text


@dataclass
class OwnDeck:
    """The deck's manifest facts, its game's schema and its own card files, each card by id."""

    root: Path
    deck_id: str
    game: str
    default_kind: str
    card_schema: str
    files: list[CardFile] = field(default_factory=list)
    report: object = None  # the loader's report of the deck as it stands

    def cards(self):
        """(file, index, mapping, kind) of every card with an id, in file order."""
        for file in self.files:
            for index, card in enumerate(file.cards()):
                if isinstance(card, dict) and isinstance(card.get("id"), str):
                    yield file, index, card, str(card.get("kind", self.default_kind))


def read_own(deck_path: Path, *, require_valid: bool) -> OwnDeck:
    """The deck's own card files (an expansion's, not its bases'), read for a round trip."""
    from cardtool.games import GAMES

    result = load(deck_path, deep=require_valid)
    if result.source is None or (require_valid and not result.report.ok):
        raise DeckError(f"deck {deck_path} has errors", result.report)
    manifest = result.source.manifest
    root = manifest.root.resolve()
    game = GAMES[manifest.game]
    own = OwnDeck(root, manifest.id, manifest.game, game.default_kind, game.card_schema, report=result.report)
    seen = set()
    for doc in result.source.docs:
        path = doc.file.resolve()
        if path in seen or not path.is_relative_to(root):
            continue
        seen.add(path)
        text = path.read_bytes().decode("utf-8-sig")
        own.files.append(CardFile(path, text, yaml_rt().load(text)))
    return own


def sheet_title(kind: str) -> str:
    """A kind's sheet: organism -> Organisms."""
    return kind[:1].upper() + kind[1:] + ("" if kind.endswith("s") else "s")


def make_sheets(own: OwnDeck) -> list[Sheet]:
    """One sheet per card kind, in the order kinds first appear: a header of every field any card of the
    kind has (id first, then in the order first met), one row per card."""
    by_kind: dict[str, list[dict]] = {}
    for _, _, card, kind in own.cards():
        by_kind.setdefault(kind, []).append(plain(card))
    sheets = []
    for kind, cards in by_kind.items():
        columns = ["id"] + [k for k in dict.fromkeys(k for card in cards for k in card) if k != "id"]
        rows = [columns] + [[encode(card.get(c)) for c in columns] for card in cards]
        sheets.append(Sheet(sheet_title(kind), rows))
    return sheets
