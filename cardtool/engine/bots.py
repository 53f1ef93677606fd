"""Bots any game can use, and the registry by which commands name them.

A game lists its bots as a mapping from name to factory (`factory(seat, **options) -> Bot`, where `seat`
is the public `cardtool.engine.protocol.Seat`, never the Game: a bot cannot re-deal the real cards);
commands build the bots through `make_bots`, which checks every name first and suggests the nearest for
a typo.

A name may carry options after colons, `search:iters=400` or `search:iters=200:width=4`: a factory
that takes options lists them in its `OPTIONS` attribute, a mapping from key to a parser of the value
text (`positive_int`, `positive_float`); a key the factory does not list, or a value its parser refuses,
is a UsageError naming the bot, the key and the keys it takes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from cardtool.engine.protocol import Action, Bot, Game, Seat
from cardtool.errors import UsageError
from cardtool.suggest import did_you_mean

BotFactory = Callable[..., Bot]


def positive_int(text: str) -> int:
    """An option value that must be a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise ValueError("a whole number") from None
    if value < 1:
        raise ValueError("a whole number of at least 1")
    return value


def positive_float(text: str) -> float:
    """An option value that must be a number above 0."""
    try:
        value = float(text)
    except ValueError:
        raise ValueError("a number") from None
    if not value > 0 or value == float("inf"):
        raise ValueError("a number above 0")
    return value


def one_of(*choices: str) -> Callable[[str], str]:
    """An option parser for a value that must be one of these words (a bot's `name:option=word`)."""

    def parse(text: str) -> str:
        if text not in choices:
            raise ValueError(f"one of {', '.join(choices)}")
        return text

    parse.__doc__ = f"One of {', '.join(choices)}."
    return parse


class RandomBot:
    """Plays a legal action drawn uniformly at random: the baseline every game has."""

    name = "random"

    def __init__(self, seat: Seat | None = None):
        """Needs nothing from the game; takes the seat so that it is a factory like any other bot."""

    def choose(self, observation: Any, legal: Sequence[Action], rng: random.Random) -> Action:
        return legal[rng.randrange(len(legal))]


def parse_bot_name(name: str, registry: Mapping[str, BotFactory]) -> tuple[str, dict[str, Any]]:
    """The registry name and the parsed options of a bot name such as `search:iters=400`; a UsageError
    for an unknown bot (with the nearest known name), an option the bot does not take, or a bad value."""
    base, *parts = name.strip().split(":")
    base = base.strip()
    if base not in registry:
        hint = did_you_mean(base, registry)
        raise UsageError(f"unknown bot '{base}'" + (f"; {hint}" if hint else "")
                         + f" (bots: {', '.join(registry)})")
    takes: Mapping[str, Callable[[str], Any]] = getattr(registry[base], "OPTIONS", {})
    options: dict[str, Any] = {}
    for part in parts:
        key, equals, text = (piece.strip() for piece in part.partition("="))
        if not takes:
            raise UsageError(f"bot '{base}' takes no options (in '{name}')")
        if not equals or not key or not text:
            raise UsageError(f"bot option '{part}' in '{name}' is not KEY=VALUE (options of '{base}': "
                             f"{', '.join(takes)})")
        if key not in takes:
            hint = did_you_mean(key, takes)
            raise UsageError(f"bot '{base}' has no option '{key}'" + (f"; {hint}" if hint else "")
                             + f" (options: {', '.join(takes)})")
        if key in options:
            raise UsageError(f"bot option '{key}' is given twice in '{name}'")
        try:
            options[key] = takes[key](text)
        except ValueError as error:
            raise UsageError(f"bot option {key}={text} in '{name}': expected {error}") from None
    return base, options


def check_bot_names(names: Sequence[str], registry: Mapping[str, BotFactory]) -> None:
    """UsageError naming the first unknown bot (with the nearest known name and the list of all) or the
    first bad option."""
    for name in names:
        parse_bot_name(name, registry)


def make_bots(names: Sequence[str], registry: Mapping[str, BotFactory], game: Game) -> list[Bot]:
    """One bot per seat, in seat order, each made from that seat's public facts only."""
    check_bot_names(names, registry)
    return [make_bot(name, registry, game, seat) for seat, name in enumerate(names)]


def make_bot(name: str, registry: Mapping[str, BotFactory], game: Game, seat: int) -> Bot:
    """The bot for one seat, made from that seat's public facts only (and the options in its name)."""
    base, options = parse_bot_name(name, registry)
    return registry[base](game.public(seat), **options)
