"""Symbiosis bots: GreedyBot (best expected score it can see) and SearchBot (determinized Monte Carlo).

Both are built from a public Seat (card table, mode, seats; no seed) and decide from an Observation only: face-down cards, the owner's included, are unknown to them and
valued by expectation over the cards they have not seen (deck minus every face-up card).

GreedyBot's arithmetic: every pond card scores `const + weights . E`, where E is the expected feature
counts (cards of each Animal and Season) of the pond its column counts. A face-down card is a random
unseen card: its const is the unseen fixed points' mean (plus, in the middle, the mean of what a
variable card scores for matching itself) and its weights are the unseen variable points per feature.
A swap changes one card of one column and the feature counts of the bot's pond (and of the River), so
its effect on the team's total is a handful of products, computed without rescoring any pond.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from cardtool.engine.bots import RandomBot, positive_float, positive_int
from cardtool.engine.protocol import Seat
from cardtool.errors import UsageError
from cardtool.games.symbiosis.engine import Observation, SymbiosisGame, SymbiosisState, Swap
from cardtool.games.symbiosis.observation import sample_state, world_game
from cardtool.games.symbiosis.gains import SeatGains
from cardtool.games.symbiosis.layout import COLUMN_OF_SLOT, LEFT, MIDDLE, POND, RIGHT, RIVER
from cardtool.games.symbiosis.scoring import column_targets
from cardtool.games.symbiosis.table import FIXED


class Expectation:
    """What a seat can expect, from one observation: feature counts of every pond and of the River."""

    def __init__(self, game: SymbiosisGame, observation: Observation):
        table = game.table
        self.game, self.table, self.observation = game, table, observation
        self.seat = observation.seat
        animal, season, counted, points = table.animal_feature, table.season_feature, table.counted, table.points
        features = table.features
        unseen = list(table.copies)
        for card in observation.ponds + observation.river:
            if card is not None:
                unseen[card] -= 1
        n = sum(unseen) or 1
        q = [0.0] * features  # expected features of one face-down card
        w = [0.0] * features  # expected variable points per feature of one face-down card
        fixed = itself = 0.0
        for card, copies in enumerate(unseen):
            if not copies:
                continue
            q[animal[card]] += copies / n
            q[season[card]] += copies / n
            if counted[card] == FIXED:
                fixed += copies * points[card]
            else:
                w[counted[card]] += copies * points[card] / n
                itself += copies * points[card] * ((animal[card] == counted[card]) + (season[card] == counted[card]))
        self.q, self.w = q, w
        self.w_q = sum(a * b for a, b in zip(w, q))
        # A face-down card's constant: in a side column, mean fixed points; in the middle, also what it
        # scores for matching itself, less the share of itself already in the pond's expected counts.
        self.hidden_side = fixed / n
        self.hidden_middle = fixed / n + itself / n - self.w_q
        self.expected = {seat: self._expected(observation.pond(seat)) for seat in range(observation.players)}
        self.expected[RIVER] = self._expected(observation.river)

    def _expected(self, cards: Sequence[int | None]) -> list[float]:
        counts = [0.0] * len(self.q)
        hidden = 0
        for card in cards:
            if card is None:
                hidden += 1
            else:
                counts[self.table.animal_feature[card]] += 1
                counts[self.table.season_feature[card]] += 1
        return [c + hidden * x for c, x in zip(counts, self.q)]

    # -- a card (None: face down) as const + weights . E and as features

    def const(self, card: int | None, column: str) -> float:
        if card is None:
            return self.hidden_middle if column == MIDDLE else self.hidden_side
        return self.table.points[card] if self.table.counted[card] == FIXED else 0.0

    def weights_dot(self, card: int | None, vector: Sequence[float]) -> float:
        if card is None:
            return sum(a * b for a, b in zip(self.w, vector))
        feature = self.table.counted[card]
        return 0.0 if feature == FIXED else self.table.points[card] * vector[feature]

    def features_dot(self, card: int | None, vector: Sequence[float]) -> float:
        if card is None:
            return sum(a * b for a, b in zip(self.q, vector))
        return vector[self.table.animal_feature[card]] + vector[self.table.season_feature[card]]

    def cross(self, card: int | None, other: int | None) -> float:
        """card's weights . other's features."""
        if card is None:
            return self.w_q if other is None else self.w[self.table.animal_feature[other]] + self.w[
                self.table.season_feature[other]]
        feature = self.table.counted[card]
        if feature == FIXED:
            return 0.0
        if other is None:
            return self.table.points[card] * self.q[feature]
        return self.table.points[card] * ((self.table.animal_feature[other] == feature)
                                          + (self.table.season_feature[other] == feature))

    def pond_value(self, seat: int, pond: Sequence[int | None] | None = None,
                   expected: dict | None = None) -> float:
        """The expected score of a seat's pond (by default as observed): the brute-force reference."""
        pond = self.observation.pond(seat) if pond is None else pond
        expected = self.expected if expected is None else expected
        targets = column_targets(seat, self.game.faces[seat])
        return sum(self.const(card, COLUMN_OF_SLOT[slot])
                   + self.weights_dot(card, expected[targets[COLUMN_OF_SLOT[slot]]])
                   for slot, card in enumerate(pond))


