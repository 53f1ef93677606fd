"""The playout loop every game shares: seats ask their bots, bots see only their observation.

Each seat's bot gets its own random generator derived from the game's seed, the seat and the bot's
name, so a game with the same seed and bots replays exactly, whatever else runs.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from typing import Any

from cardtool.engine.protocol import TURN_CAP, Action, Bot, Game, State
from cardtool.engine.seeds import derive_seed
from cardtool.errors import IllegalActionError

#: Called after every action with the state before it (a clone), the action and the state after it.
TurnHook = Callable[[State, Action, State], None]


def bot_rng(game: Game, seat: int, bot: Bot) -> random.Random:
    """The generator a seat's bot draws from."""
    return random.Random(derive_seed(game.seed, seat, bot.name))


def play(game: Game, bots: Sequence[Bot], *, on_turn: TurnHook | None = None,
         max_turns: int | None = None) -> State:
    """Play a game from its seed to the end and return the final state.

    With max_turns, a game still going once that many turns are complete is halted (end reason
    TURN_CAP, no winner). A turn is one seat's go, however many actions it takes (`turns_played`).
    """
    if len(bots) != game.players:
        raise ValueError(f"{len(bots)} bots for {game.players} seats")
    state = game.new_initial_state()
    rngs = [bot_rng(game, seat, bot) for seat, bot in enumerate(bots)]
    while not state.is_over():
        if max_turns is not None and state.turns_played >= max_turns:
            state.halt(TURN_CAP)
            break
        seat = state.current_player
        legal = state.legal_actions()
        bot = bots[seat]
        if len(legal) == 1 and getattr(bot, "takes_forced_moves", False):
            action = legal[0]  # the bot takes a forced move unseen: no observation to make
        else:
            action = bot.choose(state.observation(seat), legal, rngs[seat])
        if action not in legal:
            raise IllegalActionError(f"bot '{bots[seat].name}' at seat {seat + 1} chose {action!r}, "
                                     "which is not legal now")
        before = state.clone() if on_turn is not None else None
        state.apply(action)
        if on_turn is not None:
            on_turn(before, action, state)
    return state


def action_json(action: Action) -> Any:
    """An action as JSON-ready data: a dataclass becomes its fields and its type's name."""
    if dataclasses.is_dataclass(action):
        return {"type": type(action).__name__, **dataclasses.asdict(action)}
    return action
