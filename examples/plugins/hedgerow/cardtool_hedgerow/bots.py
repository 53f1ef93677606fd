"""Hedgerow bots: GreedyBot (best value it can see) and SearchBot (determinized Monte Carlo).

Both are built from a public Seat (card table, seats; no seed) and decide from an Observation only.
GreedyBot values a hedgerow as its score now plus what its Visitors can still expect: each Visitor's
points times the Plants of its Habitat the seat may still plant (turns left times that Habitat's share
of the Plants it has not seen). A Take is worth the best Plant it then allows; the draw pile is worth
the mean of that over the cards the seat has not seen.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardtool.engine.bots import RandomBot, positive_int
from cardtool.engine.protocol import Seat
from cardtool_hedgerow import scoring
from cardtool_hedgerow.engine import DRAW, TURNS, Observation, Plant, Take
from cardtool_hedgerow.observation import sample_state, unseen, world_game


class GreedyBot:
    """Plants the card that most raises its hedgerow's value; takes the card that allows the best Plant."""

    name = "greedy"

    def __init__(self, public: Seat):
        self.game = world_game(public)
        self.table = self.game.table

    def _context(self, observation: Observation) -> tuple[list[int], list[float], int]:
        """What every value in one decision shares: the most Plants of each Habitat in another hedgerow,
        each Habitat's share of the Plants still to come, and the turns left after this one."""
        table, seat = self.table, observation.seat
        most = [0] * len(table.habitats)
        for other, hedgerow in enumerate(observation.hedgerows):
            if other != seat:
                most = [max(m, c) for m, c in zip(most, scoring.plant_counts(table, hedgerow))]
        plants = [card for card in unseen(table, observation) + list(observation.verge) if table.is_plant[card]]
        shares = [0.0] * len(table.habitats)
        for card in plants:
            shares[table.habitat[card]] += 1 / len(plants)
        return most, shares, TURNS - len(observation.hedgerows[seat]) - 1

    def value(self, hedgerow: Sequence[int], context) -> float:
        """The seat's score with this hedgerow, plus what its Visitors may still collect."""
        table = self.table
        most, shares, left = context
        counts = scoring.plant_counts(table, hedgerow)
        value = 0.0
        for card in hedgerow:
            habitat = table.habitat[card]
            if table.is_plant[card]:
                value += table.points[card]
            else:
                value += table.points[card] * (counts[habitat] + left * shares[habitat])
        for habitat, count in enumerate(counts):
            if count and count >= most[habitat]:
                value += table.habitats[habitat].bonus
        return value

    def best_plant(self, observation: Observation, hand: Sequence[int], context) -> tuple[float, int]:
        """(value, -card) of the best card of hand to plant now (the lower number on a tie)."""
        mine = observation.hedgerows[observation.seat]
        return max((self.value(mine + (card,), context), -card) for card in set(hand))

    def choose(self, observation: Observation, legal: Sequence, rng: random.Random):
        context = self._context(observation)
        if observation.planting:
            _, card = self.best_plant(observation, observation.hand, context)
            return Plant(-card)
        options = []
        for action in legal:
            if action == DRAW:
                pool = unseen(self.table, observation)
                sample = pool if len(pool) <= 12 else rng.sample(pool, 12)
                worth = sum(self.best_plant(observation, observation.hand + (card,), context)[0]
                            for card in sample) / len(sample)
            else:
                card = observation.verge[action.verge]
                worth = self.best_plant(observation, observation.hand + (card,), context)[0]
            options.append((round(worth, 9), rng.random(), action))
        return max(options, key=lambda option: (option[0], option[1]))[2]


class SearchBot:
    """Determinized Monte Carlo: deals the unseen cards at random (`sample_state`), plays each legal
    action out with greedy players in each deal, and keeps the one with the best mean margin over the
    best other seat (winning counted first). Budget: `iters` rollouts a decision, spread over the actions."""

    name = "search"
    OPTIONS = {"iters": positive_int}
    ITERS = 96  # measured: 24 rollouts play no better than greedy, 96 win about 60% against it

    def __init__(self, public: Seat, iters: int = ITERS):
        self.public, self.iters = public, iters
        self.greedy = [GreedyBot(Seat(public.deck, public.mode, public.players, seat))
                       for seat in range(public.players)]

    def choose(self, observation: Observation, legal: Sequence, rng: random.Random):
        if len(legal) == 1:
            return legal[0]
        deals = max(1, self.iters // len(legal))
        totals = {action: 0.0 for action in legal}
        for _ in range(deals):
            world = sample_state(self.public, observation, rng)
            # Common random numbers: every action is played out in the same world with the same draws of
            # the greedy players, so the actions' difference is not drowned in the rollouts' noise.
            rollout_seed = rng.getrandbits(32)
            for action in legal:
                totals[action] += self._rollout(world, action, observation.seat, random.Random(rollout_seed))
        # On a tie, the greedy choice.
        preferred = self.greedy[observation.seat].choose(observation, legal, random.Random(0))
        return max(legal, key=lambda action: (totals[action], action == preferred))

    def _rollout(self, world, action, me: int, rng: random.Random) -> float:
        """The outcome for seat `me` of `action` in `world`, played out by greedy players: a win counts
        100, then the margin over the best other seat."""
        state = world.clone()
        state.apply(action)
        while not state.is_over():
            seat = state.current_player
            state.apply(self.greedy[seat].choose(state.observation(seat), state.legal_actions(), rng))
        scores = state.scores()
        best_other = max(score for seat, score in enumerate(scores) if seat != me)
        return (100 if scores[me] > best_other else 0) + scores[me] - best_other

BOTS = {"random": RandomBot, "greedy": GreedyBot, "search": SearchBot}
