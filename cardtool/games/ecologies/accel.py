"""The optional compiled kernels of Ecologies (accel/ in the repository, installed by `make venv`): the
arrangement solver `cardtool_accel._ecologies`, and GreedyBot's decision `cardtool_accel._ecogreedy`
(greedy_kernel.py feeds it; greedy.py and valuer.py are its reference).

arrange.py's `_solve` and `_alternatives` (and web_masks.py, which prepares a web for them) are the readable
reference; the kernel runs the same search node for node in C (64-bit bitmasks and whole numbers), so it
serves webs of at most 62 organisms with role weights below 2^40 (a VP bonus per card, which the schema keeps
small) and arrange.py solves any other web itself. The engine's steps `cardtool_accel._ecoengine` (observations and legal actions: steps.py) read the same Python
state as view.py and rules.py, their reference. Without the kernel, or with CARDTOOL_PURE set in the environment when cardtool starts
(to anything but "" or "0"; set_pure in one process), the pure-Python path runs and plays the same
games. tests/test_ecologies_accel.py compares both on random webs, tests/test_ecologies_accel_greedy.py over thousands of seeded games
(and the steps at every step of many).
"""

from __future__ import annotations

import sys

from cardtool.kernels import PURE_ENV, load_kernel, pure_from_environment  # noqa: F401 (PURE_ENV: for callers)

#: The kernel this code was written for: an installed kernel of another version is not used.
KERNEL_VERSION = 2
GREEDY_VERSION = 3
ENGINE_VERSION = 4
#: The largest web (organisms) and role weight the kernel takes (accel/cardtool_accel/_ecologies.c).
MAX_CARDS = 62
WEIGHT_LIMIT = 1 << 40


KERNEL = load_kernel("_ecologies", KERNEL_VERSION)
GREEDY = load_kernel("_ecogreedy", GREEDY_VERSION)
ENGINE = load_kernel("_ecoengine", ENGINE_VERSION)
_pure = pure_from_environment()


def installed() -> bool:
    """Whether the compiled kernel is installed (and of this version)."""
    return KERNEL is not None


def serving(cards: int, weights: tuple[int, ...]) -> bool:
    """Whether the kernel should solve this web now: installed, not turned off, and within its range."""
    return (KERNEL is not None and not _pure and cards <= MAX_CARDS
            and -WEIGHT_LIMIT < min(weights, default=0) and max(weights, default=0) < WEIGHT_LIMIT)


def greedy_installed() -> bool:
    """Whether the compiled GreedyBot decision is installed (and of this version)."""
    return GREEDY is not None


#: Python 3.12 made sum() of floats compensated (valuer.py sums floats with it); the kernel adds them one by one
#: as 3.11 does, so on a later Python GreedyBot decides in Python, where its values are what that sum gives.
GREEDY_SUMS_MATCH = sys.version_info < (3, 12)


def greedy_serving() -> bool:
    """Whether GreedyBot should decide in the kernel now: installed, not turned off, and on a Python whose
    float sums it reproduces (greedy_kernel.py then checks the card table and each observation fit it)."""
    return GREEDY is not None and not _pure and GREEDY_SUMS_MATCH


def engine_serving() -> bool:
    """Whether the engine's compiled steps (observations, legal actions: steps.py) should run now."""
    return ENGINE is not None and not _pure


def set_pure(pure: bool) -> bool:
    """Force the pure-Python solver and GreedyBot (True) or allow the kernels (False) from now on, as
    CARDTOOL_PURE does at start (for tests and benchmarks that play both ways in one process); returns the
    previous setting."""
    global _pure
    previous, _pure = _pure, pure
    return previous
