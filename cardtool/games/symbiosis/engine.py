"""The Symbiosis turn engine: a Game of static facts, a small State, and what each seat may see.

Deal: `random.Random(seed)` shuffles the deck once; each seat gets a pond of eight face down except
slot START_FACE_UP, the River gets its cards (in Duel the last four face down) and any cards left over
stay in the box, unseen. The deal is the only chance event, so a game is its seed plus its actions.

A turn is a Swap: a River card goes face up into a pond slot and the pond card goes face up into the
River slot; when the replaced pond card was already face up, another hidden pond card is flipped too.
Each turn so reveals one pond card, and after seven turns each every card is face up. Nobody knows a
face-down card, its owner included, so observations hold only face-up cards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from cardtool.engine.protocol import Seat
from cardtool.errors import UsageError
from cardtool.games.symbiosis import accel, scoring
from cardtool.games.symbiosis.layout import MODES, POND, SLOT_NAMES, START_FACE_UP, TURNS, Mode
from cardtool.games.symbiosis.model import SymbiosisDeck
from cardtool.games.symbiosis.table import CardTable
from cardtool.suggest import did_you_mean


@dataclass(frozen=True, slots=True, eq=False)
class Swap:
    """Take the card at River slot `river` into pond slot `pond`; `flip` is the hidden pond slot turned up
    when the replaced card was face up (None when it was face down).

    There is one Swap per (river, pond, flip): `Swap(0, 1)` returns the same object every time, so equal
    swaps are the same object and equality is identity, decided in C (the playout loop looks every
    chosen action up among dozens of legal ones)."""

    river: int
    pond: int
    flip: int | None = None

    def __new__(cls, river: int, pond: int, flip: int | None = None):
        key = (river, pond, flip)
        swap = _INTERNED.get(key)
        if swap is None:
            swap = _INTERNED[key] = object.__new__(cls)
        return swap

    def __reduce__(self):
        return (Swap, (self.river, self.pond, self.flip))


_INTERNED: dict[tuple, Swap] = {}


@dataclass(frozen=True)
class Observation:
    """What a seat may know: every face-up card (card numbers), None where a card lies face down."""

    seat: int
    mode: str
    players: int
    turn: int
    current_player: int
    ponds: tuple[int | None, ...]  # seat * 8 + slot
    river: tuple[int | None, ...]

    def pond(self, seat: int) -> tuple[int | None, ...]:
        return self.ponds[seat * POND:(seat + 1) * POND]


class SymbiosisGame:
    """Static facts of one game: the deck, the seats, the mode, the seed, and what each column counts."""

    def __init__(self, deck: SymbiosisDeck | CardTable, players: int, mode: str = "standard", seed: int = 0):
        self.table = deck if isinstance(deck, CardTable) else CardTable.of(deck)
        if mode not in MODES:
            hint = did_you_mean(mode, MODES)
            raise UsageError(f"unknown Symbiosis mode '{mode}'" + (f"; {hint}" if hint else "")
                             + f" (modes: {', '.join(MODES)})")
        self.rules: Mode = MODES[mode]
        allowed = self.rules.players(sum(self.table.copies))
        if players not in allowed:
            raise UsageError(players_error(self.rules, players, allowed, sum(self.table.copies)))
        self.players, self.mode, self.seed = players, mode, seed
        self.faces = self.rules.faces(players)
        self.teams = self.rules.teams(players)
        self.river_size = self.rules.river_size
        self.end_turn = TURNS * players
        # Every action there can be, made once: legal_actions hands out these same objects, by
        # [River slot][pond slot][flip slot, or POND for none].
        self.swaps = _swaps(self.river_size)
        # What is face up at the deal, and the legal swaps by a pond's face-up flags (filled as met).
        shown = self.river_size - self.rules.river_hidden
        self._dealt_up = (tuple(slot % POND == START_FACE_UP for slot in range(players * POND)),
                          tuple(slot < shown for slot in range(self.river_size)))
        self._legal: dict[tuple[bool, ...], tuple[Swap, ...]] = {}

    def reseeded(self, seed: int) -> "SymbiosisGame":
        """The same game dealt from another seed: a simulation's next game, its seats not checked again."""
        game = object.__new__(SymbiosisGame)
        game.__dict__.update(self.__dict__)
        game.seed = seed
        return game

    def swap(self, river: int, pond: int, flip: int | None = None) -> Swap:
        return self.swaps[river][pond][POND if flip is None else flip]

    def new_initial_state(self) -> "SymbiosisState":
        cards = self.table.physical()
        accel.shuffle(cards, random.Random(self.seed))
        dealt = self.players * POND
        up, river_up = self._dealt_up
        return SymbiosisState(self, cards[:dealt], up, cards[dealt:dealt + self.river_size], river_up,
                              tuple(cards[dealt + self.river_size:]), 0, [])

    def public(self, seat: int) -> Seat:
        """What a seat's bot may be built from: the card table, mode and seats; never the seed."""
        return Seat(self.table, self.mode, self.players, seat)

    def sample_state(self, observation: Observation, rng: random.Random) -> "SymbiosisState":
        """A world consistent with the observation, dealt from public facts only (as
        observation.sample_state deals it): its game has this one's table, seats and mode, never its seed."""
        return deal_world(SymbiosisGame(self.table, self.players, self.mode, 0), observation, rng)

    def unseen(self, observation: Observation) -> list[int]:
        """Card numbers, one per copy, of every card the observation does not show (face down or boxed)."""
        return unseen(self.table, observation)


