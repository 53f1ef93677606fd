"""The turn of Ecologies: what may be done now (`legal_actions`, a pure query), and the numbers of a turn.

Multiplayer and simplified turn: draw 2 -> trade (offers to every opponent, answered in turn order) -> play up to 2
-> purchase (4 cards from hand buy 1; an own ecology buys 1 per 3 of its cards) -> next seat. Single
player: draw 4 -> discard 3 -> play up to 2 -> purchase. turns.py applies the actions. Every decision
where docs/rules/ecologies.md says the rulebook is silent is taken here, in turns.py or in effects.py.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import repeat
from operator import is_

from cardtool.games.ecologies import effects
from cardtool.games.ecologies.actions import (
    DECLINE, END_PHASE, Accept, Arrange, BuyWith, ChooseCard, ChoosePlayer, DestroyEcology, Discard, Draw, Move, Offer, Play,
    UseBonus)
from cardtool.games.ecologies.arrange import fits, fits_with
from cardtool.games.ecologies.options import RULE_OPTIONS
from cardtool.games.ecologies.state import EcologiesState
from cardtool.games.ecologies.table import matches

HAND_SIZE = 7
PLAYS_PER_TURN = 2
DRAWS = {"multi": 2, "simplified": 2, "single": 4}
SINGLE_DISCARDS = 3
BUY_COST = 4  # cards from hand per card bought
ECOLOGY_COST = 3  # cards of a destroyed ecology per card bought
TARGET_VP = 12
#: How reaching TARGET_VP ends the game (deck.yaml `rules: {ending: {choice: ...}}`): `immediate`, the
#: rulebook's "the winner is the first person to reach 12 victory points", at once; `round`, the project's
#: rule (docs/rules/ecologies.md), at the end of the round in which a player has 12, so every seat has had
#: as many turns. The first is the default: a deck that names no ending plays the rulebook's.
ENDINGS = RULE_OPTIONS["ending"]
#: What each seat draws on its first turn (deck.yaml `rules: {opening: {choice: ...}}`): `equal`, the
#: rulebook's (every turn draws 2); `first-player-draws-3`, the project's rule (docs/rules/ecologies.md):
#: the first player draws 3 on their first turn, since with the `round` ending the first seat, whom every
#: other seat answers before the round ends, won least. The first is the default.
OPENINGS = RULE_OPTIONS["opening"]


def first_turn_extra(opening: str, seat: int) -> int:
    """Cards a seat draws on its first turn beyond the turn's draw, by the opening rule."""
    return 1 if opening == "first-player-draws-3" and seat == 0 else 0


#: A playtest safeguard, not a rulebook rule: a game still going after this many rounds ends, and the
#: most VP wins (bots that keep buying recycle the deck, and could otherwise play on for ever). Games
#: of bots that try to win end long before (4 greedy players: 9 rounds on average, rarely over 20); a
#: single player plays the deck out, which takes longer.
MAX_ROUNDS = {"multi": 60, "simplified": 60, "single": 200}
#: Offers a player may make in one turn: trading ends, even among bots that would never stop.
OFFERS_PER_TURN = 3
_DRAW_CHOICES = [Draw(False), Draw(True)]


# -- legal actions


class Legal(list):
    """A list of legal actions that answers `in` by identity first: a bot returns one of them, and the
    playout's check would otherwise compare it with every action before it (dataclass __eq__ calls)."""

    __slots__ = ()

    def __contains__(self, action) -> bool:
        return any(map(is_, self, repeat(action))) or list.__contains__(self, action)


def legal_actions(state: EcologiesState) -> list:
    """What the current player may do now. Never changes the state."""
    if state.over:
        return []
    if state.stack:
        return choice_options(state, state.stack[-1])  # a few answers: a plain list will do
    seat, phase = state.seat, state.phase
    actions = Legal()
    if phase == "trade":
        actions += offers(state, seat)
    actions += plays(state, seat, free_only=phase != "play")
    if phase == "play":
        actions += moves(state, seat)
    actions += bonuses(state, seat)
    if phase == "purchase":
        actions += purchases(state, seat)
    actions.append(END_PHASE)
    return actions


