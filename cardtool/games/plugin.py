"""The small protocols a game package implements: GamePlugin for the deck tools, and optional capabilities.

What lives here: the protocols and the small frozen records they exchange. Every capability beyond
GamePlugin is optional and checked with isinstance (all are runtime_checkable): PlayableGame (play),
RecordsGames (simulate), ScoresPositions (score), DrawsCards (render cards/images, build), WritesRulebook
(render rulebook), HasBuildSteps (build), HasCommands (commands of its own), Scaffolds (new), DiffsDecks
(diff), ListsCards (cards), ChecksDirectives (validate's rulebook directives). Who may import it: any
layer and any game package; it imports nothing of cardtool at run time. docs/plugins.md explains each.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:  # annotations only: importing this module (the CLI does, for CommandSpec) stays cheap
    from cardtool.deck.model import Card, Deck
    from cardtool.deck.source import CardEntry, DeckSource
    from cardtool.engine.bots import BotFactory
    from cardtool.engine.protocol import Action, Game, Score, Seat, State
    from cardtool.issues import Report


class GamePlugin(Protocol):
    """What the deck tools need from a game: its schema, its checks, its model and its summary."""

    name: str  # the `game:` value in deck.yaml
    title: str  # shown to people
    #: The JSON Schema every card file follows: a path under cardtool's schemas/ for a built-in game
    #: ("ecologies/cards.schema.json"), an absolute path for a plugin's own file.
    card_schema: str
    default_kind: str  # the kind of a card that does not say one
    #: Optional (absent or None for the built-in layout, templates/<name>/): a plugin's own templates
    #: folder, mounted under the prefix "<name>/" (the template "<name>/card.html.j2" is
    #: templates_dir / "card.html.j2").
    #   templates_dir: Path | None
    #: Optional: a folder of example decks shipped with the plugin (shown by docs; nothing reads it).
    #   decks_dir: Path | None

    def check_source(self, source: DeckSource, report: Report) -> None:
        """Cross-card checks on schema-valid data (references, counts), as located issues."""

    def restrict(self, source: DeckSource, dropped: Mapping[str, CardEntry], report: Report) -> None:
        """Drop references to cards an expansion leaves out (or to base cards, taken alone)."""

    def link(self, source: DeckSource, added: set[str]) -> None:
        """Complete links that an expansion's added cards declare to base cards."""

    def build(self, source: DeckSource) -> Deck:
        """The frozen deck model; called only when the source has no errors."""

    def check_deck(self, deck: Deck, source: DeckSource, report: Report) -> None:
        """Later-stage checks that need the model (food webs); run only on decks without errors."""

    def composition(self, deck: Deck) -> list[tuple[str, dict[str, int]]]:
        """Titled tables of counts (copies included) for `cardtool info`."""


class GameText(Protocol):
    """A game's words for `cardtool play`: the account of a game, and a person's view and choices."""

    def start(self, state: State) -> str:
        """The game as dealt: mode, seats, the table."""

    def turn(self, before: State, action: Action, after: State) -> str:
        """What happened in one turn, read from the states before and after it."""

    def final(self, state: State) -> str:
        """The final table and score breakdown, and who won."""

    def observation(self, observation: Any) -> str:
        """What a seat sees, shown to a person before they choose."""

    def action_parts(self, observation: Any, action: Action) -> tuple[str, ...]:
        """An action as the successive choices a person makes (e.g. which card, where, what to flip)."""


@runtime_checkable
class PlayableGame(GamePlugin, Protocol):
    """A game that `cardtool play` can run: its modes, seats, engine, bots and text.

    Both built-in games implement it. The play command needs nothing else from a game.
    """

    modes: tuple[str, ...]  # the first is the default
    bots: Mapping[str, BotFactory]  # name -> factory(seat: Seat, public facts only) -> Bot

    def players_for(self, deck: Deck, mode: str) -> range:
        """The player counts a mode allows with this deck (empty when the deck is too small)."""

    def new_game(self, deck: Deck, players: int, mode: str, seed: int) -> Game:
        """The game's static facts, ready for `new_initial_state()`."""

    def text(self, game: Game, names: Sequence[str]) -> GameText:
        """The words for one game, with the seats called by names."""

    def sample_state(self, public: Seat, observation: Any, rng) -> State:
        """A full state consistent with an observation, hidden cards dealt at random with rng: a pure
        function of public facts and the observation (search bots, and the hidden-information test)."""


