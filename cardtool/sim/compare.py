"""Two decks under common random numbers: every metric side by side, with which differences are real.

Game i of deck A and game i of deck B are played from the same seed by the same bots in the same
seats, so the luck of the deal is shared as far as the decks allow; a metric is then compared game by
game (paired), which separates what the change did from chance with far fewer games than two
independent runs. Per-card rates pool seats over games and are compared as independent samples.
Differences are B minus A; "significant" is p < 0.05 after Holm's correction within each table.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cardtool.sim import stats
from cardtool.sim.analysis import Analysis
from cardtool.sim.records import SimRecord
from cardtool.sim.stats import Difference, Rate


@dataclass(frozen=True)
class Row:
    """One metric for A and B, worded, and B - A."""

    metric: str
    a: str
    b: str
    difference: Difference
    kind: str  # "rate" (a difference in percentage points) or "mean"


@dataclass(frozen=True)
class Comparison:
    a: Analysis
    b: Analysis
    games: int  # the games both runs finished (compared in pairs)
    metrics: list[Row]
    cards: list[Row]  # win rate when the impact event happened, per card in both decks


def compare(records_a: Sequence[SimRecord], records_b: Sequence[SimRecord], a: Analysis, b: Analysis) -> Comparison:
    by_index = {r.index: r for r in records_b}
    pairs = [(r, by_index[r.index]) for r in records_a if r.index in by_index]
    players = a.players
    rows: list[Row] = []

    def paired_rate(name: str, outcome: Callable[[SimRecord], bool]) -> None:
        first = [outcome(x) for x, _ in pairs]
        second = [outcome(y) for _, y in pairs]
        rows.append(Row(name, _rate(first), _rate(second), stats.paired_rate_difference(second, first), "rate"))

    def paired_mean(name: str, value: Callable[[SimRecord], float | None], digits: int = 1) -> None:
        kept = [(value(x), value(y)) for x, y in pairs]
        kept = [(u, v) for u, v in kept if u is not None and v is not None]
        first, second = [u for u, _ in kept], [v for _, v in kept]
        rows.append(Row(name, _mean(first, digits), _mean(second, digits),
                        stats.paired_mean_difference(second, first), "mean"))

    for side in a.sides:  # each seat, or in a team mode each team
        label = f"{side.name.capitalize()} win rate" + (" (plays first)" if 0 in side.seats else "")
        paired_rate(label, lambda r, s=side.seats: r.side_won(s))
    paired_rate("Capped games (no winner)", lambda r: r.capped)
    for ending in a.endings:
        if ending.games.k or any(e.games.k for e in b.endings if e.reason.word == ending.reason.word):
            paired_rate(f"Games ending {ending.reason.word}", lambda r, w=ending.reason.word: r.end_reason == w)
    paired_rate(f"Ties (won by several {'teams' if a.teams else 'seats'})", lambda r: r.winning_sides > 1)
    bots = sorted({name for r, _ in pairs for name in r.bots})
    if len(bots) > 1:
        for bot in bots:
            first = [x.won(s) for x, _ in pairs for s, name in enumerate(x.bots) if name == bot]
            second = [y.won(s) for _, y in pairs for s, name in enumerate(y.bots) if name == bot]
            rows.append(Row(f"Bot {bot} win rate", _rate(first), _rate(second),
                            stats.paired_rate_difference(second, first), "rate"))
    paired_mean("Game length (turns)", lambda r: r.turns)
    score = a.spec.score_name
    for seat in range(players):
        paired_mean(f"Seat {seat + 1} mean {score}", lambda r, s=seat: r.scores[s])
    paired_mean(f"Winning {score}", lambda r: None if r.capped else max(r.scores))
    codes = [bio.code for bio in a.biomes if bio.code in {x.code for x in b.biomes}]
    for code in codes:
        paired_rate(f"Biome {code} becomes healthy",
                    lambda r, c=code: (r.extras.get("biomes") or {}).get(c) is not None)
    for key in [k for k in (pairs[0][0].extras if pairs else {}) if k.startswith("points_by_")]:
        categories = list(dict.fromkeys(c for x, _ in pairs for p in x.extras.get(key) or () for c in p))
        for category in categories:
            paired_mean(f"{key.replace('_', ' ').capitalize()}: {category.replace('_', ' ')}",
                        lambda r, k=key, c=category: sum(p.get(c, 0) for p in r.extras.get(k) or ()) / r.players)
    metrics = _holm(rows)
    return Comparison(a, b, len(pairs), metrics, _cards(a, b))


def _cards(a: Analysis, b: Analysis) -> list[Row]:
    event = a.spec.impact_event
    if not event:
        return []
    in_b = {card.id: card for card in b.cards}
    rows = []
    for card in a.cards:
        other = in_b.get(card.id)
        if other is None:
            continue
        ra, rb = card.win_when[event], other.win_when[event]
        rows.append(Row(card.name if card.name == other.name else f"{card.name} / {other.name}", _rate_text(ra),
                        _rate_text(rb), stats.rate_difference(rb.k, rb.n, ra.k, ra.n), "rate"))
    return _holm(rows)


def _holm(rows: list[Row]) -> list[Row]:
    marked = stats.holm([row.difference for row in rows])
    return [Row(r.metric, r.a, r.b, m, r.kind) for r, m in zip(rows, marked)]


def _rate(outcomes: Sequence[bool]) -> str:
    return _rate_text(Rate.of(sum(outcomes), len(outcomes)))


def _rate_text(rate: Rate) -> str:
    return "–" if not rate.n else f"{100 * rate.value:.1f}% ({100 * rate.low:.1f}–{100 * rate.high:.1f}%)"


def _mean(values: Sequence[float], digits: int) -> str:
    mean, low, high = stats.mean_interval(values)
    return "–" if math.isnan(mean) else f"{mean:.{digits}f} ({low:.{digits}f}–{high:.{digits}f})"


def with_headline(comparison: Comparison, difference: Difference) -> Comparison:
    """The comparison with its headline row (the first: seat 1's, or its team's, win rate) carrying the
    confidence-sequence difference of a run that stopped once it was decided (compare --precision)."""
    first, *others = comparison.metrics
    headline = Row(first.metric + " (confidence sequence)", first.a, first.b, difference, first.kind)
    return Comparison(comparison.a, comparison.b, comparison.games, [headline, *others], comparison.cards)
