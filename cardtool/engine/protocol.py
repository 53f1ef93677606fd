"""One small game protocol, after OpenSpiel: a Game of static facts, a State, observations, bots.

A game is its seed plus its list of actions: the State owns one seeded RNG for every chance event,
so replaying the same actions from the same seed reproduces it exactly. Bots see only what their seat
may know (`State.observation`), never another hand or the deck order: a bot is made from a `Seat` (the
public facts of the game, no seed, no Game, no State) and search bots deal their own worlds from an
observation with the game's pure `sample_state(seat, observation, rng)`.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol, runtime_checkable

from cardtool.errors import IllegalActionError

#: An action is any hashable, immutable value a game defines (usually a frozen dataclass).
Action = Hashable
Score = int | Fraction
#: The end reason of a game the playout loop stopped after its turn cap (`--max-turns`): nobody wins it.
TURN_CAP = "turn-cap"


@runtime_checkable
class State(Protocol):
    """A game in progress. Holds card ids in zones, never copies of card definitions."""

    @property
    def current_player(self) -> int:
        """The seat to act, or -1 once the game is over."""

    @property
    def history(self) -> Sequence[Action]:
        """Every action applied so far, in order."""

    def legal_actions(self) -> list[Action]:
        """The actions the current player may take: a pure query, no side effects."""

    def apply(self, action: Action) -> None:
        """Apply an action, trusting the caller that it is legal (see apply_checked)."""

    def is_over(self) -> bool: ...

    def scores(self) -> list[Score]:
        """Each seat's score (VP or points); exact values, never floats."""

    def winners(self) -> list[int]:
        """Seats sharing the victory once the game is over (several on a tie); none after a cap."""

    @property
    def end_reason(self) -> str:
        """Why the game is over, a word of its game's closed set (e.g. "target"), or TURN_CAP once halted
        by the playout loop; "" while it goes on."""

    @property
    def turns_played(self) -> int:
        """Turns completed so far. A turn is one seat's go and may take several actions (answers, choices)."""

    def halt(self, reason: str) -> None:
        """Stop the game here, outside its rules (a cap such as TURN_CAP): is_over() turns true,
        winners() stays empty and end_reason is `reason`."""

    def observation(self, player: int) -> Any:
        """What one seat may know, as an immutable value: its hand, the public table, never hidden cards."""

    def clone(self) -> "State":
        """An independent copy, cheap (lists of ids copied), never a deepcopy."""

    def describe(self, action: Action) -> str:
        """A line a person can read for an action in this state."""


@dataclass(frozen=True)
class Seat:
    """What a bot is built from: the facts everyone at the table knows before the deal, and its seat.

    Deliberately no seed, no Game and no State: nothing here leads to a face-down card or the deck order,
    so a bot cannot read them, whatever it tries. A search bot deals its own worlds from an observation
    with its game's `sample_state(seat, observation, rng)`.
    """

    deck: Any  # the deck's card definitions, numbered as the engine numbers them (the game's card table)
    mode: str
    players: int
    seat: int  # 0-based, in turn order
    #: Public rule options the game was set up with, as sorted (name, value) pairs (e.g. a playtest cap).
    rules: tuple[tuple[str, Any], ...] = ()


class Game(Protocol):
    """Static facts of one game: deck, seats, mode and seed; makes the initial state."""

    players: int
    mode: str
    seed: int

    def new_initial_state(self) -> State: ...

    def public(self, seat: int) -> Seat:
        """The public facts a seat's bot is built from (never the seed)."""


class Bot(Protocol):
    """Chooses an action from an observation and the legal actions; nothing else."""

    name: str

    def choose(self, observation: Any, legal: Sequence[Action], rng: random.Random) -> Action: ...


def apply_checked(state: State, action: Action) -> None:
    """Apply an action, or raise IllegalActionError naming it when it is not legal now."""
    legal = state.legal_actions()
    if action not in legal:
        raise IllegalActionError(f"{action!r} is not legal for seat {state.current_player} now "
                                 f"({len(legal)} legal actions)")
    state.apply(action)


def replay(game: Game, actions: Sequence[Action]) -> State:
    """The state reached from the game's seed by applying actions, each checked."""
    state = game.new_initial_state()
    for action in actions:
        apply_checked(state, action)
    return state
