"""Ecologies' inline icons: a trophic role (`:P:`, `:C1:` ... `:SD:`), a biome by its code (`:VER:`, and an
expansion's `:TUN:`), a factor type (`:biotic:`, `:abiotic:`) and where a factor card goes (`:web:`,
`:table:`, `:discard:`): the same icons the cards print (templates/icons/, or the deck's icons/)."""

from __future__ import annotations

from cardtool.games.ecologies.model import ROLES, EcologiesDeck
from cardtool.games.ecologies.render.effect_text import ROLE_NAMES
from cardtool.games.tokens import IconToken

PLACES = {"web": "placed on a food web", "table": "kept in front of you", "discard": "played once, then discarded"}


PLACE_COLOUR = "#4a4a4a"


def icon_tokens(deck: EcologiesDeck) -> dict[str, IconToken]:
    """The glyphs are white, so each is drawn on the colour its badge has on the cards."""
    from cardtool.games.ecologies.render.faces import FACTOR_COLOURS, ROLE_COLOURS  # loads the card layer

    tokens = {role: IconToken((f"roles/{role}.svg",), f"{ROLE_NAMES[role]} ({role})", ROLE_COLOURS[role])
              for role in ROLES}
    tokens.update({b.code: IconToken((f"biomes/{b.code}.svg", "biomes/generic.svg"), f"{b.name} ({b.code})",
                                     b.colour) for b in deck.biomes})
    tokens.update({kind: IconToken((f"factors/{kind}.svg",), f"{kind} factor", FACTOR_COLOURS[kind])
                   for kind in ("biotic", "abiotic")})
    tokens.update({place: IconToken((f"factors/{place}.svg",), words, PLACE_COLOUR) for place, words in PLACES.items()})
    return tokens
