"""The search over card values: Optuna's TPE sampler proposes values, each candidate plays the same games
(common random numbers) look by look, and hopeless candidates stop early (their penalty at the most
hopeful end of every interval is already worse than the best candidate's, or Optuna's median pruner says
so). The study lives in a journal file in the output folder, so an interrupted search resumes where it
stopped when the same command runs again.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from cardtool.balance.play import Played, Player
from cardtool.errors import UsageError

JOURNAL = "search.journal"
REPEATS = 50  # proposals in a row of values already played before the search counts as exhausted
SAMPLER_SHARE = 0.6  # of the budget, for Optuna's sampler; the rest for local moves from the best candidate
WORST = 4  # local moves: the values of the cards of the worst findings, this many findings at a time


@dataclass(frozen=True)
class Budget:
    games: int | None = None
    seconds: float | None = None

    @classmethod
    def parse(cls, text: str) -> "Budget":
        """`20000` (games) or `90s`, `15m`, `2h` (time)."""
        text = text.strip().lower()
        units = {"s": 1, "m": 60, "h": 3600}
        try:
            if text and text[-1] in units:
                seconds = float(text[:-1]) * units[text[-1]]
                if seconds > 0:
                    return cls(seconds=seconds)
            elif int(text) > 0:
                return cls(games=int(text))
        except ValueError:
            pass
        raise UsageError(f"--budget '{text}': give games (e.g. 20000) or a time (e.g. 90s, 15m, 2h)")

    def part(self, share: float) -> "Budget":
        """This share of the budget (the sampler's part of it; local moves get the rest)."""
        return Budget(None if self.games is None else int(self.games * share),
                      None if self.seconds is None else self.seconds * share)

    def left(self, games: int, started: float) -> bool:
        if self.games is not None:
            return games < self.games
        return time.monotonic() - started < self.seconds


@dataclass
class Outcome:
    baseline: Played
    best: Played
    trials: int
    games: int
    resumed: int  # candidates an earlier run had already played
    simplified: list[str] = field(default_factory=list)  # changed values the last step put back


def study_name(tuning_text: str, deck_hash: str) -> str:
    return "balance-" + hashlib.sha256((tuning_text + "\0" + deck_hash).encode()).hexdigest()[:16]


def search(player: Player, out: Path, budget: Budget, name: str, say: Callable[[str], None]) -> Outcome:
    import optuna
    from optuna.storages import JournalStorage
    from optuna.storages.journal import JournalFileBackend
    from optuna.trial import TrialState

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)  # multivariate TPE
    params = player.params
    storage = JournalStorage(JournalFileBackend(str(out / JOURNAL)))
    earlier = [study.study_name for study in storage.get_all_studies()]
    if earlier and name not in earlier:
        say(f"a new search: the deck or the tuning file changed since the search kept in {out / JOURNAL}")
    study = optuna.create_study(
        study_name=name, storage=storage, direction="minimize", load_if_exists=True,
        sampler=optuna.samplers.TPESampler(seed=player.tuning.plan.seed, n_startup_trials=8, multivariate=True),
        pruner=optuna.pruners.MedianPruner(n_startup_trials=5, n_warmup_steps=0))
    for trial in study.get_trials(states=(TrialState.RUNNING,)):  # a run stopped in the middle of it
        study.tell(trial.number, state=TrialState.FAIL)
    done = [t for t in study.trials if t.state in (TrialState.COMPLETE, TrialState.PRUNED)]
    spent = sum(t.user_attrs.get("games", 0) for t in study.trials)
    baseline = _played(study.user_attrs.get("baseline"))
    if baseline is None:
        current = {p.name: p.current for p in params}
        say(f"the deck as it is: playing {player.tuning.plan.looks[-1]} games")
        baseline = player.play(current)
        spent += baseline.games
        study.set_user_attr("baseline", _saved(baseline))
        starting = {p.name: p.values.index(p.current) for p in params if p.current in p.values}
        if len(starting) == len(params):
            study.enqueue_trial(starting)  # TPE learns from the deck's own values first
        carried = _carried(storage, [e for e in earlier if e != name], params)
        if carried is not None:
            study.enqueue_trial(carried)
            say("the earlier search's best values (those this tuning file still lets change) are the next candidate")
    else:
        say(f"resuming the search in {out / JOURNAL}: {len(done)} candidates already played")
    say(f"the deck as it is: penalty {baseline.penalty:.1f} ({_worst(baseline)})")
    best = _best(study, baseline)
    seen = {json.dumps(p.values, sort_keys=True): p for t in study.trials
            if (p := _played(t.user_attrs.get("played"))) is not None and not p.error}
    seen.setdefault(json.dumps(baseline.values, sort_keys=True), baseline)  # the deck's own: played already
    run = _Run(player, study, best, seen, spent, say)
    started = time.monotonic()
    sampler = budget.part(SAMPLER_SHARE)
    while sampler.left(run.spent, started):
        if run.attempt(study.ask()) is None and run.repeats > REPEATS:
            say(f"stopping: the sampler keeps proposing values already played ({len(seen)} different sets)")
            break
    run.nudge(budget, started)
    simplified = run.simplify()
    finished = [t for t in study.trials if t.state in (TrialState.COMPLETE, TrialState.PRUNED)]
    return Outcome(baseline, run.best, len(finished), run.spent, len(done), simplified)