def choice_options(state: EcologiesState, frame: tuple) -> list:
    """The answers to a pending choice (empty: the choice lapses)."""
    kind = frame[0]
    hands = state.hands
    if kind == "draw":
        return _DRAW_CHOICES if effects.may_draw_from_discard(state, frame[1]) else []
    if kind == "offer":
        accept = per_card(state.game.table, Accept)
        return [accept[c] for c in acceptable(state, frame[1], frame[4])] + [DECLINE]
    if kind == "seat":
        return [ChoosePlayer(s) for s in effects.eligible_opponents(state, frame[1], frame[4])]
    if kind == "give":
        _, controller, seat, _, _ = frame
        choose = per_card(state.game.table, ChooseCard)
        return [choose[c] for c in sorted(hands[controller])] if hands[seat] else []
    if kind == "destroy":
        _, controller, _, effect, owners, targeted, left = frame
        choose = per_card(state.game.table, ChooseCard)
        return [choose[c] for c in effects.destroy_candidates(state, controller, effect, owners, targeted)]
    if kind == "take":
        choose = per_card(state.game.table, ChooseCard)
        return [choose[c] for c in effects.take_candidates(state, frame[2], frame[4])]
    if kind == "buy":
        buy = per_card(state.game.table, BuyWith)
        return [buy[c] for c in sorted(hands[frame[1]])]
    if kind == "discard":
        discard = per_card(state.game.table, Discard)
        return [discard[c] for c in sorted(hands[frame[1]])]
    if kind == "rescue":
        table = state.game.table
        return [play_action(table, card, eco) for card, eco in effects.rescue_plays(state, frame)] + [END_PHASE]
    if kind == "arrange":
        return [Arrange(frame[2], roles) for roles in frame[3]]
    return []


def per_card(table, cls) -> tuple:
    """`cls(card)` for every card of the table, made once (legal_actions lists many of them)."""
    found = table.card_actions.get(cls)
    if found is None:
        found = table.card_actions[cls] = tuple(cls(card) for card in range(table.size))
    return found


def play_action(table, card: int, ecology: int = -1) -> Play:
    """The Play action of a card (onto an ecology), made once per card table."""
    found = table.card_actions.get((card, ecology))
    if found is None:
        found = table.card_actions[(card, ecology)] = Play(card, ecology)
    return found


def offers(state: EcologiesState, seat: int) -> list[Offer]:
    """Offers of one card from hand to the table, for any card or for a card of any biome of the deck
    (what a player may ask for says nothing about their hand: it is table talk); at most
    OFFERS_PER_TURN a turn, never the same offer twice."""
    hand = state.hands[seat]
    if len(state.offers) >= OFFERS_PER_TURN or not hand or state.game.mode == "single":
        return []
    table = state.game.table
    by_card = table.offers_by_card or _offers_by_card(table)
    made = state.offers
    offered = {card for card, _ in made}
    every: list[Offer] = []
    for card in sorted(hand):
        if card in offered:  # only an offered card's list loses offers
            every += [offer for offer in by_card[card] if (card, offer.want) not in made]
        else:
            every += by_card[card]
    return every


def _offers_by_card(table) -> tuple[tuple[Offer, ...], ...]:
    """Per card, its Offer actions for every want, made once per card table (legal_actions lists many)."""
    wants = want_codes(table)
    table.offers_by_card = tuple(tuple(Offer(card, want) for want in wants) for card in range(table.size))
    return table.offers_by_card


def want_codes(table) -> tuple[str, ...]:
    """What an offer may ask for: any card (""), or a card of one of the deck's biomes."""
    return _wants(table.code)


@lru_cache(maxsize=32)
def _wants(codes: tuple[str, ...]) -> tuple[str, ...]:
    return ("",) + tuple(sorted({code for code in codes if code}))


def acceptable(state: EcologiesState, seat: int, want: str) -> list[int]:
    """The cards a seat could give for an offer wanting biome `want` (any card when empty)."""
    biomes = state.game.table.biomes
    return [c for c in sorted(state.hands[seat]) if not want or want in biomes[c]]


def responders(state: EcologiesState, offerer: int, want: str) -> tuple[int, ...]:
    """The seats asked: every opponent, in turn order from the offerer's left. Each answers in public,
    accepting with a card of the wanted biome or declining (a seat without one can only decline), so
    who is asked says nothing about anyone's hand."""
    players = state.game.players
    return tuple((offerer + k) % players for k in range(1, players))


