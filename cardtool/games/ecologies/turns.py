"""Applying Ecologies actions: each action's handler, the frames that follow it, and the turn's flow.

`apply` trusts its caller (cardtool.engine.protocol.apply_checked checks against rules.legal_actions).
After the handler, automatic frames run until a choice waits; the current player's webs are rearranged
if their role bonuses changed; and a player at 12 VP ends the game at once (or, with the `round` ending,
at the end of the round).
"""

from __future__ import annotations

from cardtool.games.ecologies import effects
from cardtool.games.ecologies.actions import (
    Accept, Arrange, BuyWith, ChooseCard, ChoosePlayer, Decline, DestroyEcology, Discard, Draw, EndPhase, Move, Offer,
    Play, UseBonus)
from cardtool.games.ecologies.rules import (
    BUY_COST, DRAWS, ECOLOGY_COST, SINGLE_DISCARDS, choice_options, first_turn_extra, is_free, ready, responders)
from cardtool.games.ecologies.state import DECK_OUT, EXHAUSTED, ROUND_CAP, TARGET, Eco, EcologiesState


def apply(state: EcologiesState, action) -> None:
    """Apply a legal action (trusted: see cardtool.engine.protocol.apply_checked), then run what follows."""
    state._history.append(action)
    HANDLERS[type(action)](state, action)
    run(state)
    if not state.over:
        settle(state, state.seat)
        check_target(state)


#: Choices that can always be answered (an offer can be declined, a rescue ended): never lapse.
ALWAYS_ANSWERED = frozenset(("offer", "rescue"))


def run(state: EcologiesState) -> None:
    """Resolve automatic frames until a choice waits for an answer or nothing is left to resolve."""
    stack = state.stack
    while stack and not state.over:
        frame = stack[-1]
        kind = frame[0]
        if kind == "job":
            stack.pop()
            effects.run_job(state, frame)
        elif kind == "phase":
            stack.pop()
            state.phase = frame[2]
        elif kind == "limbo":
            stack.pop()
            state.limbo.remove(frame[2])
            state.to_discard(frame[2], frame[1], "used")
        elif kind == "draw":
            if effects.may_draw_from_discard(state, frame[1]):
                return
            stack.pop()
            for _ in range(frame[2]):
                state.draw_one(frame[1], "deck", frame[3])
        elif kind in ALWAYS_ANSWERED or choice_options(state, frame):
            return
        else:
            stack.pop()  # nothing to choose from: the choice lapses


def settle(state: EcologiesState, seat: int) -> None:
    """On its owner's turn, rearrange each ecology whose role bonuses changed (e.g. Mangrove turned
    healthy, Pollinators played): the owner may rearrange freely during their own turn."""
    # Known settled until what is in force changes (changed(): new role weights, or a new ecology): every
    # arrangement made meanwhile took the weights in force, so none of this seat's ecologies can be stale.
    settled = ("settled", seat)
    if settled in state._forces:
        return
    for _ in range(4):  # a rearrangement can change health, hence bonuses, hence weights; this settles
        stale = [eco for eco in state.ecos.values()
                 if eco.owner == seat and eco.weights != state.role_weights(seat, eco.code)]
        if not stale:
            state._forces[settled] = True
            return
        for eco in stale:
            state.arrange_eco(eco.biome, eco.cards)
            effects.ask_arrangement(state, eco.biome)


def check_target(state: EcologiesState) -> None:
    """Multiplayer and simplified games end as soon as a player has 12 VP (the rulebook's ending; with
    the `round` ending, end_turn checks at the end of each round instead)."""
    if state.game.mode != "single" and state.game.ending == "immediate" and target_reached(state):
        state.finish(TARGET)


def target_reached(state: EcologiesState) -> bool:
    """Whether a player has 12 VP."""
    reached = state._derived.get("target")  # scores change only with the table
    if reached is None:
        target = state.game.target_vp * state.vp_denominator()
        reached = state._derived["target"] = any(state.vp_units(s) >= target for s in range(state.game.players))
    return reached


def end_turn(state: EcologiesState) -> None:
    """The end of a turn: the rulebook's endings of each mode, the round's score, the round cap."""
    game = state.game
    if game.mode == "single":
        if not state.deck and (not state.played or not state.hands[0]):
            state.finish(DECK_OUT)  # "keep playing until the deck runs out ... play any remaining cards"
    elif game.mode == "simplified":
        if not state.deck:
            state.finish(DECK_OUT)  # "if the deck is depleted before anyone achieves 12 VP"
    else:
        # "If both the main deck and discard pile are depleted, players keep playing until more cards
        # are discarded or a round of turns is completed without anyone playing a card."
        state.quiet = state.quiet + 1 if not (state.deck or state.discard or state.played) else 0
        if state.quiet >= game.players:
            state.finish(EXHAUSTED)
    if (state.turn + 1) % game.players == 0:  # a round ends: the score curve of cardtool simulate
        state.log("round", -1, -1, tuple(state.scores()))
        if not state.over and game.ending == "round" and game.mode != "single" and target_reached(state):
            state.finish(TARGET)  # the `round` ending: a player has 12 VP at the end of a round
    if not state.over and state.turn + 1 >= game.max_rounds * game.players:
        state.finish(ROUND_CAP)  # the engine's safeguard (engine.MAX_ROUNDS): nobody wins
    if not state.over:
        state.turn += 1
        start_turn(state)