class _Run:
    """The search's candidates in turn: each played once (a set of values already played is answered
    from what it scored), kept in the study's journal, the best so far beside them."""

    def __init__(self, player: Player, study, best: Played, seen: dict, spent: int, say: Callable[[str], None]):
        self.player, self.study, self.best, self.seen, self.spent, self.say = player, study, best, seen, spent, say
        self.repeats = 0

    def attempt(self, trial) -> Played | None:
        """Play the trial's values (None when they were played before)."""
        from optuna.trial import TrialState

        params, study = self.player.params, self.study
        values = {p.name: p.values[trial.suggest_int(p.name, 0, len(p.values) - 1)] for p in params}

        def look(games: int, value: float) -> bool:
            trial.report(value, games)
            return trial.should_prune()

        key = json.dumps(values, sort_keys=True)
        if key in self.seen:  # the sampler proposed values already played: their games would be the same
            known = self.seen[key]
            study.tell(trial, known.penalty if not known.stopped else None,
                       state=TrialState.PRUNED if known.stopped else TrialState.COMPLETE)
            self.repeats += 1
            return None
        played = self.player.play(values, self.best.penalty, look)
        self.seen[key], self.repeats = played, 0
        self.spent += played.games
        trial.set_user_attr("games", played.games)
        trial.set_user_attr("played", _saved(played))
        if played.error:
            study.tell(trial, state=TrialState.FAIL)
            self.say(f"candidate {trial.number + 1}: not a valid deck ({played.error})")
            return played
        if played.stopped:
            study.tell(trial, state=TrialState.PRUNED)
        else:
            study.tell(trial, played.penalty)
            if played.penalty < self.best.penalty:
                self.best = played
        self.say(f"candidate {trial.number + 1}: penalty {played.penalty:.1f} after {played.games} games"
                 + (f" ({played.stopped})" if played.stopped else "")
                 + f"; best so far {self.best.penalty:.1f} ({_changed(self.best, params)}); {self.spent} games played")
        return played

    def play_values(self, values: dict) -> Played | None:
        """One trial of the study with these values (None, unplayed, if one is not a value its parameter takes)."""
        if any(values[p.name] not in p.values for p in self.player.params):
            return None
        self.study.enqueue_trial({p.name: p.values.index(values[p.name]) for p in self.player.params})
        return self.attempt(self.study.ask())

    def nudge(self, budget: Budget, started: float) -> None:
        """Local moves from the best candidate: a step up or down in the values of the cards behind the
        worst findings (a card too strong tried a step lower first), keeping the first that does better
        and starting again from it; when none of those helps, a step of every other value in turn (a
        card's impact moves with the cards that share its Animal or Season, not only with its own
        points), until no step helps or the budget is spent. The sampler finds the region; this walks
        its last steps, which TPE over dozens of values takes long to find."""
        by_card: dict[str, list] = {}  # a finding names its card as the analysis does
        for parameter in self.player.params:
            by_card.setdefault(self.player.names.get(parameter.card, parameter.card), []).append(parameter)
        if budget.left(self.spent, started):
            self.say(f"local moves from the best candidate (penalty {self.best.penalty:.1f})")
        while budget.left(self.spent, started):
            worst = sorted((f for f in self.best.findings if f.excess > 0 and f.subject in by_card),
                           key=lambda f: -f.excess)[:WORST]
            moves = [values for finding in worst for parameter in by_card[finding.subject]
                     for step in ((-1, 1) if finding.value > 0 else (1, -1))
                     if (values := self._step(parameter, step)) is not None]
            if any(f.excess > 0 for f in self.best.findings):  # something is still off: every value's step too
                moves += [values for parameter in self.player.params for step in (-1, 1)
                          if (values := self._step(parameter, step)) is not None and values not in moves]
            before = self.best
            for values in moves:
                if not budget.left(self.spent, started):
                    return
                self.play_values(values)
                if self.best is not before:
                    break
            if self.best is before:
                return

    def _step(self, parameter, step: int) -> dict | None:
        """The best candidate's values with this one a step up (1) or down (-1), or None if that is off
        its list of values or was played already."""
        if self.best.values[parameter.name] not in parameter.values:
            return None
        at = parameter.values.index(self.best.values[parameter.name]) + step
        if not 0 <= at < len(parameter.values):
            return None
        values = dict(self.best.values, **{parameter.name: parameter.values[at]})
        return None if json.dumps(values, sort_keys=True) in self.seen else values

    def simplify(self) -> list[str]:
        """After the budget: put each changed value of the best candidate back to the deck's own, one at a
        time, keeping every one whose candidate does better (with cost_per_change, a change that bought
        less than its cost goes). The values put back, by name."""
        params = [p for p in self.player.params if p.current in p.values]
        moved = [p for p in params if self.best.values[p.name] != p.current]
        if not moved:
            return []
        self.say(f"simplifying: each of the {len(moved)} changed values back at the deck's own, one at a time")
        back = []
        for parameter in moved:
            values = dict(self.best.values, **{parameter.name: parameter.current})
            before = self.best
            played = self.play_values(values)
            known = played or self.seen[json.dumps(values, sort_keys=True)]
            if self.best is not before or (played is None and not known.stopped and known.penalty < before.penalty):
                self.best = known
                back.append(parameter.name)
        self.say(f"simplified: {len(back)} value(s) back at the deck's own" + (f" ({', '.join(back)})" if back else ""))
        return back


