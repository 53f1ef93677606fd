"""GreedyBot's swap values in whole numbers: the same expectation as bots.SwapValues, times n².

SwapValues (bots.py) is the readable reference: it values a swap in floats, as expected points. With n
the number of cards a seat has not seen, every term of that expectation is a whole number divided by n
or n² (a face-down card is one of n unseen cards), so n² times a swap's value is a whole number. This
module computes those whole numbers, for every (River slot, pond slot) at once: the same choices as
the floats rounded to 9 places (ties are exact here), in a fraction of the time, because

- what the unseen cards hold is the deck's totals less the cards in sight, and
- a pond's Animal and Season counts are one whole number with a field of bits per feature (a card adds
  1 to two fields), so summing a pond is one `sum(map(...))` in C rather than a loop over features.

Used by GreedyBot.choose (and so by every search rollout); tests/test_symbiosis_bots.py checks it
against SwapValues and tests/test_symbiosis_golden.py against games recorded before it existed.
"""

from __future__ import annotations

from cardtool.games.symbiosis import accel
from cardtool.games.symbiosis.layout import COLUMN_OF_SLOT, LEFT, MIDDLE, POND, RIGHT, RIVER
from cardtool.games.symbiosis.scoring import column_targets
from cardtool.games.symbiosis.table import FIXED, CardTable

#: Per pond slot, its column as 0 (left), 1 (middle) or 2 (right).
SLOT_COLUMN = tuple((LEFT, MIDDLE, RIGHT).index(column) for column in COLUMN_OF_SLOT)


class Packing:
    """Per card number (and None, a face-down card, which adds nothing) one whole number packing its
    fields: a one per feature it shows (its Animal, its Season), its points per feature it counts, its
    fixed points, its points for matching itself, and a one for the card. Summing packed cards sums every
    field at once; a field is wide enough that no sum this module makes carries into the next."""

    def __init__(self, table: CardTable, players: int):
        self.features = features = table.features
        self.weight, self.fixed, self.itself, self.count = features, 2 * features, 2 * features + 1, 2 * features + 2
        copies = sum(table.copies)
        most = (copies + 2 * POND) * copies * 2 * (max(table.points, default=0) + 1) * max(players, 2)
        self.bits = bits = most.bit_length() + 1
        self.mask = (1 << bits) - 1
        self.shifts = tuple(bits * field for field in range(self.count + 1))
        self.feature_shifts = self.shifts[:features]
        self.weight_shifts = self.shifts[features:2 * features]
        self.fixed_shift, self.itself_shift, self.count_shift = (bits * f for f in (self.fixed, self.itself, self.count))
        self.pack = {None: 0}
        for card in range(len(table.cards)):
            feature, points = table.counted[card], table.points[card]
            animal, season = table.animal_feature[card], table.season_feature[card]
            fields = {animal: 1, season: 1, self.count: 1}
            if feature == FIXED:
                fields[self.fixed] = points
            else:
                fields[self.weight + feature] = points
                fields[self.itself] = points * ((animal == feature) + (season == feature))
            self.pack[card] = sum(value << bits * field for field, value in fields.items())
        self.total = sum(map(self.pack.__getitem__, table.physical()))
        self.counted, self.points = table.counted, table.points
        self.animal, self.season = table.animal_feature, table.season_feature
        # n² times (taken's weights . given's features + given's weights . taken's features), both known
        cards = range(len(table.cards))
        self.pair = [[self._cross(a, b) + self._cross(b, a) for b in cards] for a in cards]
        self.own = [self._cross(a, a) for a in cards]

    def _cross(self, card: int, other: int) -> int:
        feature = self.counted[card]
        return self.points[card] * ((self.animal[other] == feature) + (self.season[other] == feature))


