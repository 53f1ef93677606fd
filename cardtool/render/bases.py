"""An expansion's base decks as printed on their own: the deck whose back an expansion prints (so its
cards mix invisibly with the base game's) and the base cards an update pack compares against."""

from __future__ import annotations

from pathlib import Path

from cardtool.deck.model import Deck
from cardtool.errors import DeckError


def base_decks(deck: Deck) -> tuple[Deck, ...]:
    """Each deck this one extends, loaded as it is printed on its own (an expansion combined with its own
    bases). Empty for a deck that extends nothing."""
    from cardtool.deck.compose import resolve_base
    from cardtool.deck.loader import load
    from cardtool.issues import Report

    found = []
    for ref in deck.manifest.extends:
        report = Report()
        folder = resolve_base(ref, deck.manifest, report, None)
        result = load(Path(folder), deep=False) if folder is not None else None
        if result is None or result.deck is None or not result.report.ok:
            raise DeckError(f"base deck '{ref}' of {deck.manifest.id} could not be loaded",
                            result.report if result is not None else report)
        found.append(result.deck)
    return tuple(found)


def back_source(deck: Deck) -> Deck:
    """The deck whose back this one prints: its first base's (recursively) unless it declares its own
    (deck/printing.py marks an inherited back), else itself."""
    settings = deck.manifest.print or {}
    if not deck.manifest.extends or not settings.get("back_of_base"):
        return deck
    return back_source(base_decks(deck)[0])
