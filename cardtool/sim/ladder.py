"""A skill ladder: every pair of bots plays two-seat games (seats rotated), and the results give each
bot a rating on the Elo scale with a 95% bootstrap interval.

Ratings are the Bradley-Terry model's maximum-likelihood fit (the model behind Elo: a bot rated D
points above another is expected to win 1 / (1 + 10^(-D/400)) of their games), computed from every
game at once rather than updated game by game, so the order of the games does not matter. A shared
victory counts half a win for each bot, a capped game (won by nobody) is left out of the ratings and
counted apart. Each pair also gets one virtual drawn game, so a bot that never beat another still has
a finite rating gap.

Only differences of rating are measured, so one bot, the anchor (`greedy` when it plays, else the first
bot), is fixed at 1500 and every other rating is its difference from the anchor plus 1500, as Ordo's -A
switch does. The interval is a parametric bootstrap: each pair's decided games are drawn
again from the fitted ratings (numpy's generator, seeded by the run's seed), refitted and anchored
again, 400 times, 2.5th to 97.5th percentiles. A bot's interval is therefore that of its gap to the
anchor (the anchor's own is the point 1500): a bot whose interval leaves out 1500 is stronger or
weaker than the anchor at the 95% level, and the uncertainty of a third bot's rating (random's, which
never wins, is known only to be far below) is not added to it, as it was when the mean was held at
1500. (Resampling the games themselves would give no interval at all to a pair one bot always wins,
which is common between random and greedy.)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass


from cardtool.engine.seeds import derive_seed
from cardtool.errors import UsageError
from cardtool.sim.config import Setup, prepare
from cardtool.sim.records import SimRecord
from cardtool.sim.stats import Rate

ANCHOR_RATING = 1500.0
#: The bot fixed at ANCHOR_RATING when it plays (else the first bot named).
DEFAULT_ANCHOR = "greedy"
SCALE = 400 / math.log(10)  # Elo points per unit of the logistic model
BOOTSTRAP = 400


@dataclass(frozen=True)
class Pairing:
    """The games of one pair of bots: first's wins, second's, draws (shared wins) and capped games."""

    first: str
    second: str
    outcomes: tuple[float, ...]  # per decided game, the first bot's score: 1 a win, 0.5 a tie, 0 a loss
    capped: int

    @property
    def wins(self) -> float:
        return sum(self.outcomes)


@dataclass(frozen=True)
class Rating:
    bot: str
    rating: float
    low: float
    high: float
    score: Rate  # its games won (ties half, rounded down), of its decided games


@dataclass(frozen=True)
class Ladder:
    ratings: list[Rating]  # best first
    pairings: list[Pairing]
    anchor: str  # the bot rated ANCHOR_RATING; the others' ratings and intervals are gaps to it


def anchor_of(bots: Sequence[str], anchor: str | None = None) -> str:
    """The bot whose rating is fixed: the one asked for, else greedy when it plays, else the first."""
    if anchor is not None:
        if anchor not in bots:
            raise UsageError(f"--anchor {anchor!r} is not one of the bots rated ({', '.join(bots)})")
        return anchor
    return DEFAULT_ANCHOR if DEFAULT_ANCHOR in bots else bots[0]


def two_seat_mode(plugin, deck, mode: str | None) -> str:
    """The mode the ladder plays: the one asked for, or the game's first that seats two players."""
    if mode is not None:
        return mode
    for candidate in plugin.modes:
        if 2 in plugin.players_for(deck, candidate):
            return candidate
    raise UsageError(f"{plugin.title} has no two-player mode for this deck: a ladder plays bots in pairs")


def setups(deck, bots: Sequence[str], *, games: int, mode: str, seed: int, max_turns: int) -> list[Setup]:
    """One checked two-seat setup per pair of bots, seats rotated, each from its own seed."""
    if len(bots) < 2:
        raise UsageError(f"a ladder needs at least two bots, not {len(bots)}")
    if len(set(bots)) != len(bots):
        raise UsageError("--bots names a bot twice")
    if games < 2:
        raise UsageError(f"--games must be at least 2 (each pair plays both seatings), not {games}")
    return [prepare(deck, games=games, players=2, mode=mode, bots=f"{a},{b}", seed=derive_seed(seed, k, "ladder"),
                    max_turns=max_turns)
            for k, (a, b) in enumerate(itertools.combinations(bots, 2))]


def pairing(setup: Setup, records: Sequence[SimRecord]) -> Pairing:
    first, second = setup.lineup
    outcomes = []
    capped = 0
    for r in records:
        if r.capped or not r.winners:
            capped += 1
            continue
        won = [any(r.won(seat) for seat, name in enumerate(r.bots) if name == bot) for bot in (first, second)]
        outcomes.append(0.5 if all(won) else 1.0 if won[0] else 0.0)
    return Pairing(first, second, tuple(outcomes), capped)


