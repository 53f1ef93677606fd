"""Hedgerow, an example cardtool game plugin: plant a hedgerow from a secret hand, attract its visitors.

What lives here: the whole game, written against cardtool's documented plugin protocol
(cardtool.games.plugin, cardtool.engine.protocol) and nothing else of cardtool's internals:
model (frozen definitions), engine (Game/State/actions), observation (what a seat sees, sampled worlds),
scoring, bots, text (the account for `cardtool play`), records (for `cardtool simulate`), faces and
rulebook (printing), scaffold (`cardtool new`), and its data: schemas/, templates/.
Who may import it: cardtool finds PLUGIN through the `cardtool.games` entry point; nothing in cardtool
imports this package by name. Modules here import cardtool's generic layers, never the reverse.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from cardtool.deck.source import DeckSource
from cardtool.issues import Report
from cardtool.suggest import did_you_mean
from cardtool_hedgerow import records
from cardtool_hedgerow.bots import BOTS
from cardtool_hedgerow.engine import HAND, MODES, TURNS, HedgerowGame, HedgerowState, players_for
from cardtool_hedgerow.model import PLANT, VISITOR, CardTable, Habitat, HedgerowCard, HedgerowDeck
from cardtool_hedgerow import observation

HERE = Path(__file__).resolve().parent


class HedgerowPlugin:
    """The Hedgerow game as cardtool's commands see it."""

    name = "hedgerow"
    title = "Hedgerow"
    card_schema = str(HERE / "schemas" / "cards.schema.json")
    templates_dir = HERE / "templates"
    decks_dir = HERE.parent / "decks"  # the example deck beside the package (a checkout or editable install)
    default_kind = PLANT
    modes = MODES
    bots = BOTS
    score_name = "points"
    card_events = records.CARD_EVENTS
    impact_event = records.IMPACT_EVENT
    choice_event = records.CHOICE_EVENT
    end_reasons = records.END_REASONS
    _table: CardTable | None = None  # the last deck's CardTable

    # -- the deck tools (cardtool.games.plugin.GamePlugin)

    def check_source(self, source: DeckSource, report: Report) -> None:
        habitats = self._habitats(source, report)
        for entry in source.cards.values():
            value = entry.data["habitat"]
            if value not in habitats:
                report.error("unknown-ref", f"unknown Habitat '{value}'", location=entry.locate("habitat"),
                             card=entry.id, path=entry.path + ("habitat",),
                             hint=did_you_mean(value, habitats) or "define it under 'habitats:'")

    def _habitats(self, source: DeckSource, report: Report) -> set[str]:
        where_defined: dict[str, object] = {}
        for doc, items in source.sections("habitats"):
            for index, item in enumerate(items):
                if not isinstance(item, dict) or "id" not in item:
                    continue
                where = doc.locate(("habitats", index, "id"))
                if item["id"] in where_defined:
                    report.error("duplicate-id", f"habitat '{item['id']}' is already defined at "
                                 f"{where_defined[item['id']]}", location=where)
                else:
                    where_defined[item["id"]] = where
        return set(where_defined)

    def restrict(self, source: DeckSource, dropped, report: Report) -> None:
        """Hedgerow cards name Habitats, never other cards: nothing to drop."""

    def link(self, source: DeckSource, added: set[str]) -> None:
        """Hedgerow cards do not link to each other: nothing to complete."""

    def build(self, source: DeckSource) -> HedgerowDeck:
        habitats = tuple(Habitat(**item) for _, items in source.sections("habitats") for item in items)
        cards = []
        for entry in source.cards.values():
            d = entry.data
            cards.append(HedgerowCard(
                id=d["id"], kind=d.get("kind", PLANT), name=d["name"], count=d.get("count", 1),
                habitat=d["habitat"], points=d["points"], flavor=d.get("flavor", ""), art=d.get("art"),
                tags=tuple(d.get("tags", ()))))
        return HedgerowDeck(manifest=source.manifest, cards=tuple(cards), habitats=habitats)

    def check_deck(self, deck: HedgerowDeck, source: DeckSource, report: Report) -> None:
        """Warnings for a deck too small to play and for Visitors no Plant can feed."""
        if not players_for(deck.size):
            report.warning("table-size", f"{deck.size} cards are too few for a Hedgerow game",
                           location=source.manifest_doc.locate(("cards",)),
                           hint=f"two players need {2 * (HAND + TURNS)} cards")
        planted = {card.habitat for card in deck.cards if card.kind == PLANT}
        for card in deck.cards:
            if card.kind == VISITOR and card.habitat not in planted:
                report.warning("never-scores", f"no Plant of the Habitat '{card.habitat}' this Visitor counts, "
                               "so it always scores 0", location=source.locate(card.id, "habitat"), card=card.id,
                               path=source.cards[card.id].path + ("habitat",))

    def composition(self, deck: HedgerowDeck) -> list[tuple[str, dict[str, int]]]:
        kinds = Counter({PLANT: 0, VISITOR: 0})
        by_habitat: Counter = Counter({h.name: 0 for h in deck.habitats})
        for card in deck.cards:
            kinds[card.kind] += card.count
            by_habitat[deck.habitat(card.habitat).name] += card.count
        return [("cards", dict(kinds)), ("cards by Habitat", dict(by_habitat))]

    # -- cardtool play (cardtool.games.plugin.PlayableGame)

    def players_for(self, deck: HedgerowDeck, mode: str) -> range:
        return players_for(deck.size)

    def new_game(self, deck: HedgerowDeck, players: int, mode: str, seed: int) -> HedgerowGame:
        # A simulation makes thousands of games of one deck: number its cards once.
        if self._table is None or self._table.deck is not deck:
            self._table = CardTable.of(deck)
        return HedgerowGame(self._table, players, mode, seed)

    def text(self, game: HedgerowGame, names: Sequence[str]):
        from cardtool_hedgerow.text import HedgerowText

        return HedgerowText(game, names)

    def sample_state(self, public, seen, rng) -> HedgerowState:
        return observation.sample_state(public, seen, rng)

    # -- cardtool simulate (cardtool.games.plugin.RecordsGames)

    def record(self, game: HedgerowGame, state: HedgerowState):
        return records.record(game, state)

    # -- printing, `cardtool new` and `cardtool diff` (DrawsCards, WritesRulebook, Scaffolds, DiffsDecks)

    def faces(self, deck: HedgerowDeck):
        from cardtool_hedgerow.faces import HedgerowFaces

        return HedgerowFaces(deck)

    def rulebook_parts(self, deck: HedgerowDeck):
        from cardtool_hedgerow.rulebook import HedgerowRulebook

        return HedgerowRulebook(deck)

    def scaffold_deck(self, name: str, context: dict) -> dict[str, str]:
        from cardtool_hedgerow.scaffold import scaffold_deck

        return scaffold_deck(name, context)

    def scaffold_expansion(self, base: HedgerowDeck, context: dict) -> tuple[dict, str]:
        from cardtool_hedgerow.scaffold import scaffold_expansion

        return scaffold_expansion(base, context)

    def diff_sections(self, old: HedgerowDeck, new: HedgerowDeck) -> list:
        from cardtool_hedgerow.changes import diff_sections

        return diff_sections(old, new)


PLUGIN = HedgerowPlugin()
