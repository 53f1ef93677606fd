"""Findings robust to skill: each finding of a balance report checked under every line-up of a run.

A finding is *robust* when it has the same sign and is significant under every line-up (a seat that
wins more than a fair share with weak bots and with strong ones), *fragile* when it is significant
under some line-ups only, or in opposite directions, and *not found* when no line-up shows it. The
findings, each with its evidence per line-up:

- seat (team) win rates: each side's win rate against the fair share (the average side's), exact
  binomial test, Holm's correction over the sides of a line-up;
- flagged cards: a card's win-rate difference (when played minus not, Holm over the cards, as the
  report's card table), and a card the bots never play;
- biome health (Ecologies): each biome's share of games healthy against the average biome's, exact
  binomial test, Holm over the biomes;
- game length: a game's mean length has no fair value to differ from, so its finding is agreement:
  robust when no line-up's mean length differs significantly from another's (Welch's test, Holm over
  the pairs), fragile (it depends on the bots) otherwise; and games stopped by a cap, a finding
  wherever a line-up had one.

Computed from each line-up's Analysis alone. Imported by the balance report and the simulate command.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from cardtool.sim import stats
from cardtool.sim.analysis import Analysis
from cardtool.sim.stats import Difference, Rate
from cardtool.sim.wording import diff_json, number, percent, rate_diff, rate_text

ROBUST, FRAGILE, NOT_FOUND = "robust", "fragile", "not found"


@dataclass(frozen=True)
class Evidence:
    """What one line-up says about a finding."""

    lineup: str
    sign: int  # +1 above (more), -1 below (less), 0 no direction
    significant: bool
    text: str  # the estimate and its interval in words
    difference: Difference | None = None  # the signed deviation tested, when there is one


@dataclass(frozen=True)
class Finding:
    kind: str  # "seat", "card", "never", "biome", "length", "capped"
    subject: str  # "seat 1", "Grey Wolf", "CAV", "game length"
    above: str  # what a positive sign means, e.g. "wins more than a fair share"
    below: str
    evidence: tuple[Evidence, ...]
    agreement: bool = False  # robust means "the same under every line-up" (game length), not a signed effect

    @property
    def verdict(self) -> str:
        return classify(self.evidence, self.agreement)

    @property
    def short(self) -> str:
        """The finding in a few words, for the terminal's table."""
        if self.agreement or self.kind == "capped":
            return self.subject
        signs = {e.sign for e in self.evidence if e.significant}
        return f"{self.subject}: {self.below if signs == {-1} else self.above}".replace(" more often", " more").replace(
            " less often", " less").replace(" than the average biome", "").replace(" than a fair", " than fair")

    @property
    def claim(self) -> str:
        """The finding in words: 'seat 1 wins more than a fair share'."""
        if self.agreement:
            return f"{self.subject} {self.above if self.verdict == ROBUST else self.below}"
        signs = {e.sign for e in self.evidence if e.significant}
        return f"{self.subject} {self.below if signs == {-1} else self.above}"


def classify(evidence: Sequence[Evidence], agreement: bool = False) -> str:
    """Robust: significant with one sign under every line-up; fragile: significant under some, or with
    opposite signs; not found: under none. For an agreement finding (game length), `significant`
    means a line-up differs from another, so none significant is robust and any is fragile."""
    significant = [e for e in evidence if e.significant]
    if agreement:
        return FRAGILE if significant else ROBUST
    if not significant:
        return NOT_FOUND
    if len(significant) == len(evidence) and len({e.sign for e in significant}) == 1:
        return ROBUST
    return FRAGILE


def _sign(x: float) -> int:
    return 0 if math.isnan(x) or x == 0 else (1 if x > 0 else -1)


def _against(rate: Rate, expected: float) -> Difference:
    """A rate minus an expected one, with the rate's interval moved along and the exact binomial test."""
    return Difference(rate.value - expected, rate.low - expected, rate.high - expected,
                      stats.rate_against(rate.k, rate.n, expected))


def findings(labels: Sequence[str], analyses: Sequence[Analysis]) -> list[Finding]:
    """Every finding some line-up shows (and every seat's, shown or not), robust ones first."""
    pairs = list(zip(labels, analyses))
    result = _seats(pairs) + _biomes(pairs) + _length(pairs) + _capped(pairs) + _cards(pairs) + _never(pairs)
    order = {ROBUST: 0, FRAGILE: 1, NOT_FOUND: 2}
    return sorted(result, key=lambda f: order[f.verdict])  # stable: kinds keep their order within a verdict


def _seats(pairs) -> list[Finding]:
    word = "team" if pairs[0][1].teams else "seat"
    per_lineup = []
    for label, a in pairs:
        marked = stats.holm([_against(side.win, a.average_seat) for side in a.sides])
        per_lineup.append([Evidence(label, _sign(d.estimate), d.significant,
                                    f"{rate_text(side.win)}; {rate_diff(d)} from fair ({percent(a.average_seat)})", d)
                           for side, d in zip(a.sides, marked)])
    sides = pairs[0][1].sides
    return [Finding("seat", side.name, f"wins more than a fair {word}", f"wins less than a fair {word}",
                    tuple(row[i] for row in per_lineup if i < len(row))) for i, side in enumerate(sides)]


