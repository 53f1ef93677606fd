"""Fit the Ecologies search's evaluation to what its candidates are worth, from the decisions it faces.

`play` plays two-player `multi` games of the default `search` against `greedy` on the shipped deck (a
seed the strength benchmark does not report). At a share of the decisions where the search weighs two
or more moves, it deals `--worlds` worlds from the search's own observation (observation.sample_state),
and in each plays every candidate as the search would (the move, then greedy players to the end of the
turn, without offers), records the evaluation's inputs (evaluation.INPUT_NAMES) at that rollout end,
and then plays the game on from there to its end by greedy players (trades included), the same random
numbers for every candidate of a world, labelling the row 1 if the searching seat won (a half for a
shared win). The rows go to an .npz file (generated data: not committed).

`fit` reads such files and compares ways to weigh a rollout end by what the search would then choose,
each row valued by models fitted on the other folds of decisions (cross-fitting): each model picks a
candidate from the first two worlds' rollout ends (as the default search, with its head start for
greedy's choice) and the pick is scored by the play-outs of the other worlds (less those of greedy's
choice), so the score is not fitted to the noise that chose it. Models: the shipped evaluation.json,
logistic fits of an input set (INPUT_SETS of fit_ecologies_eval.py) to these rows' labels, and the
same with each (decision, world) group's mean taken out (what differs between the candidates of one
decision: least squares, in win share, its intercept the mean left over). `--write NAME` writes the
`--model` fit of `--inputs` to cardtool/games/ecologies/NAME. `play --kinds play` records only the play
phase's decisions (or purchase, trade: answers to offers); `fit --kind play` scores one kind's choices;
`fit --keep 2` picks on as many worlds as the default search gives the decision's candidates (its 14
rollouts over them), keeping two worlds to score the pick.

    mkdir -p build && .venv/bin/python benchmarks/fit_ecologies_decisions.py play --games 400 --out build/dec-a.npz
    .venv/bin/python benchmarks/fit_ecologies_decisions.py play --games 400 --first 400 --out build/dec-b.npz
    .venv/bin/python benchmarks/fit_ecologies_decisions.py fit build/dec-a.npz build/dec-b.npz --folds 5
    .venv/bin/python benchmarks/fit_ecologies_decisions.py play --games 400 --share 0.6 --worlds 6 --kinds play \
        --out build/dec-play.npz                     # the play phase's decisions only (2 min on two cores)
    .venv/bin/python benchmarks/fit_ecologies_decisions.py fit build/dec-play.npz --kind play --keep 2
    .venv/bin/python benchmarks/fit_ecologies_decisions.py fit build/dec-*.npz --sets rich --model within \
        --inputs rich --write evaluation_played.json        # the shipped eval=played model (12 min each play)
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardtool.deck.loader import load_deck  # noqa: E402
from cardtool.engine.bots import make_bots  # noqa: E402
from cardtool.engine.playout import play  # noqa: E402
from cardtool.engine.seeds import derive_seed  # noqa: E402
from cardtool.games import GAMES  # noqa: E402
from cardtool.games.ecologies import evaluation  # noqa: E402
from cardtool.games.ecologies.observation import sample_state  # noqa: E402
from cardtool.games.ecologies.search import SearchBot  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))
from fit_ecologies_eval import INPUT_SETS, fit, log_loss  # noqa: E402

DECK = "decks/ecologies-bizarre-biomes"
KINDS = {"play": 0, "purchase": 1, "trade": 2}  # a decision's kind, recorded by number
MAX_STEPS = 4000  # actions in one play-out to the end of the game: a cap, seldom reached


class Recorder(SearchBot):
    """The default search, which at a share of its weighed decisions also records its candidates'
    rollout ends and what full-game play-outs from them come to (its own choice is unchanged)."""

    def __init__(self, public, share: float, worlds: int, seed: int, rows: list, kinds=tuple(KINDS.values())):
        super().__init__(public)
        self.share, self.worlds, self.rows, self.kinds = share, worlds, rows, frozenset(kinds)
        self.record_rng = random.Random(seed)  # not the game's: recording leaves the game as it was
        self.decisions = 0

    def _weigh(self, observation, shortlist, ranked, rng):
        if len(shortlist) > 1 and self.record_rng.random() < self.share and self._kind(observation) in self.kinds:
            self._record(observation, shortlist)
        return super()._weigh(observation, shortlist, ranked, rng)

    def _record(self, observation, shortlist) -> None:
        seat, rng = observation.seat, self.record_rng
        decision = (id(self), self.decisions)
        self.decisions += 1
        kind = self._kind(observation)
        for world_index in range(self.worlds):
            world = sample_state(self.public, observation, rng)
            seed, later = rng.getrandbits(32), rng.getrandbits(32)
            for index, action in enumerate(shortlist):
                state = world.clone()
                state.apply(action)
                if not state.is_over():
                    self._play_out(state, observation.turn + 1, random.Random(seed))
                if state.is_over():
                    winners = state.winners()
                    label = (1.0 / len(winners) if seat in winners else 0.0) if winners else 0.5
                    self.rows.append((decision, world_index, index, kind, 1, None, label))
                    continue
                inputs = evaluation.named_inputs(self.game, state, seat)
                label = self._finish(state, seat, random.Random(later))
                self.rows.append((decision, world_index, index, kind, 0, inputs, label))

    @staticmethod
    def _kind(observation) -> int:
        return KINDS.get(observation.phase, 3)

    def _finish(self, state, seat: int, rng: random.Random) -> float:
        """Greedy players (trades and all) play on to the end of the game: 1 if `seat` wins."""
        greedy, steps = self.greedy, 0
        while not state.is_over() and steps < MAX_STEPS:
            legal = state.legal_actions()
            action = legal[0] if len(legal) == 1 else greedy.choose(state.observation(state.current_player), legal, rng)
            state.apply(action)
            steps += 1
        winners = state.winners() if state.is_over() else []
        return (1.0 / len(winners) if seat in winners else 0.0) if winners else 0.5


def play_block(numbers: range, seed: int, share: float, worlds: int, kinds=tuple(KINDS.values())) -> list:
    """One process's games: the rows of every recorded decision, decisions numbered by game."""
    plugin, deck = GAMES["ecologies"], load_deck(ROOT / DECK)
    out = []
    for number in numbers:
        game = plugin.new_game(deck, 2, "multi", derive_seed(seed, number, "decisions"))
        searcher = number % 2
        names = ["greedy", "greedy"]
        bots = make_bots(names, plugin.bots, game)
        rows: list = []
        bots[searcher] = Recorder(game.public(searcher), share, worlds, derive_seed(seed, number, "record"), rows,
                                    kinds)
        play(game, bots, max_turns=1000)
        ids: dict = {}
        for decision, world_index, index, kind, terminal, inputs, label in rows:
            local = ids.setdefault(decision, len(ids))
            out.append((number * 10000 + local, world_index, index, kind, terminal, inputs, label))
    return out