class SwapValues:
    """The change a swap makes to the expected total of the bot's team, per (River slot, pond slot)."""

    def __init__(self, game: SymbiosisGame, observation: Observation):
        self.ex = ex = Expectation(game, observation)
        self.seat = seat = observation.seat
        self.targets = column_targets(seat, game.faces[seat])
        team = next(t for t in game.teams if seat in t)
        features = game.table.features
        # Sum of the weights of every team card that counts the bot's pond, and of those counting the River.
        on_me = [0.0] * features
        on_river = [0.0] * features
        for member in team:
            member_targets = column_targets(member, game.faces[member])
            for slot, card in enumerate(observation.pond(member)):
                target = member_targets[COLUMN_OF_SLOT[slot]]
                if target == seat:
                    _add_weights(ex, card, on_me)
                elif target == RIVER:
                    _add_weights(ex, card, on_river)
        self.on_me, self.on_river = on_me, on_river
        # First-order value of a card in a column: its own score there, plus what its features are worth
        # to the team cards counting the bot's pond, less what they would be worth in the River.
        self._first: dict[tuple[int | None, str], float] = {}
        self._mine = observation.pond(seat)

    def first_order(self, card: int | None, column: str) -> float:
        key = (card, column)
        value = self._first.get(key)
        if value is None:
            ex = self.ex
            expected = ex.expected[self.targets[column]]
            if card is None:
                value = (ex.const(None, column) + ex.weights_dot(None, expected)
                         + ex.features_dot(None, self.on_me) - ex.features_dot(None, self.on_river))
            else:  # the same sum, written out for a known card (the hot path of GreedyBot)
                table = ex.table
                feature, points = table.counted[card], table.points[card]
                animal, season = table.animal_feature[card], table.season_feature[card]
                own = points if feature == FIXED else 0.0
                counted = 0.0 if feature == FIXED else points * expected[feature]
                value = (own + counted + (self.on_me[animal] + self.on_me[season])
                         - (self.on_river[animal] + self.on_river[season]))
            self._first[key] = value
        return value

    def delta(self, river_slot: int, pond_slot: int) -> float:
        taken = self.ex.observation.river[river_slot]
        given = self._mine[pond_slot]
        column = COLUMN_OF_SLOT[pond_slot]
        value = self.first_order(taken, column) - self.first_order(given, column)
        target = self.targets[column]
        if target == self.seat or target == RIVER:
            # The column's own weights change together with the counts of the pond it counts.
            ex = self.ex
            second = (ex.cross(taken, taken) - ex.cross(taken, given) - ex.cross(given, taken)
                      + ex.cross(given, given))
            value += second if target == self.seat else -second
        return value


    def deltas(self) -> list[list[float]]:
        """delta(r, p) for every River slot r and pond slot p at once, each term computed once.

        The same arithmetic as `delta`, in the same order, so the values are identical."""
        ex = self.ex
        mine, seat, targets = self._mine, self.seat, self.targets
        first, cross = self.first_order, ex.cross
        given = [first(card, COLUMN_OF_SLOT[slot]) for slot, card in enumerate(mine)]
        # +1 where the column counts the bot's own pond, -1 where it counts the River, 0 elsewhere
        signs = [1 if targets[column] == seat else -1 if targets[column] == RIVER else 0 for column in COLUMN_OF_SLOT]
        own = [cross(card, card) if sign else 0.0 for card, sign in zip(mine, signs)]
        rows = []
        for taken in ex.observation.river:
            by_column = {column: first(taken, column) for column in (LEFT, MIDDLE, RIGHT)}
            taken_own = cross(taken, taken)
            row = []
            for slot, column in enumerate(COLUMN_OF_SLOT):
                value = by_column[column] - given[slot]
                sign = signs[slot]
                if sign:
                    card = mine[slot]
                    second = taken_own - cross(taken, card) - cross(card, taken) + own[slot]
                    value += second if sign > 0 else -second
                row.append(value)
            rows.append(row)
        return rows


