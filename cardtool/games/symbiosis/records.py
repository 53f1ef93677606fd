"""What `cardtool simulate` learns from one Symbiosis game (cardtool.games.plugin.RecordsGames).

The state keeps only its swaps, so the record replays them from the deal once: that gives the score
after every round and which card each seat took from the River and gave to it.
Card events: `dealt` (in the seat's pond at the deal), `taken` (from the River into the pond),
`given` (from the pond to the River) and `kept` (in the pond at the end). In Team mode the record
names the teams, so the report counts a partnership's win once.
"""

from __future__ import annotations

from cardtool.engine.protocol import TURN_CAP
from cardtool.games.plugin import EndReason, GameRecord
from cardtool.games.symbiosis.engine import COMPLETE, SymbiosisGame, SymbiosisState
from cardtool.games.symbiosis.layout import POND

CARD_EVENTS = ("dealt", "taken", "given", "kept")
IMPACT_EVENT = "kept"  # the card ended in the seat's pond, where it scores
CHOICE_EVENT = "taken"  # the seat chose it from the River
END_REASONS = (
    EndReason(COMPLETE, "every pond face up after seven turns each"),
    EndReason(TURN_CAP, "stopped after --max-turns turns: not an ending of the rules", cap=True),
)


def record(game: SymbiosisGame, final: SymbiosisState) -> GameRecord:
    """The record of a game from its final (or turn-capped) state."""
    ids = [card.id for card in game.table.cards]
    players = game.players
    state = game.new_initial_state()
    dealt = tuple(tuple(ids[n] for n in state.pond(seat)) for seat in range(players))
    taken: list[list[str]] = [[] for _ in range(players)]
    given: list[list[str]] = [[] for _ in range(players)]
    curve = []
    for action in final.history:
        seat = state.current_player
        taken[seat].append(ids[state.river[action.river]])
        given[seat].append(ids[state.ponds[seat * POND + action.pond]])
        state.apply(action)
        if state.turn % players == 0:
            curve.append(tuple(state.scores()))
    if final.turn % players:
        curve.append(tuple(final.scores()))
    kept = tuple(tuple(ids[n] for n in final.pond(seat)) for seat in range(players))
    by_rule: list[dict[str, int]] = []
    by_column: list[dict[str, int]] = []
    for pond in final.breakdown():
        rules = {"fixed": 0, "per_animal": 0, "per_season": 0}
        for column in pond.columns:
            for card in column.cards:
                rules[game.table.cards[card.card].scoring.rule] += card.points
        by_rule.append(rules)
        by_column.append({column.column: column.total for column in pond.columns})
    return GameRecord(
        scores=tuple(final.scores()), winners=tuple(final.winners()), turns=final.turns_played, curve=tuple(curve),
        end_reason=final.end_reason, capped=final.end_reason != COMPLETE,
        teams=game.teams if any(len(team) > 1 for team in game.teams) else (),
        cards={"dealt": dealt, "taken": tuple(map(tuple, taken)), "given": tuple(map(tuple, given)),
               "kept": kept},
        extras={"points_by_rule": by_rule, "points_by_column": by_column})
