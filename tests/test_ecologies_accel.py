"""The compiled arrangement solver (accel/, cardtool_accel._ecologies) finds what the pure-Python one finds,
so the engine plays exactly the same Ecologies games with it and without it.

arrange.solve and arrange.list_alternatives are the readable reference: the kernel must return the same
roles, health, role-bonus VP and alternatives for every web, and whole games (every action and event)
must be identical both ways. Each way plays on fresh card tables, so neither reads arrangements the
other memoised. `make venv` installs the kernel, so these tests fail rather than skip when it is missing.
"""

from __future__ import annotations

import hashlib
import os
import random
import subprocess
import sys
from functools import lru_cache

import pytest

from cardtool.deck.loader import load_deck
from cardtool.engine.playout import play
from cardtool.engine.seeds import derive_seed
from cardtool.games import GAMES
from cardtool.games.ecologies import accel, arrange, web_masks
from cardtool.games.ecologies import table as tables
from cardtool.games.ecologies.engine import EcologiesGame
from cardtool.games.ecologies.table import CardTable
from tests.conftest import DECKS

#: (deck, mode, bots): the tables compared whole, base and expansion, greedy and random seats.
TABLES = [
    ("ecologies-bizarre-biomes", "multi", ("greedy",) * 4),
    ("ecologies-bizarre-biomes", "multi", ("greedy",) * 2),
    ("ecologies-bizarre-biomes", "simplified", ("greedy",) * 4),
    ("ecologies-bizarre-biomes", "single", ("greedy",)),
    ("frozen-and-deep", "multi", ("greedy", "random", "greedy")),
]
MAX_TURNS = 1000


@pytest.fixture
def pure():
    """accel.set_pure, restored after the test."""
    previous = accel.set_pure(False)
    yield accel.set_pure
    accel.set_pure(previous)


def test_the_kernel_is_installed():
    assert accel.installed(), "the compiled kernel is missing: `make venv` (or pip install ./accel) installs it"


@lru_cache(maxsize=None)
def _deck(name: str):
    return load_deck(DECKS / name)


def _webs(table: CardTable, rng: random.Random, count: int):
    """Random webs: organisms mostly of the biome (some not), up to 16 of them, random role weights."""
    organisms = table.organism_cards
    for _ in range(count):
        code = rng.choice(table.codes)
        living = [c for c in organisms if code in table.biomes[c]] if rng.random() < 0.8 else list(organisms)
        cards = rng.sample(living, min(len(living), rng.randrange(17)))
        defs = tuple(table.def_of[c] for c in arrange.canonical(table, cards))
        weights = tuple(rng.choice((0, 1, 2, 3, -1)) if rng.random() < 0.3 else 0 for _ in range(6))
        yield code, defs, weights


def _both(table, code, defs, weights):
    """(Python's answer, the kernel's) for the best arrangement and for its alternatives."""
    eats, printed = arrange._masks(table, code, defs)
    python = arrange.solve(eats, printed, weights)
    kernel = accel.KERNEL.solve(eats, printed, weights, arrange.NODE_BUDGET)
    if None in python[0]:
        return (python, None), (kernel, None)
    first = tuple(arrange.ROLE_NAMES[r] for r in python[0])
    listed = arrange.list_alternatives(eats, printed, weights, defs, first, python[1], python[2])
    found = accel.KERNEL.alternatives(eats, printed, weights, defs, list(python[0]), python[1], python[2],
                                      arrange.MAX_ALTERNATIVES, arrange._ALTERNATIVE_NODES)
    return (python, listed), (kernel, tuple(tuple(arrange.ROLE_NAMES[r] for r in roles) for roles in found))


@pytest.mark.parametrize("deck", ["ecologies-bizarre-biomes", "frozen-and-deep"])
def test_kernel_arranges_random_webs_as_python_does(deck):
    table = CardTable(_deck(deck))
    for code, defs, weights in _webs(table, random.Random(deck), 1500):
        python, kernel = _both(table, code, defs, weights)
        assert kernel == python, (code, defs, weights)