def _cards(pairs) -> list[Finding]:
    first = pairs[0][1]
    if not first.cards:
        return []
    event = first.spec.impact_event
    result = []
    for i, card in enumerate(first.cards):
        evidence = tuple(Evidence(label, _sign(c.impact.estimate), c.impact.significant,
                                  f"{rate_text(c.win_when[event])} when {event}, {rate_text(c.win_without)} when not: "
                                  f"{rate_diff(c.impact)}", c.impact)
                         for label, a in pairs for c in a.cards[i:i + 1])
        if any(e.significant for e in evidence):
            result.append(Finding("card", card.name, f"wins more often when {event}",
                                  f"wins less often when {event}", evidence))
    return sorted(result, key=lambda f: -min(abs(e.difference.estimate) for e in f.evidence))  # the weakest line-up's


def _never(pairs) -> list[Finding]:
    first = pairs[0][1]
    choice = first.spec.choice_event
    if not first.cards or not choice:
        return []
    result = []
    for i, card in enumerate(first.cards):
        evidence = tuple(Evidence(label, -1, c.never_chosen,
                                  f"never {choice} in {a.games} games" if c.never_chosen else
                                  f"{choice} in {percent(c.games.get(choice, 0) / a.games if a.games else math.nan, 0)}"
                                  " of games")
                         for label, a in pairs for c in a.cards[i:i + 1])
        if any(e.significant for e in evidence):
            result.append(Finding("never", card.name, f"is never {choice}", f"is never {choice}", evidence))
    return result


def _biomes(pairs) -> list[Finding]:
    codes = [b.code for b in pairs[0][1].biomes]
    per_lineup = {}
    for label, a in pairs:
        biomes = {b.code: b for b in a.biomes}
        average = sum(b.healthy.k for b in a.biomes) / sum(b.healthy.n for b in a.biomes) if a.biomes else math.nan
        marked = stats.holm([_against(biomes[code].healthy, average) for code in codes if code in biomes])
        present = [code for code in codes if code in biomes]
        per_lineup[label] = {code: Evidence(label, _sign(d.estimate), d.significant,
                                            f"healthy in {rate_text(biomes[code].healthy)} of games; average biome "
                                            f"{percent(average)}", d)
                             for code, d in zip(present, marked)}
    return [Finding("biome", f"biome {code}", "is healthy more often than the average biome",
                    "is healthy less often than the average biome",
                    tuple(per_lineup[label][code] for label, _ in pairs if code in per_lineup[label]))
            for code in codes]


def _length(pairs) -> list[Finding]:
    if len(pairs) < 2:
        return []
    tests = {}
    for (la, a), (lb, b) in combinations(pairs, 2):
        tests[(la, lb)] = stats.mean_difference(b.lengths, a.lengths)
    marked = dict(zip(tests, stats.holm(list(tests.values()))))
    evidence = []
    for label, a in pairs:
        differs = [other for (x, y), d in marked.items() if d.significant and label in (x, y)
                   for other in (x, y) if other != label]
        text = (f"median {number(a.length.median, 0)}, p95 {number(a.length.p95, 0)}, mean {number(a.length.mean)} "
                f"({number(a.length.low)}–{number(a.length.high)}) turns")
        if differs:
            text += "; differs from " + ", ".join(differs)
        evidence.append(Evidence(label, 0, bool(differs), text))
    return [Finding("length", "game length", "is the same under every line-up", "depends on the line-up",
                    tuple(evidence), agreement=True)]


def _capped(pairs) -> list[Finding]:
    if not any(a.capped.k for _, a in pairs):
        return []
    evidence = tuple(Evidence(label, 1, a.capped.k > 0, f"{rate_text(a.capped)} of games capped, won by nobody")
                     for label, a in pairs)
    return [Finding("capped", "games", "are stopped by a cap (no ending of the rules)", "", evidence)]


def robust_lines(found: Sequence[Finding], most_cards: int = 8) -> list[str]:
    """The robust findings as sentences, for the summary at the top of the report; card findings, of
    which there may be dozens, one sentence per direction naming the strongest."""
    lines = []
    cards: dict[str, list[Finding]] = {}
    for f in found:
        if f.verdict != ROBUST:
            continue
        if f.kind in ("card", "never"):
            cards.setdefault(f.claim[len(f.subject) + 1:], []).append(f)
            continue
        values = "; ".join(f"{e.lineup}: {rate_diff(e.difference) if e.difference else e.text}" for e in f.evidence)
        where = "" if f.agreement else " under every line-up"
        lines.append(f"{f.claim[:1].upper()}{f.claim[1:]}{where} ({values}).")
    for what, group in cards.items():
        group = sorted(group, key=lambda f: -min(abs(e.difference.estimate) if e.difference else 1 for e in f.evidence))
        names = ", ".join(f.subject for f in group[:most_cards]) + (f" and {len(group) - most_cards} more"
                                                                    if len(group) > most_cards else "")
        lines.append(f"Under every line-up, {len(group)} card(s) {_plural(what)}: {names}.")
    return lines


def _plural(what: str) -> str:
    """'wins more often when played' said of several cards: 'win more often when played'."""
    return what.replace("wins ", "win ", 1).replace("is never ", "are never ", 1)


def finding_json(f: Finding) -> dict:
    return {"kind": f.kind, "subject": f.subject, "finding": f.claim, "verdict": f.verdict,
            "evidence": [{"lineup": e.lineup, "sign": e.sign, "significant": e.significant, "text": e.text,
                          **({"difference": diff_json(e.difference)} if e.difference else {})}
                         for e in f.evidence]}
