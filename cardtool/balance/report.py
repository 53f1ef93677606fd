"""What `cardtool balance` writes: balance.json (every figure), report.md (the before/after tables) and
the terminal summary; and with `--check-only`, the same for the deck as it is (one figure a target)."""

from __future__ import annotations

import json

from cardtool.balance.check import Checked, Measured, robust, verdict
from cardtool.balance.search import Outcome

_SIGN = {"seat_fairness": True, "card_impact": True, "card_impact_vs_peers": True}


def _figure(f) -> str:
    sign = "+" if _SIGN.get(f.target) else ""
    if f.low == f.high:
        return f"{f.value:{sign}.1f}"
    return f"{f.value:{sign}.1f} [{f.low:{sign}.1f}, {f.high:{sign}.1f}]"


def _off(f) -> str:
    """A finding outside its target, for the terminal."""
    return f"{f.target} {f.subject} {_figure(f)} ({f.goal}, {f.status})"


def changes(outcome: Outcome, params) -> list[dict]:
    return [{"card": p.card, "field": p.field, "was": p.current, "now": outcome.best.values[p.name]}
            for p in params if outcome.best.values[p.name] != p.current]


def balance_json(deck_id: str, tuning, outcome: Outcome, params, checks: list[Checked]) -> str:
    return json.dumps({
        "deck": deck_id, "tuning": str(tuning.file),
        "search": {"candidates": outcome.trials, "games": outcome.games, "resumed_from": outcome.resumed,
                   "simplified": outcome.simplified,
                   "penalty_before": outcome.baseline.penalty, "penalty_after": outcome.best.penalty,
                   "seeds": {"first": tuning.plan.seed, "looks": list(tuning.plan.looks)}, "bots": tuning.plan.bots,
                   "aim": tuning.plan.aim,
                   "also": [{"bots": bots, "share": share} for bots, share in tuning.plan.also]},
        "changes": changes(outcome, params),
        "check": [{"lineup": c.lineup, "games": c.games, "seed": tuning.plan.check_seed,
                   "before": [f.to_json() for f in c.before], "after": [f.to_json() for f in c.after]}
                  for c in checks],
        "verdict": verdict(checks) if checks else "not checked",
    }, indent=2, default=str)


def _bots(plan) -> str:
    """The search's line-ups: `bots`, and those played beside it with their share of each look."""
    return plan.bots + "".join(f" and {bots} ({share:g} of each look's games)" for bots, share in plan.also)


def report_md(deck_name: str, tuning, outcome: Outcome, params, checks: list[Checked]) -> str:
    lines = [f"# Balance of {deck_name}: before and after", "",
             f"Tuning file `{tuning.file}`. The search played {outcome.trials} candidates ({outcome.games} games, "
             f"bots {_bots(tuning.plan)}, seeds from {tuning.plan.seed}); its penalty (the sum of squares of how far "
             f"each estimate lies outside its target"
             + (f" counted from {tuning.plan.aim:g} points inside each ± target, `simulation.aim`"
                if tuning.plan.aim else "")
             + (f", plus {tuning.cost_per_change:g} for each value changed" if tuning.cost_per_change else "")
             + f") went from {outcome.baseline.penalty:.1f} to "
             f"{outcome.best.penalty:.1f}."
             + (f" Its last step put {len(outcome.simplified)} changed value(s) back at the deck's own, where the "
                "deck did better without the change." if outcome.simplified else ""), "", "## What changed", ""]
    moved = changes(outcome, params)
    if moved:
        lines += ["| Card | Field | Was | Now |", "|---|---|---|---|"]
        lines += [f"| {c['card']} | {c['field']} | {c['was']} | {c['now']} |" for c in moved]
    else:
        lines.append("Nothing: no candidate did better than the deck as it is.")
    lines += ["", "## Targets on fresh seeds", "",
              f"Each line-up played its games of each deck on seed {tuning.plan.check_seed}, "
              "which the search never played. Figures are percentage points (turns for length) with their 95% "
              "intervals; *met* means the whole interval is inside the target, *likely met* the estimate only.", ""]
    for c in checks:
        lines += [f"### Line-up {c.lineup} ({c.games} games of each deck)", "", f"Verdict: {verdict([c])}.", "",
                  "| Target | Subject | Goal | Before | | After | |", "|---|---|---|---|---|---|---|"]
        earlier = {(f.target, f.subject): f for f in c.before}
        for after in c.after:
            before = earlier.get((after.target, after.subject))
            was = f"{_figure(before)} | {before.status}" if before else "- | -"
            lines.append(f"| {after.target} | {after.subject} | {after.goal} | {was} | {_figure(after)} | {after.status} |")
        lines.append("")
    return "\n".join(lines) + "\n"


