"""What `cardtool simulate` learns from one Hedgerow game (cardtool.games.plugin.RecordsGames).

The record replays the state's actions from the deal once: that gives the score after every round and
which card each seat was dealt, took and planted. Card events: `dealt` (in the opening hand), `taken`
(from the Verge or the pile), `planted` (into the hedgerow, where it scores).
"""

from __future__ import annotations

from cardtool.engine.protocol import TURN_CAP
from cardtool.games.plugin import EndReason, GameRecord
from cardtool_hedgerow.engine import COMPLETE, HedgerowGame, HedgerowState, Plant, Take

CARD_EVENTS = ("dealt", "taken", "planted")
IMPACT_EVENT = "planted"  # the card scores in the seat's hedgerow
CHOICE_EVENT = "planted"  # the seat chose it among its hand
END_REASONS = (
    EndReason(COMPLETE, "every hedgerow complete after six turns each"),
    EndReason(TURN_CAP, "stopped after --max-turns turns: not an ending of the rules", cap=True),
)


def record(game: HedgerowGame, final: HedgerowState) -> GameRecord:
    """The record of a game from its final (or turn-capped) state."""
    ids = [card.id for card in game.table.cards]
    players = game.players
    state = game.new_initial_state()
    dealt = tuple(tuple(ids[n] for n in hand) for hand in state.hands)
    taken: list[list[str]] = [[] for _ in range(players)]
    curve = []
    for action in final.history:
        seat = state.current_player
        if isinstance(action, Take):
            card = state.pile[-1] if action.verge is None else state.verge[action.verge]
            taken[seat].append(ids[card])
        state.apply(action)
        if isinstance(action, Plant) and state.turn % players == 0:
            curve.append(tuple(state.scores()))
    if final.turn % players:
        curve.append(tuple(final.scores()))
    breakdown = final.breakdown()
    return GameRecord(
        scores=tuple(final.scores()), winners=tuple(final.winners()), turns=final.turns_played,
        end_reason=final.end_reason, capped=final.end_reason != COMPLETE, curve=tuple(curve),
        cards={"dealt": dealt, "taken": tuple(map(tuple, taken)),
               "planted": tuple(tuple(ids[n] for n in hedgerow) for hedgerow in final.hedgerows)},
        extras={"points_by_source": [{"plants": s.plants, "visitors": s.visitors, "bonuses": s.bonus_points}
                                     for s in breakdown]})
