"""Symbiosis for people: ponds as grids, the account of a turn, score breakdowns (text and JSON).

Rendering reads the engine and the scoring breakdown; nothing here decides a rule.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from cardtool.errors import UsageError
from cardtool.games.symbiosis.engine import Observation, SymbiosisGame, SymbiosisState, Swap
from cardtool.games.symbiosis.layout import LEFT, MIDDLE, POND, RIGHT, RIVER, ROW, SLOT_NAMES
from cardtool.games.symbiosis.position import Position
from cardtool.games.symbiosis.scoring import CardScore, PondScore, winners
from cardtool.games.symbiosis.table import CardTable
from cardtool.suggest import did_you_mean

HIDDEN = "(face down)"
#: The terminal width everything `cardtool play` prints fits in.
WIDTH = 80
_MARGIN = 9  # "  bottom " before a pond row


def wrap(text: str, indent: str = "  ") -> str:
    """A line of the account folded to WIDTH, later lines indented."""
    return textwrap.fill(text, WIDTH, subsequent_indent=indent, break_on_hyphens=False)


def card_lines(table: CardTable, card: int | None) -> tuple[str, str]:
    """A card in two short lines: its name, then Animal, Season and rule ('fish summer 3/fish')."""
    if card is None:
        return HIDDEN, ""
    definition = table.cards[card]
    return definition.name, f"{definition.animal} {definition.season} {table.short_rule(card)}"


def grid_width(table: CardTable, cards: Sequence[int | None], headers: Sequence[str] = ()) -> int:
    """A column width that fits every card given and every header, at most what four columns of a
    WIDTH-wide terminal allow (longer text is folded within the column)."""
    wanted = max(12, *(len(line) for card in cards for line in card_lines(table, card)),
                 *(len(h) for h in headers)) + 2
    return min(wanted, (WIDTH - _MARGIN) // ROW)


def _cell(lines: tuple[str, str], width: int) -> list[str]:
    folded = []
    for line in lines:
        folded += textwrap.wrap(line, width - 1, break_on_hyphens=False) if line else []
    return folded or [""]


def pond_grid(table: CardTable, cards: Sequence[int | None], headers: Sequence[str] = (),
              width: int | None = None) -> list[str]:
    """Two rows of four cards, each card on two lines or more (folded to the column), under optional
    column headers."""
    width = width or grid_width(table, cards, headers)
    cells = [_cell(card_lines(table, card), width) for card in cards]
    lines = []
    if headers:
        lines.append(" " * _MARGIN + "".join(f"{h:<{width}}" for h in headers).rstrip())
    for row, name in ((0, "top"), (1, "bottom")):
        row_cells = cells[row * ROW:(row + 1) * ROW]
        for depth in range(max(len(c) for c in row_cells)):
            lead = f"  {name:<7}" if depth == 0 else " " * _MARGIN
            text = "".join(f"{(c[depth] if depth < len(c) else ''):<{width}}" for c in row_cells).rstrip()
            lines.append(lead + text if text else lead.rstrip())
    return lines


def river_lines(table: CardTable, river: Sequence[int | None]) -> list[str]:
    """The River, one numbered card a line."""
    return [wrap(f"  {i}. {table.label(card) if card is not None else HIDDEN}", "     ")
            for i, card in enumerate(river, 1)]


class Names:
    """How a table's seats and the ponds their columns count are called."""

    def __init__(self, names: Sequence[str], river_size: int = 0):
        self.names, self.river_size = list(names), river_size

    def __getitem__(self, seat: int) -> str:
        return self.names[seat]

    def target(self, seat: int, target: int) -> str:
        if target == RIVER:
            return f"the River's {self.river_size} cards"
        if target == seat:
            return f"{self.names[seat]}'s own pond"
        return f"{self.names[target]}'s pond"

    def column_header(self, seat: int, faces: tuple[int, int], column: str) -> str:
        target = faces[0] if column == LEFT else faces[1]
        return f"{column} -> {'River' if target == RIVER else self.names[target]}"

    def together(self, seats: Sequence[int]) -> str:
        names = [self.names[s] for s in seats]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


_COLUMN_TITLES = {LEFT: "left column", MIDDLE: "middle columns", RIGHT: "right column"}


def _how(table: CardTable, score: CardScore) -> str:
    rule = table.rule_text(score.card)
    return f"{rule} x {score.matches}" if score.per is not None else rule


