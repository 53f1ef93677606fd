"""Ecologies for people: food webs drawn as rows, the account of each action, a seat's view and choices.

The account is read from the events an action added to the state (state.events), so it tells what
happened (draws, trades, plays with their roles, bonuses, destroyed and starved cards, purchases) without
deciding any rule. Cards drawn from the deck stay unnamed: other players could not see them.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from cardtool.games.ecologies.actions import (
    Accept, Arrange, BuyWith, ChooseCard, ChoosePlayer, Decline, DestroyEcology, Discard, Draw, EndPhase, Move,
    Offer, Play, UseBonus)
from cardtool.games.ecologies.model import format_vp
from cardtool.games.ecologies.records import END_REASONS
from cardtool.games.ecologies.table import CardTable

#: Table rows from the top: C4 and above, C3, C2, the C1/SD row, the producers.
ROWS = (("C4",), ("C3",), ("C2",), ("C1", "SD"), ("P",))
_PHASE_END = {"trade": "ends trading", "play": "ends playing", "purchase": "ends the turn"}
_PHASE_CHOICE = {"trade": "end trading", "play": "end playing", "purchase": "end the turn"}


def rows(table: CardTable, cards: Sequence[int], roles: Sequence[str | None]) -> list[str]:
    """An ecology as it sits on the table, top row first: 'C2  Cave Spider', 'C1  ...  |  SD  ...'."""
    lines = []
    for row in ROWS:
        parts = []
        for role in row:
            names = [table.names[c] for c, r in zip(cards, roles) if r == role]
            if names:
                parts.append(f"{role:<3} {', '.join(names)}")
        if parts:
            lines.append("  |  ".join(parts))
    return lines


def role_changes(table: CardTable, cards: Sequence[int], now: Sequence[str], roles: Sequence[str]) -> str:
    """An arrangement against the current one, for a menu: 'as now', or 'Cave Crayfish C2 (now SD), ...'."""
    changes = [f"{table.names[c]} {new} (now {old})" for c, old, new in zip(cards, now, roles) if old != new]
    if not changes:
        return "keep it as it is"
    return ", ".join(changes)


def vp_text(vp: Fraction) -> str:
    return format_vp(vp)


class EcologiesText:
    """The account of an Ecologies game for `cardtool play`, and what a person at the table sees."""

    def __init__(self, game, names: Sequence[str]):
        self.game, self.table = game, game.table
        self.names = list(names)

    # -- naming things

    def eco_name(self, ecologies, biome: int) -> str:
        """"P2's Cave", or "P2's Cave 2" when P2 has started two Caves."""
        eco = next(e for e in ecologies if e.biome == biome)
        same = [e.biome for e in ecologies if e.owner == eco.owner and e.code == eco.code]
        name = f"{self.names[eco.owner]}'s {self.table.biome_names.get(eco.code, eco.code)}"
        return name if len(same) == 1 else f"{name} {same.index(biome) + 1}"

    def card(self, card: int) -> str:
        return self.table.names[card]

    # -- the account

    def start(self, state) -> str:
        game = self.game
        return (f"{self.table.deck.manifest.name}, {game.mode} mode, {game.players} player"
                f"{'s' if game.players > 1 else ''}, seed {game.seed}: {self.table.size} cards, "
                f"7 dealt to each seat, {len(state.deck)} left in the deck.")

    def turn(self, before, action, after) -> str:
        seat = before.current_player
        lines = [f"Round {before.round}, {self.names[seat]}: {self.action_text(before, action)}"]
        events = after.events[len(before.events):]
        vp = "  VP: " + ", ".join(f"{n} {vp_text(v)}" for n, v in zip(self.names, after.scores()))
        turn_ends = type(action) is EndPhase and before.phase == "purchase" and not before.stack
        if turn_ends:
            lines.append(vp)
        lines += self.event_lines(before, after, events, skip_own=action)
        if after.over and not turn_ends:
            lines.append(vp)
        return "\n".join(lines)

    def action_text(self, state, action) -> str:
        """What the current player does, in words (before its consequences)."""
        names = self.names
        kind = type(action)
        if kind is EndPhase:
            if state.stack:
                return "plays nothing more to feed the disturbed web."
            return _PHASE_END.get(state.phase, "ends the phase") + "."
        if kind is Play:
            return self.play_text(state, action)
        if kind is Offer:
            want = f"a {action.want} card" if action.want else "any card"
            return f"offers {self.card(action.card)} to the table for {want}."
        if kind is Accept:
            return f"accepts, giving {self.card(action.card)}."
        if kind is Decline:
            return "declines the offer."
        if kind is Move:
            return f"moves {self.card(action.card)} to {self.eco_name(state.ecos.values(), action.ecology)}."
        if kind is UseBonus:
            return f"uses the bonus of {self._source(state, action.source)}."
        if kind is ChoosePlayer:
            return f"targets {names[action.seat]}."
        if kind is ChooseCard:
            frame = state.stack[-1][0]
            verb = {"give": "gives", "take": "takes", "destroy": "chooses to destroy"}[frame]
            return f"{verb} {self.card(action.card)}."
        if kind is Discard:
            return f"discards {self.card(action.card)}."
        if kind is BuyWith:
            return f"spends {self.card(action.card)} towards a purchase."
        if kind is DestroyEcology:
            return f"destroys their own ecology {self.eco_name(state.ecos.values(), action.ecology)} to buy cards."
        if kind is Draw:
            return "draws from the discard pile." if action.from_discard else "draws from the deck."
        if kind is Arrange:
            eco = state.ecos[action.ecology]
            return (f"arranges {self.eco_name(state.ecos.values(), action.ecology)}: "
                    f"{role_changes(self.table, eco.cards, eco.roles, action.roles)}.")
        return repr(action)

    def play_text(self, state, action: Play) -> str:
        table, card = self.table, action.card
        kind = table.kind[card]
        if kind == "biome":
            return f"starts an ecology with {table.names[card]} ({table.code[card]})."
        if kind == "organism":
            return f"plays {table.names[card]} into {self.eco_name(state.ecos.values(), action.ecology)}."
        where = {"web": f"on {self.eco_name(state.ecos.values(), action.ecology)}" if action.ecology >= 0 else "",
                 "table": "in front of them", "discard": "(one-off)"}[table.placement[card]]
        return f"plays {table.names[card]} {where}."

    def _source(self, state, source: int) -> str:
        if source in state.ecos:
            return self.eco_name(state.ecos.values(), source)
        return self.card(source)

    def event_lines(self, before, after, events, skip_own=None) -> list[str]:
        """The consequences of an action, one short line each (draws from the deck counted, not named)."""
        names, table = self.names, self.table
        lines: list[str] = []
        draws: dict[int, int] = {}

        def flush() -> None:
            for seat, count in draws.items():
                lines.append(f"  {names[seat]} draws {count} card{'s' if count > 1 else ''}.")
            draws.clear()

        ecologies = list(before.ecos.values()) + [e for b, e in after.ecos.items() if b not in before.ecos]
        for _, kind, seat, card, detail in events:
            if kind == "draw":
                draws[seat] = draws.get(seat, 0) + 1
                continue
            flush()
            if kind == "turn":
                lines.append(f"Round {detail}, {names[seat]}'s turn.")
            elif kind == "take":
                lines.append(f"  {names[seat]} takes {self.card(card)} from the discard pile.")
            elif kind == "reshuffle":
                lines.append(f"  The discard pile ({detail} cards) is shuffled into a new deck.")
            elif kind == "play":
                eco = after.ecos.get(detail)
                if table.kind[card] == "organism" and eco is not None and card in eco.cards:
                    lines.append(f"  {self.card(card)} acts as {eco.role_of(card)}.")
            elif kind == "give":
                lines.append(f"  {names[seat]} gives {self.card(card)} to {names[detail]}.")
            elif kind == "discard" and detail not in ("buy", "discard"):
                why = {"random": "at random", "matching": "", "starved": "left without food",
                       "destroyed ecology": "with the ecology", "used": "after use"}.get(detail, detail)
                lines.append(f"  {names[seat]} discards {self.card(card)} {why}".rstrip() + ".")
            elif kind == "no_taker":
                lines.append(f"  Nobody takes {self.card(card)}.")
            elif kind == "destroy":
                lines.append(f"  {names[seat]}'s {self.card(card)} is destroyed.")
            elif kind == "move" and type(skip_own) is not Move:
                where = self.eco_name(ecologies, detail)
                lines.append(f"  {names[seat]} moves {self.card(card)} to {where} (rearranging).")
            elif kind in ("healthy", "unhealthy"):
                eco_name = self.eco_name(ecologies, card)
                if kind == "healthy":
                    bonus = table.defs[table.def_of[card]].bonus_text or "its bonus"
                    lines.append(f"  {eco_name} is healthy: {bonus}")
                else:
                    lines.append(f"  {eco_name} is no longer healthy.")
            elif kind == "buy":
                bought = detail
                if card >= 0:
                    lines.append(f"  {names[seat]} buys {bought} card{'s' if bought != 1 else ''} "
                                 f"with the ecology's {1 + len(before.ecos[card].cards)} cards.")
                else:
                    lines.append(f"  {names[seat]} buys a card with 4 cards from hand.")
            elif kind == "end":
                lines.append(f"The game ends: {detail}.")
        flush()
        return lines

    # -- the end

    def table_lines(self, state_or_obs, ecologies, table_factors, me: int | None = None) -> list[str]:
        lines = []
        for seat, name in enumerate(self.names):
            own = [e for e in ecologies if e.owner == seat]
            factors = [self.card(c) for c, owner in table_factors if owner == seat]
            you = " (you)" if seat == me else ""
            lines.append(f"{name}{you}: {len(own)} ecolog{'y' if len(own) == 1 else 'ies'}"
                         + (f"; in front: {', '.join(factors)}" if factors else ""))
            for eco in own:
                health = "healthy" if eco.healthy else "not healthy"
                placed = [f"{self.card(c)} (by {self.names[p]})" for c, p in eco.factors]
                lines.append(f"  {self.eco_name(ecologies, eco.biome)} ({health})"
                             + (f", with {', '.join(placed)}" if placed else "") + ":")
                lines += [f"    {line}" for line in rows(self.table, eco.cards, eco.roles)] or ["    (no organisms)"]
        return lines

    def final(self, state) -> str:
        reason = next((r for r in END_REASONS if r.word == state.end_reason), None)
        lines = ["", f"Final table after {state.round} round{'s' if state.round > 1 else ''} "
                     f"({reason.text if reason else state.end_reason}):"]
        lines += self.table_lines(state, list(state.ecos.values()), state.table_factors)
        lines.append("")
        scores = state.scores()
        for seat, name in enumerate(self.names):
            lines.append(f"{name}: {vp_text(scores[seat])} VP")
        winners = state.winners()
        if not winners:  # a cap stopped the game: nobody wins it, whoever leads
            best = max(scores)
            leaders = [self.names[s] for s in range(len(scores)) if scores[s] == best]
            lines.append(f"No winner: the game was stopped by a cap ({state.end_reason}), not by the rules; "
                         f"{' and '.join(leaders)} led with {vp_text(best)} VP.")
            return "\n".join(lines)
        best = vp_text(scores[winners[0]])
        if len(winners) == 1:
            lines.append(f"{self.names[winners[0]]} wins with {best} VP.")
        else:
            together = ", ".join(self.names[s] for s in winners[:-1]) + " and " + self.names[winners[-1]]
            lines.append(f"Shared victory for {together} with {best} VP.")
        return "\n".join(lines)

    # -- a person at the table

    def observation(self, observation) -> str:
        table = self.table
        lines = [""] + self.table_lines(observation, observation.ecologies, observation.table_factors,
                                        observation.seat)
        top = observation.discard[-1] if observation.discard else None
        lines.append(f"Deck: {observation.deck_size} cards; discard pile: {len(observation.discard)} cards"
                     + (f", top: {table.label(top)}" if top is not None else "") + ".")
        others = ", ".join(f"{self.names[s]} {n}" for s, n in enumerate(observation.hand_sizes)
                           if s != observation.seat)
        if others:
            lines.append(f"Cards in other hands: {others}.")
        lines.append(f"Your hand ({len(observation.hand)}):")
        lines += [f"  {table.label(c)}" for c in observation.hand]
        lines.append(f"{self.names[observation.seat]}, {self.prompt(observation)}")
        return "\n".join(lines)

    def prompt(self, observation) -> str:
        if observation.stack:
            frame = observation.stack[-1]
            kind = frame[0]
            if kind == "offer":
                want = f"a {frame[4]} card" if frame[4] else "any card"
                return (f"{self.names[frame[2]]} offers {self.table.label(frame[3])} for {want}: "
                        "accept (choosing what to give) or decline.")
            if kind == "discard":
                return f"discard {frame[2]} more card(s)."
            if kind == "rescue":
                return ("an opponent disturbed your web: play cards for free to feed "
                        f"{', '.join(self.table.names[c] for c in frame[3])}, or play nothing more.")
            if kind == "arrange":
                return (f"choose the roles in {self.eco_name(observation.ecologies, frame[2])}: each choice keeps "
                        "every card fed, with the same health and VP. Roles decide what targeted cards can hit "
                        "(Wildfire: a P; Invasive Species: a C2, C3 or C4), and they stay until the web changes.")
            return {"draw": "draw each card from the deck or the discard pile.",
                    "seat": "choose the opponent to target.", "give": "choose the card to give.",
                    "destroy": "choose the organism to destroy.", "take": "choose a card to take.",
                    "buy": "choose the next card to spend on the purchase."}.get(kind, "choose.")
        phase = observation.phase
        if phase == "trade":
            return "your turn: offer trades, or end trading."
        if phase == "play":
            played = observation.plays_used
            return (f"your turn: play cards (2 a turn, more with bonuses; {played} played so far), "
                    "move organisms, or end playing.")
        return "your turn: buy cards (4 from hand for 1), or end the turn."

    def action_parts(self, observation, action) -> tuple[str, ...]:
        """An action as a person's successive choices: what kind of move, which card, where."""
        table = self.table
        ecologies = observation.ecologies
        kind = type(action)
        if kind is Play:
            label = table.label(action.card)
            if action.ecology < 0:
                return ("play a card", label)
            return ("play a card", label, f"into {self.eco_name(ecologies, action.ecology)}")
        if kind is Offer:
            want = f"for a {action.want} card" if action.want else "for any card"
            return ("offer a trade to the table", f"give {table.label(action.card)}", want)
        if kind is Move:
            return ("move an organism", table.label(action.card), f"to {self.eco_name(ecologies, action.ecology)}")
        if kind is UseBonus:
            text = table.defs[table.def_of[action.source]]
            what = getattr(text, "bonus_text", None) or getattr(text, "text", None) or text.name
            source = self.eco_name(ecologies, action.source) if table.kind[action.source] == "biome" else text.name
            return (f"use a bonus: {source}: {what}",)
        if kind is EndPhase:
            if observation.stack:
                return ("play nothing more (cards left without food move or are discarded)",)
            return (_PHASE_CHOICE.get(observation.phase, "end the phase"),)
        if kind is BuyWith:
            if observation.stack:
                return (f"spend {table.label(action.card)}",)
            return ("buy a card (spend 4 cards from hand)", f"spend {table.label(action.card)}")
        if kind is DestroyEcology:
            eco = observation.ecology(action.ecology)
            bought = (1 + len(eco.cards)) // 3
            return (f"destroy your ecology {self.eco_name(ecologies, action.ecology)} for {bought} new card(s)",)
        if kind is Accept:
            return ("accept", f"give {table.label(action.card)}")
        if kind is Decline:
            return ("decline",)
        if kind is ChoosePlayer:
            return (f"{self.names[action.seat]} ({observation.hand_sizes[action.seat]} cards in hand)",)
        if kind is ChooseCard:
            for eco in ecologies:
                if action.card in eco.cards:
                    return (f"{table.label(action.card)}, {eco.role_of(action.card)} in "
                            f"{self.eco_name(ecologies, eco.biome)}",)
            return (table.label(action.card),)
        if kind is Discard:
            return (table.label(action.card),)
        if kind is Arrange:
            eco = observation.ecology(action.ecology)
            return (role_changes(table, eco.cards, eco.roles, action.roles),)
        if kind is Draw:
            top = observation.discard[-1] if observation.discard else None
            return (f"take {table.label(top)} from the discard pile",) if action.from_discard and top is not None \
                else ("draw from the deck",)
        return (repr(action),)


def describe(state, action) -> str:
    """One line for an action in a state (the protocol's State.describe)."""
    names = [f"P{seat + 1}" for seat in range(state.game.players)]
    return EcologiesText(state.game, names).action_text(state, action)