@lru_cache(maxsize=None)
def _swaps(river_size: int) -> tuple[tuple[tuple[Swap, ...], ...], ...]:
    """Every Swap with a River of river_size, by [river slot][pond slot][flip slot, or POND for none]."""
    return tuple(tuple(tuple(Swap(r, p, f) for f in [*range(POND), None]) for p in range(POND))
                 for r in range(river_size))


@lru_cache(maxsize=None)
def _legal_swaps(river_size: int, up: tuple[bool, ...]) -> tuple[Swap, ...]:
    """The swaps a seat whose pond cards are face up as `up` may make."""
    hidden = [slot for slot in range(POND) if not up[slot]]
    # Outside Duel every River card is face up; in Duel any of the eight may be taken.
    actions = []
    for by_pond in _swaps(river_size):
        for slot in range(POND):
            if up[slot]:
                actions.extend(by_pond[slot][flip] for flip in hidden)
            else:
                actions.append(by_pond[slot][POND])
    return tuple(actions)


def unseen(table: CardTable, observation: Observation) -> list[int]:
    """Card numbers, one per copy, of every card the observation does not show (face down or boxed)."""
    left = list(table.copies)
    for card in observation.ponds + observation.river:
        if card is not None:
            left[card] -= 1
    return [number for number, count in enumerate(left) for _ in range(count)]


def deal_world(game: "SymbiosisGame", observation: Observation, rng: random.Random) -> "SymbiosisState":
    """A full state of `game` (a world game, seed 0) showing what the observation shows, every face-down
    card dealt at random from the cards it does not show."""
    cards = unseen(game.table, observation)
    accel.shuffle(cards, rng)
    ponds = list(observation.ponds)
    river = list(observation.river)
    for zone in (ponds, river):
        for slot, card in enumerate(zone):
            if card is None:
                zone[slot] = cards.pop()
    return SymbiosisState(game, ponds, tuple(c is not None for c in observation.ponds), river,
                          tuple(c is not None for c in observation.river), tuple(cards), observation.turn, [])


#: Why a Symbiosis game ends: every pond face up after seven turns each (the rules' only ending), or
#: the playout's turn cap (cardtool.engine.protocol.TURN_CAP). A closed set.
COMPLETE = "complete"


def players_error(rules: Mode, players: int, allowed: range, deck_size: int) -> str:
    """Why a mode cannot seat this many players with this deck."""
    if not allowed:
        return (f"the {rules.name} mode cannot be played with this {deck_size}-card deck "
                f"(it needs at least {rules.cards_needed(rules.min_players)} cards)")
    counts = str(allowed.start) if len(allowed) == 1 else f"{allowed.start} to {allowed[-1]}"
    return f"the {rules.name} mode is for {counts} players with this {deck_size}-card deck, not {players}"


