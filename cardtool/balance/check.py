"""The before/after check: the deck as it was and as tuned, each played on fresh seeds the search never
saw, under every line-up of the tuning file (greedy and the search bot, by default), every target
measured with its 95% interval. A result tuned to one bot or to the search's own games shows here. The
same measurement of a deck as it is, with no search, is `cardtool balance --check-only` (check_deck)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cardtool.balance.targets import MET, Finding, measure
from cardtool.balance.tuning import Tuning


@dataclass(frozen=True)
class Checked:
    lineup: str
    games: int
    before: list[Finding]
    after: list[Finding]

    @property
    def findings(self) -> list[Finding]:
        """The tuned deck's figures: what the verdict judges."""
        return self.after

    def failing(self) -> list[Finding]:
        """The tuned deck's findings that are not shown met or likely met."""
        return [f for f in self.after if f.excess > 0]


@dataclass(frozen=True)
class Measured:
    """One deck's targets under one line-up of the check (`cardtool balance --check-only`)."""

    lineup: str
    games: int
    findings: list[Finding]

    def failing(self) -> list[Finding]:
        return [f for f in self.findings if f.excess > 0]


def _measure(tuning: Tuning, deck, word: str, games: int, kinds: dict, jobs: int | None, scheduler: str | None,
             say: Callable[[str], None], peers: dict | None, which: str) -> list[Finding]:
    """Play `games` of `deck` under line-up `word` on the check seed and measure every target."""
    from cardtool.sim.analysis import Spec, analyse
    from cardtool.sim.config import simulated_game
    from cardtool.sim.lineups import setups
    from cardtool.sim.runner import run

    plan = tuning.plan
    ((lineup, setup),) = setups(deck, [word], games=games, players=plan.players, mode=plan.mode,
                                seed=plan.check_seed, max_turns=plan.max_turns, rotate=True)
    say(f"check: {games} games of {which}, line-up {lineup.label} ({', '.join(setup.lineup)}), seed {plan.check_seed}")
    records = run(setup, jobs=jobs, scheduler=scheduler).records
    return measure(analyse(records, Spec.of(simulated_game(deck), deck)), tuning.targets, kinds, peers)


def check(tuning: Tuning, before_deck, after_deck, kinds: dict, jobs: int | None, scheduler: str | None,
          say: Callable[[str], None], peers: dict | None = None) -> list[Checked]:
    results = []
    for word, games in tuning.plan.lineups:
        measured = [_measure(tuning, deck, word, games, kinds, jobs, scheduler, say, peers,
                             "the deck as it was" if deck is before_deck else "the deck as tuned")
                    for deck in (before_deck, after_deck)]
        results.append(Checked(word, games, *measured))
    return results


def check_deck(tuning: Tuning, deck, kinds: dict, jobs: int | None, scheduler: str | None,
               say: Callable[[str], None], peers: dict | None = None) -> list[Measured]:
    """The deck as it is, under every line-up of the check, on its fresh seed: no search."""
    return [Measured(word, games, _measure(tuning, deck, word, games, kinds, jobs, scheduler, say, peers, "the deck"))
            for word, games in tuning.plan.lineups]


def robust(measured: list[Measured]) -> list[list[Finding]]:
    """The findings outside their target under every line-up, on the same side of it: per finding, its
    figure under each line-up (a miss under one line-up only may be about those bots, not the deck)."""
    by_key = [{(f.target, f.subject): f for f in m.findings} for m in measured]
    found = []
    for key in by_key[0] if by_key else ():
        each = [figures.get(key) for figures in by_key]
        if all(f is not None and f.excess > 0 for f in each) and len({f.value > 0 for f in each}) == 1:
            found.append(each)
    return found


def verdict(checks: list[Checked] | list[Measured]) -> str:
    """On each result's `findings` (a Checked's are the tuned deck's)."""
    failing = {(f.target, f.subject) for c in checks for f in c.failing()}
    several = len(checks) > 1
    if not failing:
        shown = all(f.status == MET for c in checks for f in c.findings)
        return ("every target met" + (" under every line-up" if several else "") + ("" if shown else
                ", some only by their estimate (their intervals reach past the target)"))
    return f"{len(failing)} finding(s) still outside their targets" + (" under at least one line-up" if several else "")
