"""The parts of a Symbiosis rulebook computed from the deck: components, Seasons and Animals, the card
index, worked scoring examples scored by the scoring engine (the `cardtool:score` directive), and the
table of each mode (the `cardtool:table` directive: seats, River size and what each side column counts),
written from the same constants the engine plays with (cardtool.games.symbiosis.layout.MODES)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup

from cardtool.deck.containment import OUTSIDE, Outside
from cardtool.errors import DeckError, RenderError
from cardtool.games.symbiosis.layout import LEFT, MIDDLE, MODES, POND, RIVER, ROW, Mode
from cardtool.games.symbiosis.model import SymbiosisDeck
from cardtool.games.symbiosis.position import load_position
from cardtool.games.symbiosis.table import FIXED, CardTable
from cardtool.render.card_diagram import Figure, Part, diagram
from cardtool.render.context import deck_roots
from cardtool.render.environment import render
from cardtool.render.rulebook_parts import Components, count_line, reprint_note
from cardtool.games.symbiosis.render.faces import SymbiosisFaces

#: The parts of a card the rulebook names around a real card (classes of templates/symbiosis/card.html.j2).
CARD_PARTS = (Part("season", "Season", "its colour fills the card's background"),
              Part("name-panel", "Name"),
              Part("stage", "Animal", "the Animal in the foreground"),
              Part("points", "Points", "fixed, or so many for each Animal or Season counted"),
              Part("rule-text", "How it scores"),
              Part("hint", "Which pond it counts", "depends on the column the card lies in"))
COLUMN_TITLES = {LEFT: "Left column", MIDDLE: "Middle columns", "right": "Right column"}


@dataclass(frozen=True)
class MarkRow:
    name: str
    icon: str
    colour: str
    colour_name: str
    cards: int
    counted_by: int  # variable cards that count it


@dataclass(frozen=True)
class IndexRow:
    name: str
    animal: str
    season: str
    rule: str
    copies: int


@dataclass(frozen=True)
class PondCard:
    name: str
    animal: str
    season: str
    colour: str
    rule: str


@dataclass(frozen=True)
class PondView:
    player: str
    rows: tuple[tuple[PondCard, ...], ...]
    left: str  # whose pond the left column counts
    right: str


@dataclass(frozen=True)
class ScoreLine:
    name: str
    rule: str
    matches: int | None
    points: int


@dataclass(frozen=True)
class ColumnView:
    title: str
    counts: str
    lines: tuple[ScoreLine, ...]
    total: int


@dataclass(frozen=True)
class Breakdown:
    player: str
    columns: tuple[ColumnView, ...]
    sum: str  # "7 + 17 + 9 = 33"
    total: int


@dataclass(frozen=True)
class ModeRow:
    """One mode as a table at the start of play: who sits, the River, what the side columns count."""

    mode: str
    players: str  # "3 or 4"
    river: str  # "4 cards, face up"
    seats: tuple[tuple[str, str, str], ...]  # (whose pond, left column counts, right column counts)
    note: str


@dataclass(frozen=True)
class Example:
    """A worked example: the ponds on the table and the breakdown of the chosen players' scores."""

    mode: str
    ponds: tuple[PondView, ...]
    breakdowns: tuple[Breakdown, ...]
    result: str


