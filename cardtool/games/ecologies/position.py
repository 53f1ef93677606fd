"""What the Ecologies search's evaluation reads of a position: per seat, the terms GreedyBot's Valuer
knows (VP, webs' health, lasting factor cards, the hand's worth) and counts of what is on the table and
in hand (organisms that fit a web and the VP of the two best, biome and factor cards, attacks held,
webs one role short of healthy, VP exposed to the destroy cards), and a few facts of the game (cards
left in the deck and the discard pile, the turn, whether the other seat still plays this round).

Each seat's terms are valued from that seat's own observation of the state (a world the search dealt
itself, never the real game). Imports valuer.py; imported by evaluation.py and the refit script.
"""

from __future__ import annotations

from cardtool.games.ecologies.arrange import fits as fits_web
from cardtool.games.ecologies.valuer import Valuer

#: One seat's terms, in the order seat_terms returns them.
SEAT_TERMS = ("vp", "webs", "lasting", "hand", "hand_size", "healthy", "ecologies", "fits", "fit_vp",
              "organisms", "biomes_held", "factors_held", "attacks_held", "near_healthy", "bonuses", "exposed_vp")
#: The game's facts, in the order game_terms returns them.
GAME_TERMS = ("deck", "discard", "turn", "replies")
#: Effect words that hurt an opponent's table or hand.
ATTACKS = frozenset(("destroy", "discard_random", "discard_matching", "force_trade"))
#: Roles an organism may be destroyed in by the deck's destroy cards (acting C2 or above).
EXPOSED_ROLES = frozenset(("C2", "C3", "C4"))
HEALTHY_ROLES = frozenset(("P", "C1", "C2", "C3", "SD"))


def valued(game, state, seat: int) -> tuple[Valuer, float, float, float]:
    """GreedyBot's Valuer from the seat's own observation, and what it makes of the seat's webs (health
    and food security), of its lasting factor cards and of its hand's best six cards."""
    valuer = Valuer(game, state.observation(seat))
    table = game.table
    webs = sum(0.4 + valuer.eco_value(eco.code, eco.biome, eco.cards) for eco in valuer.mine)
    placed = [card for card, owner in state.table_factors if owner == seat]
    placed += [card for eco in state.ecos.values() for card, placer in eco.factors if placer == seat]
    lasting = sum(valuer.effect_value(e, ongoing=True) for card in placed for e in table.effects[card]
                  if e.trigger != "play" and e.action not in ("gain_vp", "vp_per"))
    hand = sum(sorted((valuer.card_value(c) for c in valuer.hand), reverse=True)[:6])
    return valuer, webs, lasting, hand


def seat_terms(game, state, seat: int) -> list[float]:
    """One seat's terms (SEAT_TERMS)."""
    valuer, webs, lasting, hand = valued(game, state, seat)
    table = game.table
    kind, vp = table.kind, table.vp_float
    fitting = [vp[c] for c in valuer.hand if kind[c] == "organism" and any(
        eco.code in table.biomes[c] and fits_web(table, eco.code, eco.cards + (c,)) for eco in valuer.mine)]
    fitting.sort(reverse=True)
    factors = [c for c in valuer.hand if kind[c] == "factor"]
    attacks = sum(1 for c in factors if any(e.action in ATTACKS and e.target != "you" for e in table.effects[c]))
    healthy = near = organisms = 0
    bonuses = exposed = 0.0
    for eco in valuer.mine:
        organisms += len(eco.cards)
        filled = len(HEALTHY_ROLES.intersection(eco.roles))
        if eco.healthy:
            healthy += 1
            bonuses += valuer.bonus_value(eco.biome)
        elif filled == 4:
            near += 1
        exposed += sum(vp[c] for c, role in zip(eco.cards, eco.roles) if role in EXPOSED_ROLES)
    return [float(state.vp(seat)), webs, lasting, hand, float(len(valuer.hand)), float(healthy),
            float(len(valuer.mine)), float(len(fitting)), sum(fitting[:2]), float(organisms),
            float(sum(1 for c in valuer.hand if kind[c] == "biome")), float(len(factors)), float(attacks),
            float(near), bonuses, exposed]


def game_terms(game, state, mover: int) -> list[float]:
    """The game's facts (GAME_TERMS) after `mover`'s turn: cards left to draw, the turn, and whether
    another seat still plays in this round (the round ending: it may yet pass 12 VP)."""
    replies = float(mover < game.players - 1)
    return [float(len(state.deck)), float(len(state.discard)), float(state.turn), replies]