def terminal(outcome: Outcome, params, checks: list[Checked]) -> list[str]:
    lines = [f"search: {outcome.trials} candidates, {outcome.games} games; penalty {outcome.baseline.penalty:.1f} "
             f"-> {outcome.best.penalty:.1f}"]
    lines += [f"  {c['card']}.{c['field']}: {c['was']} -> {c['now']}" for c in changes(outcome, params)] or [
        "  no change did better than the deck as it is"]
    for c in checks:
        lines.append(f"check, line-up {c.lineup} ({c.games} fresh games): {verdict([c])}")
        for f in c.failing()[:8]:
            lines.append(f"  still off: {_off(f)}")
    return lines


def _robust_lines(measured: list[Measured]) -> list[str]:
    """Each finding outside its target under every line-up, with its figure under each."""
    return [f"{each[0].target} {each[0].subject}: " + " / ".join(_figure(f) for f in each) + f" ({each[0].goal})"
            for each in robust(measured)]


def deck_check_json(deck_id: str, tuning, measured: list[Measured]) -> str:
    return json.dumps({
        "deck": deck_id, "tuning": str(tuning.file), "check_only": True,
        "check": [{"lineup": m.lineup, "games": m.games, "seed": tuning.plan.check_seed,
                   "findings": [f.to_json() for f in m.findings]} for m in measured],
        "robust_misses": [[f.to_json() for f in each] for each in robust(measured)],
        "verdict": verdict(measured),
    }, indent=2, default=str)


def deck_check_md(deck_name: str, tuning, measured: list[Measured]) -> str:
    lines = [f"# Balance targets of {deck_name}", "",
             f"Tuning file `{tuning.file}`, the deck as it is (no search). Each line-up played its games on seed "
             f"{tuning.plan.check_seed}. Figures are percentage points (turns for length) with their 95% intervals; "
             "*met* means the whole interval is inside the target, *likely met* the estimate only.", "",
             f"Verdict: {verdict(measured)}.", "", "## Outside the target under every line-up", ""]
    lines += [f"- {line}" for line in _robust_lines(measured)] or [
        "None: every finding outside its target is so under one line-up only (or none is)."]
    for m in measured:
        lines += ["", f"## Line-up {m.lineup} ({m.games} games)", "", f"Verdict: {verdict([m])}.", "",
                  "| Target | Subject | Goal | Figure | |", "|---|---|---|---|---|"]
        lines += [f"| {f.target} | {f.subject} | {f.goal} | {_figure(f)} | {f.status} |" for f in m.findings]
    return "\n".join(lines) + "\n"


def deck_check_terminal(measured: list[Measured]) -> list[str]:
    lines = []
    for m in measured:
        lines.append(f"line-up {m.lineup} ({m.games} fresh games): {verdict([m])}")
        failing = m.failing()
        lines += [f"  off: {_off(f)}" for f in failing[:8]]
        if len(failing) > 8:
            lines.append(f"  and {len(failing) - 8} more (report.md)")
    if len(measured) > 1:
        misses = _robust_lines(measured)
        lines.append(f"outside under every line-up: {len(misses)}" + "".join(f"\n  {line}" for line in misses))
    return lines