def fit(bots: Sequence[str], pairings: Sequence[Pairing], wins: Sequence[float] | None = None,
        anchor: int = 0) -> "np.ndarray":
    """Bradley-Terry ratings (Elo scale, bot number `anchor` at 1500) from each pairing's wins of its first
    bot (or `wins`)."""
    import numpy as np
    from scipy.optimize import minimize

    index = {bot: i for i, bot in enumerate(bots)}
    i = np.array([index[p.first] for p in pairings])
    j = np.array([index[p.second] for p in pairings])
    n = np.array([len(p.outcomes) for p in pairings], dtype=float) + 1.0  # one virtual draw per pair
    w = np.array(wins if wins is not None else [p.wins for p in pairings], dtype=float) + 0.5

    def loss(free):
        theta = np.concatenate([[0.0], free])
        d = theta[i] - theta[j]
        p = 1 / (1 + np.exp(-d))
        nll = -float(np.sum(w * np.log(p) + (n - w) * np.log1p(-p)))
        g = w - n * p  # d log-likelihood / d d
        grad = np.zeros(len(bots))
        np.add.at(grad, i, -g)
        np.add.at(grad, j, g)
        return nll, grad[1:]

    result = minimize(loss, np.zeros(len(bots) - 1), jac=True, method="BFGS")
    theta = np.concatenate([[0.0], result.x]) * SCALE
    return theta - theta[anchor] + ANCHOR_RATING


def ladder(bots: Sequence[str], pairings: Sequence[Pairing], seed: int, anchor: str | None = None) -> Ladder:
    """The ratings with their bootstrap intervals, best first, anchored on `anchor` (see anchor_of)."""
    import numpy as np

    anchor = anchor_of(bots, anchor)
    fixed = list(bots).index(anchor)
    ratings = fit(bots, pairings, anchor=fixed)
    rng = np.random.default_rng(seed)
    index = {bot: k for k, bot in enumerate(bots)}
    expected = [1 / (1 + 10 ** (-(ratings[index[p.first]] - ratings[index[p.second]]) / 400)) for p in pairings]
    samples = []
    for _ in range(BOOTSTRAP):  # each pair's decided games drawn again from the fitted ratings
        wins = [float(rng.binomial(len(p.outcomes), q)) for p, q in zip(pairings, expected)]
        samples.append(fit(bots, pairings, wins, anchor=fixed))
    low, high = np.percentile(np.array(samples), [2.5, 97.5], axis=0)
    rows = []
    for k, bot in enumerate(bots):
        won = sum(p.wins if p.first == bot else len(p.outcomes) - p.wins for p in pairings if bot in (p.first, p.second))
        decided = sum(len(p.outcomes) for p in pairings if bot in (p.first, p.second))
        rows.append(Rating(bot, float(ratings[k]), float(low[k]), float(high[k]), Rate.of(int(won), decided)))
    return Ladder(sorted(rows, key=lambda r: -r.rating), list(pairings), anchor)


def ladder_json(result: Ladder, config: Mapping) -> dict:
    return {
        "config": dict(config),
        "method": f"Bradley-Terry maximum likelihood on the Elo scale, anchored: {result.anchor} fixed at "
                  f"{ANCHOR_RATING:g}, one virtual draw per pair; 95% interval of each bot's gap to the anchor from "
                  f"{BOOTSTRAP} parametric bootstrap draws of each pair's games; ties count half, capped games are "
                  "left out",
        "anchor": {"bot": result.anchor, "rating": ANCHOR_RATING},
        "ratings": [{"rank": k + 1, "bot": r.bot, "rating": round(r.rating, 1), "ci95": [round(r.low, 1), round(r.high, 1)],
                     "decided_games": r.score.n, "wins": r.score.k,
                     "win_rate": round(r.score.value, 6) if r.score.n else None}
                    for k, r in enumerate(result.ratings)],
        "pairs": [{"bots": [p.first, p.second], "games": len(p.outcomes) + p.capped, "capped": p.capped,
                   "wins": [p.wins, len(p.outcomes) - p.wins]} for p in result.pairings],
    }


def chart(result: Ladder) -> str:
    """The ratings with their intervals, best at the top, as SVG (bot names as plain text)."""
    from cardtool.sim.charts import intervals

    ratings = result.ratings
    return intervals([r.bot for r in ratings], [r.rating for r in ratings], [r.low for r in ratings],
                     [r.high for r in ratings], [False] * len(ratings), centre=ANCHOR_RATING, as_percent=False,
                     xlabel=f"rating (Elo scale, {result.anchor} = {ANCHOR_RATING:g}) with 95% interval")
