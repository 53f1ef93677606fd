"""The parts of a Hedgerow rulebook computed from the deck (cardtool.games.plugin.RulebookParts): the
component list, the Habitats and the card index, and worked scoring examples scored by the same
scoring code the engine plays with (the `cardtool:score` directive)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import yaml
from markupsafe import Markup

from cardtool.errors import RenderError
from cardtool.render.environment import render
from cardtool.render.rulebook_parts import Components, count_line
from cardtool.suggest import did_you_mean
from cardtool_hedgerow.model import PLANT, VISITOR, CardTable, HedgerowDeck
from cardtool_hedgerow.scoring import score_table, winners

TEMPLATE = "hedgerow/rulebook.html.j2"


@dataclass(frozen=True)
class HabitatRow:
    name: str
    colour: str
    bonus: int
    plants: int
    plant_points: int
    visitors: int


@dataclass(frozen=True)
class IndexRow:
    name: str
    kind: str
    habitat: str
    rule: str
    copies: int


@dataclass(frozen=True)
class ExampleRow:
    """One hedgerow of a worked example and its score by source."""

    player: str
    cards: tuple[str, ...]  # card labels
    plants: int
    visitors: int
    bonuses: str  # "Blossom, Leaf" or ""
    bonus_points: int
    total: int


class HedgerowRulebook:
    """Generated rulebook parts for a Hedgerow deck."""

    def __init__(self, deck: HedgerowDeck):
        self.deck, self.table = deck, CardTable.of(deck)

    def components(self) -> Components:
        deck = self.deck
        kinds = Counter(card.kind for card in deck.cards for _ in range(card.count))
        counts = [("Plants" if kinds[PLANT] != 1 else "Plant", kinds[PLANT]),
                  ("Visitors" if kinds[VISITOR] != 1 else "Visitor", kinds[VISITOR])]
        notes = tuple(f"{sum(c.count for c in deck.cards if c.habitat == h.id)} {h.name} cards" for h in deck.habitats)
        return Components(count_line(deck.size, counts), tuple(counts), notes + (f"{len(deck.cards)} different cards",))

    def reference(self) -> list[tuple[str, Markup]]:
        deck, table = self.deck, self.table
        habitats = tuple(HabitatRow(
            h.name, h.colour, h.bonus,
            sum(c.count for c in deck.cards if c.habitat == h.id and c.kind == PLANT),
            sum(c.count * c.points for c in deck.cards if c.habitat == h.id and c.kind == PLANT),
            sum(c.count for c in deck.cards if c.habitat == h.id and c.kind == VISITOR)) for h in deck.habitats)
        index = tuple(IndexRow(c.name, c.kind.capitalize(), deck.habitat(c.habitat).name, table.rule_text(n), c.count)
                      for n, c in sorted(enumerate(table.cards), key=lambda nc: nc[1].name.lower()))
        return [("Habitats", Markup(render(TEMPLATE, part="habitats", habitats=habitats))),
                ("Card index", Markup(render(TEMPLATE, part="index", cards=index)))]

    def directives(self) -> dict:
        return {"score": self.score_example}

    def score_example(self, args: list[str], body: str, folder: Path, where: str) -> Markup:
        """```cardtool:score``` with a body of `Player: [card-id, ...]` lines: those hedgerows scored."""
        try:
            data = yaml.safe_load(body)
        except yaml.YAMLError as exc:
            raise RenderError(f"{where}: cardtool:score: the hedgerows are not YAML: {exc}") from None
        if not isinstance(data, dict) or not data or not all(isinstance(v, list) for v in data.values()):
            raise RenderError(f"{where}: cardtool:score needs one line per player, e.g. "
                              "'Ann: [hawthorn, bumblebee]'")
        names = [str(name) for name in data]
        hedgerows = [[self._number(card, where) for card in cards] for cards in data.values()]
        used = Counter(n for hedgerow in hedgerows for n in hedgerow)
        for number, count in used.items():
            if count > self.table.copies[number]:
                raise RenderError(f"{where}: card '{self.table.cards[number].id}' is used {count} times, but the "
                                  f"deck holds {self.table.copies[number]}")
        scores = score_table(self.table, hedgerows)
        habitat_names = {h.id: h.name for h in self.deck.habitats}
        rows = tuple(ExampleRow(names[s.seat], tuple(self.table.label(n) for n in hedgerows[s.seat]), s.plants,
                                s.visitors, ", ".join(habitat_names[h] for h in s.bonuses), s.bonus_points, s.total)
                     for s in scores)
        best = winners([s.total for s in scores])
        result = (" and ".join(names[s] for s in best) + f" share the victory with {scores[best[0]].total} points"
                  if len(best) > 1 else f"{names[best[0]]} wins with {scores[best[0]].total} points")
        return Markup(render(TEMPLATE, part="example", rows=rows, result=result))

    def _number(self, card_id, where: str) -> int:
        if card_id not in self.table.index:
            hint = did_you_mean(str(card_id), self.table.index)
            raise RenderError(f"{where}: cardtool:score: no card '{card_id}' in the deck" + (f"; {hint}" if hint else ""))
        return self.table.index[card_id]
