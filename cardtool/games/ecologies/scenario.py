"""Build a game position from card ids: for rule tests, examples and designers trying a situation.

    state = position(game, seat=0, phase="play",
                     hands={0: ["wildfire"], 1: ["toyon"]},
                     ecologies=[(1, "cave", ["sulfur-oxidizing-bacteria", "cave-amphipod"])],
                     deck_top=["el-nino-rains"])

Cards not placed go to the deck in a seeded order below `deck_top` (whose first card is drawn first),
or all to the discard pile or to one seat's hand (`rest`). Ecologies are arranged by the solver, as the
engine would arrange them for their owner.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence

from cardtool.errors import UnknownCardError
from cardtool.games.ecologies.state import Eco, EcologiesState

EcologySpec = tuple  # (owner, biome card id, [organism ids]) or with [(factor id, placer)] as a 4th item


def position(game, *, seat: int = 0, phase: str = "play", hands: Mapping[int, Sequence[str]] | None = None,
             ecologies: Iterable[EcologySpec] = (), table_factors: Iterable[tuple[str, int]] = (),
             discard: Sequence[str] = (), deck_top: Sequence[str] = (), rest: str | int = "deck",
             own_turns: int = 1) -> EcologiesState:
    """A state of `game` with these cards where given, `seat` to act in `phase` with no choice pending.

    `rest`: where the cards not placed go: "deck" (below `deck_top`), "discard" (below `discard`) or a
    seat number (that hand). `own_turns` is every seat's count of turns begun (every-other-turn counts).
    """
    table = game.table
    pool = list(range(table.size))

    def take(card_id: str) -> int:
        for number in pool:
            if table.ids[number] == card_id:
                pool.remove(number)
                return number
        if card_id in table.def_index:
            raise UnknownCardError(f"no copy of '{card_id}' is left to place")
        raise UnknownCardError(f"deck '{table.deck.manifest.id}' has no card '{card_id}'")

    players = game.players
    hand_cards = [[take(c) for c in (hands or {}).get(s, ())] for s in range(players)]
    state = EcologiesState(game, random.Random(game.seed), [], hand_cards)
    state.turn, state.phase = seat, phase
    state.own_turns = [own_turns] * players
    for spec in ecologies:
        owner, biome_id, organism_ids = spec[:3]
        biome = take(biome_id)
        state.ecos[biome] = Eco(biome, owner, table.code[biome], (), ())
        factors = tuple((take(f), placer) for f, placer in (spec[3] if len(spec) > 3 else ()))
        organisms = [take(o) for o in organism_ids]
        dropped = state.arrange_eco(biome, organisms, factors=factors)
        if dropped:
            raise ValueError(f"{', '.join(table.ids[c] for c in dropped)} cannot be fed in {biome_id}")
    state.table_factors = tuple((take(f), owner) for f, owner in table_factors)
    state.discard = [take(c) for c in discard]
    top = [take(c) for c in deck_top]
    random.Random(game.seed).shuffle(pool)
    if rest == "deck":
        state.deck = pool + top[::-1]
    elif rest == "discard":
        state.deck = top[::-1]
        state.discard = pool + state.discard
    else:
        state.deck = top[::-1]
        state.hands[rest] += pool
    state.events.clear()
    state.changed()
    from cardtool.games.ecologies.turns import settle

    settle(state, seat)
    return state