class SeatGains:
    """The static part for one seat of one game: where its columns look and which team cards count it."""

    def __init__(self, game, seat: int, rivals: bool = False, accelerated: bool | None = None):
        """With rivals, a swap's gain is the team's less what it gives every other seat: their cards that
        count this seat's pond or the River score differently too (a search bot's candidates, not greedy).
        `accelerated`: use the compiled kernel (accel.py) where it can serve; by default unless
        CARDTOOL_PURE is set; False for the pure-Python arithmetic below."""
        self.packing = _packing(game)
        self.seat = seat
        targets = column_targets(seat, game.faces[seat])
        self.slot_targets = tuple(targets[COLUMN_OF_SLOT[slot]] for slot in range(POND))
        team = next(t for t in game.teams if seat in t)
        # (flat pond slots, sign): the cards whose column counts this seat's pond or the River, by whether
        # the swap's change there counts for (+1) or against (-1) the seat.
        counting: dict[int, list[int]] = {1: [], -1: []}
        for member in range(game.players) if rivals else team:
            side = 1 if member in team else -1
            member_targets = column_targets(member, game.faces[member])
            for slot in range(POND):
                target = member_targets[COLUMN_OF_SLOT[slot]]
                if target == seat:
                    counting[side].append(member * POND + slot)
                elif target == RIVER:
                    counting[-side].append(member * POND + slot)
        self.counting = tuple((tuple(slots), sign) for sign, slots in counting.items() if slots)
        # +1 where the column counts the seat's own pond, -1 where it counts the River, 0 elsewhere
        signs = [1 if t == seat else -1 if t == RIVER else 0 for t in self.slot_targets]
        self.coupled = tuple((slot, sign) for slot, sign in enumerate(signs) if sign)
        self.targets = tuple(targets[column] for column in (LEFT, MIDDLE, RIGHT))
        self.base = seat * POND
        use = accel.wanted() if accelerated is None else accelerated and accel.installed()
        self.kernel = accel.seat_kernel(game, self) if use else None

    def gains(self, ponds: tuple, river: tuple) -> list[list[int]]:
        """n² times SwapValues.deltas(): per River slot, per pond slot, the swap's gain to the team
        (the compiled kernel's when there is one: the same numbers)."""
        kernel = self.kernel
        return kernel.gains(ponds, river) if kernel is not None else self.python_gains(ponds, river)

    def best(self, ponds: tuple, river: tuple) -> tuple[int, ...]:
        """River slot * POND + pond slot of every swap with the best gain, River slot first."""
        if self.kernel is not None:
            return self.kernel.best(ponds, river)
        rows = self.python_gains(ponds, river)
        tops = list(map(max, rows))
        best = max(tops)
        return tuple(river * POND + pond for river, row in enumerate(rows) if tops[river] == best
                     for pond, gain in enumerate(row) if gain == best)

    def python_gains(self, ponds: tuple, river: tuple) -> list[list[int]]:
        """gains() in Python: the readable reference the compiled kernel is tested against."""
        p = self.packing
        pack, mask = p.pack.__getitem__, p.mask
        unseen_pack = p.total - sum(map(pack, ponds)) - sum(map(pack, river))
        n = (unseen_pack >> p.count_shift) & mask or 1
        unseen = [(unseen_pack >> shift) & mask for shift in p.feature_shifts]
        unseen_weights = [(unseen_pack >> shift) & mask for shift in p.weight_shifts]
        fx, it = (unseen_pack >> p.fixed_shift) & mask, (unseen_pack >> p.itself_shift) & mask
        wq = sum([w * u for w, u in zip(unseen_weights, unseen)])
        # n times the points per feature of the cards that count the seat's pond, less the River's
        net = [0] * p.features
        for slots, sign in self.counting:
            cards = [ponds[i] for i in slots]
            packed = n * sum(map(pack, cards)) + cards.count(None) * unseen_pack
            if sign > 0:
                net = [a + ((packed >> shift) & mask) for a, shift in zip(net, p.weight_shifts)]
            else:
                net = [a - ((packed >> shift) & mask) for a, shift in zip(net, p.weight_shifts)]
        counted, points, animal, season = p.counted, p.points, p.animal, p.season
        nn = n * n
        # Per column: n times the expected feature counts of the pond it counts, and n² times the
        # first-order value of a face-down card there.
        mine = ponds[self.base:self.base + POND]
        # Only columns where a face-down card may be given or taken need a face-down card's value.
        unknown = (0, 1, 2) if None in river else {SLOT_COLUMN[slot] for slot, card in enumerate(mine) if card is None}
        shared = fx * n + sum([u * d for u, d in zip(unseen, net)])
        expected, hidden = [], [0, 0, 0]
        for column, target in enumerate(self.targets):
            cards = river if target == RIVER else ponds[target * POND:(target + 1) * POND]
            packed = n * sum(map(pack, cards)) + cards.count(None) * unseen_pack
            e = [(packed >> shift) & mask for shift in p.feature_shifts]
            expected.append(e)
            if column in unknown:
                value = shared + sum([w * x for w, x in zip(unseen_weights, e)])
                hidden[column] = value + it * n - wq if column == 1 else value

        def first(card) -> list[int]:
            """n² times the card's first-order value in each column."""
            if card is None:
                return hidden
            base = n * (net[animal[card]] + net[season[card]])
            feature = counted[card]
            if feature == FIXED:
                value = base + points[card] * nn
                return [value, value, value]
            per = n * points[card]
            return [base + per * e[feature] for e in expected]

        def with_hidden(card) -> int:
            """n² times (card's weights . a face-down card's features + the other way round), card known."""
            feature = counted[card]
            value = n * (unseen_weights[animal[card]] + unseen_weights[season[card]])
            return value if feature == FIXED else value + n * points[card] * unseen[feature]

        pair, own = p.pair, p.own
        given = []
        for card, column in zip(mine, SLOT_COLUMN):
            if card is None:
                given.append(hidden[column])
            elif counted[card] == FIXED:
                given.append(n * (net[animal[card]] + net[season[card]]) + points[card] * nn)
            else:
                given.append(n * (net[animal[card]] + net[season[card]])
                             + n * points[card] * expected[column][counted[card]])
        # The slots whose column counts the seat's pond or the River: the swap also changes what they count.
        # Per such slot: n² times its card's weights . its own features, and its crosses with a face-down card.
        coupled = [(slot, sign, None, wq, 2 * wq) if mine[slot] is None
                   else (slot, sign, mine[slot], nn * own[mine[slot]], with_hidden(mine[slot]))
                   for slot, sign in self.coupled]
        rows = []
        for taken in river:
            by = first(taken)
            row = [by[column] - value for column, value in zip(SLOT_COLUMN, given)]
            if taken is None:
                for slot, sign, card, card_own, card_hidden in coupled:
                    second = wq - card_hidden + card_own
                    row[slot] += second if sign > 0 else -second
            else:
                taken_own, pairs, taken_hidden = nn * own[taken], pair[taken], with_hidden(taken)
                for slot, sign, card, card_own, _ in coupled:
                    second = taken_own - (taken_hidden if card is None else nn * pairs[card]) + card_own
                    row[slot] += second if sign > 0 else -second
            rows.append(row)
        return rows


_PACKINGS: dict[tuple, Packing] = {}
_SEATS: dict[tuple, tuple] = {}


def seat_gains(game, seat: int, rivals: bool = False) -> SeatGains:
    """The SeatGains of a seat of a game (a bot's world game), made once: every game of a simulation
    builds bots for the same world game."""
    key = (id(game), seat, rivals, accel.wanted())
    found = _SEATS.get(key)
    if found is not None and found[0] is game:
        return found[1]
    if len(_SEATS) >= 256:
        _SEATS.pop(next(iter(_SEATS)))
    gains = SeatGains(game, seat, rivals)
    _SEATS[key] = (game, gains)
    return gains


def _packing(game) -> Packing:
    key = (id(game.table), game.players)
    packing = _PACKINGS.get(key)
    if packing is None or packing.points is not game.table.points:
        if len(_PACKINGS) >= 64:
            _PACKINGS.pop(next(iter(_PACKINGS)))
        packing = _PACKINGS[key] = Packing(game.table, game.players)
    return packing
