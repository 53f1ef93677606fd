"""Symbiosis: ponds of eight cards, a River to swap with, columns that score against neighbours."""

from __future__ import annotations

from collections import Counter

from cardtool.deck.source import DeckSource
from cardtool.games.symbiosis.model import Animal, Scoring, Season, SymbiosisCard, SymbiosisDeck
from cardtool.report import Report
from cardtool.suggest import did_you_mean


class SymbiosisPlugin:
    """The Symbiosis game as the deck tools see it."""

    name = "symbiosis"
    title = "Symbiosis"
    card_schema = "symbiosis/cards.schema.json"
    default_kind = "card"

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

    def build(self, source: DeckSource) -> SymbiosisDeck:
        seasons = tuple(Season(**item) for _, items in source.sections("seasons") for item in items)
        animals = tuple(Animal(**item) for _, items in source.sections("animals") for item in items)
        cards = []
        for entry in source.cards.values():
            d = entry.data
            cards.append(SymbiosisCard(
                id=d["id"], kind="card", name=d["name"], count=d.get("count", 1), animal=d["animal"],
                season=d["season"], scoring=Scoring(**d["scoring"]), flavor=d.get("flavor", ""),
                art=d.get("art"), tags=tuple(d.get("tags", ()))))
        return SymbiosisDeck(manifest=source.manifest, cards=tuple(cards), seasons=seasons, animals=animals)

    def check_deck(self, deck: SymbiosisDeck, source: DeckSource, report: Report) -> None:
        """Nothing beyond references yet: table-size checks come with the game engine."""

    def composition(self, deck: SymbiosisDeck) -> list[tuple[str, dict[str, int]]]:
        animals: Counter = Counter({a.name: 0 for a in deck.animals})
        seasons: Counter = Counter({s.name: 0 for s in deck.seasons})
        rules: Counter = Counter()
        for card in deck.cards:
            animals[deck.animal(card.animal).name] += card.count
            seasons[deck.season(card.season).name] += card.count
            rules[card.scoring.rule] += card.count
        return [("cards", {"card": deck.size}), ("cards by Animal", dict(animals)),
                ("cards by Season", dict(seasons)), ("cards by scoring rule", dict(rules))]


PLUGIN = SymbiosisPlugin()