def start_turn(state: EcologiesState) -> None:
    """Begin the turn of state.seat: its turn_start effects, then the draw (and discard, alone)."""
    seat = state.seat
    state.own_turns[seat] += 1
    state.plays_used = 0
    state.offers = ()
    state.moved = ()
    state.played = False
    state.phase = "draw"
    state.log("turn", seat, -1, state.round)
    settle(state, seat)
    stack = state.stack
    if state.game.mode == "single":
        stack.append(("phase", seat, "play"))
        if state.deck:  # once the deck is used up, the hand is played out without drawing
            stack.append(("discard", seat, SINGLE_DISCARDS))
            stack.append(("draw", seat, DRAWS["single"], "turn"))
    else:
        stack.append(("phase", seat, "trade"))
        first = first_turn_extra(state.game.opening, seat) if state.own_turns[seat] == 1 else 0
        stack.append(("draw", seat, DRAWS[state.game.mode] + first, "turn"))
    for active in reversed(state.active()):
        effect = active.effect
        if (active.controller == seat and effect.trigger == "turn_start" and effects.usable(state, effect)
                and ready(state, seat, active.source, active.index, effect.every)):
            state.counters[(active.source, active.index)] = state.own_turns[seat]
            effects.start(state, seat, seat, active.source, (effect,))
    run(state)


def _draw(state: EcologiesState, action: Draw) -> None:
    _, seat, count, why = state.stack.pop()
    state.draw_one(seat, "discard" if action.from_discard else "deck", why)
    if count > 1:
        state.stack.append(("draw", seat, count - 1, why))


def _offer(state: EcologiesState, action: Offer) -> None:
    seat = state.seat
    state.offers += ((action.card, action.want),)
    if action.card not in state.known[seat]:  # shown to the table: trades are open
        state.known[seat] = tuple(sorted(state.known[seat] + (action.card,)))
    state.log("offer", seat, action.card, action.want)
    asked = responders(state, seat, action.want)
    if asked:
        state.stack.append(("offer", asked[0], seat, action.card, action.want, asked[1:]))
    else:
        state.log("no_taker", seat, action.card, action.want)


def _accept(state: EcologiesState, action: Accept) -> None:
    _, responder, offerer, card, _, _ = state.stack.pop()
    state.from_hand(offerer, card)
    state.from_hand(responder, action.card)
    state.to_hand(responder, card, public=True)
    state.to_hand(offerer, action.card, public=True)
    state.log("give", offerer, card, responder)
    state.log("give", responder, action.card, offerer)


def _decline(state: EcologiesState, action: Decline) -> None:
    _, responder, offerer, card, want, rest = state.stack.pop()
    state.log("decline", responder, card, offerer)
    if rest:
        state.stack.append(("offer", rest[0], offerer, card, want, rest[1:]))
    else:
        state.log("no_taker", offerer, card, want)


def _play(state: EcologiesState, action: Play) -> None:
    if state.stack and state.stack[-1][0] == "rescue":
        _rescue(state, action)
        return
    seat, card = state.seat, action.card
    table = state.game.table
    if not is_free(state, seat, card):
        state.plays_used += 1
    state.from_hand(seat, card)
    state.played = True
    state.log("play", seat, card, action.ecology)
    kind = table.kind[card]
    if kind == "biome":
        state.ecos[card] = Eco(card, seat, table.code[card], (), ())
        state.changed()
        return
    if kind == "organism":
        eco = state.ecos[action.ecology]
        state.arrange_eco(eco.biome, eco.cards + (card,))
        effects.ask_arrangement(state, eco.biome)  # chosen once what the new card triggers has run
        effects.web_gains(state, eco.biome, card)
        return
    placement = table.placement[card]
    if placement == "web":
        eco = state.ecos[action.ecology]
        state.ecos[eco.biome] = eco._replace(factors=eco.factors + ((card, seat),))
        state.changed()
        effects.web_gains(state, eco.biome, card)
    elif placement == "table":
        state.table_factors += ((card, seat),)
        state.changed()
    else:
        state.limbo.append(card)
        state.stack.append(("limbo", seat, card))
    effects.start(state, seat, seat, card, [e for e in table.effects[card] if e.trigger == "play"])