def breakdown_lines(table: CardTable, pond: PondScore, names: Names) -> list[str]:
    """One pond scored the way the rulebook's worked example reads: per column, then per card."""
    scores = [card for column in pond.columns for card in column.cards]
    width = max(len(table.cards[c.card].name) for c in scores)
    how_width = max(len(_how(table, c)) for c in scores)
    lines = [f"{names[pond.seat]}: {pond.total} points"]
    for column in pond.columns:
        counting = "count" if column.column == MIDDLE else "counts"
        lines.append(f"  {_COLUMN_TITLES[column.column]} ({counting} {names.target(pond.seat, column.target)}): "
                     f"{column.total}")
        lines.extend(f"    {table.cards[c.card].name:<{width}}  {_how(table, c):<{how_width}} = {c.points:>2}"
                     for c in column.cards)
    lines.append("  total: " + " + ".join(str(c.total) for c in pond.columns) + f" = {pond.total}")
    return lines


def result_lines(ponds: Sequence[PondScore], teams: Sequence[Sequence[int]], names: Names) -> list[str]:
    """Team totals where seats play together, then who wins (a tie is a shared victory)."""
    totals = {p.seat: p.total for p in ponds}
    team_totals = [sum(totals[s] for s in team) for team in teams]
    in_teams = any(len(team) > 1 for team in teams)
    lines = []
    if in_teams:
        for team, total in zip(teams, team_totals):
            lines.append(f"Team {names.together(team)}: " + " + ".join(str(totals[s]) for s in team)
                         + f" = {total} points")
    best = max(team_totals)
    top = [team for team, total in zip(teams, team_totals) if total == best]
    if in_teams:
        who = ", and ".join(f"team {names.together(team)}" for team in top)
    else:
        who = names.together([team[0] for team in top])
    if len(top) == 1:
        lines.append(f"{who[0].upper()}{who[1:]} wins with {best} points.")
    else:
        lines.append(f"Shared victory for {who} with {best} points: they live in perfect symbiosis.")
    return lines


class SymbiosisText:
    """The account of a Symbiosis game for `cardtool play`, and what a person at the table sees."""

    def __init__(self, game: SymbiosisGame, names: Sequence[str]):
        self.game, self.table = game, game.table
        self.names = Names(names, game.river_size)
        self._shown: tuple | None = None  # the public table last printed, so it is not printed twice

    def _headers(self, seat: int) -> list[str]:
        faces = self.game.faces[seat]
        return [self.names.column_header(seat, faces, LEFT), "middle", "",
                self.names.column_header(seat, faces, RIGHT)]

    def table_lines(self, observation: Observation, me: int | None = None) -> list[str]:
        """The River, then every pond under headers saying what its side columns count."""
        lines = ["River:"] + river_lines(self.table, observation.river)
        width = grid_width(self.table, observation.ponds,
                           [h for seat in range(self.game.players) for h in self._headers(seat)])
        for seat in range(self.game.players):
            you = " (you)" if seat == me else ""
            lines.append(f"{self.names[seat]}'s pond{you}:")
            lines += pond_grid(self.table, observation.pond(seat), self._headers(seat), width)
        return lines

    def start(self, state: SymbiosisState) -> str:
        game = self.game
        head = (f"Symbiosis, {game.mode} mode, {game.players} players, seed {game.seed}: "
                f"{len(state.river)} cards in the River"
                + (f" ({game.rules.river_hidden} face down)" if game.rules.river_hidden else "")
                + (f", {len(state.box)} left in the box" if state.box else "") + ".")
        seen = state.observation(0)
        self._shown = (seen.ponds, seen.river)
        return "\n".join([wrap(head), ""] + self.table_lines(seen))

    def turn(self, before: SymbiosisState, action: Swap, after: SymbiosisState) -> str:
        """One sentence: who took what, what it replaced, what was flipped."""
        table, seat = self.table, before.current_player
        slot = seat * POND + action.pond
        taken = table.label(before.river[action.river])
        source = "the River" if before.river_up[action.river] else f"the face-down River card {action.river + 1}"
        replaced = table.label(before.ponds[slot])
        round_ = before.turn // self.game.players + 1
        text = f"Round {round_}, {self.names[seat]}: takes {taken} from {source} into {SLOT_NAMES[action.pond]}"
        if action.flip is None:
            text += f", replacing a face-down card, {replaced}, which goes face up to the River."
        else:
            flipped = table.label(after.ponds[seat * POND + action.flip])
            text += (f", replacing face-up {replaced}, which goes to the River, "
                     f"and flips {SLOT_NAMES[action.flip]}: {flipped}.")
        return wrap(text)

    def final(self, state: SymbiosisState) -> str:
        lines = ["", "Final table" + (" (the River's face-down cards are flipped)" if self.game.rules.river_hidden
                                      else "") + ":"]
        lines += self.table_lines(state.observation(0))
        lines.append("")
        breakdown = state.breakdown()
        for pond in breakdown:
            lines += breakdown_lines(self.table, pond, self.names) + [""]
        lines += result_lines(breakdown, self.game.teams, self.names)
        return "\n".join(lines)

    def observation(self, observation: Observation) -> str:
        """What a person sees before choosing: the River, every pond, whose turn it is."""
        seat = observation.seat
        table = (observation.ponds, observation.river)
        if table == self._shown:  # just printed (the opening table): not again
            lines = [""]
        else:
            lines = [""] + self.table_lines(observation, seat)
        self._shown = table
        hidden = sum(card is None for card in observation.pond(seat))
        lines.append(wrap(f"{self.names[seat]}, your turn ({hidden} of your cards face down): "
                          "take a River card and swap it with one of your pond cards."))
        return "\n".join(lines)

    def action_parts(self, observation: Observation, action: Swap) -> tuple[str, ...]:
        """The choices a person makes for an action: the River card, the pond slot, the card to flip."""
        table = self.table
        taken = observation.river[action.river]
        parts = [f"River {action.river + 1}: {table.label(taken) if taken is not None else HIDDEN}"]
        mine = observation.pond(observation.seat)[action.pond]
        if mine is None:
            parts.append(f"swap with {SLOT_NAMES[action.pond]} {HIDDEN}")
        else:
            parts.append(f"swap with {SLOT_NAMES[action.pond]}: {table.cards[mine].name} (then flip another card)")
            parts.append(f"flip {SLOT_NAMES[action.flip]}")
        return tuple(parts)