def _carried(storage, earlier: list[str], params) -> dict | None:
    """The best values of the latest earlier search in the journal, as trial indices for these parameters
    (a value it did not try, or one this tuning file no longer allows, at the deck's own): after a small
    change to the tuning file, the new search starts where the old one ended, not from nothing."""
    import optuna

    for study_name in reversed(earlier):
        study = optuna.load_study(study_name=study_name, storage=storage)
        best = _best(study, _played(study.user_attrs.get("baseline")) or Played({}, 0, math.inf))
        if not best.values:
            continue
        values = {p.name: best.values[p.name] if best.values.get(p.name) in p.values else p.current for p in params}
        if all(v in p.values for p, v in zip(params, values.values())) and any(
                values[p.name] != p.current for p in params):
            return {p.name: p.values.index(values[p.name]) for p in params}
    return None


def _best(study, baseline: Played) -> Played:
    from optuna.trial import TrialState

    best = baseline
    for trial in study.get_trials(states=(TrialState.COMPLETE,)):
        played = _played(trial.user_attrs.get("played"))
        if played is not None and played.penalty < best.penalty:
            best = played
    return best


def _saved(played: Played) -> dict:
    return {"values": played.values, "games": played.games,
            "penalty": played.penalty if math.isfinite(played.penalty) else None,
            "findings": [f.to_json() for f in played.findings], "stopped": played.stopped, "error": played.error}


def _played(data: dict | None) -> Played | None:
    from cardtool.balance.targets import Finding

    if not data:
        return None
    penalty = data["penalty"] if data["penalty"] is not None else math.inf
    return Played(dict(data["values"]), data["games"], penalty, [Finding(**f) for f in data["findings"]],
                  data["stopped"], data["error"])


def _worst(played: Played) -> str:
    worst = sorted((f for f in played.findings if f.excess > 0), key=lambda f: -f.excess)[:3]
    return "; ".join(f"{f.target} {f.subject} {f.value:+.1f} ({f.goal})" for f in worst) or "every target met"


def _changed(played: Played, params) -> str:
    moved = [f"{p.name} {json.dumps(p.current)}->{json.dumps(played.values[p.name])}" for p in params
             if played.values.get(p.name) != p.current]
    return ", ".join(moved) or "no change"
