"""The before/after check: the deck as it was and as tuned, each played on fresh seeds the search never
saw, under every line-up of the tuning file (greedy and the search bot, by default), every target
measured with its 95% interval. A result tuned to one bot or to the search's own games shows here."""

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

    def failing(self) -> list[Finding]:
        """The tuned deck's findings that are not shown met or likely met."""
        return [f for f in self.after if f.excess > 0]


def check(tuning: Tuning, before_deck, after_deck, kinds: dict, jobs: int | None, scheduler: str | None,
          say: Callable[[str], None], peers: dict | None = None) -> list[Checked]:
    from cardtool.sim.analysis import Spec, analyse
    from cardtool.sim.config import simulated_game
    from cardtool.sim.lineups import setups
    from cardtool.sim.runner import run

    plan = tuning.plan
    results = []
    for word, games in plan.lineups:
        measured = []
        for deck in (before_deck, after_deck):
            ((lineup, setup),) = setups(deck, [word], games=games, players=plan.players, mode=plan.mode,
                                        seed=plan.check_seed, max_turns=plan.max_turns, rotate=True)
            say(f"check: {games} games of the deck {'as it was' if deck is before_deck else 'as tuned'}"
                f", line-up {lineup.label} ({', '.join(setup.lineup)}), seed {plan.check_seed}")
            records = run(setup, jobs=jobs, scheduler=scheduler).records
            analysis = analyse(records, Spec.of(simulated_game(deck), deck))
            measured.append(measure(analysis, tuning.targets, kinds, peers))
        results.append(Checked(word, games, *measured))
    return results


def verdict(checks: list[Checked]) -> str:
    failing = {(f.target, f.subject) for c in checks for f in c.failing()}
    if not failing:
        shown = all(f.status == MET for c in checks for f in c.after)
        return ("every target met under every line-up" + ("" if shown else
                ", some only by their estimate (their intervals reach past the target)"))
    return f"{len(failing)} finding(s) still outside their targets under at least one line-up"
