"""The colours a Symbiosis player must tell apart: the Seasons'. A Season is the card's background colour,
and scoring rules count cards by it ("2 per pink card"), so each Season's colour must differ from the
others' at a glance across the table, to every player."""

from __future__ import annotations

from cardtool.games.palette import PaletteColour
from cardtool.games.symbiosis.model import SymbiosisDeck


def palette(deck: SymbiosisDeck, source=None) -> tuple[PaletteColour, ...]:
    """Each Season's colour, located at its `colour:` in the file that declares the Season."""
    where = {}
    if source is not None:
        for doc, items in source.sections("seasons"):
            for index, item in enumerate(items):
                if isinstance(item, dict) and "id" in item:
                    where.setdefault(item["id"], doc.locate(("seasons", index, "colour")))
    return tuple(PaletteColour("seasons", s.name + (f" ({s.colour_name})" if s.colour_name else ""), s.colour,
                               where.get(s.id), None, ("seasons", s.id, "colour"))
                 for s in deck.seasons)
