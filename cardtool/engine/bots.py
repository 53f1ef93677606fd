"""Bots any game can use, and the registry by which commands name them.

A game lists its bots as a mapping from name to factory (`factory(seat) -> Bot`, where `seat` is the
public `cardtool.engine.protocol.Seat`, never the Game: a bot cannot re-deal the real cards); commands
build the bots through `make_bots`, which checks every name first and suggests the nearest for a typo.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from cardtool.engine.protocol import Action, Bot, Game, Seat
from cardtool.errors import UsageError
from cardtool.suggest import did_you_mean

BotFactory = Callable[[Seat], Bot]


class RandomBot:
    """Plays a legal action drawn uniformly at random: the baseline every game has."""

    name = "random"

    def __init__(self, seat: Seat | None = None):
        """Needs nothing from the game; takes the seat so that it is a factory like any other bot."""

    def choose(self, observation: Any, legal: Sequence[Action], rng: random.Random) -> Action:
        return legal[rng.randrange(len(legal))]


def check_bot_names(names: Sequence[str], registry: Mapping[str, BotFactory]) -> None:
    """UsageError naming the first unknown bot, with the nearest known name and the list of all."""
    for name in names:
        if name not in registry:
            hint = did_you_mean(name, registry)
            raise UsageError(f"unknown bot '{name}'" + (f"; {hint}" if hint else "")
                             + f" (bots: {', '.join(registry)})")


def make_bots(names: Sequence[str], registry: Mapping[str, BotFactory], game: Game) -> list[Bot]:
    """One bot per seat, in seat order, each made from that seat's public facts only."""
    check_bot_names(names, registry)
    return [registry[name](game.public(seat)) for seat, name in enumerate(names)]


def make_bot(name: str, registry: Mapping[str, BotFactory], game: Game, seat: int) -> Bot:
    """The bot for one seat, made from that seat's public facts only."""
    check_bot_names([name], registry)
    return registry[name](game.public(seat))
