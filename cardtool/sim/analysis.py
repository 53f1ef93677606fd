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
from collections.abc import Sequence
from dataclasses import dataclass, field

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


def analyse(records: Sequence[SimRecord], spec: Spec) -> Analysis:
    """Everything the report, summary.json and cards.csv say, from the records."""
    n = len(records)
    players = max((r.players for r in records), default=0)
    finished = [r for r in records if not r.capped]
    wins = [sum(r.won(seat) for r in records) for seat in range(players)]
    seats = [Rate.of(k, n) for k in wins]
    scores = [[r.scores[seat] for r in records] for seat in range(players)]
    groups = records[0].sides if records else ()
    side_wins = [sum(r.side_won(side) for r in records) for side in groups]
    sides = [Side(side, Rate.of(k, n), Summary.of(scores[side[0]])) for side, k in zip(groups, side_wins)]
    average = sum(side_wins) / (n * len(groups)) if n and groups else math.nan
    if sides:
        first_side = sides[0].win
        first = Difference(first_side.value - average, first_side.low - average, first_side.high - average,
                           stats.rate_against(first_side.k, n, average))
    else:
        first = Difference(math.nan, math.nan, math.nan, 1.0)
    first = first.marked(first.p < stats.ALPHA)
    bot_wins: Counter = Counter()
    bot_seats: Counter = Counter()
    bot_points: dict[str, list[float]] = defaultdict(list)
    for r in records:
        for seat, name in enumerate(r.bots):
            bot_seats[name] += 1
            bot_wins[name] += r.won(seat)
            bot_points[name].append(r.scores[seat])
    lengths = [r.turns for r in records]
    winning = [max(r.scores) for r in finished]
    shared = sum(1 for r in finished if r.winning_sides > 1)
    return Analysis(
        spec=spec, games=n, finished=len(finished), capped=Rate.of(n - len(finished), n),
        endings=_endings(records, spec), shared=shared, players=players, seats=seats,
        seat_scores=[Summary.of(s) for s in scores], sides=sides, average_seat=average,
        first_player=first, bots={name: Rate.of(bot_wins[name], bot_seats[name]) for name in sorted(bot_seats)},
        bot_scores={name: Summary.of(bot_points[name]) for name in sorted(bot_seats)},
        length=Summary.of(lengths), lengths=lengths, scores=scores, winning_scores=Summary.of(winning),
        curve=_curve(records, players), cards=_cards(records, spec), biomes=_biomes(records),
        breakdowns=_breakdowns(records))


def _endings(records: Sequence[SimRecord], spec: Spec) -> list[Ending]:
    """Every end reason the game declares (in its order), then any other a record names."""
    counts = Counter(r.end_reason or (TURN_CAP if r.capped else "unknown") for r in records)  # older files
    known = {reason.word: reason for reason in spec.end_reasons}
    reasons = list(spec.end_reasons) + [EndReason(word, "(not one of the game's end reasons)", cap=False)
                                        for word in counts if word not in known]
    return [Ending(reason, Rate.of(counts[reason.word], len(records))) for reason in reasons]


def _curve(records: Sequence[SimRecord], players: int) -> list[list[float]]:
    rounds = max((len(r.curve) for r in records), default=0)
    curve = []
    for index in range(rounds):
        rows = [r.curve[index] for r in records if len(r.curve) > index]
        curve.append([sum(row[seat] for row in rows) / len(rows) for seat in range(players)])
    return curve


def _cards(records: Sequence[SimRecord], spec: Spec) -> list[CardImpact]:
    if not spec.card_events or not records:
        return []
    seat_games = sum(r.players for r in records)
    total_wins = sum(len(r.winners) for r in records)
    games: dict[str, Counter] = {e: Counter() for e in spec.card_events}
    times: dict[str, Counter] = {e: Counter() for e in spec.card_events}
    seats_with: dict[str, Counter] = {e: Counter() for e in spec.card_events}
    wins_with: dict[str, Counter] = {e: Counter() for e in spec.card_events}
    for r in records:
        for event in spec.card_events:
            per_seat = r.cards.get(event, ())
            in_game: set[str] = set()
            for seat, ids in enumerate(per_seat):
                times[event].update(ids)
                unique = set(ids)
                in_game |= unique
                seats_with[event].update(unique)
                if r.won(seat):
                    wins_with[event].update(unique)
            games[event].update(in_game)
    n = len(records)
    impacts = []
    for card_id, name in spec.cards:
        impact = spec.impact_event
        k_with, n_with = wins_with[impact][card_id] if impact else 0, seats_with[impact][card_id] if impact else 0
        k_without, n_without = total_wins - k_with, seat_games - n_with
        impacts.append(CardImpact(
            id=card_id, name=name,
            games={e: games[e][card_id] for e in spec.card_events},
            per_game={e: times[e][card_id] / n for e in spec.card_events},
            win_when={e: Rate.of(wins_with[e][card_id], seats_with[e][card_id]) for e in spec.card_events},
            win_without=Rate.of(k_without, n_without),
            impact=stats.rate_difference(k_with, n_with, k_without, n_without),
            never_chosen=bool(spec.choice_event) and times[spec.choice_event][card_id] == 0))
    marked = stats.holm([card.impact for card in impacts])
    return [CardImpact(c.id, c.name, c.games, c.per_game, c.win_when, c.win_without, m, c.never_chosen)
            for c, m in zip(impacts, marked)]


def _biomes(records: Sequence[SimRecord]) -> list[Biome]:
    codes: dict[str, list] = {}
    for r in records:
        for code, turn in (r.extras.get("biomes") or {}).items():
            codes.setdefault(code, []).append(turn)
    result = []
    for code, turns in codes.items():
        healthy = [t for t in turns if t is not None]
        result.append(Biome(code, Rate.of(len(healthy), len(records)), Summary.of(healthy)))
    return result


def _breakdowns(records: Sequence[SimRecord]) -> list[Breakdown]:
    keys = [key for key in (records[0].extras if records else {}) if key.startswith("points_by_")]
    result = []
    for key in keys:
        everyone: Counter = Counter()
        winners: Counter = Counter()
        seats = won = 0
        categories: dict[str, None] = {}
        for r in records:
            for seat, points in enumerate(r.extras.get(key) or ()):
                categories.update(dict.fromkeys(points))
                everyone.update(points)
                seats += 1
                if r.won(seat):
                    winners.update(points)
                    won += 1
        result.append(Breakdown(key.replace("_", " "), tuple(categories),
                                {c: everyone[c] / seats if seats else math.nan for c in categories},
                                {c: winners[c] / won if won else math.nan for c in categories}))
    return result