class SymbiosisRulebook:
    """Generated rulebook parts for a Symbiosis deck."""

    def __init__(self, deck: SymbiosisDeck, shown: frozenset[str] | None = None, reprinted: frozenset[str] = frozenset()):
        """shown: the ids of the cards an expansion's insert is about (None: the whole deck's book), of which
        reprinted are base cards the expansion reprints."""
        self.deck = deck
        self.table = CardTable.of(deck)
        self.faces = SymbiosisFaces(deck)
        self.insert = shown is not None
        self.reprinted = reprinted
        self.cards = tuple(c for c in deck.cards if shown is None or c.id in shown)

    def components(self) -> Components:
        deck = self.deck
        cards = tuple(c for c in self.cards if c.id not in self.reprinted)
        animals = Counter(c.animal for c in cards for _ in range(c.count))
        seasons = Counter(c.season for c in cards for _ in range(c.count))
        rules = Counter(c.scoring.rule for c in cards for _ in range(c.count))
        counts = [(a.plural_name if animals[a.id] != 1 else a.name, animals[a.id]) for a in deck.animals]
        notes = (", ".join(f"{seasons[s.id]} {s.name}" + (f" ({s.colour_name})" if s.colour_name else "")
                           for s in deck.seasons) + " cards",
                 f"{rules['fixed']} cards score fixed points, {rules['per_animal']} count an Animal "
                 f"and {rules['per_season']} count a Season",
                 f"{len(cards)} different cards")
        notes += reprint_note([c.name for c in self.cards if c.id in self.reprinted])
        counts = [(name, n) for name, n in counts if n or not self.insert]
        return Components(count_line(sum(c.count for c in cards), counts), tuple(counts), notes)

    def reference(self) -> list[tuple[str, Markup]]:
        deck, table = self.deck, self.table
        ids = {c.id for c in self.cards}
        counted = Counter(table.counted[n] for n in range(len(table.cards))
                          if table.counted[n] != FIXED and table.cards[n].id in ids)
        feature = {name: i for i, name in enumerate(table.feature_names)}
        seasons = tuple(MarkRow(s.name, self.faces.seasons[s.id].icon, s.colour, s.colour_name,
                                sum(c.count for c in self.cards if c.season == s.id),
                                counted[feature[f"season:{s.id}"]]) for s in deck.seasons)
        animals = tuple(MarkRow(a.name, self.faces.animals[a.id].icon, "", "",
                                sum(c.count for c in self.cards if c.animal == a.id),
                                counted[feature[f"animal:{a.id}"]]) for a in deck.animals)
        index = tuple(IndexRow(c.name, deck.animal(c.animal).name, deck.season(c.season).name,
                               table.rule_text(n), c.count)
                      for n, c in sorted(enumerate(table.cards), key=lambda nc: nc[1].name.lower()) if c.id in ids)
        return [("Seasons and Animals", Markup(render("rulebook/symbiosis.html.j2", part="marks", seasons=seasons,
                                                      animals=animals))),
                ("Card index", Markup(render("rulebook/symbiosis.html.j2", part="index", cards=index)))]

    def directives(self) -> dict:
        return {"score": self.score_example, "table": self.table_of_modes}

    def introduction(self) -> list[tuple[str, Markup]]:
        """'Reading the cards': a card that counts something, with its parts named (an insert leaves it to the
        base rulebook)."""
        cards = self.deck.cards
        if not cards or self.insert:
            return []
        card = next((c for c in cards if c.scoring.rule != "fixed"), cards[0])
        figure = Figure(diagram(self.deck, card.id, CARD_PARTS), f"A card: {card.name}, at its printed size.")
        return [("Reading the cards", Markup(render("rulebook/anatomy.html.j2", diagrams=(figure,))))]

    def table_of_modes(self, args: list[str], body: str, folder: Path, where: str) -> Markup:
        """```cardtool:table [MODE ...]```: each mode's seats, River and side columns, as the engine plays."""
        unknown = [name for name in args if name not in MODES]
        if unknown:
            raise RenderError(f"{where}: no Symbiosis mode {', '.join(unknown)} (modes: {', '.join(MODES)})")
        rows = tuple(self.mode_row(MODES[name]) for name in (args or MODES))
        return Markup(render("rulebook/symbiosis.html.j2", part="modes", modes=rows))

    def mode_row(self, mode: Mode) -> ModeRow:
        allowed = mode.players(self.deck.size)
        players = (" or ".join(str(n) for n in allowed) if len(allowed) <= 2
                   else f"{allowed.start} to {allowed[-1]}") if allowed else "none with this deck"
        hidden = mode.river_hidden
        river = (f"{mode.river_size} cards, " + (f"{mode.river_size - hidden} face up and {hidden} face down"
                                                  if hidden else "all face up"))
        count = allowed[-1] if allowed else mode.min_players
        faces, teams = mode.faces(count), mode.teams(count)
        described = [(seat_name(seat, count), side(seat, target, count, teams, "left"),
                      side(seat, target_right, count, teams, "right"))
                     for seat, (target, target_right) in enumerate(faces)]
        if len({(left, right) for _, left, right in described}) == 1:
            described = [("every player", described[0][1], described[0][2])]
        note = ""
        river_sides = [(seat, "right" if right == RIVER else "left") for seat, (left, right) in enumerate(faces)
                       if RIVER in (left, right)]
        if river_sides:
            note = ("the River lies at one end of the table, on " + " and ".join(
                f"the {seat_name(seat, count)}'s {where_}" for seat, where_ in river_sides)
                + "; at the end its face-down cards are turned up before scoring.")
        return ModeRow(mode.name.capitalize(), players, river, tuple(described), note)

    def score_example(self, args: list[str], body: str, folder: Path, where: str) -> Markup:
        """```cardtool:score POSITION.yaml [PLAYER ...]```: the position scored by the engine."""
        if not args:
            raise RenderError(f"{where}: cardtool:score needs a position file, e.g. "
                              "```cardtool:score examples/worked-example.yaml Emma```")
        try:  # a position named in the deck's prose obeys the deck's containment rule
            deck_roots(self.deck).locate(args[0], folder)
        except Outside as exc:
            raise RenderError(f"{where}: error[{OUTSIDE}] position file '{args[0]}' {exc}; it was not read") from None
        path = folder / args[0]
        if not path.is_file():
            raise RenderError(f"{where}: no position file {path}")
        try:
            position = load_position(path, self.table)
        except DeckError as exc:
            detail = exc.report.format() if exc.report is not None else ""
            raise RenderError(f"{where}: {exc}\n{detail}".rstrip()) from None
        names = position.names
        unknown = [name for name in args[1:] if name not in names]
        if unknown:
            raise RenderError(f"{where}: no player {', '.join(unknown)} in {args[0]} (players: {', '.join(names)})")
        shown = [names.index(name) for name in args[1:]] or list(range(len(names)))
        table = position.scored_with(self.table)  # a printed example keeps its printed values
        breakdown = position.breakdown(self.table)
        example = Example(position.mode, tuple(self._pond(table, position, seat) for seat in range(len(names))),
                          tuple(self._breakdown(table, position, breakdown[seat]) for seat in shown),
                          self._result(position, breakdown))
        return Markup(render("rulebook/symbiosis.html.j2", part="example", example=example))

    def _who(self, position, seat: int, target: int) -> str:
        if target == RIVER:
            return "the River"
        return "own pond" if target == seat else f"{position.names[target]}'s pond"

    def _pond(self, table: CardTable, position, seat: int) -> PondView:
        deck = self.deck
        cards = []
        for number in position.ponds[seat]:
            card = table.cards[number]
            cards.append(PondCard(card.name, deck.animal(card.animal).name, deck.season(card.season).name,
                                  deck.season(card.season).colour, table.short_rule(number)))
        left, right = position.faces[seat]
        return PondView(position.names[seat], (tuple(cards[:ROW]), tuple(cards[ROW:POND])),
                        self._who(position, seat, left), self._who(position, seat, right))

    def _breakdown(self, table: CardTable, position, pond) -> Breakdown:
        columns = []
        for column in pond.columns:
            lines = tuple(ScoreLine(table.cards[c.card].name, table.rule_text(c.card), c.matches, c.points)
                          for c in column.cards)
            counts = "counts " + ("your own pond" if column.target == pond.seat
                                  else self._who(position, pond.seat, column.target))
            columns.append(ColumnView(COLUMN_TITLES[column.column], counts, lines, column.total))
        total = " + ".join(str(c.total) for c in columns) + f" = {pond.total}"
        return Breakdown(position.names[pond.seat], tuple(columns), total, pond.total)

    def _result(self, position, breakdown) -> str:
        totals = [p.total for p in breakdown]
        scores = [sum(totals[s] for s in team) for team in position.teams]
        best = max(scores)
        winners = [team for team, score in zip(position.teams, scores) if score == best]
        label = " and ".join(" & ".join(position.names[s] for s in team) for team in winners)
        if len(winners) > 1:
            return f"{label} share the victory with {best} points each: they live in perfect symbiosis."
        return f"{label} {'win' if len(winners[0]) > 1 else 'wins'} with {best} points."


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def seat_name(seat: int, players: int) -> str:
    return f"{ORDINALS[seat]} player" if seat < len(ORDINALS) else f"player {seat + 1}"


def side(seat: int, target: int, players: int, teams, column: str) -> str:
    """What a side column counts, in words, from the engine's faces."""
    if target == RIVER:
        return "the River's cards"
    partner = any(seat in team and target in team for team in teams)
    if partner:
        return "your partner's pond (across the table)"
    if players == 2:
        return "your opponent's pond"
    if target == (seat + 1) % players:
        return "the pond of the player on your left (who plays after you)"
    if target == (seat - 1) % players:
        return "the pond of the player on your right (who played before you)"
    return f"the {seat_name(target, players)}'s pond"
