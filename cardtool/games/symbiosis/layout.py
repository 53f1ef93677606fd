"""Where cards lie: the pond's two rows of four, its three scoring columns, and the modes of play.

A mode is a small class that overrides a few hooks (after python-chess variants): how many may play,
the River's size, what each seat's side columns count, and the teams. `MODES` is the explicit list.
"""

from __future__ import annotations

POND = 8  # cards in a pond: two rows of four
ROW = 4
TURNS = POND - 1  # each turn reveals one pond card, and one starts face up
START_FACE_UP = 1  # the pond card dealt face up: top row, second from the left (a middle card)
RIVER = -1  # a column target that is the River rather than a seat

LEFT, MIDDLE, RIGHT = "left", "middle", "right"
COLUMN_OF_SLOT = tuple((LEFT, MIDDLE, MIDDLE, RIGHT)[slot % ROW] for slot in range(POND))
SLOTS_OF_COLUMN = {column: tuple(s for s in range(POND) if COLUMN_OF_SLOT[s] == column)
                   for column in (LEFT, MIDDLE, RIGHT)}
SLOT_NAMES = tuple(f"{row}-{col}" for row in ("top", "bottom")
                   for col in ("left", "middle-left", "middle-right", "right"))


class Mode:
    """A way to play Symbiosis; subclasses override the hooks below."""

    name = ""
    river_size = 4  # River cards
    river_hidden = 0  # of which dealt face down
    min_players = 2
    max_players: int | None = None  # None: as many as the deck can deal ponds for

    def players(self, deck_size: int) -> range:
        """The player counts this mode allows with a deck of deck_size cards (empty when too small)."""
        most = (deck_size - self.river_size) // POND
        if self.max_players is not None:
            most = min(most, self.max_players)
        return range(self.min_players, max(self.min_players, most + 1))

    def faces(self, players: int) -> tuple[tuple[int, int], ...]:
        """Per seat: the seat (or RIVER) counted by its left column, then by its right column."""
        raise NotImplementedError

    def teams(self, players: int) -> tuple[tuple[int, ...], ...]:
        """The seats that add up their ponds and win together; alone by default."""
        return tuple((seat,) for seat in range(players))

    def cards_needed(self, players: int) -> int:
        return players * POND + self.river_size


class Standard(Mode):
    """Three or more players in a circle: the left column counts the left neighbour, the right the right one."""

    name = "standard"
    min_players = 3

    def faces(self, players: int) -> tuple[tuple[int, int], ...]:
        # Seats are in turn order, clockwise: the next player to play sits on your left.
        return tuple(((seat + 1) % players, (seat - 1) % players) for seat in range(players))


class Duel(Mode):
    """Two players; a River of eight, four face down; the column on the River's side counts the River."""

    name = "duel"
    river_size = 8
    river_hidden = 4
    min_players = max_players = 2

    def faces(self, players: int) -> tuple[tuple[int, int], ...]:
        # Facing each other with the River at one end of the table: it lies on the first player's
        # right and on the second player's left; the other side column counts the opponent.
        return ((1, RIVER), (RIVER, 0))


class Team(Mode):
    """Four players, partners sitting across: both side columns count the partner's pond; teams add up."""

    name = "team"
    min_players = max_players = 4

    def faces(self, players: int) -> tuple[tuple[int, int], ...]:
        return tuple(((seat + 2) % 4, (seat + 2) % 4) for seat in range(players))

    def teams(self, players: int) -> tuple[tuple[int, ...], ...]:
        return ((0, 2), (1, 3))


MODES: dict[str, Mode] = {mode.name: mode for mode in (Standard(), Duel(), Team())}
