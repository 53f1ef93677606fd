"""Hedgerow's words for `cardtool play`: the account of a game, and a person's view and choices.

The account is read by everyone at the table, so a card drawn from the pile is never named in it;
only the drawer's own view (`observation`) shows their hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardtool_hedgerow.engine import HedgerowGame, HedgerowState, Observation, Plant, Take
from cardtool_hedgerow.model import CardTable
from cardtool_hedgerow.scoring import HedgerowScore, winners


class HedgerowText:
    """The words for one game, with the seats called by names."""

    def __init__(self, game: HedgerowGame, names: Sequence[str]):
        self.game, self.table, self.names = game, game.table, list(names)

    def _cards(self, cards: Sequence[int]) -> str:
        return ", ".join(self.table.label(card) for card in cards) or "nothing yet"

    def table_lines(self, observation: Observation) -> list[str]:
        lines = [f"Verge: {self._cards(observation.verge)}; {observation.pile} cards in the draw pile."]
        for seat, hedgerow in enumerate(observation.hedgerows):
            lines.append(f"{self.names[seat]}'s hedgerow: {self._cards(hedgerow)}")
        return lines

    def start(self, state: HedgerowState) -> str:
        game = self.game
        head = (f"Hedgerow, {game.players} players, seed {game.seed}: each holds {len(state.hands[0])} cards, "
                f"{game.end_turn // game.players} turns each.")
        return "\n".join([head] + self.table_lines(state.observation(0)))

    def turn(self, before: HedgerowState, action, after: HedgerowState) -> str:
        name, table = self.names[before.current_player], self.table
        if isinstance(action, Take):
            if action.verge is None:
                return f"{name} draws a card from the pile."
            taken = table.label(before.verge[action.verge])
            refill = (f" (the Verge gets {table.label(after.verge[action.verge])})"
                      if len(after.verge) == len(before.verge) else " (the pile is empty: the Verge shrinks)")
            return f"{name} takes {taken} from the Verge{refill}."
        return f"Turn {before.turn + 1}, {name} plants {table.label(action.card)}."

    def final(self, state: HedgerowState) -> str:
        lines = ["", "Final table:"] + self.table_lines(state.observation(0)) + [""]
        breakdown = state.breakdown()
        lines += [breakdown_line(self.table, score, self.names) for score in breakdown]
        lines.append(result_line([s.total for s in breakdown], self.names))
        return "\n".join(lines)

    def observation(self, observation: Observation) -> str:
        lines = [""] + self.table_lines(observation)
        lines.append(f"Your hand: {self._cards(observation.hand)}")
        what = "plant a card of your hand" if observation.planting else "take a card from the Verge or the pile"
        lines.append(f"{self.names[observation.seat]}, your turn: {what}.")
        return "\n".join(lines)

    def action_parts(self, observation: Observation, action) -> tuple[str, ...]:
        if isinstance(action, Plant):
            return (f"plant {self.table.label(action.card)}",)
        if action.verge is None:
            return ("draw the top card of the pile (face down)",)
        return (f"take {self.table.label(observation.verge[action.verge])} from the Verge",)


def breakdown_line(table: CardTable, score: HedgerowScore, names: Sequence[str]) -> str:
    """'P1: 14 from Plants + 6 from Visitors + 4 for the most Berry = 24'."""
    habitats = {h.id: h.name for h in table.habitats}
    bonus = (f" + {score.bonus_points} for the most {', '.join(habitats[h] for h in score.bonuses)}"
             if score.bonuses else "")
    return (f"{names[score.seat]}: {score.plants} from Plants + {score.visitors} from Visitors{bonus} "
            f"= {score.total}")


def result_line(totals: Sequence[int], names: Sequence[str]) -> str:
    best = winners(totals)
    if len(best) > 1:
        return f"{' and '.join(names[s] for s in best)} share the victory with {totals[best[0]]} points."
    return f"{names[best[0]]} wins with {totals[best[0]]} points."