@pytest.mark.parametrize("deck", ["ecologies-bizarre-biomes", "frozen-and-deep"])
def test_kernel_prepares_random_webs_as_python_does(deck):
    """web_masks.masks (who eats whom, by position, and the roles each may take) the same both ways, copies of a
    definition included; more cards than the kernel holds are refused, and arrange._masks answers in Python."""
    table = CardTable(_deck(deck))
    rng = random.Random(deck)
    for code, defs, _ in _webs(table, rng, 1500):
        defs = tuple(sorted(defs + tuple(rng.choice(defs) for _ in range(rng.randrange(3)) if defs)))
        lives = table.solver_roles.get(code) or arrange._solver_roles(table, code)
        python = web_masks.masks(table.eats_def, lives, defs)
        assert accel.KERNEL.masks(table.eats_def, lives, defs) == python, (code, defs)
        assert arrange._masks(table, code, defs) == python
    defs = tuple(sorted(rng.choice(range(len(table.defs))) for _ in range(accel.MAX_CARDS + 1)))
    with pytest.raises(ValueError):
        accel.KERNEL.masks(table.eats_def, lives, defs)
    assert arrange._masks(table, code, defs) == web_masks.masks(table.eats_def, lives, defs)


def test_kernel_spends_the_same_node_budgets(monkeypatch):
    """Budgets small enough to run out: the same best-so-far, the same fallback to producers alone."""
    table = CardTable(_deck("ecologies-bizarre-biomes"))
    webs = list(_webs(table, random.Random(7), 300))
    for budget, alternatives in ((0, 1), (3, 2), (12, 5), (40, 30)):
        monkeypatch.setattr(arrange, "NODE_BUDGET", budget)
        monkeypatch.setattr(arrange, "_ALTERNATIVE_NODES", alternatives)
        for code, defs, weights in webs:
            python, kernel = _both(table, code, defs, weights)
            assert kernel == python, (budget, code, defs, weights)


def test_webs_outside_the_kernel_s_range_are_refused_and_solved_in_python(pure):
    table = CardTable(_deck("ecologies-bizarre-biomes"))
    code, defs, _ = next(_webs(table, random.Random(3), 1))
    eats, printed = arrange._masks(table, code, defs)
    with pytest.raises(ValueError):
        accel.KERNEL.solve([0] * 63, [()] * 63, (0,) * 6, 10)
    with pytest.raises(ValueError):
        accel.KERNEL.solve(eats, printed, (1 << 41,) + (0,) * 5, 10)
    with pytest.raises(ValueError):
        accel.KERNEL.solve(eats, printed, (0,) * 5, 10)  # five weights, not six
    assert not accel.serving(63, (0,) * 6) and not accel.serving(3, (1 << 41,) + (0,) * 5)
    huge = (10 ** 30,) + (0,) * 5  # beyond 64 bits: arrange.py solves it itself, exactly
    roles, healthy, value = arrange.solve(eats, printed, huge)
    named = tuple(None if r is None else arrange.ROLE_NAMES[r] for r in roles)
    assert arrange._solve(table, code, defs, huge) == (named, healthy, value)


def _digest(values) -> str:
    return hashlib.blake2b(repr(values).encode(), digest_size=8).hexdigest()


def _games(deck_name: str, mode: str, bots: tuple[str, ...], seeds) -> list[tuple]:
    """Every game's end, VP, actions and events from these seeds, on fresh card tables (the engine's and
    each seat's), which memoise no arrangement yet."""
    tables._TABLES.clear()
    tables._SEAT_TABLES.clear()
    deck = _deck(deck_name)
    factories = GAMES["ecologies"].bots
    games = []
    for seed in seeds:
        game = EcologiesGame(deck, len(bots), mode, seed)
        state = play(game, [factories[bot](game.public(seat)) for seat, bot in enumerate(bots)], max_turns=MAX_TURNS)
        games.append((state.end_reason, tuple(state.scores()), _digest(tuple(state.history)),
                      _digest(tuple(state.events))))
    return games


def _compare(pure, counts) -> None:
    for (deck, mode, bots), games in zip(TABLES, counts):
        seeds = [derive_seed(15, index, mode, str(len(bots))) for index in range(games)]
        pure(False)
        fast = _games(deck, mode, bots, seeds)
        pure(True)
        slow = _games(deck, mode, bots, seeds)
        differ = [i for i in range(games) if fast[i] != slow[i]]
        assert not differ, f"{deck} {mode} {len(bots)}p: {len(differ)} of {games} games differ, first {differ[:1]}"


def test_seeded_games_are_identical_with_and_without_the_kernel(pure):
    _compare(pure, (12, 8, 4, 2, 4))


# The thousands of whole seeded games, with every kernel against none, are played by
# tests/test_ecologies_accel_greedy.py (its tables include these), not twice.


@pytest.mark.parametrize(("value", "kernel"), [("1", False), ("yes", False), ("0", True), ("", True)])
def test_cardtool_pure_in_the_environment_turns_the_kernel_off_from_the_start(value, kernel):
    code = "from cardtool.games.ecologies import accel; print(accel.serving(5, (0,) * 6))"
    env = {**os.environ, accel.PURE_ENV: value}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.strip() == str(kernel)