def plays_left(state: EcologiesState, seat: int) -> int:
    extra = sum(a.effect.amount for a in state.ongoing(seat, "extra_play"))
    return PLAYS_PER_TURN + extra - state.plays_used


def is_free(state: EcologiesState, seat: int, card: int) -> bool:
    """Whether a card may be played without using a play (free_play in force, e.g. healthy Riparian)."""
    free = state.ongoing(seat, "free_play")
    if not free:
        return False
    table = state.game.table
    return any(matches(table, a.effect.filter, card, owner_relation="you", acting=None, code=None) for a in free)


def plays(state: EcologiesState, seat: int, *, free_only: bool) -> list[Play]:
    table = state.game.table
    left = not free_only and plays_left(state, seat) > 0
    if not left and not state.ongoing(seat, "free_play"):
        return []  # no play left and nothing to play free
    hand = state.hands[seat]
    own = [eco for eco in state.ecos.values() if eco.owner == seat]
    result = []
    for card in sorted(hand):
        if not left and not is_free(state, seat, card):
            continue
        kind = table.kind[card]
        if kind == "biome":
            result.append(play_action(table, card))
        elif kind == "organism":
            living = table.biomes[card]
            for eco in own:
                if eco.code in living and fits_with(table, eco.code, eco.cards, eco.roles, card):
                    result.append(play_action(table, card, eco.biome))
        else:
            result += factor_plays(state, seat, card, len(hand) - 1)
    return result


def factor_plays(state: EcologiesState, seat: int, card: int, hand_after: int) -> list[Play]:
    table = state.game.table
    placement = table.placement[card]
    card_effects = table.effects[card]
    if not any(effects.usable(state, e) for e in card_effects):
        return []
    if placement == "web":
        return [play_action(table, card, eco.biome) for eco in state.ecos.values()
                if eco.owner == seat or (state.game.mode != "single" and not state.protected(eco.owner, eco.biome, seat))]
    if placement == "table":
        return [play_action(table, card)]
    if any(e.trigger == "play" and effects.can_do(state, seat, e, hand_after=hand_after) for e in card_effects):
        return [play_action(table, card)]
    return []


def moves(state: EcologiesState, seat: int) -> list[Move]:
    """Organisms (not producers) moving to another of their owner's ecologies, once per card and turn;
    both webs must stay fully fed."""
    table = state.game.table
    own = [eco for eco in state.ecos.values() if eco.owner == seat]
    if len(own) < 2:
        return []
    result = []
    for eco in own:
        for card, role in zip(eco.cards, eco.roles):
            if role == "P" or card in state.moved:
                continue
            targets = [other for other in own if other is not eco and other.code in table.biomes[card]
                       and fits_with(table, other.code, other.cards, other.roles, card)]
            if targets and fits(table, eco.code, tuple(c for c in eco.cards if c != card)):
                result += [Move(card, other.biome) for other in targets]
    return result


def bonuses(state: EcologiesState, seat: int) -> list[UseBonus]:
    """Activated effects in force for this seat whose every-other-turn count allows a use now."""
    result = []
    hand = len(state.hands[seat])
    for active in state.active():
        effect = active.effect
        if active.controller != seat or effect.trigger != "activated":
            continue
        if ready(state, seat, active.source, active.index, effect.every) and effects.can_do(
                state, seat, effect, hand_after=hand):
            result.append(UseBonus(active.source, active.index))
    return result


def ready(state: EcologiesState, seat: int, source: int, index: int, every: int) -> bool:
    """Every `every` turns of its controller: usable the first turn it is available, then after
    `every` of the controller's turns, however its ecology's health came and went meanwhile."""
    last = state.counters.get((source, index))
    return last is None or state.own_turns[seat] - last >= every


def purchases(state: EcologiesState, seat: int) -> list:
    result: list = []
    if len(state.hands[seat]) >= BUY_COST and can_buy(state):
        buy = per_card(state.game.table, BuyWith)
        result += [buy[c] for c in sorted(state.hands[seat])]
    destroy = per_card(state.game.table, DestroyEcology)
    result += [destroy[eco.biome] for eco in state.ecos.values()
               if eco.owner == seat and (1 + len(eco.cards)) >= ECOLOGY_COST]
    return result


def can_buy(state: EcologiesState) -> bool:
    """A card can be bought while the deck has one (or, in the multiplayer game, the discard pile will)."""
    return bool(state.deck) or state.can_reshuffle()
