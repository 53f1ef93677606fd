"""What a set of game records says: win rates by seat and bot, first-player advantage, game length,
scores, score curves, per-card impact, and the game-specific sections its records carry.

Everything is computed from the records alone (plus the deck's card list and the game's event words),
so a report lights up for a game as soon as its records carry the data: e.g. `biomes` in the extras
gives the section on healthy biomes, `points_by_<what>` a table of points by <what>.

The unit of a win rate is a side in a game: a seat, or in a team mode a team (a partnership's win is
one win of the team, not a tie of its seats). A shared victory (a tie) is a win for each side sharing
it, and a capped game (stopped by a safeguard outside the rules) is a game that nobody won: it is
counted as its own outcome, with the end reason that stopped it.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from cardtool.engine.protocol import TURN_CAP
from cardtool.games.plugin import EndReason
from cardtool.sim import stats
from cardtool.sim.records import SimRecord
from cardtool.sim.stats import Difference, Rate


TURN_CAP_REASON = EndReason(TURN_CAP, "stopped after --max-turns turns: not an ending of the rules", cap=True)


@dataclass(frozen=True)
class Spec:
    """What the analysis needs to know about the game and deck besides the records."""

    score_name: str = "points"
    card_events: tuple[str, ...] = ()
    impact_event: str = ""
    choice_event: str = ""
    cards: tuple[tuple[str, str], ...] = ()  # (card id, name) of every card in the deck, in deck order
    #: The game's end reasons (cardtool.games.plugin.EndReason), in the order the report lists them.
    end_reasons: tuple[EndReason, ...] = (TURN_CAP_REASON,)

    @classmethod
    def of(cls, plugin, deck) -> "Spec":
        reasons = tuple(getattr(plugin, "end_reasons", ()))
        if TURN_CAP not in {reason.word for reason in reasons}:
            reasons += (TURN_CAP_REASON,)
        return cls(plugin.score_name, tuple(plugin.card_events), plugin.impact_event, plugin.choice_event,
                   tuple((card.id, card.name) for card in deck.cards), reasons)

    def to_json(self) -> dict:
        return {"score_name": self.score_name, "card_events": list(self.card_events),
                "impact_event": self.impact_event, "choice_event": self.choice_event,
                "cards": [list(pair) for pair in self.cards],
                "end_reasons": [{"reason": r.word, "text": r.text, "cap": r.cap} for r in self.end_reasons]}

    @classmethod
    def from_json(cls, data: dict) -> "Spec":
        reasons = tuple(EndReason(r["reason"], r["text"], r["cap"]) for r in data.get("end_reasons", ()))
        return cls(data["score_name"], tuple(data["card_events"]), data["impact_event"], data["choice_event"],
                   tuple(tuple(pair) for pair in data["cards"]), reasons or (TURN_CAP_REASON,))


@dataclass(frozen=True)
class Summary:
    """Median, 95th percentile, mean and range of a quantity."""

    median: float
    p95: float
    mean: float
    low: float  # mean's 95% interval
    high: float
    minimum: float
    maximum: float

    @classmethod
    def of(cls, values: Sequence[float]) -> "Summary":
        if not len(values):
            return cls(*(math.nan,) * 7)
        mean, low, high = stats.mean_interval(values)
        return cls(stats.quantile(values, 0.5), stats.quantile(values, 0.95), mean, low, high,
                   float(min(values)), float(max(values)))


@dataclass(frozen=True)
class CardImpact:
    """One card over the run: how often each event happened to it, and how seats fared with it."""

    id: str
    name: str
    games: dict[str, int]  # event -> games in which it happened to the card (to any seat)
    per_game: dict[str, float]  # event -> times per game
    win_when: dict[str, Rate]  # event -> win rate of the seats it happened to
    win_without: Rate  # win rate of the seats the impact event did not happen to
    impact: Difference  # win rate with the impact event minus without
    never_chosen: bool  # the choice event never happened to this card


@dataclass(frozen=True)
class Biome:
    """How often and how soon a biome became healthy."""

    code: str
    healthy: Rate  # games in which it became healthy
    turns: Summary  # the first healthy turn, over those games


@dataclass(frozen=True)
class Breakdown:
    """Mean points per category (e.g. per scoring rule), over every seat and over the winners only."""

    title: str  # e.g. "points by rule"
    categories: tuple[str, ...]
    everyone: dict[str, float]
    winners: dict[str, float]


@dataclass(frozen=True)
class Ending:
    """How many games ended for one reason."""

    reason: EndReason
    games: Rate  # of every game


@dataclass(frozen=True)
class Side:
    """Who wins together: one seat, or a team's seats (seats from 0), and how often it won."""

    seats: tuple[int, ...]
    win: Rate
    score: Summary  # its final score (a team's is its two ponds added up, as each partner's score is)

    @property
    def name(self) -> str:
        if len(self.seats) == 1:
            return f"seat {self.seats[0] + 1}"
        return "team of seats " + ", ".join(str(s + 1) for s in self.seats[:-1]) + f" and {self.seats[-1] + 1}"