class ScoredPosition(Protocol):
    """A table position with its scores, ready to print."""

    def check_players(self, names: Sequence[str]) -> None:
        """UsageError for a name that has no pond in the position (with a suggestion)."""

    def text(self, players: Sequence[str] = ()) -> str:
        """The breakdown (of the named players, or everyone) and the result."""

    def to_json(self) -> dict:
        """The same as JSON-ready data."""


@runtime_checkable
class ScoresPositions(Protocol):
    """A game whose table positions `cardtool score` can read and score."""

    def score_position(self, deck: Deck, file: Path) -> ScoredPosition:
        """The position in file scored, or an error carrying a located report (exit 1)."""


@dataclass(frozen=True)
class GameRecord:
    """What a game tells `cardtool simulate` about one game it played (see RecordsGames).

    Seats are numbered from 0 in turn order, as everywhere in the engine; scores are exact (int or
    Fraction). Everything here must be JSON-ready once scores are turned into numbers.
    """

    scores: tuple[Score, ...]  # each seat's final score (where a cap stopped it, for a capped game)
    winners: tuple[int, ...]  # seats sharing the victory (several on a tie); () when a cap stopped the game
    turns: int  # turns played (state.turns_played): a seat's turn counts once, however many actions it took
    end_reason: str = ""  # why the game ended: one of the game's `end_reasons` words
    capped: bool = False  # a cap outside the rules stopped it (the engine's or --max-turns): nobody won
    #: The seats that win together (Symbiosis Team mode: ((0, 2), (1, 3))); () when every seat plays alone.
    teams: tuple[tuple[int, ...], ...] = ()
    #: Each seat's score after each round (a round: every seat has had one turn), round 1 first;
    #: the last entry is the final scores when the game ends mid-round. () when the game has no curve.
    curve: tuple[tuple[Score, ...], ...] = ()
    #: Card events: event word (one of the game's `card_events`) -> per seat, in seat order, the ids of
    #: the cards it happened to, in the order they happened (an id repeats when it happened again).
    #: E.g. {"drawn": (("fox", "oak"), ("moss",)), "played": (("oak",), ())} for two seats.
    cards: Mapping[str, tuple[tuple[str, ...], ...]] = field(default_factory=dict)
    #: Game-specific facts the report shows when present (JSON-ready values):
    #:   "biomes": {code: turn}: for each biome in play, the first turn (1-based) at which any seat's web
    #:       in it was healthy, or None when it never was (every biome in play listed, so "how often" can
    #:       be counted);
    #:   "points_by_<what>": per seat, {category: points} (e.g. points_by_rule, points_by_column);
    #:   other keys are kept in games.jsonl and not charted.
    extras: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class EndReason:
    """One way a game can end, as games.jsonl and the report name it."""

    word: str  # e.g. "target", "round-cap"
    text: str  # what it means, for people: "a player reached 12 VP"
    cap: bool = False  # a safeguard outside the rules: the game is counted as won by nobody


@runtime_checkable
class RecordsGames(Protocol):
    """A PlayableGame that `cardtool simulate` and `cardtool compare` can run at scale.

    After a game (finished by the rules, or stopped by a cap, then the record is `capped` and its
    winners are empty) the simulator calls `record(game, state)` once, in the worker that played it; the
    record must depend only on the game and the state (the state's own history or events list), so
    it is the same whichever process plays the game. It is called once per game, so it may replay the
    history to rebuild the score curve.
    """

    score_name: str  # what a score is called: "VP", "points"
    #: The card event words this game records, in the order the report shows them,
    #: e.g. ("drawn", "played", "destroyed") for Ecologies.
    card_events: tuple[str, ...]
    #: The event that says a seat used a card: the report gives the win rate of seats it happened to
    #: against seats it did not (e.g. "played"; Symbiosis: "kept", the card is in the final pond).
    impact_event: str
    #: The event that is a bot's choice: cards it never happens to over a run are flagged as cards the
    #: bots never play (e.g. "played"; Symbiosis: "taken" from the River).
    choice_event: str
    #: Every way this game's states can end (cardtool.engine.protocol.State.end_reason), the turn cap
    #: of the playout loop (TURN_CAP) included: a small closed set, in the order the report lists them.
    end_reasons: tuple[EndReason, ...]

    def record(self, game: Game, state: State) -> GameRecord:
        """The record of one game from its final (or capped) state."""


