"""What a Symbiosis seat can expect from an observation: GreedyBot's arithmetic in readable floats.

Every pond card scores `const + weights . E`, where E is the expected feature counts (cards of each
Animal and Season) of the pond its column counts. A face-down card is a random unseen card (deck minus
every face-up card): its const is the unseen fixed points' mean (plus, in the middle, the mean of what a
variable card scores for matching itself) and its weights are the unseen variable points per feature.
A swap changes one card of one column and the feature counts of the bot's pond (and of the River), so
its effect on the team's total is a handful of products, computed without rescoring any pond.

SwapValues is the reference gains.SeatGains is tested against (the same values times n², in whole
numbers); GreedyBot.ranked and a pond with no face-down card use it directly. Imported by bots.py.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardtool.games.symbiosis.engine import Observation, SymbiosisGame
from cardtool.games.symbiosis.layout import COLUMN_OF_SLOT, LEFT, MIDDLE, RIGHT, RIVER
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