def _rescue(state: EcologiesState, action: Play) -> None:
    """Out of turn, a free play (healthy Riparian) into a disturbed web; its starving cards try again."""
    _, owner, biome, waiting, free = state.stack.pop()
    state.from_hand(owner, action.card)
    state.played = True
    state.log("play", owner, action.card, action.ecology)
    eco = state.ecos[action.ecology]
    state.arrange_eco(eco.biome, eco.cards + (action.card,))
    effects.web_gains(state, eco.biome, action.card)
    for card in waiting:
        state.limbo.remove(card)
    disturbed = state.ecos[biome]
    still = state.arrange_eco(biome, disturbed.cards + waiting)
    state.limbo.extend(still)
    if still:
        state.stack.append(("rescue", owner, biome, still, free))
    else:
        for web in dict.fromkeys((biome, action.ecology)):
            effects.ask_arrangement(state, web)


def _move(state: EcologiesState, action: Move) -> None:
    source = state.eco_of(action.card)
    state.arrange_eco(source.biome, tuple(c for c in source.cards if c != action.card))
    target = state.ecos[action.ecology]
    state.arrange_eco(target.biome, target.cards + (action.card,))
    state.moved += (action.card,)
    state.log("move", state.seat, action.card, action.ecology)
    effects.ask_arrangement(state, source.biome)
    effects.ask_arrangement(state, target.biome)  # asked first


def _arrange(state: EcologiesState, action: Arrange) -> None:
    """The owner's choice among equally good arrangements: only the roles change."""
    state.stack.pop()
    eco = state.ecos[action.ecology]
    state.ecos[action.ecology] = eco._replace(roles=action.roles)
    state.rescored()  # as healthy as before, the same factor cards: what is in force stays
    state.log("arrange", eco.owner, action.ecology, action.roles)


def _use_bonus(state: EcologiesState, action: UseBonus) -> None:
    seat = state.seat
    effect = state.game.table.effects[action.source][action.effect]
    state.counters[(action.source, action.effect)] = state.own_turns[seat]
    state.log("bonus", seat, action.source, action.effect)
    effects.start(state, seat, seat, action.source, (effect,))


def _choose_player(state: EcologiesState, action: ChoosePlayer) -> None:
    _, controller, placer, source, effect = state.stack.pop()
    effects.WORDS[effect.action](state, controller, placer, source, effect, [action.seat])


def _choose_card(state: EcologiesState, action: ChooseCard) -> None:
    frame = state.stack.pop()
    kind = frame[0]
    if kind == "give":
        effects.give_and_take(state, frame[1], frame[2], action.card)
    elif kind == "destroy":
        if frame[6] > 1:
            state.stack.append(frame[:6] + (frame[6] - 1,))
        effects.destroy_card(state, action.card, frame[1])
    else:  # take
        if frame[5] > 1:
            state.stack.append(frame[:5] + (frame[5] - 1,))
        state.discard.remove(action.card)
        state.to_hand(frame[1], action.card, public=True)
        state.log("take", frame[1], action.card, "discard")


def _discard(state: EcologiesState, action: Discard) -> None:
    _, seat, count = state.stack.pop()
    if count > 1:
        state.stack.append(("discard", seat, count - 1))
    state.from_hand(seat, action.card)
    state.to_discard(action.card, seat, "discard")


def _buy_with(state: EcologiesState, action: BuyWith) -> None:
    seat = state.seat
    if state.stack:
        _, _, chosen = state.stack.pop()
    else:
        chosen = 0
    state.from_hand(seat, action.card)
    state.to_discard(action.card, seat, "buy")
    if chosen + 1 < BUY_COST:
        state.stack.append(("buy", seat, chosen + 1))
    else:
        state.log("buy", seat, -1, 1)
        state.draw_one(seat, "deck", "buy")


def _destroy_ecology(state: EcologiesState, action: DestroyEcology) -> None:
    seat = state.seat
    eco = state.ecos.pop(action.ecology)
    state.changed()
    for key in [k for k in state.counters if k[0] == eco.biome]:
        del state.counters[key]
    count = 1 + len(eco.cards)
    for card in (eco.biome,) + eco.cards + tuple(card for card, _ in eco.factors):
        state.to_discard(card, seat, "destroyed ecology")
    state.log("buy", seat, eco.biome, count // ECOLOGY_COST)
    for _ in range(count // ECOLOGY_COST):
        state.draw_one(seat, "deck", "buy")


def _end_phase(state: EcologiesState, action: EndPhase) -> None:
    if state.stack:  # no more free plays to feed a disturbed web: what still starves moves or goes
        _, owner, biome, waiting, _ = state.stack.pop()
        effects.relocate(state, owner, biome, waiting)
    elif state.phase == "trade":
        state.phase = "play"
    elif state.phase == "play":
        state.phase = "purchase"
    else:
        end_turn(state)


HANDLERS = {
    Draw: _draw, Offer: _offer, Accept: _accept, Decline: _decline, Play: _play, Move: _move,
    UseBonus: _use_bonus, ChoosePlayer: _choose_player, ChooseCard: _choose_card, Arrange: _arrange,
    Discard: _discard, BuyWith: _buy_with, DestroyEcology: _destroy_ecology, EndPhase: _end_phase,
}