@dataclass(frozen=True)
class Analysis:
    spec: Spec
    games: int
    finished: int  # games that ended by the rules
    capped: Rate  # games a cap stopped (nobody won them)
    endings: list[Ending]  # every end reason of the game, with how many games ended so
    shared: int  # finished games won by more than one side: a tie (a team's own win is not one)
    players: int
    seats: list[Rate]  # win rate per seat (a team's win counts for each partner)
    seat_scores: list[Summary]
    sides: list[Side]  # who plays to win: each seat, or in a team mode each team
    average_seat: float  # the mean of the sides' win rates: what every side would get in a fair game
    first_player: Difference  # the win rate of seat 1 (its team, in a team mode) minus the average side's
    bots: dict[str, Rate]
    bot_scores: dict[str, Summary]
    length: Summary  # turns, over every game
    lengths: list[int]
    scores: list[list[float]]  # per seat, its final score in every game
    winning_scores: Summary
    curve: list[list[float]]  # per round, each seat's mean score (over the games that reached it)
    cards: list[CardImpact] = field(default_factory=list)
    biomes: list[Biome] = field(default_factory=list)
    breakdowns: list[Breakdown] = field(default_factory=list)

    @property
    def never_chosen(self) -> list[CardImpact]:
        return [card for card in self.cards if card.never_chosen]

    @property
    def teams(self) -> bool:
        """Whether seats played in teams (then win rates are per team)."""
        return any(len(side.seats) > 1 for side in self.sides)


def analyse(records: Iterable[SimRecord], spec: Spec) -> Analysis:
    """Everything the report, summary.json and cards.csv say, from the records, in one pass over
    them (a list, or a generator reading games.jsonl)."""
    accumulator = Accumulator(spec)
    for record in records:
        accumulator.add(record)
    return accumulator.analysis()


