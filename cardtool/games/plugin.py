"""The small protocols a game package implements: GamePlugin for the deck tools, PlayableGame for play."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from cardtool.deck.model import Deck
from cardtool.deck.source import CardEntry, DeckSource
from cardtool.engine.bots import BotFactory
from cardtool.engine.protocol import Action, Game, State
from cardtool.report import Report


class GamePlugin(Protocol):
    """What the deck tools need from a game: its schema, its checks, its model and its summary."""

    name: str  # the `game:` value in deck.yaml
    title: str  # shown to people
    card_schema: str  # path under schemas/ of the schema every card file follows
    default_kind: str  # the kind of a card that does not say one

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

    Symbiosis implements it; Ecologies will. The play command needs nothing else from a game.
    """

    modes: tuple[str, ...]  # the first is the default
    bots: Mapping[str, BotFactory]  # name -> factory(game) -> Bot

    def players_for(self, deck: Deck, mode: str) -> range:
        """The player counts a mode allows with this deck (empty when the deck is too small)."""

    def new_game(self, deck: Deck, players: int, mode: str, seed: int) -> Game:
        """The game's static facts, ready for `new_initial_state()`."""

    def text(self, game: Game, names: Sequence[str]) -> GameText:
        """The words for one game, with the seats called by names."""


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