def _add_weights(ex: Expectation, card: int | None, into: list[float]) -> None:
    if card is None:
        for f, x in enumerate(ex.w):
            into[f] += x
    elif ex.table.counted[card] != FIXED:
        into[ex.table.counted[card]] += ex.table.points[card]


class GreedyBot:
    """Takes the swap that most raises the expected score of its pond (its team's, in Team mode);
    ties and the card to flip (worth the same in expectation) are drawn at random."""

    name = "greedy"

    def __init__(self, public: Seat):
        self.game = world_game(public)  # the rules of this game, without its seed
        self._gains: dict[int, SeatGains] = {}  # by seat: a search bot's rollouts ask for every seat

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
        mine = observation.ponds[seat * POND:(seat + 1) * POND]
        if None not in mine:  # never while a game runs (every seat keeps a face-down card to its last turn)
            return self._choose_among(observation, legal, rng)
        gains = self._gains.get(seat)
        if gains is None:
            gains = self._gains[seat] = SeatGains(self.game, seat)
        # Every (River slot, pond slot) pair is legal while the pond has a face-down card. The gains are
        # SwapValues.deltas() times n², whole numbers: the best and its ties are exact.
        rows = gains.gains(observation.ponds, observation.river)
        best = max(map(max, rows))
        tied = [(river, pond) for river, row in enumerate(rows) for pond, gain in enumerate(row) if gain == best]
        river, pond = tied[rng.randrange(len(tied))] if len(tied) > 1 else tied[0]
        if mine[pond] is None:
            return self.game.swap(river, pond)
        hidden = [slot for slot, card in enumerate(mine) if card is None]
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
    """Determinized Monte Carlo: deals the unseen cards at random many times, plays the best few greedy
    candidates out with greedy players in each deal, and keeps the one with the best mean outcome
    (winning first, then the margin over the best other team).

    Budget: `iters` rollouts a decision (one candidate played to the end in one dealt world), spread
    evenly over the `width` candidates; or, with `ms`, as many whole deals as fit in that many
    milliseconds (at least one), which is not reproducible: the choice then depends on the machine."""

    name = "search"
    OPTIONS = {"iters": positive_int, "ms": positive_float, "width": positive_int}
    ITERS = 48  # the default budget, in rollouts a decision

    def __init__(self, public: Seat, iters: int | None = None, ms: float | None = None, width: int = 4):
        if iters is not None and ms is not None:
            raise UsageError("bot 'search' takes a budget in iters or in ms, not both")
        self.public, self.width, self.ms = public, width, ms
        self.iters = self.ITERS if iters is None and ms is None else iters
        self.greedy = GreedyBot(public)

    def choose(self, observation: Observation, legal: Sequence[Swap], rng: random.Random) -> Swap:
        ranked = self.greedy.ranked(observation, legal, rng)[: self.width]
        if len(ranked) == 1:
            return ranked[0][1]
        seat = observation.seat
        totals = [0.0] * len(ranked)
        deadline = None if self.ms is None else time.perf_counter() + self.ms / 1000.0
        deals = 0
        while True:
            if deadline is None:
                if deals >= max(1, self.iters // len(ranked)):
                    break
            elif deals and time.perf_counter() >= deadline:
                break
            world = sample_state(self.public, observation, rng)
            for i, (_, action) in enumerate(ranked):
                state = world.clone()
                state.apply(action)
                self._play_out(state, rng)
                totals[i] += _outcome(state, seat)
            deals += 1
        best = max(range(len(ranked)), key=lambda i: (totals[i], -i))
        return ranked[best][1]

    def _play_out(self, state: SymbiosisState, rng: random.Random) -> None:
        greedy = self.greedy
        while not state.is_over():
            seat = state.current_player
            state.apply(greedy.choose(state.observation(seat), state.legal_actions(), rng))


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
