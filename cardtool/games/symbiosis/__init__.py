"""Symbiosis: ponds of eight cards, a River to swap with, columns that score against neighbours.

What lives here: everything Symbiosis knows (model, engine, scoring, bots, accel.py loading the optional
compiled kernel of GreedyBot's arithmetic from accel/, text, faces and rulebook parts in render/, its
score command in commands/, scaffold) and, in this module, its plugin object
PLUGIN, the only thing the rest of cardtool asks (through cardtool.games.GAMES). Who may import it: the
registry (cardtool.games) and Symbiosis' own modules; nothing outside cardtool/games/symbiosis/ imports
its modules. The engine, bots and text are imported when first asked for.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from cardtool.deck.source import DeckSource
from cardtool.games.plugin import CommandSpec, GameRecord, LazyRecords
from cardtool.games.symbiosis.layout import MODES
from cardtool.games.symbiosis.model import Animal, Scoring, Season, SymbiosisCard, SymbiosisDeck
from cardtool.issues import Report
from cardtool.suggest import did_you_mean


class SymbiosisPlugin(LazyRecords):
    """The Symbiosis game as the deck tools and `cardtool play` see it."""

    name = "symbiosis"
    title = "Symbiosis"
    card_schema = "symbiosis/cards.schema.json"
    default_kind = "card"
    modes = tuple(MODES)
    score_name = "points"
    _table = None  # the last deck's CardTable
    _games: dict = {}  # its games by (players, mode), to be reseeded
    commands = (CommandSpec("score", "cardtool.games.symbiosis.commands.score", "score a table position written "
                            "as YAML and print the breakdown per column and per card"),)

    records_module = "cardtool.games.symbiosis.records"  # card_events, end_reasons...: see LazyRecords

    # What play and simulate read, imported when first asked for (validate needs none of it).
    @property
    def bots(self):
        from cardtool.games.symbiosis.bots import BOTS

        return BOTS

    def check_source(self, source: DeckSource, report: Report) -> None:
        seasons = self._defined(source, "seasons", report)
        animals = self._defined(source, "animals", report)
        for entry in source.cards.values():
            data = entry.data
            refs = [(("animal",), data["animal"], animals, "Animal"), (("season",), data["season"], seasons, "Season")]
            scoring = data["scoring"]
            for name, known, label in (("animal", animals, "Animal"), ("season", seasons, "Season")):
                if name in scoring:
                    refs.append((("scoring", name), scoring[name], known, label))
            for fields, value, known, label in refs:
                if value not in known:
                    report.error("unknown-ref", f"unknown {label} '{value}'", location=entry.locate(*fields),
                                 card=entry.id, path=entry.path + fields,
                                 hint=did_you_mean(value, known) or f"define it under '{label.lower()}s:'")

    def _defined(self, source: DeckSource, section: str, report: Report) -> set[str]:
        ids: dict[str, object] = {}
        for doc, items in source.sections(section):
            for index, item in enumerate(items):
                if not isinstance(item, dict) or "id" not in item:
                    continue
                where = doc.locate((section, index, "id"))
                if item["id"] in ids:
                    report.error("duplicate-id", f"{section[:-1]} '{item['id']}' is already defined at {ids[item['id']]}",
                                 location=where)
                else:
                    ids[item["id"]] = where
        return set(ids)

    def restrict(self, source: DeckSource, dropped, report: Report) -> None:
        """Symbiosis cards name Animals and Seasons, never other cards: nothing to drop."""

    def link(self, source: DeckSource, added: set[str]) -> None:
        """Symbiosis cards do not link to each other: nothing to complete."""

    def build(self, source: DeckSource) -> SymbiosisDeck:
        seasons = tuple(Season(**item) for _, items in source.sections("seasons") for item in items)
        animals = tuple(Animal(**item) for _, items in source.sections("animals") for item in items)
        cards = []
        for entry in source.cards.values():
            d = entry.data
            cards.append(SymbiosisCard(
                id=d["id"], kind="card", name=d["name"], count=d.get("count", 1), animal=d["animal"],
                season=d["season"], scoring=Scoring(**d["scoring"]), flavor=d.get("flavor", ""),
                art=d.get("art"), tags=tuple(d.get("tags", ())), source=d.get("source", "")))
        return SymbiosisDeck(manifest=source.manifest, cards=tuple(cards), seasons=seasons, animals=animals)

    def check_deck(self, deck: SymbiosisDeck, source: DeckSource, report: Report) -> None:
        """Warnings for a deck too small to play and for variable cards that can never score."""
        playable = [name for name, mode in MODES.items() if mode.players(deck.size)]
        if not playable:
            report.warning("table-size", f"{deck.size} cards are too few for any Symbiosis game",
                           location=source.manifest_doc.locate(("cards",)),
                           hint=f"a Duel needs {MODES['duel'].cards_needed(2)} cards, a 4-player game "
                                f"{MODES['standard'].cards_needed(4)}")
        shown = {("animal", c.animal) for c in deck.cards} | {("season", c.season) for c in deck.cards}
        for card in deck.cards:
            rule = card.scoring
            if rule.variable:
                kind = "animal" if rule.rule == "per_animal" else "season"
                if (kind, getattr(rule, kind)) not in shown:
                    report.warning("never-scores", f"no card shows the {kind} '{getattr(rule, kind)}' "
                                   f"this card counts, so it always scores 0",
                                   location=source.locate(card.id, "scoring", kind), card=card.id,
                                   path=source.cards[card.id].path + ("scoring", kind))

    def composition(self, deck: SymbiosisDeck) -> list[tuple[str, dict[str, int]]]:
        animals: Counter = Counter({a.name: 0 for a in deck.animals})
        seasons: Counter = Counter({s.name: 0 for s in deck.seasons})
        rules: Counter = Counter()
        for card in deck.cards:
            animals[deck.animal(card.animal).name] += card.count
            seasons[deck.season(card.season).name] += card.count
            rules[card.scoring.rule] += card.count
        by_source: Counter = Counter({"rulebook": 0, "design": 0})
        for card in deck.cards:
            by_source[card.source or "not marked"] += card.count
        return [("cards", {"card": deck.size}), ("cards by Animal", dict(animals)),
                ("cards by Season", dict(seasons)), ("cards by scoring rule", dict(rules)),
                ("cards by source (rulebook: shown in the printed rules' worked example)", dict(by_source))]

    # -- cardtool validate: rulebook directives (cardtool.games.plugin.ChecksDirectives)

    directive_names: tuple[str, ...] = ("score", "table")

    def check_directive(self, deck, name, args, body, folder, where, report) -> None:
        from cardtool.games.symbiosis.directives import check_directive

        check_directive(deck, name, args, body, folder, where, report)

    # -- cardtool cards (cardtool.games.plugin.ListsCards)

    def card_columns(self, deck) -> tuple[str, ...]:
        from cardtool.games.symbiosis.listing import COLUMNS

        return COLUMNS

    def card_row(self, deck, card):
        from cardtool.games.symbiosis.listing import card_row

        return card_row(deck, card)

    # -- cardtool new (cardtool.games.plugin.Scaffolds)

    def scaffold_deck(self, name: str, context: dict) -> dict[str, str]:
        from cardtool.games.symbiosis import scaffold

        return scaffold.scaffold_deck(name, context)

    def scaffold_expansion(self, base, context: dict) -> tuple[dict, str]:
        from cardtool.games.symbiosis import scaffold

        return scaffold.scaffold_expansion(base, context)

    # -- printing (cardtool.games.plugin.DrawsCards, WritesRulebook)

    def icon_tokens(self, deck):  # cardtool.games.tokens.HasIconTokens
        from cardtool.games.symbiosis.render.tokens import icon_tokens

        return icon_tokens(deck)

    def palette(self, deck, source=None):  # cardtool.games.palette.HasPalette
        from cardtool.games.symbiosis.render.palette import palette

        return palette(deck, source)

    def faces(self, deck):
        from cardtool.games.symbiosis.render.faces import SymbiosisFaces

        return SymbiosisFaces(deck)

    def rulebook_parts(self, deck):
        from cardtool.games.symbiosis.render.rulebook import SymbiosisRulebook

        return SymbiosisRulebook(deck)

    def rulebook_insert_parts(self, deck, own, reprinted):  # optional part of plugin.WritesRulebook
        from cardtool.games.symbiosis.render.rulebook import SymbiosisRulebook

        return SymbiosisRulebook(deck, frozenset(own) | frozenset(reprinted), frozenset(reprinted))

    # -- cardtool play (cardtool.games.plugin.PlayableGame)

    def players_for(self, deck: SymbiosisDeck, mode: str) -> range:
        return MODES[mode].players(deck.size)

    def new_game(self, deck: SymbiosisDeck, players: int, mode: str, seed: int):
        from cardtool.games.symbiosis.engine import SymbiosisGame
        from cardtool.games.symbiosis.table import CardTable

        # A simulation makes thousands of games of one deck: number its cards once.
        if self._table is None or self._table.deck is not deck:
            self._table = CardTable.of(deck)
            self._games = {}
        # ... and set up each table of seats once: the next game is the same facts with another seed.
        game = self._games.get((players, mode))
        if game is None:
            game = self._games[players, mode] = SymbiosisGame(self._table, players, mode, seed)
        return game.reseeded(seed)

    def text(self, game, names: Sequence[str]):
        from cardtool.games.symbiosis.text import SymbiosisText

        return SymbiosisText(game, names)

    def sample_state(self, public, seen, rng):
        from cardtool.games.symbiosis import observation

        return observation.sample_state(public, seen, rng)

    # -- cardtool simulate (cardtool.games.plugin.RecordsGames)

    def record(self, game, state) -> GameRecord:
        from cardtool.games.symbiosis import records

        return records.record(game, state)

    # -- cardtool score (cardtool.games.plugin.ScoresPositions)

    def score_position(self, deck: SymbiosisDeck, file: Path):
        from cardtool.games.symbiosis.position import load_position
        from cardtool.games.symbiosis.table import CardTable
        from cardtool.games.symbiosis.text import PositionReport

        table = CardTable.of(deck)
        return PositionReport(table, load_position(file, table), str(file))


PLUGIN = SymbiosisPlugin()
