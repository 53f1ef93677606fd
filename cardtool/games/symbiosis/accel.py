"""The optional compiled kernel for GreedyBot's swap gains and the deal's shuffle:
`cardtool_accel._symbiosis` (accel/ in the repository, installed by `make venv`).

gains.SeatGains is the readable reference; the kernel computes the same whole numbers in C, 64-bit, so
it is used only for decks whose figures stay far below 2^63 (points, cards and seats bound every figure;
the shipped decks are millions of times below). Without the kernel, with CARDTOOL_PURE set in the
environment when cardtool starts (to anything but "" or "0"; set_pure in one process), or for a deck
outside its range, the pure-Python path runs and
plays the same games. tests/test_symbiosis_accel.py plays thousands of seeded games both ways.
"""

from __future__ import annotations

import random

from cardtool.games.symbiosis.layout import POND
from cardtool.kernels import PURE_ENV, load_kernel, pure_from_environment  # noqa: F401 (PURE_ENV: for callers)

#: The kernel this code was written for: an installed kernel of another version is not used.
KERNEL_VERSION = 3
_LIMIT = 1 << 62  # the largest figure the kernel may meet, by the bound in `fits`


_KERNEL = load_kernel("_symbiosis", KERNEL_VERSION)


def installed() -> bool:
    """Whether the compiled kernel is installed (and of this version)."""
    return _KERNEL is not None


_pure = pure_from_environment()  # read once: asked at every deal


def wanted() -> bool:
    """Whether to use the kernel now: installed and not turned off (CARDTOOL_PURE at start, or set_pure)."""
    return _KERNEL is not None and not _pure


def set_pure(pure: bool) -> bool:
    """Force the pure-Python path (True) or allow the kernel (False) from now on, as CARDTOOL_PURE does
    at start (for tests and benchmarks that play both ways in one process); returns the previous setting."""
    global _pure
    previous, _pure = _pure, pure
    return previous


def fits(table, players: int, river_size: int) -> bool:
    """Whether every figure SeatGains makes for this deck stays below 2^62: each is a sum of fewer than
    200 (players + 1) terms, each at most n² times a card's points (n the cards out of sight)."""
    cards = sum(table.copies) + POND * 2 + river_size
    return 4096 * (players + 1) * cards * cards * (max(table.points, default=0) + 1) < _LIMIT


def seat_kernel(game, gains):
    """The compiled kernel for one SeatGains (its seat's static facts), or None where it cannot serve."""
    table = game.table
    if not fits(table, game.players, game.river_size):
        return None
    counting = [(slot, sign) for slots, sign in gains.counting for slot in slots]
    try:
        return _KERNEL.Seat(table.animal_feature, table.season_feature, table.counted, table.points,
                            table.copies, game.players, game.river_size, gains.seat, gains.targets,
                            gains.coupled, counting)
    except ValueError:  # more features, seats or River slots than the kernel holds
        return None


def shuffle(cards: list, rng: random.Random) -> None:
    """rng.shuffle(cards), in C where the kernel serves: the same order from the same numbers drawn."""
    if type(rng) is random.Random and wanted():
        _KERNEL.shuffle(cards, rng)
    else:
        rng.shuffle(cards)
