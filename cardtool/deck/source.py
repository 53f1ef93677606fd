"""A deck as written: parsed files with positions, before a game builds its frozen model."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from cardtool.deck.model import Manifest
from cardtool.deck.yamlsource import SourceDoc
from cardtool.issues import Location


@dataclass
class CardEntry:
    """One card's YAML mapping and where it was written."""

    id: str
    kind: str
    data: dict
    doc: SourceDoc
    path: tuple  # ("cards", index) inside doc
    #: Fields an expansion overrides, located at the override that set them.
    moved: dict = field(default_factory=dict)

    def locate(self, *fields, key: bool = False) -> Location:
        if fields and fields[0] in self.moved:
            return self.moved[fields[0]]
        return self.doc.locate(self.path + tuple(fields), key=key)


@dataclass
class DeckSource:
    """Everything read from a deck folder, with positions for reporting."""

    manifest: Manifest
    manifest_doc: SourceDoc
    docs: list[SourceDoc] = field(default_factory=list)
    cards: dict[str, CardEntry] = field(default_factory=dict)
    origins: dict[str, str] = field(default_factory=dict)  # card id -> id of the deck defining it
    overrides: list = field(default_factory=list)  # Override records, in the order applied
    bases: list[str] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)  # base card ids an expansion leaves out
    standalone: bool = False

    def locate(self, card_id: str, *fields, key: bool = False) -> Location:
        entry = self.cards.get(card_id)
        if entry is None:
            return Location(self.manifest_doc.file)
        return entry.locate(*fields, key=key)

    def sections(self, name: str):
        """(doc, list) for every file's top-level list under `name` (e.g. seasons)."""
        for doc in self.docs:
            items = doc.data.get(name) if isinstance(doc.data, dict) else None
            if isinstance(items, list):
                yield doc, items


def relative(path: Path) -> Path:
    """A path relative to the working folder when it lies below it, for short messages."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        return path