class PositionReport:
    """A scored table position (`cardtool score`), as text or JSON."""

    def __init__(self, table: CardTable, position: Position, file: str = ""):
        self.table, self.position, self.file = position.scored_with(table), position, file  # printed values
        self.breakdown = position.breakdown(table)
        self.names = Names(position.names, len(position.river))

    def check_players(self, names: Sequence[str]) -> None:
        for name in names:
            if name not in self.position.names:
                hint = did_you_mean(name, self.position.names)
                raise UsageError(f"--player {name}: no such player in the position"
                                 + (f"; {hint}" if hint else f" (players: {', '.join(self.position.names)})"))

    def text(self, players: Sequence[str] = ()) -> str:
        position = self.position
        lines = [f"{self.file}: {position.mode} mode, {len(position.names)} players"
                 + (f", River of {len(position.river)}" if position.river else "")]
        if position.description:
            lines.append(position.description.strip())
        lines.append("")
        for pond in self.breakdown:
            if not players or position.names[pond.seat] in players:
                lines += breakdown_lines(self.table, pond, self.names) + [""]
        lines += result_lines(self.breakdown, position.teams, self.names)
        return "\n".join(lines)

    def to_json(self) -> dict:
        table, position = self.table, self.position

        def target(seat: int, column) -> str:
            return "river" if column.target == RIVER else position.names[column.target]

        return {
            "position": self.file, "mode": position.mode,
            "players": [{
                "name": position.names[pond.seat], "total": pond.total,
                "columns": [{
                    "column": column.column, "counts": target(pond.seat, column), "total": column.total,
                    "cards": [{"id": table.cards[c.card].id, "name": table.cards[c.card].name,
                               "slot": SLOT_NAMES[c.slot], "rule": table.rule_text(c.card), "per": c.per,
                               "matches": c.matches, "points": c.points} for c in column.cards],
                } for column in pond.columns],
            } for pond in self.breakdown],
            "teams": [{"players": [position.names[s] for s in team],
                       "total": sum(self.breakdown[s].total for s in team)} for team in position.teams],
            "winners": [position.names[s] for s in winners([p.total for p in self.breakdown], position.teams)],
        }