class Accumulator:
    """The analysis built up one record at a time, so that records can stream past: per game it keeps
    only the game's length and its seats' final scores, everything else as running counts."""

    def __init__(self, spec: Spec):
        self.spec = spec
        self.n = self.finished = self.shared = self.players = 0
        self.groups: tuple[tuple[int, ...], ...] | None = None
        self.wins: Counter = Counter()  # seat -> games won
        self.side_wins: Counter = Counter()  # side index -> games won
        self.scores: list[list[float]] = []  # per seat, its final score in every game
        self.bot_wins: Counter = Counter()
        self.bot_seats: Counter = Counter()
        self.bot_points: dict[str, list[float]] = defaultdict(list)
        self.lengths: list[int] = []
        self.winning: list[float] = []
        self.endings: Counter = Counter()
        self.curve_sums: list[list[float]] = []  # per round, per seat, the sum of scores
        self.curve_games: list[int] = []  # per round, the games that reached it
        self.seat_games = self.total_wins = 0
        events = spec.card_events
        self.card_games = {e: Counter() for e in events}  # games the event happened to the card
        self.card_times = {e: Counter() for e in events}
        self.seats_with = {e: Counter() for e in events}
        self.wins_with = {e: Counter() for e in events}
        self.biome_turns: dict[str, list[int]] = {}  # first healthy turn, in the games it became healthy
        self.breakdown_keys: list[str] | None = None
        self.breakdowns: dict[str, list] = {}  # key -> [everyone, winners, seats, won, categories]

    def add(self, r: SimRecord) -> None:
        """Count one game."""
        self.n += 1
        if r.players > self.players:
            self.scores += [[] for _ in range(r.players - self.players)]
            self.players = r.players
        if self.groups is None:
            self.groups = r.sides
        if not r.capped:
            self.finished += 1
            self.winning.append(max(r.scores))
            if r.winning_sides > 1:
                self.shared += 1
        for seat, name in enumerate(r.bots):
            won = r.won(seat)
            self.wins[seat] += won
            self.scores[seat].append(r.scores[seat])
            self.bot_seats[name] += 1
            self.bot_wins[name] += won
            self.bot_points[name].append(r.scores[seat])
        for index, side in enumerate(self.groups):
            self.side_wins[index] += r.side_won(side)
        self.lengths.append(r.turns)
        self.endings[r.end_reason or (TURN_CAP if r.capped else "unknown")] += 1  # older files have none
        for index, row in enumerate(r.curve):
            if index == len(self.curve_games):
                self.curve_sums.append([0.0] * self.players)
                self.curve_games.append(0)
            sums = self.curve_sums[index]
            for seat in range(min(len(sums), len(row))):
                sums[seat] += row[seat]
            self.curve_games[index] += 1
        self._add_cards(r)
        for code, turn in (r.extras.get("biomes") or {}).items():
            turns = self.biome_turns.setdefault(code, [])
            if turn is not None:
                turns.append(turn)
        self._add_breakdowns(r)

    def _add_cards(self, r: SimRecord) -> None:
        if not self.spec.card_events:
            return
        self.seat_games += r.players
        self.total_wins += len(r.winners)
        for event in self.spec.card_events:
            in_game: set[str] = set()
            for seat, ids in enumerate(r.cards.get(event, ())):
                self.card_times[event].update(ids)
                unique = set(ids)
                in_game |= unique
                self.seats_with[event].update(unique)
                if r.won(seat):
                    self.wins_with[event].update(unique)
            self.card_games[event].update(in_game)

    def _add_breakdowns(self, r: SimRecord) -> None:
        if self.breakdown_keys is None:  # the first record says which breakdowns the game keeps
            self.breakdown_keys = [key for key in r.extras if key.startswith("points_by_")]
            self.breakdowns = {key: [Counter(), Counter(), 0, 0, {}] for key in self.breakdown_keys}
        for key in self.breakdown_keys:
            totals = self.breakdowns[key]
            for seat, points in enumerate(r.extras.get(key) or ()):
                totals[4].update(dict.fromkeys(points))
                totals[0].update(points)
                totals[2] += 1
                if r.won(seat):
                    totals[1].update(points)
                    totals[3] += 1

    def analysis(self) -> Analysis:
        """What the games counted so far say."""
        n, spec = self.n, self.spec
        groups = self.groups or ()
        seats = [Rate.of(self.wins[seat], n) for seat in range(self.players)]
        side_wins = [self.side_wins[index] for index in range(len(groups))]
        sides = [Side(side, Rate.of(k, n), Summary.of(self.scores[side[0]])) for side, k in zip(groups, side_wins)]
        average = sum(side_wins) / (n * len(groups)) if n and groups else math.nan
        if sides:
            first_side = sides[0].win
            first = Difference(first_side.value - average, first_side.low - average, first_side.high - average,
                               stats.rate_against(first_side.k, n, average))
        else:
            first = Difference(math.nan, math.nan, math.nan, 1.0)
        first = first.marked(first.p < stats.ALPHA)
        names = sorted(self.bot_seats)
        return Analysis(
            spec=spec, games=n, finished=self.finished, capped=Rate.of(n - self.finished, n),
            endings=self._endings(), shared=self.shared, players=self.players, seats=seats,
            seat_scores=[Summary.of(s) for s in self.scores], sides=sides, average_seat=average,
            first_player=first, bots={name: Rate.of(self.bot_wins[name], self.bot_seats[name]) for name in names},
            bot_scores={name: Summary.of(self.bot_points[name]) for name in names},
            length=Summary.of(self.lengths), lengths=list(self.lengths), scores=[list(s) for s in self.scores],
            winning_scores=Summary.of(self.winning),
            curve=[[total / games for total in sums] for sums, games in zip(self.curve_sums, self.curve_games)],
            cards=self._cards(), biomes=[Biome(code, Rate.of(len(turns), n), Summary.of(turns))
                                         for code, turns in self.biome_turns.items()],
            breakdowns=self._breakdowns())

    def _endings(self) -> list[Ending]:
        """Every end reason the game declares (in its order), then any other a record names."""
        known = {reason.word: reason for reason in self.spec.end_reasons}
        reasons = list(self.spec.end_reasons) + [EndReason(word, "(not one of the game's end reasons)", cap=False)
                                                 for word in self.endings if word not in known]
        return [Ending(reason, Rate.of(self.endings[reason.word], self.n)) for reason in reasons]

    def _cards(self) -> list[CardImpact]:
        spec = self.spec
        if not spec.card_events or not self.n:
            return []
        impact, n = spec.impact_event, self.n
        impacts = []
        for card_id, name in spec.cards:
            k_with = self.wins_with[impact][card_id] if impact else 0
            n_with = self.seats_with[impact][card_id] if impact else 0
            k_without, n_without = self.total_wins - k_with, self.seat_games - n_with
            impacts.append(CardImpact(
                id=card_id, name=name,
                games={e: self.card_games[e][card_id] for e in spec.card_events},
                per_game={e: self.card_times[e][card_id] / n for e in spec.card_events},
                win_when={e: Rate.of(self.wins_with[e][card_id], self.seats_with[e][card_id])
                          for e in spec.card_events},
                win_without=Rate.of(k_without, n_without),
                impact=stats.rate_difference(k_with, n_with, k_without, n_without),
                never_chosen=bool(spec.choice_event) and self.card_times[spec.choice_event][card_id] == 0))
        marked = stats.holm([card.impact for card in impacts])
        return [replace(card, impact=mark) for card, mark in zip(impacts, marked)]

    def _breakdowns(self) -> list[Breakdown]:
        result = []
        for key in self.breakdown_keys or ():
            everyone, winners, seats, won, categories = self.breakdowns[key]
            result.append(Breakdown(key.replace("_", " "), tuple(categories),
                                    {c: everyone[c] / seats if seats else math.nan for c in categories},
                                    {c: winners[c] / won if won else math.nan for c in categories}))
        return result
