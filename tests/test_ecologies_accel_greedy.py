"""The compiled GreedyBot decision (accel/, cardtool_accel._ecogreedy, fed by greedy_kernel.py) takes the
action the pure-Python GreedyBot takes, drawing the same ties, and the compiled engine steps
(cardtool_accel._ecoengine, steps.py) list the same legal actions and show the same observations as rules.py
and view.py, so simulations play exactly the same games.

greedy.py and valuer.py are the readable reference. Two comparisons: decision by decision (every choice of
many games asked both ways from the same generator state: the same action, the generator left in the
same state; at every step, the legal actions and observation both ways) and whole games (every action and event, and `cardtool simulate`'s games.jsonl). They cover
the shipped 0.3.0 base deck with its rule options and without them, the frozen-and-deep expansion, every
mode, and the 0.1.0 copies the golden games were recorded with. `make venv` installs the kernel, so these
tests fail rather than skip when it is missing.
"""

from __future__ import annotations

import hashlib
import json
import random
from functools import lru_cache

import pytest

from cardtool.deck.loader import load_deck
from cardtool.engine.playout import bot_rng, play
from cardtool.engine.seeds import derive_seed
from cardtool.games import GAMES
from cardtool.games.ecologies import accel, greedy_kernel, steps, view
from cardtool.games.ecologies import rules as engine_rules
from cardtool.games.ecologies.actions import Arrange, ChoosePlayer, Move, UseBonus
from cardtool.games.ecologies.engine import EcologiesGame
from cardtool.games.ecologies.greedy import GreedyBot
from cardtool.sim.config import prepare
from cardtool.sim.play import json_line, play_range
from tests.conftest import DATA, DECKS
from tests.test_ecologies_accel import pure  # noqa: F401 (the fixture: accel.set_pure, restored after the test)

OLD = DATA / "ecologies" / "decks-0.1.0"
#: (deck folder, mode, bots, rule options): the tables compared.
TABLES = [
    (DECKS / "ecologies-bizarre-biomes", "multi", ("greedy",) * 4, {}),
    (DECKS / "ecologies-bizarre-biomes", "multi", ("greedy",) * 2, {}),
    (DECKS / "ecologies-bizarre-biomes", "multi", ("greedy",) * 3, {"ending": "immediate", "opening": "equal"}),
    (DECKS / "ecologies-bizarre-biomes", "multi", ("greedy",) * 6, {}),
    (DECKS / "ecologies-bizarre-biomes", "simplified", ("greedy",) * 4, {}),
    (DECKS / "ecologies-bizarre-biomes", "single", ("greedy",), {}),
    (DECKS / "frozen-and-deep", "multi", ("greedy",) * 4, {}),
    (DECKS / "frozen-and-deep", "multi", ("greedy", "random", "greedy"), {}),
    (OLD / "ecologies-bizarre-biomes", "multi", ("greedy",) * 4, {}),
    (OLD / "frozen-and-deep", "multi", ("greedy",) * 2, {}),
]
MAX_TURNS = 1000


def test_the_greedy_kernel_is_installed():
    assert accel.greedy_installed(), "the compiled kernel is missing: `make venv` (or pip install ./accel) installs it"
    assert accel.ENGINE is not None, "the compiled engine steps are missing: `make venv` installs them"
    assert accel.greedy_serving() == accel.GREEDY_SUMS_MATCH  # Python 3.11's float sums: it serves


@lru_cache(maxsize=None)
def _deck(path):
    return load_deck(path)


def test_every_shipped_table_is_flattened(pure):
    """The shipped decks use only what the kernel knows: none of them falls back to Python wholesale."""
    for path in {t[0] for t in TABLES}:
        game = EcologiesGame(_deck(path), 2, "multi", 0)
        assert greedy_kernel.kernel_table(game) is not None, path
    pure(True)
    assert greedy_kernel.kernel_table(game) is None


#: Actions made afresh by each listing (the others are the table's shared instances, the same objects both ways).
_FRESH = (Arrange, ChoosePlayer, Move, UseBonus)


def _same_steps(state, seat) -> None:
    """The compiled engine steps (steps.py) list the same legal actions and show the same observation as
    rules.py and view.py."""
    previous = accel.set_pure(False)
    fast, slow = steps.legal_actions(state), engine_rules.legal_actions(state)
    assert fast == slow and type(fast) is type(slow), (state.turn, fast, slow)
    assert all(a is b or isinstance(a, _FRESH) for a, b in zip(fast, slow)), (state.turn, fast, slow)
    seen, shown = steps.observe(state, seat), view.observe(state, seat)
    accel.set_pure(previous)
    assert seen == shown and list(vars(seen).items()) == list(vars(shown).items()), state.turn