class SymbiosisState:
    """A game in progress: card numbers in ponds (flat, seat * 8 + slot) and the River, face-up flags."""

    __slots__ = ("game", "ponds", "up", "river", "river_up", "box", "turn", "_history", "_halted", "_seen")

    def __init__(self, game: SymbiosisGame, ponds: list[int], up: tuple[bool, ...], river: list[int],
                 river_up: tuple[bool, ...], box: tuple[int, ...], turn: int, history: list[Swap]):
        self.game = game
        self.ponds, self.up = ponds, up
        self.river, self.river_up = river, river_up
        self.box = box  # cards not dealt (fewer than four players): never seen
        self.turn = turn
        self._history = history
        self._halted = ""  # the cap that stopped the game early (cardtool.engine.protocol.TURN_CAP)
        # The ponds as the table sees them, kept up to date by apply: every decision asks for them.
        self._seen = [card if shown else None for card, shown in zip(ponds, up)]

    @property
    def current_player(self) -> int:
        game = self.game
        return -1 if self.turn >= game.end_turn or self._halted else self.turn % game.players

    @property
    def history(self) -> Sequence[Swap]:
        return tuple(self._history)

    def is_over(self) -> bool:
        return self.turn >= self.game.end_turn or bool(self._halted)

    @property
    def end_reason(self) -> str:
        """COMPLETE once every pond is face up (the only ending of the rules), the cap that halted it, or ""."""
        return self._halted or (COMPLETE if self.turn >= self.game.end_turn else "")

    @property
    def turns_played(self) -> int:
        return self.turn  # a turn is one swap

    def halt(self, reason: str) -> None:
        """Stop the game before every pond is face up (a cap): nobody wins."""
        self._halted = reason

    def pond(self, seat: int) -> list[int]:
        return self.ponds[seat * POND:(seat + 1) * POND]

    def hidden_slots(self, seat: int) -> list[int]:
        base = seat * POND
        return [slot for slot in range(POND) if not self.up[base + slot]]

    def legal_actions(self) -> list[Swap]:
        game = self.game
        if self.turn >= game.end_turn or self._halted:
            return []
        # The legal swaps depend only on the River's size and which of the seat's pond cards are face up.
        base = self.turn % game.players * POND
        up = self.up[base:base + POND]
        legal = game._legal.get(up)
        if legal is None:
            legal = game._legal[up] = _legal_swaps(game.river_size, up)
        return list(legal)

    def apply(self, action: Swap) -> None:
        """Swap as the action says, trusting it is legal (see cardtool.engine.protocol.apply_checked)."""
        slot = self.turn % self.game.players * POND + action.pond
        ponds, seen = self.ponds, self._seen
        ponds[slot], self.river[action.river] = self.river[action.river], ponds[slot]
        seen[slot] = ponds[slot]
        up = list(self.up)
        up[slot] = True
        if action.flip is not None:
            flipped = slot - action.pond + action.flip
            up[flipped] = True
            seen[flipped] = ponds[flipped]
        self.up = tuple(up)
        if not self.river_up[action.river]:
            self.river_up = self.river_up[:action.river] + (True,) + self.river_up[action.river + 1:]
        self.turn += 1
        self._history.append(action)
        if self.turn >= self.game.end_turn:
            self.river_up = (True,) * len(self.river)  # Duel: the River's hidden cards are flipped

    def pond_scores(self) -> list[int]:
        """Each seat's own pond total."""
        game = self.game
        ponds = [self.pond(seat) for seat in range(game.players)]
        return scoring.totals(game.table, ponds, game.faces, self.river)

    def scores(self) -> list[int]:
        """Each seat's score: its team's total (in standard and Duel, its own pond)."""
        game = self.game
        by_team = scoring.team_totals(self.pond_scores(), game.teams)
        result = [0] * game.players
        for team, total in zip(game.teams, by_team):
            for seat in team:
                result[seat] = total
        return result

    def winners(self) -> list[int]:
        return scoring.winners(self.pond_scores(), self.game.teams) if self.end_reason == COMPLETE else []

    def breakdown(self) -> tuple[scoring.PondScore, ...]:
        """Every pond scored per column and per card (all cards counted, face up or not)."""
        game = self.game
        return scoring.score_table(game.table, [self.pond(s) for s in range(game.players)], game.faces, self.river)

    def observation(self, player: int) -> Observation:
        # The frozen dataclass's fields set in one step, its __dict__ given whole (its __init__ sets them
        # one by one through object.__setattr__): the same value, asked for at every decision of every game.
        game = self.game
        observation = object.__new__(Observation)
        object.__setattr__(observation, "__dict__", {
            "seat": player, "mode": game.mode, "players": game.players, "turn": self.turn,
            "current_player": -1 if self.turn >= game.end_turn or self._halted else self.turn % game.players,
            "ponds": tuple(self._seen), "river": self.seen_river()})
        return observation

    def seen_ponds(self) -> tuple[int | None, ...]:
        """Every pond card as the table sees it: its number face up, None face down."""
        return tuple(self._seen)

    def seen_river(self) -> tuple[int | None, ...]:
        if False not in self.river_up:  # outside Duel, always
            return tuple(self.river)
        return tuple([card if shown else None for card, shown in zip(self.river, self.river_up)])

    def clone(self) -> "SymbiosisState":
        other = SymbiosisState(self.game, self.ponds[:], self.up, self.river[:], self.river_up, self.box,
                               self.turn, self._history[:])
        other._halted = self._halted
        return other

    def describe(self, action: Swap) -> str:
        """The action as the table sees it before it happens (face-down cards stay unnamed)."""
        table = self.game.table
        taken = (table.cards[self.river[action.river]].name if self.river_up[action.river]
                 else "a face-down card")
        slot = self.turn % self.game.players * POND + action.pond
        replaced = (f"face-up {table.cards[self.ponds[slot]].name}" if self.up[slot] else "the face-down card")
        text = (f"take {taken} from River slot {action.river + 1} and swap it with {replaced} "
                f"at {SLOT_NAMES[action.pond]}")
        if action.flip is not None:
            text += f", flipping {SLOT_NAMES[action.flip]}"
        return text
