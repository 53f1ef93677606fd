"""`cardtool new deck --game hedgerow` and `cardtool new expansion` of a Hedgerow deck: valid, commented
files to start from (templates/scaffold/, mounted as "hedgerow/scaffold/...")."""

from __future__ import annotations

import os
from pathlib import Path

from cardtool.render.environment import render

SCHEMAS = Path(__file__).resolve().parent / "schemas"
HABITATS = (dict(id="blossom", name="Blossom", colour="#f4b6cf", bonus=3),
            dict(id="berry", name="Berry", colour="#d9584f", bonus=3),
            dict(id="leaf", name="Leaf", colour="#7fb069", bonus=3))


def _card_schema(folder: Path) -> str:
    """This plugin's card schema as a path relative to the new deck folder, for the editor lines."""
    return os.path.relpath(SCHEMAS / "cards.schema.json", Path(folder).resolve())


def starter_cards() -> list[dict]:
    """27 cards, nine per Habitat (six Plants worth 1 to 4, three Visitors): enough for three players."""
    cards = []
    for habitat in HABITATS:
        for i in range(6):
            cards.append(dict(id=f"{habitat['id']}-plant-{i + 1}", name=f"{habitat['name']} Plant {i + 1}",
                              kind="plant", habitat=habitat["id"], points=1 + i % 4))
        for i in range(3):
            cards.append(dict(id=f"{habitat['id']}-visitor-{i + 1}", name=f"{habitat['name']} Visitor {i + 1}",
                              kind="visitor", habitat=habitat["id"], points=1 + i % 2))
    return cards


def scaffold_deck(name: str, context: dict) -> dict[str, str]:
    """The files of a new deck: file name -> text."""
    context = dict(context, card_schema=_card_schema(context["folder"]), habitats=HABITATS, cards=starter_cards())
    return {file: render(f"hedgerow/scaffold/{file}.j2", **context)
            for file in ("deck.yaml", "habitats.yaml", "cards.yaml")}


def scaffold_expansion(base, context: dict) -> tuple[dict, str]:
    """The context the shared expansion deck.yaml needs, and the expansion's cards.yaml."""
    first = base.cards[0]
    extra = dict(example_id=first.id, example_field="points", example_value=str(first.points + 1))
    cards = render("hedgerow/scaffold/expansion-cards.yaml.j2", **dict(context, **extra),
                   card_schema=_card_schema(context["folder"]), habitat=first.habitat)
    return extra, cards