def _decisions(path, mode, bots, rules, seeds, pure) -> int:
    """Play games on the Python path; at every greedy decision ask both ways from copies of the seat's
    generator and compare the action and the generator state after it (and, at every step, the legal
    actions and observation of the compiled steps and of Python). Returns the decisions compared."""
    deck = _deck(path)
    compared = 0
    for seed in seeds:
        game = EcologiesGame(deck, len(bots), mode, seed, **rules)
        factories = GAMES["ecologies"].bots
        seats = [factories[name](game.public(s)) for s, name in enumerate(bots)]
        rngs = [bot_rng(game, s, bot) for s, bot in enumerate(seats)]
        state = game.new_initial_state()
        while not state.is_over() and state.turns_played < MAX_TURNS:
            seat = state.current_player
            _same_steps(state, seat)
            legal = state.legal_actions()
            bot = seats[seat]
            if len(legal) == 1 and getattr(bot, "takes_forced_moves", False):
                action = legal[0]
            elif isinstance(bot, GreedyBot):
                observation = state.observation(seat)
                fast_rng, slow_rng = random.Random(), random.Random()
                fast_rng.setstate(rngs[seat].getstate())
                slow_rng.setstate(rngs[seat].getstate())
                pure(False)
                fast = bot.choose(observation, legal, fast_rng)
                pure(True)
                action = bot.choose(observation, legal, slow_rng)
                assert fast is action and fast_rng.getstate() == slow_rng.getstate(), (
                    path.name, mode, seed, state.turn, fast, action)
                rngs[seat] = slow_rng
                compared += 1
            else:
                action = bot.choose(state.observation(seat), legal, rngs[seat])
            state.apply(action)
    return compared


@pytest.mark.parametrize("table", range(len(TABLES)), ids=lambda i: f"{TABLES[i][0].name}-{TABLES[i][1]}-"
                                                                     f"{len(TABLES[i][2])}p{'-rules' if TABLES[i][3] else ''}")
def test_every_decision_is_the_same_with_and_without_the_kernel(pure, table):
    path, mode, bots, rules = TABLES[table]
    games = 2 if mode == "single" else 6
    seeds = [derive_seed(25, index, mode, str(len(bots))) for index in range(games)]
    assert _decisions(path, mode, bots, rules, seeds, pure) > 40 * games


def _digest(values) -> str:
    return hashlib.blake2b(repr(values).encode(), digest_size=8).hexdigest()


def _games(path, mode, bots, rules, seeds) -> list[tuple]:
    deck = _deck(path)
    factories = GAMES["ecologies"].bots
    games = []
    for seed in seeds:
        game = EcologiesGame(deck, len(bots), mode, seed, **rules)
        state = play(game, [factories[b](game.public(s)) for s, b in enumerate(bots)], max_turns=MAX_TURNS)
        games.append((state.end_reason, tuple(state.scores()), _digest(tuple(state.history)),
                      _digest(tuple(state.events))))
    return games


def _compare(pure, counts) -> None:
    for (path, mode, bots, rules), games in zip(TABLES, counts):
        seeds = [derive_seed(26, index, mode, str(len(bots))) for index in range(games)]
        pure(False)
        fast = _games(path, mode, bots, rules, seeds)
        pure(True)
        slow = _games(path, mode, bots, rules, seeds)
        differ = [i for i in range(games) if fast[i] != slow[i]]
        assert not differ, f"{path.name} {mode} {len(bots)}p: {len(differ)} of {games} games differ, first {differ[:1]}"


def test_seeded_games_are_identical_with_and_without_the_kernel(pure):
    _compare(pure, (16, 16, 8, 4, 8, 1, 8, 8, 8, 8))


@pytest.mark.slow
@pytest.mark.parametrize("table", range(len(TABLES)))
def test_thousands_of_seeded_games_are_identical_with_and_without_the_kernel(pure, table):
    # 2,000 games in all, one table a test so the suite's workers share them; the stored games of
    # test_ecologies_engine_golden.py (recorded on the pure path) replay with the kernel too.
    counts = [0] * len(TABLES)
    counts[table] = (600, 300, 200, 100, 200, 50, 200, 100, 150, 100)[table]
    _compare(pure, counts)


def test_simulate_writes_the_same_games_with_and_without_the_kernel(pure):
    """`cardtool simulate`'s games.jsonl lines, played both ways."""
    deck = _deck(DECKS / "ecologies-bizarre-biomes")
    setup = prepare(deck, games=16, players=4, seed=3)
    pure(False)
    fast = "".join(json_line(r) for r in play_range(setup, 0, setup.games))
    pure(True)
    slow = "".join(json_line(r) for r in play_range(setup, 0, setup.games))
    assert fast == slow
    assert len(fast.splitlines()) == 16 and json.loads(fast.splitlines()[0])
