"""Symbiosis' inline icons: a Season (`:spring:`) or an Animal (`:frog:`) by its id in the deck, showing the
icon its cards print (templates/icons/, or the deck's icons/)."""

from __future__ import annotations

from cardtool.games.symbiosis.model import SymbiosisDeck
from cardtool.games.tokens import IconToken


def icon_tokens(deck: SymbiosisDeck) -> dict[str, IconToken]:
    tokens = {s.id: IconToken((f"seasons/{s.id}.svg", "seasons/generic.svg"), s.name) for s in deck.seasons}
    tokens.update({a.id: IconToken((f"animals/{a.id}.svg", "animals/generic.svg"), a.name) for a in deck.animals})
    return tokens
