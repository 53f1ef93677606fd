"""Every action of Ecologies as a small frozen value. Cards and ecologies are card numbers (an ecology is
named by its biome card); seats are 0-based. See docs/rules/ecologies.md for when each is legal."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw one card, from the discard pile (its top card) instead of the deck (healthy Urban)."""

    from_discard: bool


@dataclass(frozen=True, slots=True)
class Offer:
    """Offer a card from hand to the table, for any card (want "") or a card of biome `want`: the other
    seats answer in turn order, and the first to accept trades."""

    card: int
    want: str = ""


@dataclass(frozen=True, slots=True)
class Accept:
    """Accept the offer on the table, giving this card back."""

    card: int


@dataclass(frozen=True, slots=True)
class Decline:
    """Refuse the offer on the table (the next seat is asked)."""


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card from hand: a biome starts an ecology; an organism or a web factor goes on `ecology`."""

    card: int
    ecology: int = -1


@dataclass(frozen=True, slots=True)
class Move:
    """Move one of your organisms (not a producer) to another of your ecologies."""

    card: int
    ecology: int


@dataclass(frozen=True, slots=True)
class UseBonus:
    """Use an activated effect of a healthy ecology (source: its biome card) or of a table card."""

    source: int
    effect: int


@dataclass(frozen=True, slots=True)
class ChoosePlayer:
    """Answer a pending choice of player (an opponent to target)."""

    seat: int


@dataclass(frozen=True, slots=True)
class ChooseCard:
    """Answer a pending choice of card (to destroy, to give, to take from the discard pile)."""

    card: int


@dataclass(frozen=True, slots=True)
class Arrange:
    """Answer a pending choice of arrangement: the role of each organism of `ecology`, in the order of
    its cards, one of the arrangements offered (all keep the same cards fed; see arrange.alternatives)."""

    ecology: int
    roles: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Discard:
    """Single-player game: discard a card after drawing."""

    card: int


@dataclass(frozen=True, slots=True)
class BuyWith:
    """Purchase: discard this card towards the next four that buy one new card."""

    card: int


@dataclass(frozen=True, slots=True)
class DestroyEcology:
    """Purchase: destroy one of your ecologies for one new card per three of its cards."""

    ecology: int


@dataclass(frozen=True, slots=True)
class EndPhase:
    """Finish trading, finish playing, or finish purchasing (which ends the turn)."""


Action = (Draw | Offer | Accept | Decline | Play | Move | UseBonus | ChoosePlayer | ChooseCard | Arrange | Discard
          | BuyWith | DestroyEcology | EndPhase)
ACTION_TYPES = {cls.__name__: cls for cls in (Draw, Offer, Accept, Decline, Play, Move, UseBonus, ChoosePlayer,
                                                ChooseCard, Arrange, Discard, BuyWith, DestroyEcology, EndPhase)}
END_PHASE = EndPhase()
DECLINE = Decline()


def action_from_json(data: dict[str, Any]):
    """The action a `--log` line holds (see cardtool.engine.playout.action_json)."""
    fields = {key: tuple(value) if isinstance(value, list) else value for key, value in data.items()}
    cls = ACTION_TYPES[fields.pop("type")]
    return cls(**fields)
