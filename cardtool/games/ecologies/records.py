"""What `cardtool simulate` learns from one Ecologies game (cardtool.games.plugin.RecordsGames).

Everything is read from the final state's events (state.py), so nothing is replayed. Card events:
`dealt` (in the opening hand), `drawn` (from the deck or the discard pile, purchases included),
`played` (from hand onto the table), `destroyed` (by a factor card), `starved` (discarded for want of
food) and `kept` (on the seat's ecologies at the end). Extras: `biomes` (for each biome started in the
game, the first turn, counted from 1, at which any web of it was healthy, or None) and
`points_by_source` (organisms and effects, per seat). End reasons: the state's (state.END_REASONS).
"""

from __future__ import annotations

from cardtool.engine.protocol import TURN_CAP
from cardtool.games.ecologies.rules import MAX_ROUNDS, TARGET_VP
from cardtool.games.ecologies.state import CAPS, DECK_OUT, EXHAUSTED, ROUND_CAP, TARGET
from cardtool.games.plugin import EndReason, GameRecord

END_REASONS = (
    EndReason(TARGET, f"a player reached {TARGET_VP} VP"),
    EndReason(EXHAUSTED, "deck and discard pile exhausted, then a round of turns without a card played"),
    EndReason(DECK_OUT, "the deck ran out (simplified game; alone: the deck used up, then the hand played out)"),
    EndReason(ROUND_CAP, f"stopped by the engine's safeguard after {MAX_ROUNDS['multi']} rounds, "
                         f"{MAX_ROUNDS['single']} alone (engine.MAX_ROUNDS): not a rulebook ending", cap=True),
    EndReason(TURN_CAP, "stopped after --max-turns turns: not a rulebook ending", cap=True),
)
CARD_EVENTS = ("dealt", "drawn", "played", "destroyed", "starved", "kept")
IMPACT_EVENT = "played"  # the seat put the card on the table
CHOICE_EVENT = "played"  # a card the bots never play is flagged


def record(game, final) -> GameRecord:
    table = game.table
    ids = table.ids
    players = game.players
    cards = {event: [[] for _ in range(players)] for event in CARD_EVENTS}
    curve = []
    biomes: dict[str, int | None] = {}
    for turn, kind, seat, card, detail in final.events:
        if kind == "draw":
            cards["dealt" if detail == "deal" else "drawn"][seat].append(ids[card])
        elif kind == "take":
            cards["drawn"][seat].append(ids[card])
        elif kind == "play":
            cards["played"][seat].append(ids[card])
            if table.kind[card] == "biome":
                biomes.setdefault(table.code[card], None)
        elif kind == "destroy":
            cards["destroyed"][seat].append(ids[card])
        elif kind == "discard" and detail == "starved":
            cards["starved"][seat].append(ids[card])
        elif kind == "healthy" and biomes.get(detail) is None:
            biomes[detail] = turn + 1
        elif kind == "round":
            curve.append(detail)
    scores = tuple(final.scores())
    if not curve or curve[-1] != scores:
        curve.append(scores)
    for eco in final.ecos.values():
        cards["kept"][eco.owner] += [ids[c] for c in eco.cards]
    points = []
    for seat in range(players):
        organisms = sum(len(e.cards) if game.mode == "simplified" else table.vp_sum(e.cards)
                        for e in final.ecos.values() if e.owner == seat)
        points.append({"organisms": float(organisms), "effects": float(scores[seat] - organisms)})
    return GameRecord(
        scores=scores, winners=tuple(final.winners()), turns=final.turns_played, curve=tuple(curve),
        end_reason=final.end_reason, capped=final.end_reason in CAPS,
        cards={event: tuple(map(tuple, seats)) for event, seats in cards.items()},
        extras={"biomes": biomes, "points_by_source": points})
