"""The balance targets measured on a simulation's analysis: each finding with its 95% interval, how far
its estimate lies outside the target (the search minimises the sum of squares), and whether the
interval shows it met.

Every figure is in percentage points (win rates, rates of games) or turns (length). A seat's fairness is
its win rate minus the average side's (what every side would win in a fair game); a card's impact is
the win rate of the seats its impact event happened to (Symbiosis: kept it; Ecologies: played it) minus
of those it did not, as `cardtool simulate` reports it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from cardtool.balance.tuning import Targets
from cardtool.sim.analysis import Analysis
from cardtool.sim.stats import Difference, Rate, rate_difference

#: A finding's status: its whole interval inside the target; its estimate inside; its estimate outside
#: (the interval reaching inside); its whole interval outside.
MET, LIKELY_MET, LIKELY_MISSED, MISSED = "met", "likely met", "likely missed", "missed"


def _status(excess: float, near: float, inside: bool) -> str:
    if inside:
        return MET
    if near > 0:
        return MISSED
    return LIKELY_MET if excess == 0 else LIKELY_MISSED


@dataclass(frozen=True)
class Finding:
    """One target on one subject (a seat, a card, a biome, the whole game)."""

    target: str  # seat_fairness, card_impact, stalled, cards_played, biome_healthy, length
    subject: str
    value: float
    low: float
    high: float
    goal: str  # e.g. "within ±3", "at least 5"
    excess: float  # how far the estimate lies outside the target (0 inside)
    near: float  # how far the interval's end nearest the target lies outside it (0 if it reaches it)
    status: str  # MET, LIKELY_MET, LIKELY_MISSED or MISSED

    def to_json(self) -> dict:
        return {key: (round(value, 3) if isinstance(value, float) else value) for key, value in vars(self).items()}


def _within(target: str, subject: str, value: float, low: float, high: float, bound: float) -> Finding:
    excess = max(0.0, abs(value) - bound)
    near = max(0.0, 0.0 if low <= bound and high >= -bound else min(abs(low), abs(high)) - bound)
    status = _status(excess, near, -bound <= low and high <= bound)
    return Finding(target, subject, value, low, high, f"within ±{bound:g}", excess, near, status)


def _between(target: str, subject: str, value: float, low: float, high: float, lo: float, hi: float,
             goal: str) -> Finding:
    excess = max(0.0, lo - value, value - hi)
    near = max(0.0, lo - high, low - hi)
    status = _status(excess, near, lo <= low and high <= hi)
    return Finding(target, subject, value, low, high, goal, excess, near, status)


def _percent(rate: Rate) -> tuple[float, float, float]:
    return 100 * rate.value, 100 * rate.low, 100 * rate.high


def measure(analysis: Analysis, targets: Targets, kinds: dict[str, str] | None = None,
            peers: dict[str, tuple] | None = None) -> list[Finding]:
    """Every target on every subject it applies to; kinds (card id -> kind) limits cards_played to
    the cards a player chooses to play (not biome cards, say) when the game records who played what;
    peers (card id -> its group, see peer_groups) says which cards card_impact_vs_peers compares."""
    found: list[Finding] = []
    if targets.seat_fairness is not None:
        fair = 100 * analysis.average_seat
        for side in analysis.sides:
            value, low, high = _percent(side.win)
            found.append(_within("seat_fairness", side.name, value - fair, low - fair, high - fair,
                                 targets.seat_fairness))
    if targets.card_impact is not None:
        own = analysis.spec.impact_event
        event = targets.impact_event if own and targets.impact_event != own else ""
        for card in analysis.cards:
            d = event_impact(card, own, event) if event else card.impact
            if d.estimate == d.estimate:  # NaN when a card was never (or always) kept
                finding = _within("card_impact", card.name, 100 * d.estimate, 100 * d.low, 100 * d.high,
                                  targets.card_impact)
                found.append(replace(finding, goal=f"{finding.goal} when {event}") if event else finding)
    if targets.card_impact_vs_peers is not None:
        found += _versus_peers(analysis, targets.card_impact_vs_peers, peers or {})
    if targets.stalled is not None:
        value, low, high = _percent(analysis.capped)
        found.append(_between("stalled", "every game", value, low, high, 0.0, targets.stalled,
                              f"at most {targets.stalled:g}"))
    choice = analysis.spec.choice_event
    if targets.cards_played is not None and choice:
        for card in analysis.cards:
            if kinds is not None and kinds.get(card.id) == "biome":
                continue
            value, low, high = _percent(Rate.of(card.games.get(choice, 0), analysis.games))
            found.append(_between("cards_played", card.name, value, low, high, targets.cards_played, 100.0,
                                  f"at least {targets.cards_played:g}"))
    if targets.biome_healthy is not None:
        for biome in analysis.biomes:
            value, low, high = _percent(biome.healthy)
            found.append(_between("biome_healthy", biome.code, value, low, high, targets.biome_healthy, 100.0,
                                  f"at least {targets.biome_healthy:g}"))
    if targets.length is not None:
        lo, hi = targets.length
        median = analysis.length.median
        found.append(_between("length", "median turns", median, median, median, lo, hi, f"{lo:g} to {hi:g}"))
    return found


def event_impact(card, impact_event: str, event: str) -> Difference:
    """The win rate of the seats another card event happened to (dealt, say) minus of the rest, from the
    counts the analysis keeps: every seat-game is with or without the impact event, so their sum is all."""
    wins = card.win_when[impact_event].k + card.win_without.k
    seats = card.win_when[impact_event].n + card.win_without.n
    rate = card.win_when[event]
    return rate_difference(rate.k, rate.n, wins - rate.k, seats - rate.n)


def _versus_peers(analysis: Analysis, bound: float, peers: dict[str, tuple]) -> list[Finding]:
    """Each card's impact minus the mean impact of the other cards of its group: where doing more of
    something wins whatever the card (Ecologies: seats that play more organisms win), the raw impact
    measures activity and this compares a card with its like. Its interval is the card's, shifted by
    that mean (the mean of many peers varies far less than one card's estimate)."""
    impacts = {card.id: card.impact for card in analysis.cards if card.impact.estimate == card.impact.estimate}
    found = []
    for card in analysis.cards:
        if card.id not in impacts:
            continue
        group = peers.get(card.id, ())
        others = [d.estimate for other, d in impacts.items() if other != card.id and peers.get(other, ()) == group]
        if not others:
            continue
        mean = sum(others) / len(others)
        d = impacts[card.id]
        found.append(_within("card_impact_vs_peers", card.name, 100 * (d.estimate - mean), 100 * (d.low - mean),
                             100 * (d.high - mean), bound))
    return found


def card_kinds(source) -> dict[str, str]:
    """Card id -> its kind (organism, factor...): what `measure` needs to tell a card's targets apart."""
    return {card_id: entry.kind for card_id, entry in source.cards.items()}


def peer_groups(source, fields: tuple[str, ...]) -> dict[str, tuple]:
    """Card id -> the values of the peer fields (`kind`, or a dotted field such as `vp`; None if absent)."""
    def value(entry, field: str):
        if field == "kind":
            return entry.kind
        data = entry.data
        for part in field.split("."):
            if not isinstance(data, dict) or part not in data:
                return None
            data = data[part]
        return data if isinstance(data, (str, int, float, bool)) else repr(data)

    return {card_id: tuple(value(entry, f) for f in fields) for card_id, entry in source.cards.items()}


def penalty(findings: list[Finding]) -> float:
    """What the search minimises: the squares of how far each estimate lies outside its target."""
    return sum(f.excess ** 2 for f in findings)


def hopeful(findings: list[Finding]) -> float:
    """The penalty if every finding were at the end of its interval nearest its target: a candidate
    whose hopeful penalty is worse than the best candidate's penalty cannot catch up by playing on."""
    return sum(f.near ** 2 for f in findings)
