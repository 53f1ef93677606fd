"""Where a deck's inline icons are: each token's icon file (the deck's own icons/ first, then cardtool's),
its words and the colour behind it, ready for cardtool.render.icons to draw. Apart from icons.py so the
Jinja environment, which registers the `icons` filter, does not import the card context through it."""

from __future__ import annotations

from cardtool.render.context import deck_roots, icon_url
from cardtool.render.icons import vocabulary


def icon_urls(deck) -> dict[str, tuple[str, str, str]]:
    """Token name -> (file URL of its icon, its words, the CSS behind it), the deck's own icons first."""
    roots = deck_roots(deck)
    return {name: (icon_url(*token.names, deck_root=roots), token.text,
                   f"background: {token.background}; border-radius: 0.2em; padding: 0.05em" if token.background else "")
            for name, token in vocabulary(deck).items()}
