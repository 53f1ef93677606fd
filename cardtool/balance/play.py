"""Playing one candidate: its deck, its games in looks under the search's seeds (the same games for every
candidate: common random numbers), its findings after each look, and stopping a hopeless one early."""

from __future__ import annotations

import math
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from cardtool.balance.params import Parameter, overrides, write_deck
from cardtool.balance.targets import Finding, card_kinds, hopeful, measure, peer_groups, penalty
from cardtool.balance.tuning import Tuning, search_seeds
from cardtool.deck.loader import load
from cardtool.deck.source import DeckSource
from cardtool.errors import DeckError


@dataclass
class Played:
    """A candidate after its last look: the games it played and what they showed."""

    values: dict
    games: int
    penalty: float
    findings: list[Finding] = field(default_factory=list)
    stopped: str = ""  # why it stopped before its last look ("" when it played every look)
    error: str = ""  # the candidate deck did not validate (a value its card schema refuses)


def increments(looks: tuple[int, ...], players: int) -> list[int]:
    """New games at each look, each a whole number of seat rotations."""
    rounded = [players * math.ceil(n / players) for n in looks]
    return [b - a for a, b in zip([0] + rounded, rounded)]


class Player:
    """Plays candidates of one deck under one tuning, each in a work folder inside the output folder."""

    def __init__(self, tuning: Tuning, deck_path: Path, source: DeckSource, params: list[Parameter], work: Path,
                 jobs: int | None = None, scheduler: str | None = None):
        self.tuning, self.deck_path, self.source, self.params = tuning, Path(deck_path), source, params
        self.work, self.jobs, self.scheduler = work, jobs, scheduler
        self.kinds = card_kinds(source)
        self.peers = peer_groups(source, tuning.targets.peers)
        self.names = {card_id: entry.data.get("name", card_id) for card_id, entry in source.cards.items()}
        self.targets = tuning.aimed()  # the search counts from `aim` inside the targets; the check does not

    def deck(self, values: dict, folder: Path, label: str):
        """The candidate's deck, written in folder and loaded as any deck is (DeckError if invalid)."""
        if folder.exists():
            shutil.rmtree(folder)
        write_deck(folder, self.deck_path, self.source, overrides(self.params, values, self.source), label)
        result = load(folder)
        if result.deck is None or not result.report.ok:
            raise DeckError(f"the values {values} make an invalid deck", result.report)
        return result.deck

    def play(self, values: dict, best: float = math.inf, look: Callable[[int, float], bool] | None = None) -> Played:
        """Play the candidate look by look; stop when even its hopeful penalty is worse than `best`, or
        when look(games, penalty) says so (the optimiser's pruner)."""
        from cardtool.sim.analysis import Spec, analyse
        from cardtool.sim.config import prepare, simulated_game
        from cardtool.sim.runner import run

        try:
            deck = self.deck(values, self.work / "candidate", "a candidate")
        except DeckError as error:
            issues = "; ".join(issue.format() for issue in error.report.errors[:3]) if error.report else ""
            return Played(values, 0, math.inf, error=issues or str(error))
        plan = self.tuning.plan
        plugin = simulated_game(deck)
        spec = Spec.of(plugin, deck)
        lineups = ((plan.bots, 1.0),) + plan.also
        records: list[list] = [[] for _ in lineups]
        players = prepare(deck, games=1, players=plan.players, mode=plan.mode, bots=plan.bots, seed=plan.seed).players
        played = Played(values, 0, math.inf)
        seeds = search_seeds(plan.seed, len(plan.looks))
        cost = self.tuning.cost_per_change * sum(values[p.name] != p.current for p in self.params)
        for k, seed in enumerate(seeds):
            findings = []
            for which, (bots, share) in enumerate(lineups):
                games = increments(tuple(max(1, round(n * share)) for n in plan.looks), players)[k]
                if games:
                    setup = prepare(deck, games=games, players=plan.players, mode=plan.mode, bots=bots, seed=seed,
                                    max_turns=plan.max_turns)
                    records[which] += run(setup, jobs=self.jobs, scheduler=self.scheduler).records
                if not records[which]:
                    continue
                found = measure(analyse(records[which], spec), self.targets, self.kinds, self.peers)
                # a second line-up's findings say which bots they are of; the first's read as before
                findings += found if not which else [replace(f, goal=f"{f.goal} ({bots})") for f in found]
            played = Played(values, sum(map(len, records)), penalty(findings) + cost, findings)
            if k == len(seeds) - 1:
                break
            if hopeful(findings) + cost > best:
                played.stopped = f"hopeless after {played.games} games"
                break
            if look is not None and look(played.games, played.penalty):
                played.stopped = f"pruned after {played.games} games"
                break
        return played
