"""Ecologies: Bizarre Biomes: food webs built in trophic rows, healthy-ecology bonuses, factor cards.

What lives here: everything Ecologies knows (model, checks, engine, bots, text, faces and rulebook parts
in render/, commands in commands/, scaffold, diff extras) and, in this module, its plugin object PLUGIN,
the only thing the rest of cardtool asks (through cardtool.games.GAMES). Who may import it: the
registry (cardtool.games) and Ecologies' own modules; nothing outside cardtool/games/ecologies/ imports
its modules. The engine, bots and text are imported when first asked for, so validating a deck does not
load them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from cardtool.deck.source import DeckSource
from cardtool.games.plugin import CommandSpec, GameRecord, LazyRecords
from cardtool.games.ecologies import links
from cardtool.games.ecologies.build import build
from cardtool.games.ecologies.effect_rules import check_effects
from cardtool.games.ecologies.model import ROLES, Biome, EcologiesDeck, Factor, Organism
from cardtool.games.ecologies.references import check_references, check_rule_options
from cardtool.issues import Report


class EcologiesPlugin(LazyRecords):
    """The Ecologies game as the deck tools and `cardtool play` see it."""

    name = "ecologies"
    title = "Ecologies: Bizarre Biomes"
    card_schema = "ecologies/cards.schema.json"
    default_kind = "organism"
    score_name = "VP"
    commands = (
        CommandSpec("foodweb", "cardtool.games.ecologies.commands.foodweb", "print food-web statistics, a healthy "
                    "witness web and table pictures for each biome (Ecologies)"),
        CommandSpec("arrange", "cardtool.games.ecologies.commands.arrange", "arrange organisms in one Ecologies "
                    "food web: a role each, the rows, healthy or why a card cannot be fed"),
    )

    records_module = "cardtool.games.ecologies.records"  # card_events, end_reasons...: see LazyRecords

    # What play and simulate read, imported when first asked for (validate needs none of it).
    @property
    def modes(self):
        from cardtool.games.ecologies.engine import MODES

        return MODES

    @property
    def bots(self):
        from cardtool.games.ecologies.bots import BOTS

        return BOTS

    def check_source(self, source: DeckSource, report: Report) -> None:
        check_references(source, report)
        check_rule_options(source, report)
        check_effects(source, report)

    def restrict(self, source: DeckSource, dropped, report: Report) -> None:
        links.restrict(source, dropped, report)

    def link(self, source: DeckSource, added: set[str]) -> None:
        links.link(source, added)

    def build(self, source: DeckSource) -> EcologiesDeck:
        return build(source)

    def check_deck(self, deck: EcologiesDeck, source: DeckSource, report: Report) -> None:
        from cardtool.games.ecologies.checks import check_food_webs

        check_food_webs(deck, source, report)

    def composition(self, deck: EcologiesDeck) -> list[tuple[str, dict[str, int]]]:
        kinds = Counter({"organism": 0, "biome": 0, "factor": 0})
        for card in deck.cards:
            kinds[card.kind] += card.count
        by_biome: Counter = Counter({code: 0 for code in deck.biome_codes})
        by_role: Counter = Counter({role: 0 for role in ROLES})
        for card in deck.cards:
            if isinstance(card, Organism):
                for code in card.biomes:
                    by_biome[code] += card.count
                for role in card.roles:
                    by_role[role] += card.count
        names = {b.code: f"{b.code} {b.name}" for b in deck.biomes}
        return [
            ("cards by kind", dict(kinds)),
            ("organisms by biome (two-biome organisms count in both)",
             {names.get(code, code): n for code, n in by_biome.items()}),
            ("organisms by trophic role they can take", dict(by_role)),
            ("cards and bonuses the single-player game cannot use (multiplayer or unfair alone)",
             single_excluded_cards(deck)),
            ("where the rules of cards and bonuses come from (source:)", sources(deck)),
            ("the project's own design, not the printed rulebook's (source: design)", designed(deck)),
        ]

    # -- cardtool diff (cardtool.games.plugin.DiffsDecks, ShowsValues)

    def diff_sections(self, old: EcologiesDeck, new: EcologiesDeck) -> list:
        from cardtool.games.ecologies.diff import diff_sections

        return diff_sections(old, new)

    def show_value(self, value: object) -> str | None:
        from cardtool.games.ecologies.diff import show_value

        return show_value(value)

    # -- cardtool validate: rulebook directives (cardtool.games.plugin.ChecksDirectives)

    directive_names: tuple[str, ...] = ()  # its rulebook has no ```cardtool:``` blocks

    def check_directive(self, deck, name, args, body, folder, where, report) -> None:
        """No directive to check."""

    # -- cardtool cards (cardtool.games.plugin.ListsCards)

    def card_columns(self, deck) -> tuple[str, ...]:
        from cardtool.games.ecologies.listing import COLUMNS

        return COLUMNS

    def card_row(self, deck, card):
        from cardtool.games.ecologies.listing import card_row

        return card_row(deck, card)

    # -- cardtool new (cardtool.games.plugin.Scaffolds)

    def scaffold_deck(self, name: str, context: dict) -> dict[str, str]:
        from cardtool.games.ecologies import scaffold

        return scaffold.scaffold_deck(name, context)

    def scaffold_expansion(self, base, context: dict) -> tuple[dict, str]:
        from cardtool.games.ecologies import scaffold

        return scaffold.scaffold_expansion(base, context)

    # -- printing (cardtool.games.plugin.DrawsCards, WritesRulebook)

    @property
    def build_steps(self):
        from cardtool.games.ecologies.render.build_steps import FOODWEB

        return (FOODWEB,)

    def icon_tokens(self, deck):  # cardtool.games.tokens.HasIconTokens
        from cardtool.games.ecologies.render.tokens import icon_tokens

        return icon_tokens(deck)

    def palette(self, deck, source=None):  # cardtool.games.palette.HasPalette
        from cardtool.games.ecologies.render.palette import palette

        return palette(deck, source)

    def faces(self, deck):
        from cardtool.games.ecologies.render.faces import EcologiesFaces

        return EcologiesFaces(deck)

    def rulebook_parts(self, deck):
        from cardtool.games.ecologies.render.rulebook import EcologiesRulebook

        return EcologiesRulebook(deck)

    def rulebook_insert_parts(self, deck, own, reprinted):  # optional part of plugin.WritesRulebook
        from cardtool.games.ecologies.render.rulebook import EcologiesRulebook

        return EcologiesRulebook(deck, frozenset(own) | frozenset(reprinted), frozenset(reprinted))

    # -- cardtool play (cardtool.games.plugin.PlayableGame)

    def players_for(self, deck: EcologiesDeck, mode: str) -> range:
        from cardtool.games.ecologies.engine import players_for

        return players_for(deck, mode)

    def new_game(self, deck: EcologiesDeck, players: int, mode: str, seed: int):
        from cardtool.games.ecologies.engine import EcologiesGame

        return EcologiesGame(deck, players, mode, seed)

    def text(self, game, names: Sequence[str]):
        from cardtool.games.ecologies.text import EcologiesText

        return EcologiesText(game, names)

    def sample_state(self, public, seen, rng):
        from cardtool.games.ecologies import observation

        return observation.sample_state(public, seen, rng)

    # -- cardtool simulate (cardtool.games.plugin.RecordsGames)

    def record(self, game, state) -> GameRecord:
        from cardtool.games.ecologies import records

        return records.record(game, state)


def single_excluded_cards(deck: EcologiesDeck) -> dict[str, int]:
    """Cards (a biome: its bonus) whose every effect the single-player note excludes, with their copies."""
    from cardtool.games.ecologies.effects import single_excluded

    found = {}
    for card in deck.cards:
        card_effects = card.bonus if isinstance(card, Biome) else card.effects if isinstance(card, Factor) else ()
        if card_effects and all(single_excluded(e) for e in card_effects):
            found[f"{card.name} (bonus)" if isinstance(card, Biome) else card.name] = card.count
    return found


def rule_sources(deck: EcologiesDeck) -> list[tuple[str, str, int]]:
    """(name, source, copies) of every factor card and biome bonus ("" when not claimed); a biome card
    appears as its bonus, since the bonus is the rule."""
    found = []
    for card in deck.cards:
        if isinstance(card, Biome):
            found.append((f"{card.name} (bonus)", card.bonus_source, card.count))
        elif isinstance(card, Factor):
            found.append((card.name, card.source, card.count))
    return found


def sources(deck: EcologiesDeck) -> dict[str, int]:
    counts = Counter({"rulebook": 0, "design": 0})
    for _, source, copies in rule_sources(deck):
        counts[source or "not marked"] += copies
    return dict(counts)


def designed(deck: EcologiesDeck) -> dict[str, int]:
    return {name: copies for name, source, copies in rule_sources(deck) if source == "design"}


PLUGIN = EcologiesPlugin()
