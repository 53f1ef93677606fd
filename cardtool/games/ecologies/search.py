"""Ecologies' SearchBot: determinized search (after Cowling, Powley and Whitehouse's determinization
baseline for information-set search). It ranks the actions as GreedyBot does, then for each of the best
few deals the hidden cards at random (observation.sample_state), plays the action
and lets GreedyBots play on to the end of the turn (`depth` turns), with the same deal and random numbers
for every candidate, and keeps the action whose rollouts end best. How an end is weighed is `eval=`:
`fitted` (the default) is the chance of winning by a logistic model fitted to the outcomes of greedy
games (evaluation.py), asked from the side of the seat whose turn has just ended, the side it was
fitted for; `played` a model fitted instead to what full-game greedy play-outs from the rollout ends
of the search's own candidates came to (evaluation_played.json, benchmarks/fit_ecologies_decisions.py:
no stronger, docs/simulation.md); `standing` is the seat's standing against the best opponent (VP, web health, lasting cards,
hand: GreedyBot's own terms; winning outright counts most), the evaluation before it. Ending the play or
purchase phase is a candidate only when it is GreedyBot's first choice (`end=greedy`, the default): the
fitted model can value a card held in hand that fits a web above the VP of playing it, so weighed
against acting (`end=weighed`), ending the phase was chosen too often, and cost games.
A move that wins at once is taken without weighing, and GreedyBot's own first choice gets a small head
start in every world (`prior`), so that only a clear gain in the rollouts overrides the heuristic;
`bias=B` (default 0) also charges every other candidate B a world per point GreedyBot rates it below
its first choice (a progressive bias, after Chaslot et al. 2008). `end=follow` leaves whether to end
a phase wholly to GreedyBot. What to offer in a trade it leaves to GreedyBot unless `offers=search`
(greedy's choice, its other offers worth making and ending the trade then weighed like any other
decision); how to arrange a web it always leaves to GreedyBot, and its rollouts make no offers.
`plan=K` (default 1) values a candidate after which the seat plays again in the same play phase by the
best of GreedyBot's K best next plays, each played out, since the search, not GreedyBot, will choose
it. `buy=greedy` leaves the purchase phase to GreedyBot. None of these four beat the default in
400-game runs (docs/simulation.md). Nor did three more on the 2,000 screening games: `playdepth=D`
plays the play phase's rollouts through D turns (3: the other seat's turn and the seat's own next one);
`aprior=P:aiters=N` weighs an answer to an offer on N rollouts with head start P; `playeval=NAME` weighs
the play phase's rollout ends by another model of evaluation.MODEL_FILES. Its budget
(`search:iters=N`, rollouts a decision, default 14 over 6 candidates: 2 worlds each, since within the
turn the dealt world rarely changes the choice; or `search:ms=T`, not reproducible)
comes in its name. The weights of the GreedyBot it ranks by and rolls out with are `policy=`
(weights.POLICIES): `tuned`, the default, found by benchmarks/tune_ecologies_greedy.py, or `default`,
GreedyBot's hand-set ones, with which the search beat greedy less (docs/simulation.md, "Tuned weights").

Built from a public `Seat` only; it sees the game only through observations. Imported by bots.py (the
roster); imports greedy.py and evaluation.py.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from cardtool.engine.bots import one_of, positive_float, positive_int
from cardtool.engine.protocol import Seat
from cardtool.errors import UsageError
from cardtool.games.ecologies.actions import Arrange, EndPhase, Offer
from cardtool.games.ecologies.evaluation import MODEL_FILE, MODEL_FILES, valued, win_chance
from cardtool.games.ecologies.greedy import GreedyBot
from cardtool.games.ecologies.weights import POLICIES
from cardtool.games.ecologies.observation import Observation, sample_state, world_game

#: How a rollout's end position is weighed (`standing`), besides VP: webs, lasting cards, the hand's best six.
WEBS, LASTING, HAND = 0.6, 0.6, 0.4
#: `eval=standing`: the standing against the best opponent (`outcome`); `eval=fitted`: the chance of
#: winning by the logistic model fitted to game outcomes (evaluation.py); `eval=played`: the model fitted to
#: full-game play-outs from the search's candidates (evaluation.MODEL_FILES).
EVALUATIONS = ("standing", "fitted", "played")
#: `end=weighed`: ending the phase is always a candidate; `end=greedy`: only when GreedyBot's first choice;
#: `end=follow`: never weighed: where GreedyBot ends the phase the search ends it, else it weighs how to act.
ENDINGS = ("weighed", "greedy", "follow")
#: `buy=search`: the purchase phase is weighed like playing; `buy=greedy`: every decision of it is GreedyBot's.
BUYINGS = ("search", "greedy")
#: `offers=greedy`: what to offer in a trade is GreedyBot's choice; `offers=search`: its choice, its best
#: few offers and ending the trade are weighed by rollouts like any other decision.
OFFERINGS = ("greedy", "search")


class SearchBot:
    """Determinized search over GreedyBot's best few actions (see the module docstring).

    Budget: `iters` rollouts a decision (one rollout is one candidate played out in one sampled world),
    spread evenly over the candidates, at least `MIN_WORLDS` worlds each; or, with `ms`, as many whole
    worlds as fit in that many milliseconds of wall-clock time (at least one), which is not reproducible:
    the choice then depends on the machine's speed. `width` is how many of GreedyBot's best actions are
    candidates (and ending the phase, with `end=weighed`); `depth` how many turns a rollout plays (1: to the end of
    the turn being played; 2: through the next seat's turn too).
    """

    name = "search"
    OPTIONS = {"iters": positive_int, "ms": positive_float, "width": positive_int, "depth": positive_int,
               "eval": one_of(*EVALUATIONS), "prior": positive_float, "end": one_of(*ENDINGS),
               "bias": positive_float, "offers": one_of(*OFFERINGS), "plan": positive_int, "buy": one_of(*BUYINGS),
               "playdepth": positive_int, "aprior": positive_float, "aiters": positive_int,
               "playeval": one_of(*MODEL_FILES), "policy": one_of(*POLICIES)}
    ITERS = 14  # the default budget, in rollouts a decision (2 worlds each for up to 7 candidates)
    MIN_WORLDS = 2
    EVAL = "fitted"
    END = "greedy"
    OFFERS = "greedy"
    BUY = "search"
    #: The GreedyBot weights (weights.POLICIES) it ranks candidates and plays rollouts by: `default`, GreedyBot's
    #: hand-set ones; `tuned` (the default: tuned by benchmarks/tune_ecologies_greedy.py), from greedy_tuned.json.
    POLICY = "tuned"
    #: Per evaluation, the head start GreedyBot's own first choice is given in every world (VP-equivalents
    #: of `outcome`; win chance of the fitted model): only a clearer gain in the rollouts overrides it.
    PRIOR = {"standing": 0.25, "fitted": 0.02, "played": 0.02}
    #: Progressive bias: per point of GreedyBot's value a candidate is below its first choice, what it
    #: must gain in every world (win chance of the fitted model): a move greedy rates far lower needs a
    #: larger gain in the rollouts (after Chaslot et al.'s progressive bias for Monte Carlo tree search).
    BIAS = 0.0

    def __init__(self, public: Seat, iters: int | None = None, ms: float | None = None, width: int = 6,
                 depth: int = 1, eval: str | None = None, prior: float | None = None, end: str | None = None,
                 bias: float | None = None, offers: str | None = None,
                 plan: int = 1, buy: str | None = None, playdepth: int | None = None,
                 aprior: float | None = None, aiters: int | None = None, playeval: str | None = None,
                 policy: str | None = None):
        if iters is not None and ms is not None:
            raise UsageError("bot 'search' takes a budget in iters or in ms, not both")
        self.public, self.width, self.depth = public, width, depth
        self.play_depth = depth if playdepth is None else playdepth  # turns a play-phase rollout plays
        self.end = end or self.END
        # the fitted model is of two-player (and more) races to 12 VP; alone, the standing is the score
        evaluation = eval or self.EVAL
        self.fitted = evaluation != "standing" and public.mode != "single" and public.players > 1
        self.model = MODEL_FILES.get(evaluation, MODEL_FILE)
        # the play phase's rollout ends may be weighed by another fitted model (`playeval=`)
        self.play_model = self.model if playeval is None else MODEL_FILES[playeval]
        self._weighing = self.model  # the model of the decision being weighed
        self.prior = self.PRIOR[evaluation if self.fitted else "standing"] if prior is None else prior
        self.iters = self.ITERS if iters is None and ms is None else iters
        # answers to an offer: their own head start and budget (by default the same as every decision's)
        self.answer_prior = self.prior if aprior is None else aprior
        self.answer_iters = self.iters if aiters is None or self.iters is None else aiters
        self.ms = ms
        self.bias = self.BIAS if bias is None else bias
        self.offers = offers or self.OFFERS
        self.plan = plan
        self.buy = buy or self.BUY
        self.game = world_game(public)
        self.greedy = GreedyBot(public, policy=policy or self.POLICY)  # ranks the candidates and plays the rollouts

    def choose(self, observation: Observation, legal: Sequence, rng: random.Random):
        if len(legal) == 1:
            return legal[0]
        if observation.phase == "trade" and not observation.stack:
            if self.offers == "greedy":
                return self.greedy.choose(observation, legal, rng)
            ranked = self.offer_ranking(observation, legal, rng)
            return self._weigh(observation, [action for _, action in ranked[: self.width]], ranked, rng)
        if type(legal[0]) is Arrange or (self.buy == "greedy" and observation.phase == "purchase"):
            return self.greedy.choose(observation, legal, rng)  # exposure to cards not seen yet
        ranked = self.greedy.ranked(observation, legal, rng)
        shortlist = [action for _, action in ranked[: self.width]]
        end = next((a for a in legal if type(a) is EndPhase), None)
        if self.end == "follow" and end is not None and (type(ranked[0][1]) is EndPhase or ranked[0][0] <= self.greedy.threshold):
            return end  # GreedyBot would end the phase (its best action gains no more than THRESHOLD)
        if self.end != "weighed":
            if type(shortlist[0]) is not EndPhase:  # act, as GreedyBot would: the search only picks how
                shortlist = [a for a in shortlist if type(a) is not EndPhase]
        elif end is not None and end not in shortlist:
            shortlist.append(end)
        return self._weigh(observation, shortlist, ranked, rng)

    def offer_ranking(self, observation: Observation, legal: Sequence, rng: random.Random) -> list:
        """The trade phase's candidates as (GreedyBot's value, action), its own choice first, then the
        offers it would consider (a card it rates below DEAD, for a biome it wants) best first, and ending
        the trade (valued at THRESHOLD, as GreedyBot does) if not already first."""
        first = self.greedy.choose(observation, legal, rng)
        valuer = self.greedy.valuer(observation)
        wanted = frozenset(valuer.my_codes | valuer.hand_biomes) - {""}
        cheap = frozenset(c for c in observation.hand if valuer.card_value(c) < self.greedy.dead) if wanted else ()
        scored, asked = [], {}
        for action in legal:  # per card, its wants in order: a card's first want before any card's second
            if type(action) is Offer and action is not first and action.card in cheap and action.want in wanted:
                asked[action.card] = nth = asked.get(action.card, -1) + 1
                scored.append((nth, -valuer.offer_value(action), len(scored), action))
        scored.sort(key=lambda item: item[:3])
        threshold = self.greedy.threshold
        ranked = [(valuer.value(first) if type(first) is not EndPhase else threshold, first)]
        ranked += [(-value, action) for _, value, _, action in scored]
        if type(first) is not EndPhase:
            end = next(a for a in legal if type(a) is EndPhase)
            ranked.insert(min(len(ranked), self.width - 1), (threshold, end))
        return ranked

    def _weigh(self, observation: Observation, shortlist: list, ranked: list, rng: random.Random):
        """The candidate whose rollouts end best (the first, GreedyBot's choice, with its head start)."""
        if len(shortlist) == 1:
            return shortlist[0]
        seat = observation.seat
        answer = observation.phase == "trade" and bool(observation.stack)
        self._weighing = self.play_model if observation.phase == "play" else self.model
        prior, iters = (self.answer_prior, self.answer_iters) if answer else (self.prior, self.iters)
        totals = [0.0] * len(shortlist)
        totals[0] += prior * self.MIN_WORLDS
        stop_turn = observation.turn + (self.play_depth if observation.phase == "play" else self.depth)
        deadline = None if self.ms is None else time.perf_counter() + self.ms / 1000.0
        worlds = 0
        while True:
            if deadline is None:
                if worlds >= max(self.MIN_WORLDS, iters // len(shortlist)):
                    break
            elif worlds and time.perf_counter() >= deadline:
                break
            world = sample_state(self.public, observation, rng)
            seed = rng.getrandbits(32)
            for i, action in enumerate(shortlist):
                # the same deal and the same random numbers for every candidate: only the action differs
                state = world.clone()
                state.apply(action)
                if state.is_over() and state.winners() == [seat]:
                    return action  # wins outright: nothing to weigh
                totals[i] += self._rollout(state, seat, stop_turn, seed)
            worlds += 1
        totals[0] += prior * (worlds - self.MIN_WORLDS)
        if self.bias:  # a move greedy rates lower must gain more in the rollouts
            heuristic = {id(action): value for value, action in ranked}  # GreedyBot's values
            top = heuristic[id(shortlist[0])]
            for i, action in enumerate(shortlist):
                totals[i] += self.bias * worlds * (heuristic[id(action)] - top)
        best = max(range(len(shortlist)), key=lambda i: (totals[i], -i))
        return shortlist[best]

    def _rollout(self, state, seat: int, stop_turn: int, seed: int) -> float:
        """What a candidate's rollout from `state` ends at. With `plan=K` above 1, when the seat's next
        decision is again a play of the same play phase, GreedyBot's best K next moves are each played
        out and the best end kept: the search, not GreedyBot, will make that move."""
        if self.plan > 1 and not state.is_over() and state.phase == "play" and not state.stack \
                and state.current_player == seat and state.turn < stop_turn:
            legal = state.legal_actions()
            if len(legal) > 1:
                nexts = self.greedy.ranked(state.observation(seat), legal, random.Random(seed))[: self.plan]
                best = None
                for _, action in nexts:
                    branch = state.clone()
                    branch.apply(action)
                    value = self._end_value(branch, seat, stop_turn, seed)
                    best = value if best is None else max(best, value)
                return best
        return self._end_value(state, seat, stop_turn, seed)

    def _end_value(self, state, seat: int, stop_turn: int, seed: int) -> float:
        self._play_out(state, stop_turn, random.Random(seed))
        return fitted_chance(self.game, state, seat, self._weighing) if self.fitted else outcome(self.game, state, seat)

    def _play_out(self, state, stop_turn: int, rng: random.Random) -> None:
        """GreedyBots play on until turn `stop_turn` starts (or the game ends), without offering trades
        (they rarely matter within a turn or two, and cost a third of a rollout)."""
        greedy = self.greedy
        steps = 0
        while not state.is_over() and state.turn < stop_turn and steps < 300:
            legal = state.legal_actions()
            if state.phase == "trade" and not state.stack:
                action = next((a for a in legal if type(a) is EndPhase), None)
                if action is None:
                    action = greedy.choose(state.observation(state.current_player), legal, rng)
            elif len(legal) == 1:
                action = legal[0]
            else:
                action = greedy.choose(state.observation(state.current_player), legal, rng)
            state.apply(action)
            steps += 1


def fitted_chance(game, state, seat: int, model=MODEL_FILE) -> float:
    """The fitted model's chance that `seat` wins, asked from the view it was fitted for: that of the seat
    whose turn has just ended. After another seat's turn (`depth` 2 or more) in a two-player game, that is
    one less the other seat's chance."""
    mover = (state.turn - 1) % game.players
    if mover == seat or game.players != 2 or state.is_over():
        return win_chance(game, state, seat, model)
    return 1.0 - win_chance(game, state, mover, model)


def standing(game, state, seat: int) -> float:
    """What a seat's position is worth, in VP: its VP, its webs' health and food security, what its
    lasting factor cards will bring, and a share of what its hand is worth (GreedyBot's valuations,
    from the seat's own view)."""
    _, webs, lasting, hand = valued(game, state, seat)
    return float(state.vp(seat)) + WEBS * webs + LASTING * lasting + HAND * hand


def outcome(game, state, seat: int) -> float:
    """A position's worth to a seat: its standing less the best other seat's, and winning."""
    if state.is_over():
        scores = state.scores()
        others = [float(s) for i, s in enumerate(scores) if i != seat]
        return float(scores[seat]) - max(others, default=0.0) + (50.0 if seat in state.winners() else -50.0)
    mine = standing(game, state, seat)
    others = [standing(game, state, s) for s in range(game.players) if s != seat]
    return mine - max(others, default=0.0)