# -- printing: faces and rulebook -------------------------------------------------------------------
class Faces(Protocol):
    """What printing needs from a game: each card's front and back faces and the cards' stylesheet.

    Face is cardtool.render.context.Face; the printer renders each face's template with `face`, `card`
    (the face's typed context) and `frame` (cardtool.render.context.Frame: the size being printed).
    """

    game: str
    stylesheet: str  # template path of the CSS shared by the game's card templates

    def front(self, card: Card) -> Any:
        """The front Face of a card."""

    def back(self, card: Card) -> Any:
        """The back Face of a card."""


@runtime_checkable
class DrawsCards(Protocol):
    """A game whose cards `cardtool render cards|images` and `build` can print."""

    def faces(self, deck: Deck) -> Faces:
        """The face builder for one deck."""


class RulebookParts(Protocol):
    """What a rulebook needs from a game, all computed from the deck's data."""

    def components(self) -> Any:
        """The component list (cardtool.render.rulebook_parts.Components: a line and rows of counts)."""

    def reference(self) -> list:
        """Reference chapters after the prose, as (title, HTML Markup)."""

    def directives(self) -> dict:
        """`cardtool:NAME` blocks the prose may use: name -> handler(args, body, folder, where) -> HTML."""
    #: Optional: introduction() -> [(title, HTML)], chapters after the components (e.g. card_diagram's).


@runtime_checkable
class WritesRulebook(Protocol):
    """A game whose rulebook `cardtool render rulebook` and `build` can write."""

    def rulebook_parts(self, deck: Deck) -> RulebookParts:
        """The generated parts of one deck's rulebook."""
    #: Optional: rulebook_insert_parts(deck, own, reprinted) -> RulebookParts for an expansion's insert
    #: (--insert): tables of those card ids only (own cards, base cards reprinted); none the base book has.


# -- colours players must tell apart: HasPalette and PaletteColour live in cardtool.games.palette ----------


# -- build: extra steps -----------------------------------------------------------------------------
@dataclass(frozen=True)
class BuildOutput:
    """One file a build step wrote, relative to the build folder, as the build index lists it."""

    path: str  # e.g. "foodweb/CAV.svg"
    title: str  # e.g. "Food web of Caves"
    note: str = ""


@dataclass(frozen=True)
class BuildStep:
    """A step of `cardtool build` that only this game has, run after validation, before the cards.

    `run(deck, folder)` writes its files into folder (the build's staging folder) and returns what it
    wrote and a one-line summary ("4 biomes").
    """

    name: str  # e.g. "foodweb"
    title: str  # e.g. "Food-web report"
    run: Callable[[Deck, Path], tuple[list[BuildOutput], str]]


@runtime_checkable
class HasBuildSteps(Protocol):
    """A game that adds steps to `cardtool build`."""

    build_steps: tuple[BuildStep, ...]


# -- commands of its own ----------------------------------------------------------------------------
@dataclass(frozen=True)
class CommandSpec:
    """A command a game adds to cardtool, imported only when it runs (or its --help is asked for).

    The module has the shape of every cardtool command: NAME, HELP, EXAMPLES, add_arguments(parser),
    run(args) -> exit code. `help` is the line `cardtool --help` shows, so listing commands imports none.
    """

    name: str  # e.g. "foodweb"; must not be the name of another command
    module: str  # e.g. "cardtool.games.ecologies.commands.foodweb"
    help: str


@runtime_checkable
class HasCommands(Protocol):
    """A game with commands of its own (Ecologies: foodweb, arrange; Symbiosis: score)."""

    commands: tuple[CommandSpec, ...]


