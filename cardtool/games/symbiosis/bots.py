"""Symbiosis bots: GreedyBot (best expected score it can see) and SearchBot (determinized Monte Carlo).

Both are built from a public Seat (card table, mode, seats; no seed) and decide from an Observation
only: face-down cards, the owner's included, are unknown to them and valued by expectation over the
cards they have not seen (expectation.py explains the arithmetic). GreedyBot decides with
gains.SeatGains, that arithmetic in whole numbers; expectation.SwapValues is the readable reference it
is tested against (re-exported here with Expectation). Where the compiled kernel is installed (accel.py)
the whole choice runs in C, drawing the same random numbers: the same games, tested seed by seed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from cardtool.engine.bots import RandomBot, positive_float, positive_int
from cardtool.engine.protocol import Seat
from cardtool.errors import UsageError
from cardtool.games.symbiosis.engine import Observation, SymbiosisState, Swap
from cardtool.games.symbiosis.expectation import Expectation, SwapValues
from cardtool.games.symbiosis.gains import SeatGains, seat_gains
from cardtool.games.symbiosis.layout import POND
from cardtool.games.symbiosis.observation import sample_state, world_game

__all__ = ["BOTS", "Expectation", "GreedyBot", "SearchBot", "SwapValues"]


class GreedyBot:
    """Takes the swap that most raises the expected score of its pond (its team's, in Team mode);
    ties and the card to flip (worth the same in expectation) are drawn at random."""

    name = "greedy"

    def __init__(self, public: Seat):
        self.game = world_game(public)  # the rules of this game, without its seed
        self._gains: dict[int, SeatGains] = {}  # by seat: a search bot's rollouts ask for every seat

    def seat_gains(self, seat: int) -> SeatGains:
        """How a seat values swaps (made once a world game, for every bot of every game)."""
        gains = self._gains.get(seat)
        if gains is None:
            gains = self._gains[seat] = seat_gains(self.game, seat)
        return gains

    def ranked(self, observation: Observation, legal: Sequence[Swap], rng: random.Random) -> list[tuple[float, Swap]]:
        """(expected gain, action) for each (River slot, pond slot), best first, with a random flip."""
        values = SwapValues(self.game, observation)
        groups: dict[tuple[int, int], list[Swap]] = {}
        for action in legal:
            groups.setdefault((action.river, action.pond), []).append(action)
        ranked = [(round(values.delta(r, p), 9), rng.random(), rng.choice(group)) for (r, p), group in groups.items()]
        ranked.sort(key=lambda item: (-item[0], item[1]))
        return [(value, action) for value, _, action in ranked]

    def choose(self, observation: Observation, legal: Sequence[Swap], rng: random.Random) -> Swap:
        seat = observation.seat
        kernel = (self._gains.get(seat) or self.seat_gains(seat)).kernel
        if kernel is not None and type(rng) is random.Random:
            # best_swap in C, drawing the same random numbers (accel.py); None: no face-down card
            action = kernel.choose(observation.ponds, observation.river, rng, self.game.swaps)
            return action if action is not None else self._choose_among(observation, legal, rng)
        if None not in observation.ponds[seat * POND:(seat + 1) * POND]:
            # never while a game runs (every seat keeps a face-down card to its last turn)
            return self._choose_among(observation, legal, rng)
        return self.best_swap(seat, observation.ponds, observation.river, rng)

    def best_swap(self, seat: int, ponds: Sequence[int | None], river: Sequence[int | None],
                  rng: random.Random, gains: SeatGains | None = None) -> Swap:
        """The choice for a seat that sees these face-up cards (None: face down) and has a face-down card
        (valued by `gains`, by default the seat's: GreedyBot's own)."""
        gains = gains or self._gains.get(seat) or self.seat_gains(seat)
        if gains.kernel is not None and type(rng) is random.Random:
            return gains.kernel.choose(ponds, river, rng, self.game.swaps)  # this method, in C
        # Every (River slot, pond slot) pair is legal while the pond has a face-down card. The gains are
        # SwapValues.deltas() times n², whole numbers: the best and its ties are exact.
        tied = gains.best(ponds, river)
        river, pond = divmod(tied[rng.randrange(len(tied))] if len(tied) > 1 else tied[0], POND)
        base = seat * POND
        if ponds[base + pond] is None:
            return self.game.swap(river, pond)
        hidden = [slot for slot in range(POND) if ponds[base + slot] is None]
        return self.game.swap(river, pond, hidden[rng.randrange(len(hidden))] if len(hidden) > 1 else hidden[0])

    def _choose_among(self, observation: Observation, legal: Sequence[Swap], rng: random.Random) -> Swap:
        values = SwapValues(self.game, observation)
        best, tied = None, []
        for pair in dict.fromkeys((a.river, a.pond) for a in legal):
            value = round(values.delta(*pair), 9)
            if best is None or value > best:
                best, tied = value, [pair]
            elif value == best:
                tied.append(pair)
        river, pond = tied[rng.randrange(len(tied))] if len(tied) > 1 else tied[0]
        options = [a for a in legal if a.river == river and a.pond == pond]
        return options[rng.randrange(len(options))] if len(options) > 1 else options[0]


class SearchBot:
    """Determinized Monte Carlo with sequential halving: deals the unseen cards at random (through
    observation.sample_state), plays `width` candidate swaps (by turns GreedyBot's next best and the next
    best for the margin, see `candidates`) out to the end of the game in each deal, and halves the
    candidates round by round, keeping those with the best mean outcome (winning first, then the margin
    over the best other team), until one is left. In a rollout the other seats play as GreedyBot and the
    bot's team by the margin (GreedyBot's gain less what a swap gives the other seats).

    Every candidate of a round is played out in the same deals with the same random numbers (common
    random numbers), so candidates are compared on the same worlds, not on the luck of the deal.

    Budget: `iters` rollouts a decision (one candidate played to the end in one dealt world), split
    evenly over the rounds; or, with `ms`, rounds of one deal per candidate until that many milliseconds
    have passed (at least one), which is not reproducible: the choice then depends on the machine."""

    name = "search"
    OPTIONS = {"iters": positive_int, "ms": positive_float, "width": positive_int}
    # The default budget, in rollouts a decision: about 20 ms of CPU with the compiled kernel. On the
    # 0.3.0 deck 96 won 69.0% / 66.5% / 72.6% of 400 Duels against greedy (seeds 1-3), 288 75.1% / 76.2% / 72.2%.
    ITERS = 288
    WIDTH = 6

    def __init__(self, public: Seat, iters: int | None = None, ms: float | None = None, width: int | None = None):
        if iters is not None and ms is not None:
            raise UsageError("bot 'search' takes a budget in iters or in ms, not both")
        self.public, self.ms = public, ms
        self.width = self.WIDTH if width is None else width
        self.iters = self.ITERS if iters is None and ms is None else iters
        self.greedy = GreedyBot(public)

    def candidates(self, observation: Observation, legal: Sequence[Swap], rng: random.Random) -> list[Swap]:
        """The `width` swaps to weigh, each with a random flip: by turns the next best for GreedyBot (the
        team's expected gain) and the next best for the margin (less what the swap gives the other seats
        through their columns counting this pond or the River), ties in random order."""
        seat = observation.seat
        mine = observation.ponds[seat * POND:(seat + 1) * POND]
        if None not in mine:
            return [action for _, action in self.greedy.ranked(observation, legal, rng)[:self.width]]
        orders = []
        for gains in (self.greedy.seat_gains(seat), self._margin_gains(seat)):
            rows = gains.gains(observation.ponds, observation.river)
            orders.append(sorted(((gain, rng.random(), river, pond) for river, row in enumerate(rows)
                                  for pond, gain in enumerate(row)), reverse=True))
        picked: dict[tuple[int, int], None] = {}
        for own, against in zip(*orders):
            for _, _, river, pond in (own, against):
                picked.setdefault((river, pond))
            if len(picked) >= self.width:
                break
        hidden = [slot for slot, card in enumerate(mine) if card is None]
        game = self.greedy.game
        return [game.swap(river, pond) if mine[pond] is None else game.swap(river, pond, rng.choice(hidden))
                for river, pond in list(picked)[:self.width]]

    def choose(self, observation: Observation, legal: Sequence[Swap], rng: random.Random) -> Swap:
        alive = self.candidates(observation, legal, rng)
        if len(alive) == 1:
            return alive[0]
        seat = observation.seat
        totals = {action: 0.0 for action in alive}
        rounds, left = 0, len(alive)
        while left > 1:  # halving 6 candidates: 6, 3, 1
            left //= 2
            rounds += 1
        started = time.perf_counter()
        for index in range(rounds):
            if self.ms is None:
                for _ in range(max(1, self.iters // (rounds * len(alive)))):
                    self._deal(observation, alive, totals, seat, rng)
            else:
                until = started + self.ms / 1000.0 * (index + 1) / rounds
                self._deal(observation, alive, totals, seat, rng)
                while time.perf_counter() < until:
                    self._deal(observation, alive, totals, seat, rng)
            # Survivors have played the same deals: their totals compare like with like.
            alive = sorted(alive, key=lambda action: -totals[action])[:max(1, len(alive) // 2)]
        return alive[0]

    def _deal(self, observation: Observation, actions: list[Swap], totals: dict, seat: int,
              rng: random.Random) -> None:
        """Plays every action out in one dealt world, each with the same random numbers."""
        world = sample_state(self.public, observation, rng)
        team = next(t for t in world.game.teams if seat in t)
        seed = rng.getrandbits(64)
        for action in actions:
            state = world.clone()
            state.apply(action)
            self._play_out(state, team, random.Random(seed))
            totals[action] += _outcome(state, seat)

    def _margin_gains(self, seat: int) -> SeatGains:
        return seat_gains(self.greedy.game, seat, rivals=True)

    def _play_out(self, state: SymbiosisState, team: tuple[int, ...], rng: random.Random) -> None:
        """Plays to the end, each seat seeing what its observation would show (face-up cards only): the
        other seats as GreedyBot plays, the team by the margin (greedy less what a swap gives the others;
        it wins more than half its games against greedy), as a search bot would play on."""
        best_swap, players, end = self.greedy.best_swap, state.game.players, state.game.end_turn
        policies = {seat: self._margin_gains(seat) if seat in team else None for seat in range(players)}
        while state.turn < end:
            seat = state.turn % players
            state.apply(best_swap(seat, state.seen_ponds(), state.seen_river(), rng, policies[seat]))


def _outcome(state: SymbiosisState, seat: int) -> float:
    """What a finished game is worth to a seat: mostly whether its team won (a tie half), then by how much."""
    scores = state.scores()
    team = next(t for t in state.game.teams if seat in t)
    margin = scores[seat] - max(scores[s] for s in range(len(scores)) if s not in team)
    return (100.0 if margin > 0 else 50.0 if margin == 0 else 0.0) + margin


#: The bots `cardtool play --bots` knows for Symbiosis, by name.
BOTS = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "search": SearchBot,
}