def cmd_play(args) -> int:
    started = time.perf_counter()
    blocks = [range(args.first + args.games * j // args.jobs, args.first + args.games * (j + 1) // args.jobs)
              for j in range(args.jobs)]
    with ProcessPoolExecutor(args.jobs) as pool:
        parts = list(pool.map(play_block, blocks, [args.seed] * args.jobs, [args.share] * args.jobs,
                              [args.worlds] * args.jobs, [tuple(KINDS[k] for k in args.kinds)] * args.jobs))
    rows = [row for part in parts for row in part]
    width = len(evaluation.INPUT_NAMES)
    x = np.array([row[5] if row[5] is not None else [0.0] * width for row in rows], dtype=float)
    np.savez_compressed(args.out, decision=np.array([r[0] for r in rows]), world=np.array([r[1] for r in rows]),
                        candidate=np.array([r[2] for r in rows]), kind=np.array([r[3] for r in rows]),
                        terminal=np.array([r[4] for r in rows]), x=x, y=np.array([r[6] for r in rows]),
                        names=np.array(evaluation.INPUT_NAMES),
                        played=np.array([args.seed, args.first, args.games, args.worlds, args.share]))
    decisions = len({r[0] for r in rows})
    print(f"{len(rows)} rows, {decisions} decisions of {args.games} games in {time.perf_counter() - started:.0f} s "
          f"-> {args.out}")
    return 0


def load(paths: list[Path]) -> dict:
    data: dict = {}
    runs: list = []
    for offset, path in enumerate(paths):
        part = dict(np.load(path))
        part["decision"] = part["decision"] + offset * 10 ** 9
        runs.append(dict(zip(("seed", "first", "games", "worlds", "share"), map(float, part.pop("played", [])))))
        for key, value in part.items():
            data[key] = value if key == "names" else np.concatenate([data[key], value]) if key in data else value
    data["runs"] = runs
    return data


def columns(data: dict, names: list[str]) -> np.ndarray:
    every = list(data["names"])
    return data["x"][:, [every.index(n) for n in names]]


def group_centre(values: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """values less their group's mean (per column)."""
    _, inverse, counts = np.unique(groups, return_inverse=True, return_counts=True)
    sums = np.zeros((counts.size,) + values.shape[1:])
    np.add.at(sums, inverse, values)
    return values - (sums / counts.reshape((-1,) + (1,) * (values.ndim - 1)))[inverse]


def choice_score(data: dict, mask: np.ndarray, value: np.ndarray, prior: float, chose_worlds: int = 2,
                 keep: int = 0):
    """On the decisions in `mask`: each picks the candidate whose first `chose_worlds` rollout ends are
    worth most (`value` per row; greedy's first choice, candidate 0, given `prior` a world); the pick is
    scored by the labels of the other worlds. Returns the pick's mean label less greedy's choice's, a
    decision, and the share of decisions picking other than greedy's choice."""
    picks, greedy, departs = [], [], 0
    rows = np.flatnonzero(mask)
    order = rows[np.argsort(data["decision"][rows], kind="stable")]
    decisions = data["decision"][order]
    starts = np.flatnonzero(np.r_[True, decisions[1:] != decisions[:-1]])
    for start, stop in zip(starts, np.r_[starts[1:], len(order)]):
        idx = order[start:stop]
        world, cand = data["world"][idx], data["candidate"][idx]
        n = cand.max() + 1
        if keep:  # as the search: its budget over the candidates, keeping `keep` worlds to score the pick
            chose_worlds = max(2, min(SearchBot.ITERS // n, world.max() + 1 - keep))
        chosen_rows, scored_rows = world < chose_worlds, world >= chose_worlds
        if not scored_rows.any():
            continue
        totals = np.bincount(cand[chosen_rows], weights=value[idx][chosen_rows], minlength=n)
        totals[0] += prior * chose_worlds
        pick = int(np.argmax(totals))  # the first of equal totals, as the search
        labels = np.bincount(cand[scored_rows], weights=data["y"][idx][scored_rows], minlength=n)
        labels /= np.maximum(np.bincount(cand[scored_rows], minlength=n), 1)
        picks.append(labels[pick])
        greedy.append(labels[0])
        departs += pick != 0
    return np.array(picks) - np.array(greedy), departs / len(picks)


def fit_models(data: dict, rows: np.ndarray, sets: list[str], ridge: float) -> dict:
    """The models fitted on `rows` (live rows of some decisions): name -> (inputs, coefficients, link)."""
    y, groups = data["y"], data["decision"] * 100 + data["world"]
    models = {}
    for set_name in sets:
        names = INPUT_SETS[set_name]
        x = columns(data, names)[rows]
        models[f"logistic {set_name}"] = (names, fit(x, y[rows]), "logistic")
        # within a (decision, world): only what differs between candidates, least squares on the labels
        xc, yc = group_centre(x[:, :-1], groups[rows]), group_centre(y[rows], groups[rows])
        beta = np.linalg.solve(xc.T @ xc + ridge * len(xc) * np.diag(xc.var(axis=0) + 1e-12), xc.T @ yc)
        level = float(np.mean(y[rows] - x[:, :-1] @ beta))  # the intercept: the mean win share left over
        models[f"within {set_name}"] = (names, np.r_[beta, level], "linear")
    return models


def model_values(data: dict, model: tuple) -> np.ndarray:
    """What a model makes of every row (a game over in the rollout: its result, as in the search)."""
    names, w, link = model
    z = columns(data, names) @ w
    value = 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30))) if link == "logistic" else z
    return np.where(data["terminal"] == 1, data["y"], value)


def cmd_fit(args) -> int:
    data = load(args.files)
    terminal, y = data["terminal"], data["y"]
    live = terminal == 0
    decisions = np.unique(data["decision"])
    fold = np.searchsorted(decisions, data["decision"]) * args.folds // len(decisions)
    print(f"{len(y)} rows, {len(decisions)} decisions, {args.folds} folds; terminal rows {terminal.mean():.1%}; "
          f"mean label {y.mean():.3f}")
    shipped_names = json.loads(evaluation.MODEL_FILE.read_text())["inputs"]
    shipped = (shipped_names, np.array(evaluation.coefficients()), "logistic")
    results = {"shipped": model_values(data, shipped)}
    losses: dict = {}
    for k in range(args.folds):  # every row valued by the models fitted on the other folds
        models = fit_models(data, live & (fold != k), args.sets, args.ridge)
        here = fold == k
        for name, model in models.items():
            results.setdefault(name, np.zeros(len(y)))[here] = model_values(data, model)[here]
            if model[2] == "logistic":
                x = columns(data, model[0])
                losses.setdefault(name, []).append(log_loss(x[here & live], y[here & live], model[1]))
    x = columns(data, shipped_names)
    print(f"  held-out log-loss: shipped {log_loss(x[live], y[live], shipped[1]):.4f}, "
          + ", ".join(f"{name} {np.mean(v):.4f}" for name, v in losses.items()))
    for name, value in list(results.items()):
        for mix in args.mix:  # a share of the rollout end's worth taken from one full play-out from it
            results[f"{name} mix {mix}"] = (1 - mix) * value + mix * y
    chose = f"as many worlds as the search (keeping {args.keep})" if args.keep else f"{args.chose_worlds} worlds"
    print(f"choices (label: greedy play-out win share of the searching seat), chosen on {chose}, "
          "scored on the rest; pts are the pick's labels less greedy's choice's, a decision (standard error)")
    chosen = np.ones(len(y), dtype=bool) if args.kind is None else data["kind"] == KINDS[args.kind]
    for name, value in results.items():
        for prior in args.priors:
            gains, departs = choice_score(data, chosen, value, prior, args.chose_worlds, args.keep)
            spread = 100 * gains.std() / len(gains) ** 0.5
            print(f"  {name:22s} prior {prior:.3f}: {100 * gains.mean():+.3f} pts ({spread:.3f})"
                  f"  departs {departs:.1%}")
    if args.write:
        names, w, link = fit_models(data, live, [args.inputs], args.ridge)[f"{args.model} {args.inputs}"]
        out = ROOT / "cardtool/games/ecologies" / args.write
        how = ("logistic model of winning" if link == "logistic" else
               "linear model of the win share, fitted to what differs between a decision's candidates,")
        out.write_text(json.dumps({
            "about": f"Ecologies search evaluation: {how} from the end of a turn, fitted to full-game greedy "
                     "play-outs from the rollout ends of the search's candidates; refit with "
                     "benchmarks/fit_ecologies_decisions.py",
            "inputs": names, "coefficients": [round(float(c), 7) for c in w], "link": link,
            "fitted_on": {"deck": DECK, "rows": int(live.sum()), "decisions": int(len(decisions)),
                          "games": [{k: (v if k == "share" else int(v)) for k, v in run.items()}
                                    for run in data["runs"]]},
        }, indent=2) + "\n")
        print(f"wrote {out.relative_to(ROOT)}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play", help="play games and record decisions")
    p.add_argument("--games", type=int, default=600)
    p.add_argument("--first", type=int, default=0)
    p.add_argument("--seed", type=int, default=31, help="master seed (default 31: not a reported seed)")
    p.add_argument("--share", type=float, default=0.25, help="share of weighed decisions recorded")
    p.add_argument("--worlds", type=int, default=8)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--kinds", nargs="+", default=list(KINDS), choices=list(KINDS),
                   help="which decisions are recorded (default every kind: play, purchase, trade)")
    p.add_argument("--out", type=Path, required=True)
    f = sub.add_parser("fit", help="fit and compare evaluations")
    f.add_argument("files", type=Path, nargs="+")
    f.add_argument("--sets", nargs="+", default=["earlier", "rich"], choices=list(INPUT_SETS))
    f.add_argument("--inputs", default="earlier", choices=list(INPUT_SETS))
    f.add_argument("--folds", type=int, default=5, help="cross-fitting folds, by decision")
    f.add_argument("--ridge", type=float, default=1e-3)
    f.add_argument("--kind", choices=list(KINDS), help="score the choices of this kind of decision only")
    f.add_argument("--priors", type=float, nargs="+", default=[0.0, 0.02])
    f.add_argument("--mix", type=float, nargs="*", default=[], help="also mix in this share of one play-out")
    f.add_argument("--chose-worlds", type=int, default=2, help="worlds a pick is made on (the rest score it)")
    f.add_argument("--keep", type=int, default=0, help="instead, pick on as many worlds as the default search "
                   "gives the decision's candidates, keeping at least this many worlds to score the pick")
    f.add_argument("--model", default="logistic", choices=["logistic", "within"], help="which fit --write writes")
    f.add_argument("--write", help="file name under cardtool/games/ecologies/ for the --model fit of --inputs")
    args = parser.parse_args(argv)
    return cmd_play(args) if args.command == "play" else cmd_fit(args)


if __name__ == "__main__":
    raise SystemExit(main())