# -- cardtool new: scaffolds ------------------------------------------------------------------------
@runtime_checkable
class Scaffolds(Protocol):
    """A game that `cardtool new` can start a deck or an expansion of."""

    def scaffold_deck(self, name: str, context: dict) -> dict[str, str]:
        """A new deck's files: file name -> text (deck.yaml first). context: id, name, folder,
        schema_root (the schemas folder relative to the new deck, for editor lines)."""

    def scaffold_expansion(self, base: Deck, context: dict) -> tuple[dict, str]:
        """For a new expansion of base: extra context for the shared deck.yaml template (example_id,
        example_field, example_value: one override to show; optionally select_by, e.g. "id, tag, kind",
        and include_example, e.g. "{kinds: [card]}") and the text of its cards.yaml. context: id,
        name, folder, schema_root, game, base_name, base_ref, prefix, base_path (as the user gave it)."""


# -- cardtool diff: extras --------------------------------------------------------------------------
@dataclass(frozen=True)
class DiffSection:
    """A game's own part of a changelog: a Markdown section (left out when it has no lines) and the
    keys it adds to `diff --format json` (always present, so the JSON has the same shape every time)."""

    title: str  # e.g. "Food-web links"
    lines: tuple[str, ...]  # Markdown lines, e.g. "- gained: `fox` eats `vole`"
    json: Mapping[str, Any] = field(default_factory=dict)


@runtime_checkable
class DiffsDecks(Protocol):
    """A game that adds its own sections to `cardtool diff` (Ecologies: food-web links, witnesses)."""

    def diff_sections(self, old: Deck, new: Deck) -> list[DiffSection]:
        """The game's sections for the change from old to new."""


@runtime_checkable
class ShowsValues(Protocol):
    """A game whose card fields hold values that read better written its own way (Ecologies: 1/2 VP)."""

    def show_value(self, value: object) -> str | None:
        """value as a person reads it, or None to leave it to the generic writer."""


# -- cardtool cards: a listing -----------------------------------------------------------------------
@runtime_checkable
class ListsCards(Protocol):
    """A game whose cards `cardtool cards` lists with columns of its own (Ecologies: biomes, roles, VP,
    eats, eaten_by; Symbiosis: animal, season, scoring). Without it a card lists its id, name, kind and
    count. A column named `biomes` or `roles` is what `cards --biome` and `--role` filter on."""

    def card_columns(self, deck: Deck) -> tuple[str, ...]:
        """The game's columns, after id, name, kind and count."""

    def card_row(self, deck: Deck, card: Card) -> Mapping[str, str | tuple[str, ...]]:
        """One card's values for those columns: text, or a tuple of texts for a list."""


# -- cardtool validate: rulebook directives ---------------------------------------------------------
@runtime_checkable
class ChecksDirectives(Protocol):
    """A game whose rulebook directives (```` ```cardtool:NAME ARGS``` ```` blocks in the prose) `cardtool
    validate` checks before any rulebook is made: a block naming another directive is an error, and each
    known one is checked (the files it names, its arguments) with issues located in the prose."""

    directive_names: tuple[str, ...]  # e.g. ("score", "table"); () when the rulebook has none

    def check_directive(self, deck: Deck, name: str, args: Sequence[str], body: str, folder: Path,
                        where: Any, report: Report) -> None:
        """Add located issues for one directive (where: the Location of its fence in the prose)."""


class LazyRecords:
    """A base for plugin objects: the record vocabulary (CARD_EVENTS, IMPACT_EVENT, CHOICE_EVENT,
    END_REASONS of RecordsGames) read from the module named by `records_module` when first asked for,
    so that commands which never play (validate, render) do not import the game's engine."""

    records_module: str  # e.g. "mygame.records"

    def _records(self):
        import importlib

        return importlib.import_module(self.records_module)

    @property
    def card_events(self):
        return self._records().CARD_EVENTS

    @property
    def impact_event(self):
        return self._records().IMPACT_EVENT

    @property
    def choice_event(self):
        return self._records().CHOICE_EVENT

    @property
    def end_reasons(self):
        return self._records().END_REASONS
